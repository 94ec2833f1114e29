package alphabeta

import (
	"context"
	"math/bits"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/search/testgames"
)

// minimax is the plain reference: no pruning, no table, no ordering.
func minimax(s games.State, depth int) int {
	p := s.ToMove()
	if depth == 0 {
		if e, ok := s.(games.Evaluator); ok {
			return e.Evaluate(p)
		}
		return 0
	}
	best := -Inf
	for _, m := range s.LegalMoves(nil) {
		s.Play(m)
		var v int
		switch next := s.ToMove(); next {
		case games.None:
			v = TerminalScore(s.Outcome(), p)
		case p:
			v = minimax(s, depth-1)
		default:
			v = -minimax(s, depth-1)
		}
		s.Undo()
		best = max(best, v)
	}
	return best
}

// randomOthello plays plies random moves from the start (fewer if the game
// ends) and returns a position that is not finished.
func randomOthello(r *rng.Rand, plies int) *othello6.State {
	for {
		s := othello6.New()
		for i := 0; i < plies && !s.Terminal(); i++ {
			moves := s.LegalMoves(nil)
			s.Play(moves[r.IntN(len(moves))])
		}
		if !s.Terminal() {
			return s
		}
	}
}

func TestMatchesMinimaxOnRandomOthelloPositions(t *testing.T) {
	n := 1000
	if testing.Short() || raceEnabled {
		n = 200
	}
	r := rng.New(42)
	se := New(Options{Depth: 4, TTMB: 1, Aspiration: 15})
	for i := 0; i < n; i++ {
		s := randomOthello(r, r.IntN(28))
		want := minimax(s, 4)
		se.Reset() // a deeper entry from an earlier position would legitimately change the value
		h := s.Hash()
		res, err := se.Search(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != want {
			t.Fatalf("position %d:\n%s\nalphabeta %d, minimax %d", i, s, res.Score, want)
		}
		if s.Hash() != h {
			t.Fatalf("search did not restore the state")
		}
		if !games.IsLegal(s, res.Move) || len(res.PV) == 0 || res.PV[0] != res.Move {
			t.Fatalf("move %v pv %v", res.Move, res.PV)
		}
		// The best move's value, searched on its own, is the root value.
		if got := valueOf(s, res.Move, 3); got != want {
			t.Fatalf("position %d: best move %s is worth %d, root %d", i, s.FormatMove(res.Move), got, want)
		}
	}
}

// valueOf is minimax's value of move m from the mover's view.
func valueOf(s games.State, m games.Move, depth int) int {
	p := s.ToMove()
	s.Play(m)
	defer s.Undo()
	switch next := s.ToMove(); next {
	case games.None:
		return TerminalScore(s.Outcome(), p)
	case p:
		return minimax(s, depth)
	default:
		return -minimax(s, depth)
	}
}

func TestEnhancementsOneByOne(t *testing.T) {
	configs := map[string]Options{
		"plain":      {TTMB: -1, NoPVS: true, NoKillers: true, NoHistory: true, NoHints: true},
		"tt":         {TTMB: 1, NoPVS: true, NoKillers: true, NoHistory: true},
		"pvs":        {TTMB: -1, NoKillers: true, NoHistory: true},
		"killers":    {TTMB: -1, NoPVS: true, NoHistory: true},
		"history":    {TTMB: -1, NoPVS: true, NoKillers: true},
		"aspiration": {TTMB: 1, Aspiration: 5},
		"rootscores": {TTMB: 1, RootScores: true},
	}
	for name, opts := range configs {
		t.Run(name, func(t *testing.T) {
			r := rng.New(7)
			opts.Depth = 5
			se := New(opts)
			for i := 0; i < 40; i++ {
				s := randomOthello(r, 4+r.IntN(20))
				want := minimax(s, 5)
				se.Reset()
				res, err := se.Search(context.Background(), s)
				if err != nil {
					t.Fatal(err)
				}
				if res.Score != want {
					t.Fatalf("position %d: got %d, want %d", i, res.Score, want)
				}
				if opts.RootScores {
					for _, rm := range res.Root {
						if v := valueOf(s, rm.Move, 4); v != rm.Score || rm.Bound != BoundExact {
							t.Fatalf("root move %s: %d (%v), want exact %d", s.FormatMove(rm.Move), rm.Score, rm.Bound, v)
						}
					}
				}
			}
		})
	}
}

// bruteSolve is plain minimax to the end of the game.
func bruteSolve(s games.State) int { return minimax(s, 1<<30) }

func TestExactMatchesBruteForce(t *testing.T) {
	r := rng.New(3)
	for _, threads := range []int{1, 2} {
		se := New(Options{Exact: true, TTMB: 4, Threads: threads})
		for i := 0; i < 30; i++ {
			empties := 4 + r.IntN(7) // 4…10
			s := randomOthello(r, 32-empties)
			if e := 36 - bits.OnesCount64(func() uint64 { a, b := s.Discs(); return a | b }()); e > 10 {
				continue
			}
			want := bruteSolve(s)
			res, err := se.Search(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Exact || res.Score != want {
				t.Fatalf("threads %d position %d:\n%s\nexact %d (%v), brute force %d", threads, i, s, res.Score, res.Exact, want)
			}
			// Playing the principal variation out reaches the promised result.
			c := s.Clone()
			me := c.ToMove()
			for _, m := range res.PV {
				if !games.IsLegal(c, m) {
					t.Fatalf("illegal PV move %s", c.FormatMove(m))
				}
				c.Play(m)
			}
			if !c.Terminal() || TerminalScore(c.Outcome(), me) != want {
				t.Fatalf("PV %v does not end in value %d", res.PV, want)
			}
		}
	}
}

func TestGenericGames(t *testing.T) {
	t.Run("tictactoe is a draw", func(t *testing.T) {
		res, err := New(Options{Exact: true}).Search(context.Background(), testgames.NewTicTacToe())
		if err != nil || res.Score != 0 || !res.Exact {
			t.Fatalf("got %+v, %v", res, err)
		}
	})
	t.Run("tictactoe depth-limited agrees with minimax", func(t *testing.T) {
		s := testgames.NewTicTacToe()
		s.Play(4)
		for d := 1; d <= 8; d++ {
			se := New(Options{Depth: d, Aspiration: 1, TTMB: 1})
			res, _ := se.Search(context.Background(), s)
			if want := minimax(s, d); res.Score != want {
				t.Fatalf("depth %d: %d, want %d", d, res.Score, want)
			}
		}
	})
	t.Run("take-away with extra turns", func(t *testing.T) {
		for n := 1; n <= 14; n++ {
			s := testgames.NewTakeAway(n)
			want := bruteSolve(s)
			for _, threads := range []int{1, 2} {
				res, err := New(Options{Exact: true, Threads: threads, TTMB: 1}).Search(context.Background(), s)
				if err != nil || res.Score != want {
					t.Fatalf("pile %d threads %d: %d, want %d (%v)", n, threads, res.Score, want, err)
				}
				for d := 1; d <= 6; d++ {
					res, _ := New(Options{Depth: d, TTMB: 1}).Search(context.Background(), s)
					if w := minimax(s, d); res.Score != w {
						t.Fatalf("pile %d depth %d: %d, want %d", n, d, res.Score, w)
					}
				}
			}
		}
	})
}

// TestTimeMargin: a time budget or a caller's deadline is kept with a
// safety margin, also in a game whose nodes are slow (the clock is then
// read more often than every 1024 nodes).
func TestTimeMargin(t *testing.T) {
	const budget = 200 * time.Millisecond
	for _, tc := range []struct {
		name string
		st   games.State
		ctx  bool // the budget is the context's deadline, not Options.Time
	}{
		{"fast nodes", randomOthello(rng.New(2), 6), false},
		{"fast nodes, deadline", randomOthello(rng.New(2), 6), true},
		{"slow nodes", testgames.Slow(randomOthello(rng.New(2), 6), 100*time.Microsecond), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The search aims at the budget less a fifth (40 ms): what is
			// left is for the machine's hiccups.
			testgames.OnTime(t, budget, 3, func() time.Duration {
				ctx, o := context.Background(), Options{Time: budget, TTMB: 1}
				if tc.ctx {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, budget)
					defer cancel()
					o.Time = 0
				}
				start := time.Now()
				res, err := New(o).Search(ctx, tc.st)
				el := time.Since(start)
				if err != nil || !games.IsLegal(tc.st, res.Move) {
					t.Fatalf("%+v %v", res, err)
				}
				return el
			})
		})
	}
}

