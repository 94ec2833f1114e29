package benchmarks

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// writeRecords writes a record file of a round robin of players "p0"…:
// games games with realistic fields (othello-like plies, 20 to 60 of
// them, seeds, times, node counts), results drawn from a 20-Elo ladder by
// player index, a draw in five, a timeout in fifty; games 2r and 2r+1 are
// a pair with colours swapped. Every value flows from seed.
func writeRecords(w io.Writer, games, players int, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	h := results.Header{Record: results.KindHeader, Version: results.FormatVersion, Created: "2026-11-24T00:00:00Z", Concurrency: 2,
		Config: results.Config{Kind: results.RoundRobin, Game: "othello6", GamesPerPair: 2, Seed: seed, Openings: "random:2", MaxPlies: 200, TotalGames: games}}
	for p := 0; p < players; p++ {
		h.Config.Agents = append(h.Config.Agents, results.AgentInfo{Name: fmt.Sprintf("p%d", p), Spec: fmt.Sprintf("random:name=p%d", p)})
	}
	line, err := results.MarshalLine(h)
	if err != nil {
		return err
	}
	bw.Write(line)
	var g results.GameRecord
	var moves [60]string
	var buf []byte
	var a, b int
	for i := 0; i < games; i++ {
		r := rng.New(rng.Derive(seed, uint64(i)))
		if i%2 == 0 {
			a = r.IntN(players)
			b = (a + 1 + r.IntN(players-1)) % players
		} else {
			a, b = b, a
		}
		plies := 20 + r.IntN(41)
		for k := range plies {
			moves[k] = string(rune('a'+r.IntN(6))) + string(rune('1'+r.IntN(6)))
		}
		g = results.GameRecord{Record: results.KindGame, Index: i, Pair: i / 2, Game: "othello6", Seed: r.Uint64(),
			Moves: moves[:plies], Opening: moves[:2], Plies: plies, Termination: results.Normal, Forfeit: -1,
			DurationMS: float64(r.IntN(100000)) / 1000}
		for s, p := range [2]int{a, b} {
			g.Players[s] = results.Player{Agent: p, Name: h.Config.Agents[p].Name, Spec: h.Config.Agents[p].Spec, Seed: r.Uint64(),
				Moves: (plies - 2 + 1 - s) / 2, TimeMS: float64(r.IntN(50000)) / 1000, MaxMoveMS: float64(r.IntN(1000)) / 1000, Nodes: int64(r.IntN(100000))}
		}
		u, pa := r.Float64(), 1/(1+math.Pow(10, -float64(a-b)*20/400))
		switch {
		case u < 0.2:
			g.Winner, g.Result = -1, "1/2-1/2"
		case u < 0.2+0.8*pa:
			g.Winner, g.Result = 0, "1-0"
		default:
			g.Winner, g.Result = 1, "0-1"
		}
		if g.Winner >= 0 && r.IntN(50) == 0 {
			g.Termination, g.Forfeit = results.Timeout, 1-g.Winner
		}
		buf = results.AppendGame(buf[:0], &g)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// recordFile writes a record file of games games of players players in
// dir, once per benchmark run.
func recordFile(b *testing.B, games, players int) string {
	path := filepath.Join(b.TempDir(), "records.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := writeRecords(f, games, players, 1); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkReadRecords reads 200 000 games of 20 players: streaming
// counts (results.Tally, what arena rate uses) against reading the games
// whole and merging them (results.ReadFile, what rate did before, and
// what --export and the HTML report still do). Reports games/s and the
// heap bytes still in use after the read (what a rate keeps).
func BenchmarkReadRecords(b *testing.B) {
	const games, players = 200_000, 20
	path := recordFile(b, games, players)
	run := func(b *testing.B, read func() any) {
		var kept any
		b.ReportAllocs()
		for b.Loop() {
			kept = read()
		}
		b.ReportMetric(float64(games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapInuse), "heap-bytes")
		runtime.KeepAlive(kept)
	}
	b.Run("tally", func(b *testing.B) {
		run(b, func() any {
			t := results.NewTally()
			if _, err := t.ReadFile(path); err != nil {
				b.Fatal(err)
			}
			return t
		})
	})
	b.Run("whole", func(b *testing.B) {
		run(b, func() any {
			f, err := results.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			d, err := results.Merge(f)
			if err != nil {
				b.Fatal(err)
			}
			return d
		})
	})
}

// BenchmarkRateCounts is the ratings of 100 players from counts
// (results.RateCounts): the maximum-likelihood fit and 100 bootstrap
// resamples, for 100 000 and 10 million games with the same shares; the
// cost should barely depend on the games.
func BenchmarkRateCounts(b *testing.B) {
	const players = 100
	for _, games := range []int{100_000, 10_000_000} {
		b.Run(strconv.Itoa(games), func(b *testing.B) {
			seated := make([][]results.WDL, players)
			r := rng.New(3)
			per := games / (players * (players - 1))
			for a := range seated {
				seated[a] = make([]results.WDL, players)
				for o := range seated[a] {
					if a == o {
						continue
					}
					pa := 1 / (1 + math.Pow(10, -float64(a-o)*20/400))
					for range per {
						u := r.Float64()
						switch {
						case u < 0.2:
							seated[a][o].Draws++
						case u < 0.2+0.8*pa:
							seated[a][o].Wins++
						default:
							seated[a][o].Losses++
						}
					}
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := results.RateCounts(seated, results.FitOptions{Anchor: -1}, results.BootstrapOptions{Replicates: 100, Seed: 1, Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestWriteRecords writes a synthetic record file for measuring arena rate
// at scale, when ARENA_WRITE_RECORDS=PATH:GAMES:PLAYERS is set (the file
// must not exist); otherwise it checks a small one reads back.
//
//	ARENA_WRITE_RECORDS=/tmp/10m.jsonl:10000000:100 go test ./benchmarks -run TestWriteRecords
func TestWriteRecords(t *testing.T) {
	spec := os.Getenv("ARENA_WRITE_RECORDS")
	path, games, players := filepath.Join(t.TempDir(), "small.jsonl"), 1000, 10
	if spec != "" {
		parts := strings.Split(spec, ":")
		var err1, err2 error
		if len(parts) == 3 {
			path = parts[0]
			games, err1 = strconv.Atoi(parts[1])
			players, err2 = strconv.Atoi(parts[2])
		}
		if len(parts) != 3 || err1 != nil || err2 != nil || games < 0 || games > 1e9 || players < 2 || players > results.MaxPlayers {
			t.Fatalf("ARENA_WRITE_RECORDS=%q: want PATH:GAMES:PLAYERS, 0 to 1e9 games of 2 to %d players", spec, results.MaxPlayers)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeRecords(f, games, players, 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if spec != "" {
		return
	}
	read, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(read.Games) != games || read.Games[1].Players[0].Name != read.Games[0].Players[1].Name {
		t.Errorf("%d games read back; pair 0 %v then %v", len(read.Games), read.Games[0].Players, read.Games[1].Players)
	}
}
