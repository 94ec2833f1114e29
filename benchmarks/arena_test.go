package benchmarks

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
)

// The arena benchmarks measure the harness on its worst case: random agents
// on othello6, whose games take a few microseconds, so that every cost of
// the arena shows; greedy agents (one ply of search) and
// alphabeta:depth=2,tt=1 show cheap but real agents (the arena calls
// alphabeta's NewGame, which clears its table, before every game; the plain
// loop does not). One op is one game.
//
//	go test ./benchmarks -run '^$' -bench 'Arena' -benchtime 327680x
//
// BenchmarkArenaPlainLoop plays the same games (same seeds, same openings)
// in a bare loop: agent asked, move played, nothing checked, timed or
// recorded, and one state taken back to the start for every game (no
// allocation: the strictest baseline). BenchmarkArenaPlainLoopNewState
// builds each game's state with the game's constructor instead, as a
// simple loop would; BenchmarkArenaPlainLoopChecked adds the legality check
// any referee needs. BenchmarkArenaTournament runs them through
// arena.Tournament.Run with 1 and 2 workers, with and without writing the
// record file: scheduling, seeding, the watchdog, per-move timing and
// limits, legality and position checks, move notation, JSON records and
// one write per batch of finished games.

// benchGames is the size of the benchmark tournament, played as many times
// as b.N needs: a realistic tournament, whose schedule and openings (live
// heap the garbage collector scans) do not grow with b.N.
const benchGames = 1 << 14

// arenaBench is the benchmark tournament: two agents of one kind, up to
// benchGames games.
func arenaBench(b *testing.B, kind string, n int) *arena.Tournament {
	b.Helper()
	n = min(n, benchGames)
	t, err := arena.New(arena.Options{Game: "othello6", Agents: []string{kind, kind}, GamesPerPair: max(2, n+n%2), Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// plainLoop says how the plain loop plays: check moves, new state per game.
type plainLoop struct{ checked, newState bool }

func benchPlainLoop(b *testing.B, how plainLoop) {
	for _, kind := range []string{"random", "greedy", "alphabeta:depth=2,tt=1"} {
		b.Run(kind, func(b *testing.B) { benchPlainLoopOn(b, kind, how, 1) })
	}
}

// benchPlainLoopOn plays the games on the given number of goroutines, each
// taking every workers-th game: the machine's own scaling, as a control
// for the arena's (the CPU is shared).
func benchPlainLoopOn(b *testing.B, kind string, how plainLoop, workers int) {
	t := arenaBench(b, kind, b.N)
	v := t.Variant
	// Parse the openings beforehand: a plain loop would have them ready.
	openings := make([][]games.Move, t.Config.GamesPerPair/2)
	for r := range openings {
		s := v.New().(games.State)
		for _, text := range t.Opening(r).Texts {
			m, err := s.ParseMove(text)
			if err != nil {
				b.Fatal(err)
			}
			openings[r] = append(openings[r], m)
			s.Play(m)
		}
	}
	plies := make([]int, workers)
	b.ResetTimer()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			plies[w] = plainGames(b, t, kind, openings, how, w, workers)
		}()
	}
	wg.Wait()
	b.StopTimer()
	total := 0
	for _, p := range plies {
		total += p
	}
	b.ReportMetric(float64(total)/float64(b.N), "plies/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// plainGames plays fixtures w, w+workers, … of t in a bare loop and
// returns the plies played.
func plainGames(b *testing.B, t *arena.Tournament, kind string, openings [][]games.Move, how plainLoop, w, workers int) int {
	v := t.Variant
	var players [2]agents.Agent
	for i := range players {
		a, err := agents.New(kind, 0)
		if err != nil {
			b.Error(err)
			return 0
		}
		players[i] = a
	}
	ctx := context.Background()
	var buf []games.Move
	s := v.New().(games.State)
	plies := 0
	for i := w; i < b.N; i += workers {
		f := t.Schedule.At(i % t.Schedule.Len())
		var seats [2]agents.Agent
		for p := range seats {
			seats[p] = players[f.Seats[p]]
			if sd, ok := seats[p].(agents.Seeder); ok {
				sd.Seed(f.Agents[p])
			}
		}
		if how.newState {
			s = v.New().(games.State)
		}
		for s.Ply() > 0 {
			s.Undo()
		}
		for _, m := range openings[f.Round] {
			s.Play(m)
		}
		for !s.Terminal() {
			p := s.ToMove()
			m, err := seats[p].Move(ctx, s, p)
			if err != nil {
				b.Error(err)
				return plies
			}
			if how.checked {
				buf = s.LegalMoves(buf[:0])
				legal := false
				for _, l := range buf {
					legal = legal || l == m
				}
				if !legal {
					b.Error("illegal move")
					return plies
				}
			}
			s.Play(m)
			plies++
		}
	}
	return plies
}

func BenchmarkArenaPlainLoop(b *testing.B)         { benchPlainLoop(b, plainLoop{}) }
func BenchmarkArenaPlainLoopNewState(b *testing.B) { benchPlainLoop(b, plainLoop{newState: true}) }
func BenchmarkArenaPlainLoopChecked(b *testing.B)  { benchPlainLoop(b, plainLoop{checked: true}) }
func BenchmarkArenaPlainLoop2Threads(b *testing.B) { benchPlainLoopOn(b, "random", plainLoop{}, 2) }

func BenchmarkArenaTournament(b *testing.B) {
	for _, bc := range []struct {
		name    string
		kind    string
		workers int
		record  bool
	}{
		{"random/workers=1", "random", 1, false},
		{"random/workers=2", "random", 2, false},
		{"random/workers=1/record", "random", 1, true},
		{"random/workers=2/record", "random", 2, true},
		{"greedy/workers=1/record", "greedy", 1, true},
		{"greedy/workers=2/record", "greedy", 2, true},
		{"alphabeta/workers=1/record", "alphabeta:depth=2,tt=1", 1, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			t := arenaBench(b, bc.kind, b.N)
			var sink func([]*results.GameRecord) error
			if bc.record {
				w, err := results.Create(filepath.Join(b.TempDir(), "run.jsonl"), results.Header{Concurrency: bc.workers, Config: t.Config})
				if err != nil {
					b.Fatal(err)
				}
				defer w.Close()
				sink = func(batch []*results.GameRecord) error { return w.WriteGames(batch...) }
			}
			b.ResetTimer()
			played := 0
			for played < b.N {
				// ReuseGames as the arena command sets it: its sinks copy
				// what they keep.
				st, err := t.Run(context.Background(), arena.RunOptions{Concurrency: bc.workers, Sink: sink, ReuseGames: true})
				if err != nil || !st.Complete {
					b.Fatalf("%v %+v", err, st)
				}
				played += st.Played
			}
			b.StopTimer()
			// One op is one game: report per game played (b.N, or up to
			// a tournament more).
			b.ReportMetric(float64(played)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