func TestBudgets(t *testing.T) {
	s := randomOthello(rng.New(1), 6)
	t.Run("nodes", func(t *testing.T) {
		res, err := New(Options{Nodes: 20000}).Search(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if res.Nodes > 20000+2*checkEvery || res.Depth < 2 || !games.IsLegal(s, res.Move) {
			t.Fatalf("nodes %d depth %d", res.Nodes, res.Depth)
		}
	})
	t.Run("time", func(t *testing.T) {
		// Within 10 times the budget, judged beside a 2-thread control: a
		// busy machine stalled one of the threads for 650ms at a load of 8.
		const budget = 50 * time.Millisecond
		testgames.OnTimeThreads(t, 10*budget, 2, 3, func() time.Duration {
			start := time.Now()
			res, err := New(Options{Time: budget, Threads: 2}).Search(context.Background(), s)
			el := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			// Depth 1 at least: under -race on a loaded machine the search may
			// rightly decline to start an iteration it cannot finish in time.
			if res.Depth < 1 || !res.Complete {
				t.Fatalf("took %v, depth %d, complete %v", el, res.Depth, res.Complete)
			}
			return el
		})
	})
	t.Run("context deadline", func(t *testing.T) {
		// 200 ms, not less: the search stops a fifth early, and a thread
		// descheduled between WithTimeout and Search on a loaded machine
		// must not eat the whole budget before depth 1 ends.
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		res, err := New(Options{}).Search(ctx, s)
		if el := time.Since(start); el > time.Second { // 5 times the deadline
			t.Fatalf("took %v", el)
		}
		if err != nil || !res.Complete || !games.IsLegal(s, res.Move) {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("last complete iteration", func(t *testing.T) {
		// A node budget that ends inside iteration d+1 returns iteration d's
		// move and score: the same as a search limited to depth d.
		for _, budget := range []int64{3000, 10000, 30000} {
			res, _ := New(Options{Nodes: budget, TTMB: 1}).Search(context.Background(), s)
			ref, _ := New(Options{Depth: res.Depth, TTMB: 1}).Search(context.Background(), s)
			next, _ := New(Options{Depth: res.Depth + 1, TTMB: 1}).Search(context.Background(), s)
			if res.Move != ref.Move || res.Score != ref.Score || next.Nodes <= budget {
				t.Fatalf("budget %d: depth %d move %v score %d; depth-limited: move %v score %d; next iteration ends at %d nodes",
					budget, res.Depth, res.Move, res.Score, ref.Move, ref.Score, next.Nodes)
			}
		}
	})
}

func TestTTPacking(t *testing.T) {
	tt := NewTT(1)
	cases := []struct {
		move  games.Move
		score int
		depth int
		bound Bound
	}{
		{3, -games.WinScore - 36, 127, BoundExact},
		{0, 0, 0, BoundLower},
		{noMove - 1, games.WinScore + MaxMargin, 5, BoundUpper},
		{17, -12345, 64, BoundExact},
	}
	for i, c := range cases {
		h := uint64(i)*0x9e3779b97f4a7c15 + 1
		tt.store(h, c.move, c.score, c.depth, c.bound)
		got, ok := tt.probe(h)
		if !ok || got.move != c.move || got.score != c.score || got.depth != c.depth || got.bound != c.bound {
			t.Fatalf("case %d: got %+v %v", i, got, ok)
		}
	}
	if _, ok := tt.probe(0xdead); ok {
		t.Fatal("hit on an absent key")
	}
	// A shallower result for another key in the same bucket goes to the
	// always-replace slot and keeps the deep one.
	deep, other := uint64(1<<40|5), uint64(2<<40|5)
	tt.store(deep, 1, 10, 20, BoundExact)
	tt.store(other, 2, 11, 1, BoundExact)
	if h, ok := tt.probe(deep); !ok || h.depth != 20 {
		t.Fatal("deep entry lost")
	}
	if h, ok := tt.probe(other); !ok || h.move != 2 {
		t.Fatal("shallow entry not kept")
	}
}

func TestTTClear(t *testing.T) {
	tt := NewTT(1)
	for h := uint64(1); h < 5000; h++ {
		tt.store(h*0x9e3779b97f4a7c15, 1, 2, 3, BoundExact)
	}
	tt.NewSearch()
	tt.Clear()
	for h := uint64(1); h < 5000; h++ {
		if _, ok := tt.probe(h * 0x9e3779b97f4a7c15); ok {
			t.Fatalf("entry %d survived Clear", h)
		}
	}
	if tt.gen != 0 {
		t.Errorf("generation %d after Clear, want 0 as in a new table", tt.gen)
	}
}

// BenchmarkTTClear clears the default 64 MB table, as every alphabeta
// agent's NewGame does.
func BenchmarkTTClear(b *testing.B) {
	tt := NewTT(64)
	b.SetBytes(int64(tt.Len()) * 16)
	for b.Loop() {
		tt.NewSearch() // as a search does, so that Clear has work
		tt.Clear()
	}
}

// TestResetAfterSearch: Reset after a search empties the table (Clear skips
// only tables no search has used since they were made or cleared), and
// the search after it stores again.
func TestResetAfterSearch(t *testing.T) {
	s := randomOthello(rng.New(5), 8)
	se := New(Options{Depth: 4, TTMB: 1})
	se.Reset() // a fresh table: nothing to clear
	for round := range 2 {
		if _, err := se.Search(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		if _, ok := se.tt.probe(s.Hash()); !ok {
			t.Fatalf("round %d: the root is not in the table after a search", round)
		}
		se.Reset()
		for i := range se.tt.buckets {
			if se.tt.buckets[i][0].key.Load() != 0 || se.tt.buckets[i][1].key.Load() != 0 {
				t.Fatalf("round %d: bucket %d not cleared by Reset", round, i)
			}
		}
	}
}

func TestZeroAllocsPerNode(t *testing.T) {
	s := randomOthello(rng.New(5), 8)
	se := New(Options{Depth: 5, TTMB: 1})
	se.Search(context.Background(), s) // warm the buffers
	allocs := testing.AllocsPerRun(3, func() {
		se.Search(context.Background(), s)
	})
	// A search allocates its result (PV, root list) and a few bookkeeping
	// values, never per node: tens of thousands of nodes, a handful of allocations.
	if allocs > 20 {
		t.Fatalf("%v allocations per search", allocs)
	}
}
