package accuracy

import (
	"context"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// testOptions settle positions by nodes, with a time cap far above what
// the tests' positions need (so a slow machine gives the same values).
var testOptions = Options{Budget: time.Minute, Nodes: 2_000_000, Concurrency: 2, Bootstrap: 100, Seed: 1}

// minimax is the value of s from player p's view by plain minimax, with
// terminal values from terminal (first player's view).
func minimax(s games.State, p int, terminal func(games.State) int) int {
	if s.Terminal() {
		v := terminal(s)
		if p == 1 {
			v = -v
		}
		return v
	}
	best := 0
	first := true
	for _, m := range s.LegalMoves(nil) {
		s.Play(m)
		v := minimax(s, p, terminal)
		s.Undo()
		if first || (s.ToMove() == p) == (v > best) {
			best, first = v, false
		}
	}
	return best
}

// terminals are the games' solved-value conventions of a finished game,
// from the first player's view, written out independently of the solvers.
var terminals = map[string]func(games.State) int{
	"othello6": func(s games.State) int {
		o := s.Outcome()
		e := s.(games.EmptiesCounter).Empties()
		switch {
		case o.Score > 0:
			return o.Score + e
		case o.Score < 0:
			return o.Score - e
		}
		return 0
	},
	"erdos": func(s games.State) int { return s.Outcome().Score },
	"pyrga": func(s games.State) int { return s.Outcome().Score },
}

// randomGame plays seeded random moves from the start of game until at most
// empties cells are left (or the game ends), then to the end, and returns
// the record; the moves before the cut are its opening.
func randomGame(t testing.TB, game string, seed uint64, empties int) *results.GameRecord {
	t.Helper()
	v, err := games.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	s := v.New().(games.State)
	r := rng.New(seed)
	g := &results.GameRecord{Game: game, Index: int(seed), Players: [2]results.Player{{Name: "a"}, {Name: "b"}}}
	for !s.Terminal() {
		if s.(games.EmptiesCounter).Empties() > empties {
			g.Opening = append(g.Opening, "")
		}
		ms := s.LegalMoves(nil)
		m := ms[r.IntN(len(ms))]
		g.Moves = append(g.Moves, s.FormatMove(m))
		if len(g.Opening) == len(g.Moves) {
			g.Opening[len(g.Opening)-1] = g.Moves[len(g.Moves)-1]
		}
		s.Play(m)
	}
	return g
}

// TestMinimax: every legal move's value, the position's value and the
// loss of the move played are plain minimax's, on small positions of
// each supported game.
func TestMinimax(t *testing.T) {
	cases := []struct {
		game    string
		empties int
		games   int
	}{{"othello6", 8, 12}, {"erdos", 7, 8}, {"pyrga", 6, 8}}
	for _, c := range cases {
		a, err := NewAnalyser(c.game, Options{Budget: time.Minute, AllMoves: true})
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for seed := uint64(1); seed <= uint64(c.games); seed++ {
			g := randomGame(t, c.game, seed, c.empties)
			sc, err := a.Game(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			v, _ := games.Lookup(c.game)
			s := v.New().(games.State)
			for _, m := range g.Opening {
				mv, _ := s.ParseMove(m)
				s.Play(mv)
			}
			if len(sc.Plies) != len(g.Moves)-len(g.Opening) {
				t.Fatalf("%s game %d: %d plies scored, want %d", c.game, seed, len(sc.Plies), len(g.Moves)-len(g.Opening))
			}
			for _, p := range sc.Plies {
				mover := s.ToMove()
				want := minimax(s, mover, terminals[c.game])
				if !p.Known || p.Before != want {
					t.Fatalf("%s game %d ply %d: before %d (known %v), minimax %d", c.game, seed, p.Ply, p.Before, p.Known, want)
				}
				for i, m := range s.LegalMoves(nil) {
					s.Play(m)
					mv := minimax(s, mover, terminals[c.game])
					s.Undo()
					got := p.Moves[i]
					if !got.Known || got.Value != mv || got.Best != (mv == want) || got.Move != s.FormatMove(m) {
						t.Fatalf("%s game %d ply %d move %s: %+v, minimax %d", c.game, seed, p.Ply, s.FormatMove(m), got, mv)
					}
					if got.Move == p.Move && (p.After != mv || p.Loss != want-mv) {
						t.Fatalf("%s game %d ply %d: after %d loss %d, minimax %d %d", c.game, seed, p.Ply, p.After, p.Loss, mv, want-mv)
					}
					checked++
				}
				mv, _ := s.ParseMove(p.Move)
				s.Play(mv)
			}
		}
		if checked < 20 {
			t.Errorf("%s: only %d moves checked", c.game, checked)
		}
		t.Logf("%s: %d moves checked", c.game, checked)
	}
}

// TestStartPosition: a game recorded from a given position (its first
// move the position, results.PositionPrefix) is scored from there, its
// plies counted from it.
func TestStartPosition(t *testing.T) {
	g := randomGame(t, "othello6", 3, 8)
	v, _ := games.Lookup("othello6")
	s := v.New().(games.State)
	for _, m := range g.Opening {
		mv, _ := s.ParseMove(m)
		s.Play(mv)
	}
	fromPos := *g
	fromPos.Moves = append([]string{results.PositionPrefix + s.(games.PositionWriter).Position()}, g.Moves[len(g.Opening):]...)
	fromPos.Opening = fromPos.Moves[:1]
	a, err := NewAnalyser("othello6", testOptions)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := a.Game(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	part, err := a.Game(context.Background(), &fromPos)
	if err != nil {
		t.Fatal(err)
	}
	if len(part.Plies) != len(whole.Plies) || len(part.Plies) == 0 {
		t.Fatalf("%d plies from the position, %d from the start", len(part.Plies), len(whole.Plies))
	}
	for i, p := range part.Plies {
		w := whole.Plies[i]
		if p.Ply != w.Ply-len(g.Opening) || p.Loss != w.Loss || p.Before != w.Before || !p.Known {
			t.Fatalf("ply %d: %+v, from the start %+v", i, p, w)
		}
	}
}
