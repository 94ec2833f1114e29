package games_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/rng"
)

func TestLookupErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"chess", `unknown game "chess" (known: `},
		{"othello6:big", "othello6 takes no options"},
		{"", "empty name"},
	}
	for _, tt := range tests {
		_, err := games.Lookup(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Lookup(%q) error = %v, want one containing %q", tt.spec, err, tt.want)
		}
	}
	v, err := games.Lookup("othello6")
	if err != nil || v.String() != "othello6" || v.Game.Title == "" {
		t.Fatalf("Lookup(othello6) = %v, %v", v, err)
	}
}

func TestReplay(t *testing.T) {
	s, _ := games.New("othello6")
	tr, err := games.Replay("othello6", s.(games.State), []string{"e4", "e5", "d5"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Plies) != 3 || tr.Plies[0].Move != "e4" || strings.Join(tr.Plies[1].Legal, " ") != "c5 e3 e5" {
		t.Errorf("plies = %+v", tr.Plies)
	}
	f := tr.Final
	if f.ToMove != 1 || f.Terminal || f.Result != "*" || strings.Join(f.Legal, " ") != "c5 e3" {
		t.Errorf("final = %+v", f)
	}

	tests := []struct {
		moves   []string
		ply     int
		parse   bool
		message string
	}{
		{[]string{"e4", "f5"}, 2, false, `ply 2: illegal move "f5" (legal: c5 e3 e5)`},
		{[]string{"zz"}, 1, true, `ply 1: unreadable move "zz" (legal: b3 c2 d5 e4)`},
	}
	for _, tt := range tests {
		s, _ := games.New("othello6")
		_, err := games.Replay("othello6", s.(games.State), tt.moves)
		var ill *games.IllegalMoveError
		if !errors.As(err, &ill) || ill.Ply != tt.ply || (ill.Err != nil) != tt.parse || err.Error() != tt.message {
			t.Errorf("Replay(%v) error = %v, want %q", tt.moves, err, tt.message)
		}
	}
}

// FuzzReplay feeds arbitrary move lists to Replay: it must either accept them
// (and then every recorded move was legal and the final position consistent)
// or name the first bad ply, never panic.
func FuzzReplay(f *testing.F) {
	f.Add("e4 e5 d5")
	f.Add("b3 b2 d5 pass")
	f.Add("c2 x")
	f.Fuzz(func(t *testing.T, text string) {
		s, _ := games.New("othello6")
		st := s.(games.State)
		moves := strings.Fields(text)
		tr, err := games.Replay("othello6", st, moves)
		if err != nil {
			var ill *games.IllegalMoveError
			if !errors.As(err, &ill) || ill.Ply != len(tr.Plies)+1 || ill.Ply > len(moves) {
				t.Fatalf("error %v after %d good plies", err, len(tr.Plies))
			}
			return
		}
		if len(tr.Plies) != len(moves) || st.Ply() != len(moves) {
			t.Fatalf("replayed %d of %d moves", len(tr.Plies), len(moves))
		}
		if tr.Final.Terminal != (tr.Final.ToMove == games.None) || tr.Final.Terminal != (len(tr.Final.Legal) == 0) {
			t.Fatalf("inconsistent final position %+v", tr.Final)
		}
	})
}

func TestRandomPlayoutRestoresState(t *testing.T) {
	s, _ := games.New("othello6")
	st := s.(games.State)
	h := st.Hash()
	o := games.RandomPlayout(st, rng.New(5))
	if st.Hash() != h || st.Ply() != 0 {
		t.Error("RandomPlayout changed the state")
	}
	if o.Winner != games.Draw && o.Winner != 0 && o.Winner != 1 {
		t.Errorf("outcome %+v", o)
	}
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		o      games.Outcome
		result string
		p0, p1 float64
	}{
		{games.Outcome{Winner: 0, Score: 4}, "1-0", 1, 0},
		{games.Outcome{Winner: 1, Score: -4}, "0-1", 0, 1},
		{games.Outcome{Winner: games.Draw}, "1/2-1/2", 0.5, 0.5},
	}
	for _, tt := range tests {
		if tt.o.Result() != tt.result || tt.o.Points(0) != tt.p0 || tt.o.Points(1) != tt.p1 {
			t.Errorf("%+v: %s %v %v", tt.o, tt.o.Result(), tt.o.Points(0), tt.o.Points(1))
		}
	}
}

// TestMarginOutcome: the side ahead wins by its margin, a level game is a
// draw, and building the outcome allocates nothing (playouts call it).
func TestMarginOutcome(t *testing.T) {
	for _, tt := range []struct {
		margin int
		want   games.Outcome
	}{
		{4, games.Outcome{Winner: 0, Score: 4}},
		{1, games.Outcome{Winner: 0, Score: 1}},
		{0, games.Outcome{Winner: games.Draw}},
		{-1, games.Outcome{Winner: 1, Score: -1}},
		{-36, games.Outcome{Winner: 1, Score: -36}},
	} {
		if got := games.MarginOutcome(tt.margin); got != tt.want {
			t.Errorf("MarginOutcome(%d) = %+v, want %+v", tt.margin, got, tt.want)
		}
	}
	sink := 0
	if n := testing.AllocsPerRun(100, func() { sink += games.MarginOutcome(sink - 3).Winner }); n != 0 {
		t.Errorf("MarginOutcome: %v allocs per call", n)
	}
}

func Example() {
	// Resolve a game spec, play a move in the game's notation, list the replies.
	b, err := games.New("othello6")
	if err != nil {
		panic(err)
	}
	s := b.(games.State)
	m, err := games.ParseLegal(s, "c2")
	if err != nil {
		panic(err)
	}
	s.Play(m)
	fmt.Println(games.FormatMoves(s, s.LegalMoves(nil)))
	fmt.Println(games.Perft(s, 2))
	// Output:
	// b2 b4 d2
	// 14
}

func TestHelpersDoNotAllocate(t *testing.T) {
	b, _ := games.New("othello6")
	s := b.(games.State)
	r := rng.New(1)
	m := s.LegalMoves(nil)[0]
	if n := testing.AllocsPerRun(100, func() { games.IsLegal(s, m) }); n != 0 {
		t.Errorf("IsLegal: %v allocs per call", n)
	}
	// Through a wrapper that hides the fast playout, the generic loop runs.
	var w games.State = &struct{ games.State }{s}
	if n := testing.AllocsPerRun(100, func() { games.RandomPlayout(w, r) }); n != 0 {
		t.Errorf("generic RandomPlayout: %v allocs per call", n)
	}
}
