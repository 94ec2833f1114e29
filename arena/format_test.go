package arena

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/rng"
)

var (
	_ Format = (*Swiss)(nil)
	_ Format = (*Knockout)(nil)
)

// randomWinner decides a game from its own seed: the same game always
// ends the same way, whenever it is played.
func randomWinner(g FormatGame) int { return rng.New(g.Seed).IntN(3) - 1 }

// favourite: the agent with the lower index always wins.
func favourite(g FormatGame) int {
	if g.Seats[0] < g.Seats[1] {
		return 0
	}
	return 1
}

// runFormat plays f to its end as a runner would: it starts every planned
// game not yet running and finishes them one at a time in an order drawn
// from r (so that games of one round finish out of order), with the
// winners outcome gives. It checks that a game's plan never changes while
// it runs and that each key and index is planned once.
func runFormat(t *testing.T, f Format, outcome func(FormatGame) int, r *rng.Rand) []FormatResult {
	t.Helper()
	var finished []FormatResult
	running := map[formatKey]FormatGame{}
	done := map[formatKey]bool{}
	indices := map[int]formatKey{}
	for step := 0; ; step++ {
		games, over, err := f.Plan(finished)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if over {
			if len(games) != 0 || len(running) != 0 {
				t.Fatalf("done with %d games planned and %d running", len(games), len(running))
			}
			return finished
		}
		for _, g := range games {
			k := formatKey{g.Round, g.Board, g.Game}
			if done[k] {
				t.Fatalf("finished game %+v planned again", k)
			}
			if old, ok := running[k]; ok {
				if old != g {
					t.Fatalf("game %+v changed while running: %+v, then %+v", k, old, g)
				}
				continue
			}
			if other, ok := indices[g.Index]; ok && other != k {
				t.Fatalf("index %d of games %+v and %+v", g.Index, other, k)
			}
			indices[g.Index] = k
			running[k] = g
		}
		if len(running) == 0 {
			t.Fatalf("step %d: nothing to play and not done", step)
		}
		keys := make([]formatKey, 0, len(running))
		for k := range running {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b formatKey) int {
			return a.round*1e8 + a.board*1e4 + a.game - (b.round*1e8 + b.board*1e4 + b.game)
		})
		k := keys[r.IntN(len(keys))]
		g := running[k]
		delete(running, k)
		done[k] = true
		finished = append(finished, FormatResult{Round: g.Round, Board: g.Board, Game: g.Game, Seats: g.Seats, Winner: outcome(g)})
	}
}

// checkGames checks the games' seeds and seats: seeds from (seed, round,
// board, game), pairs colour-swapped, pair k started by the board's
// Agents[k%2].
func checkGames(t *testing.T, seed uint64, games []FormatGame) {
	t.Helper()
	byKey := map[formatKey]FormatGame{}
	for _, g := range games {
		byKey[formatKey{g.Round, g.Board, g.Game}] = g
		if g.Seed != rng.Derive(seed, streamFormatGame, uint64(g.Round), uint64(g.Board), uint64(g.Game)) ||
			g.Agents[1] != rng.Derive(seed, streamFormatAgent, uint64(g.Round), uint64(g.Board), uint64(g.Game), 1) {
			t.Fatalf("game %+v: seeds not derived from (seed, round, board, game)", g)
		}
	}
	for k, g := range byKey {
		if k.game%2 == 1 {
			first := byKey[formatKey{k.round, k.board, k.game - 1}]
			if first.Seats != [2]int{g.Seats[1], g.Seats[0]} || first.Opening != g.Opening {
				t.Fatalf("games %d and %d of board %d of round %d are not a colour-swapped pair: %v %v", k.game-1, k.game, k.board, k.round, first.Seats, g.Seats)
			}
		}
		if k.game >= 2 {
			prev := byKey[formatKey{k.round, k.board, k.game - 2}]
			if prev.Seats != [2]int{g.Seats[1], g.Seats[0]} {
				t.Fatalf("board %d of round %d: pairs %d and %d have the same starter", k.board, k.round, k.game/2-1, k.game/2)
			}
		}
	}
}

