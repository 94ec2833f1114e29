package results

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// randomGame builds a record with awkward content: quotes, backslashes,
// HTML characters, control characters, non-ASCII and invalid UTF-8 in the
// strings, extreme numbers.
func randomGame(r *rng.Rand) *GameRecord {
	pieces := []string{"c3", "MOVE 3 7 2;SPAWN 4 5 9", `say "hi"`, `back\slash`, "<&>", "tab\there", "é ü", "\xff\xfe", "", "pass", "a | b"}
	str := func() string {
		var b strings.Builder
		for range r.IntN(3) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	list := func() []string {
		out := []string{}
		for range r.IntN(5) {
			out = append(out, str())
		}
		return out
	}
	f := func() float64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return r.Float64() * 1e-7
		case 2:
			return math.Round(r.Float64()*1e6) / 1e3
		}
		return r.Float64() * 1e12
	}
	g := &GameRecord{Record: KindGame, Index: r.IntN(1 << 30), Pair: r.IntN(100), Round: r.IntN(1000), Game: str(), Variant: str(),
		Seed: r.Uint64(), Opening: list(), Moves: list(), Result: str(), Winner: r.IntN(3) - 1, Score: r.IntN(200) - 100,
		Termination: str(), Forfeit: r.IntN(4) - 1, Detail: str(), Trimmed: r.IntN(2) * r.IntN(1<<20), Adjudicated: str(), Plies: r.IntN(300), DurationMS: f(), Worker: str(),
		TCScale: f(), WorkerNPS: f()}
	for p := range g.Players {
		g.Players[p] = Player{Agent: r.IntN(10), Name: str(), Spec: str(), Seed: r.Uint64(), Moves: r.IntN(200), TimeMS: f(), MaxMoveMS: f(), Nodes: int64(r.Uint64() >> 1), TC: str()}
	}
	for range r.IntN(4) {
		g.Clocks = append(g.Clocks, [2]float64{f(), -f()})
	}
	for range r.IntN(4) {
		g.MoveStats = append(g.MoveStats, MoveStat{Player: r.IntN(2), MS: f(), Depth: r.IntN(3) * r.IntN(100), Score: r.IntN(3) - 1, Nodes: int64(r.IntN(2)) * int64(r.Uint64()>>1), Info: str()})
	}
	return g
}

// TestAppendGameMatchesEncodingJSON: the hand-written encoder writes
// exactly what encoding/json writes, and it reads back as the record.
func TestAppendGameMatchesEncodingJSON(t *testing.T) {
	r := rng.New(5)
	for i := 0; i < 3000; i++ {
		g := randomGame(r)
		fast := AppendGame(nil, g)
		slow, err := MarshalLine(g)
		if err != nil {
			t.Fatal(err)
		}
		var a, b GameRecord
		if err := strictUnmarshal(fast, &a); err != nil {
			t.Fatalf("record %d: %v\n%s", i, err, fast)
		}
		if err := json.Unmarshal(slow, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) || string(fast) != string(slow) {
			t.Fatalf("record %d differs:\n%s%s", i, fast, slow)
		}
		if fast[len(fast)-1] != '\n' || strings.Count(string(fast), "\n") != 1 {
			t.Fatalf("record %d is not one line: %q", i, fast)
		}
	}
	g := &GameRecord{Record: KindGame, Game: "othello6", Moves: []string{"c2", "b2"}, Opening: []string{"c2"}, Result: "1-0", Termination: Normal, Forfeit: -1, Plies: 2, DurationMS: 0.125,
		Players: [2]Player{{Name: "random", Spec: "random", TimeMS: 0.0015}, {Agent: 1, Name: "greedy", Spec: "greedy", Nodes: 12}}}
	slow, _ := MarshalLine(g)
	if fast := AppendGame(nil, g); string(fast) != string(slow) {
		t.Errorf("plain record:\n%s%s", fast, slow)
	}
}

func BenchmarkEncodeGame(b *testing.B) {
	g := &GameRecord{Record: KindGame, Game: "othello6", Result: "1-0", Termination: Normal, Forfeit: -1, DurationMS: 0.0123,
		Players: [2]Player{{Name: "random", Spec: "random", Seed: 1 << 60, TimeMS: 0.0015}, {Agent: 1, Name: "greedy", Spec: "greedy", Seed: 99}}}
	for i := 0; i < 32; i++ {
		g.Moves = append(g.Moves, fmt.Sprintf("%c%d", 'a'+i%6, 1+i%6))
	}
	g.Opening, g.Plies = g.Moves[:2], 32
	b.Run("AppendGame", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf = AppendGame(buf[:0], g)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			MarshalLine(g)
		}
	})
}