// planned replays a run and returns every game it planned.
func planned(t *testing.T, f Format, finished []FormatResult) []FormatGame {
	t.Helper()
	var out []FormatGame
	seen := map[formatKey]bool{}
	for i := 0; i <= len(finished); i++ {
		games, _, err := f.Plan(finished[:i])
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if k := (formatKey{g.Round, g.Board, g.Game}); !seen[k] {
				seen[k] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// TestSwissPlan runs Swiss tournaments through Plan: every round's games,
// dense indices, openings shared by a round, seeds from (seed, round,
// board, game), and the same games and standings whatever the order in
// which games finish.
func TestSwissPlan(t *testing.T) {
	for _, tc := range []struct{ n, rounds, games int }{{2, 1, 2}, {3, 3, 2}, {5, 4, 4}, {8, 3, 2}, {13, 5, 6}} {
		mk := func(seed uint64) *Swiss {
			return &Swiss{Agents: tc.n, Rounds: tc.rounds, GamesPerBoard: tc.games, Seed: seed}
		}
		s := mk(5)
		finished := runFormat(t, s, randomWinner, rng.New(1))
		total := tc.rounds * (tc.n / 2) * tc.games
		if len(finished) != total {
			t.Fatalf("%d agents: %d games, want %d", tc.n, len(finished), total)
		}
		games := planned(t, s, finished)
		checkGames(t, 5, games)
		for _, g := range games {
			if g.Index < 0 || g.Index >= total {
				t.Errorf("index %d of %d games", g.Index, total)
			}
			if g.Opening != g.Round*tc.games/2+g.Game/2 {
				t.Errorf("game %+v: opening %d", g, g.Opening)
			}
		}
		hist, err := s.History(finished)
		if err != nil || len(hist) != tc.rounds {
			t.Fatalf("history of %d rounds, %v", len(hist), err)
		}
		want, err := s.Standings(hist)
		if err != nil {
			t.Fatal(err)
		}
		// Another order of finishing, on a fresh Swiss: the same games.
		again := runFormat(t, mk(5), randomWinner, rng.New(2))
		slices.SortFunc(again, func(a, b FormatResult) int {
			return a.Round*1e8 + a.Board*1e4 + a.Game - (b.Round*1e8 + b.Board*1e4 + b.Game)
		})
		sorted := slices.Clone(finished)
		slices.SortFunc(sorted, func(a, b FormatResult) int {
			return a.Round*1e8 + a.Board*1e4 + a.Game - (b.Round*1e8 + b.Board*1e4 + b.Game)
		})
		if !slices.Equal(again, sorted) {
			t.Errorf("%d agents: the games depend on the order in which they finished", tc.n)
		}
		hist2, _ := mk(5).History(again)
		if got, _ := mk(5).Standings(hist2); !slices.Equal(got, want) {
			t.Errorf("%d agents: standings %v, then %v", tc.n, want, got)
		}
		// Another seed: other game seeds.
		other := planned(t, mk(6), runFormat(t, mk(6), randomWinner, rng.New(1)))
		if other[0].Seed == games[0].Seed {
			t.Errorf("seeds 5 and 6 give game seed %d", other[0].Seed)
		}
	}
}

// TestSwissStandings: Buchholz then Sonneborn-Berger, worked by hand.
func TestSwissStandings(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		hist []SwissRound
		want []SwissStanding
	}{{
		// Scores 0: 1+2, 1: 2+1, 3: 0+2, 2: 0+0 (half-points 4+2 ...).
		// 0 and 1 have 3 points; 1 met 3 (2) and 0 (3): Buchholz 5; 0 met
		// 2 (0) and 1: Buchholz 3. 1 ranks first though seeded second.
		name: "Buchholz",
		n:    4,
		hist: []SwissRound{
			{Boards: []Board{{[2]int{0, 2}}, {[2]int{3, 1}}}, Bye: -1, Points: [][2]int{{4, 0}, {0, 4}}},
			{Boards: []Board{{[2]int{1, 0}}, {[2]int{3, 2}}}, Bye: -1, Points: [][2]int{{2, 2}, {4, 0}}},
		},
		want: []SwissStanding{
			{Agent: 1, Score: 3, Buchholz: 5, SonnebornBerger: 2*1 + 3*0.5, Starts: 1, Seconds: 1},
			{Agent: 0, Score: 3, Buchholz: 3, SonnebornBerger: 0*1 + 3*0.5, Starts: 1, Seconds: 1},
			{Agent: 3, Score: 2, Buchholz: 3, SonnebornBerger: 0, Starts: 2},
			{Agent: 2, Score: 0, Buchholz: 5, SonnebornBerger: 0, Seconds: 2},
		},
	}, {
		// Final scores 0: ½, 1: 1½, 2: 3½, 3: 2½, 4: 2½, 5: 1½. 3 and 4
		// have 2½ points and Buchholz 2 (3 met 0 and 5, 4 met 1 and 0);
		// 4 took half of its board against 1 (1½) and ¾ of its board
		// against 0 (½): 1.125; 3 took all of its board against 0 and ¼
		// of its board against 5: 0.875. So 4 ranks above 3; 1 and 5 (1½,
		// Buchholz 6) keep their seed order on it (2.125 and 1.875).
		name: "Sonneborn-Berger",
		n:    6,
		hist: []SwissRound{
			{Boards: []Board{{[2]int{0, 3}}, {[2]int{1, 4}}, {[2]int{2, 5}}}, Bye: -1, Points: [][2]int{{0, 4}, {2, 2}, {4, 0}}},
			{Boards: []Board{{[2]int{0, 4}}, {[2]int{3, 5}}, {[2]int{1, 2}}}, Bye: -1, Points: [][2]int{{1, 3}, {1, 3}, {1, 3}}},
		},
		want: []SwissStanding{
			{Agent: 2, Score: 3.5, Buchholz: 3, SonnebornBerger: 1.5*1 + 1.5*0.75, Starts: 1, Seconds: 1},
			{Agent: 4, Score: 2.5, Buchholz: 2, SonnebornBerger: 1.5*0.5 + 0.5*0.75, Seconds: 2},
			{Agent: 3, Score: 2.5, Buchholz: 2, SonnebornBerger: 0.5*1 + 1.5*0.25, Starts: 1, Seconds: 1},
			{Agent: 1, Score: 1.5, Buchholz: 6, SonnebornBerger: 2.5*0.5 + 3.5*0.25, Starts: 2},
			{Agent: 5, Score: 1.5, Buchholz: 6, SonnebornBerger: 3.5*0 + 2.5*0.75, Seconds: 2},
			{Agent: 0, Score: 0.5, Buchholz: 5, SonnebornBerger: 2.5*0 + 2.5*0.25, Starts: 2},
		},
	}, {
		// A bye scored as a won board (2 points for two games) adds
		// nothing to Buchholz or Sonneborn-Berger.
		name: "bye",
		n:    3,
		hist: []SwissRound{{Boards: []Board{{[2]int{0, 1}}}, Bye: 2, Points: [][2]int{{3, 1}}}},
		want: []SwissStanding{
			{Agent: 2, Score: 2, Bye: true},
			{Agent: 0, Score: 1.5, Buchholz: 0.5, SonnebornBerger: 0.5 * 0.75, Starts: 1},
			{Agent: 1, Score: 0.5, Buchholz: 1.5, SonnebornBerger: 1.5 * 0.25, Seconds: 1},
		},
	}} {
		s := &Swiss{Agents: tc.n, Rounds: len(tc.hist), GamesPerBoard: 2}
		got, err := s.Standings(tc.hist)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}

// TestSwissByeScores: a bye earns the board's points, half or none.
func TestSwissByeScores(t *testing.T) {
	hist := []SwissRound{{Boards: []Board{{[2]int{0, 1}}}, Bye: 2, Points: [][2]int{{2, 2}}}}
	for bye, want := range map[ByeScore]float64{ByeWin: 2, ByeDraw: 1, ByeLoss: 0} {
		s := &Swiss{Agents: 3, Rounds: 3, GamesPerBoard: 2, Bye: bye}
		st, err := s.Standings(hist)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range st {
			if line.Agent == 2 && line.Score != want {
				t.Errorf("bye %d scores %v, want %v", bye, line.Score, want)
			}
		}
	}
}

// TestFormatErrors: a result that no plan holds, twice, or with other
// agents is refused; options are refused in their names.
func TestFormatErrors(t *testing.T) {
	s := &Swiss{Agents: 4, Rounds: 2, GamesPerBoard: 2, Seed: seedWithInitial(1)}
	ok := FormatResult{Round: 0, Board: 0, Game: 0, Seats: [2]int{0, 2}, Winner: 0}
	for _, tc := range []struct {
		finished []FormatResult
		want     string
	}{
		{[]FormatResult{ok, ok}, "reported twice"},
		{[]FormatResult{{Round: 0, Board: 0, Game: 0, Seats: [2]int{2, 0}}}, "was played by agents [2 0], planned [0 2]"},
		{[]FormatResult{{Round: 0, Board: 0, Game: 2, Seats: [2]int{0, 2}}}, "not a planned game"},
		{[]FormatResult{{Round: 1, Board: 0, Game: 0, Seats: [2]int{0, 1}}}, "not a planned game"},
		{[]FormatResult{{Round: 0, Board: 0, Game: 0, Seats: [2]int{0, 2}, Winner: 2}}, "winner 2"},
	} {
		_, _, err := s.Plan(tc.finished)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.finished, err, tc.want)
		}
	}
	for _, tc := range []struct {
		f    Format
		name string
	}{
		{&Swiss{Agents: 1, Rounds: 1, GamesPerBoard: 2}, "Agents"},
		{&Swiss{Agents: 4, Rounds: 4, GamesPerBoard: 2}, "Rounds"},
		{&Swiss{Agents: 5, Rounds: 0, GamesPerBoard: 2}, "Rounds"},
		{&Swiss{Agents: 4, Rounds: 1, GamesPerBoard: 3}, "GamesPerBoard"},
		{&Swiss{Agents: 4, Rounds: 1, GamesPerBoard: 2, Seeding: []int{0, 1, 2, 2}}, "Seeding"},
		{&Swiss{Agents: 4, Rounds: 1, GamesPerBoard: 2, Bye: 3}, "Bye"},
		{&Knockout{Agents: 1, GamesPerMatch: 2}, "Agents"},
		{&Knockout{Agents: 2, GamesPerMatch: 0}, "GamesPerMatch"},
		{&Knockout{Agents: 2, GamesPerMatch: 2, ExtraPairs: -1}, "ExtraPairs"},
		{&Knockout{Agents: 3, GamesPerMatch: 2, Seeding: []int{0, 1}}, "Seeding"},
	} {
		_, _, err := tc.f.Plan(nil)
		var oe *option.Error
		if !errors.As(err, &oe) || oe.Name != tc.name {
			t.Errorf("%+v: error %v, want one naming %s", tc.f, err, tc.name)
		}
	}
	// Five agents can play five rounds (a bye each).
	if err := (&Swiss{Agents: 5, Rounds: 5, GamesPerBoard: 2}).Check(); err != nil {
		t.Error(err)
	}
}

// TestFormatsResume: a format rebuilt from a prefix of the recorded games
// (a resumed run: a fresh value, nothing remembered) plans exactly what
// the one that ran plans.
func TestFormatsResume(t *testing.T) {
	for _, mk := range []func() Format{
		func() Format { return &Swiss{Agents: 9, Rounds: 4, GamesPerBoard: 4, Seed: 3} },
		func() Format { return &Knockout{Agents: 11, GamesPerMatch: 2, ExtraPairs: 2, Seed: 3} },
	} {
		f := mk()
		finished := runFormat(t, f, randomWinner, rng.New(4))
		for k := 0; k <= len(finished); k += 1 + k/4 {
			want, wantDone, err := f.Plan(finished[:k])
			if err != nil {
				t.Fatal(err)
			}
			got, done, err := mk().Plan(finished[:k])
			if err != nil || !slices.Equal(got, want) || done != wantDone {
				t.Fatalf("%T after %d games: resumed plan %v %v (%v), ran %v %v", f, k, got, done, err, want, wantDone)
			}
		}
	}
}

// TestFormatsConcurrent: Plan from several goroutines at once (go test
// -race); every answer the same.
func TestFormatsConcurrent(t *testing.T) {
	for _, mk := range []func() Format{
		func() Format { return &Swiss{Agents: 12, Rounds: 3, GamesPerBoard: 2, Seed: 8} },
		func() Format { return &Knockout{Agents: 6, GamesPerMatch: 2, ExtraPairs: 1, Seed: 8} },
	} {
		finished := runFormat(t, mk(), randomWinner, rng.New(8))
		f := mk()
		k := len(finished) / 2
		want, _, _ := mk().Plan(finished[:k])
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				got, _, err := f.Plan(finished[:k])
				if err == nil && !slices.Equal(got, want) {
					err = errors.New("a different plan")
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("%T: %v", f, err)
			}
		}
	}
}
