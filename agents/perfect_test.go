package agents_test

import (
	"context"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/internal/sysmem"
	"github.com/boardgame-arena/arena/rng"
)

// randomOthello plays random moves from the start until the position has
// at most the given number of empty cells and the mover can place a disc.
func randomOthello(r *rng.Rand, empties int) *othello6.State {
	for {
		s := othello6.New()
		var buf []games.Move
		for !s.Terminal() && s.Empties() > empties {
			buf = s.LegalMoves(buf[:0])
			s.Play(buf[r.IntN(len(buf))])
		}
		if !s.Terminal() && s.LegalMask() != 0 {
			return s
		}
	}
}

// solved is the exact value of s for its side to move.
func solved(t *testing.T, s games.Base) int {
	t.Helper()
	v, _, _, err := s.(games.ExactSolver).SolveExact(context.Background(), games.SolveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPerfectKeepsValue: on random reachable positions the agent's move
// keeps the position's exact value (the child is worth exactly its
// negation to the opponent), and its stats say the move was proven.
func TestPerfectKeepsValue(t *testing.T) {
	a, err := agents.New("perfect:time=20s", 1)
	if err != nil {
		t.Fatal(err)
	}
	r := rng.New(11)
	for i := range 40 {
		s := randomOthello(r, 8+r.IntN(9)) // 8 to 16 empty cells
		want := solved(t, s)
		m, err := a.Move(context.Background(), s, s.ToMove())
		if err != nil {
			t.Fatal(err)
		}
		info := a.(agents.Reporter).LastStats().Info
		if !strings.HasPrefix(info, "solved") && !strings.HasPrefix(info, "only move") {
			t.Fatalf("position %d: the move was not proven: %s", i, info)
		}
		s.Play(m)
		if got := -solved(t, s); got != want {
			t.Fatalf("position %d (%d empties): %s leads to value %d, the position is worth %d\n%s", i, s.Empties()+1, s.FormatMove(m), got, want, s)
		}
	}
}

// TestPerfectBookMoves: where the game's book has the position, the agent
// plays the book's move (optimal by the book's construction, checked in
// package othello6) without solving.
func TestPerfectBookMoves(t *testing.T) {
	b, err := othello6.DefaultBook()
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() == 0 {
		t.Skip("the embedded book is empty")
	}
	a, _ := agents.New("perfect:time=1ms", 1)
	s := othello6.New()
	var buf []games.Move
	r := rng.New(4)
	for s.Empties() >= b.MinEmpties() && !s.Terminal() {
		want, v, ok := s.BookMove()
		m, err := a.Move(context.Background(), s, s.ToMove())
		if err != nil {
			t.Fatal(err)
		}
		if ok && (m != want || a.(agents.Reporter).LastStats().Score != v) {
			t.Fatalf("ply %d: played %s, the book says %s (value %d)", s.Ply(), s.FormatMove(m), s.FormatMove(want), v)
		}
		buf = s.LegalMoves(buf[:0])
		s.Play(buf[r.IntN(len(buf))])
	}
}

// TestPerfectScoresTheValue: from random positions with 14 empty cells
// the agent, on either side, against random, greedy and alphabeta, ends
// with at least the position's exact value (SolvedScore, its view): it
// never loses a won position, nor draws one.
func TestPerfectScoresTheValue(t *testing.T) {
	r := rng.New(21)
	for _, opp := range []string{"random", "greedy", "alphabeta:depth=3"} {
		for game := range 4 {
			start := randomOthello(r, 14)
			seat := game % 2 // the perfect agent's player
			if start.ToMove() != seat {
				start.Play(start.LegalMoves(nil)[0]) // let the opponent move first
				if start.Terminal() {
					continue
				}
			}
			value := solved(t, start) // for seat, which is to move
			perfect, _ := agents.New("perfect", 1)
			other, err := agents.New(opp, uint64(game))
			if err != nil {
				t.Fatal(err)
			}
			players := [2]agents.Agent{}
			players[seat], players[1-seat] = perfect, other
			s := start
			for !s.Terminal() {
				p := s.ToMove()
				m, err := players[p].Move(context.Background(), s, p)
				if err != nil {
					t.Fatal(err)
				}
				s.Play(m)
			}
			first, second := s.Discs()
			got := othello6.SolvedScore(first, second)
			if seat == 1 {
				got = -got
			}
			if got < value {
				t.Errorf("perfect (player %d) against %s: scored %d from a position worth %d", seat, opp, got, value)
			}
		}
	}
}

// TestPerfectNeedsASolver: games without an exact solver are refused with
// a clear error before the first game (CheckGame) and at a move.
func TestPerfectNeedsASolver(t *testing.T) {
	a, err := agents.New("perfect", 1)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, g := range games.All() {
		v, err := games.Lookup(g.Name)
		if err != nil {
			t.Fatal(err)
		}
		b := v.New()
		_, hasSolver := b.(games.ExactSolver)
		_, seq := b.(games.State)
		err = agents.CheckGame(a, v)
		switch {
		case hasSolver && seq && err != nil:
			t.Errorf("%s has a solver but is refused: %v", g.Name, err)
		case !(hasSolver && seq) && (err == nil || !strings.Contains(err.Error(), "exact solver") || !strings.Contains(err.Error(), g.Name)):
			t.Errorf("%s has no solver: CheckGame says %v", g.Name, err)
		}
		if !(hasSolver && seq) {
			refused++
			if _, err := a.Move(context.Background(), b, 0); err == nil || !strings.Contains(err.Error(), "exact solver") {
				t.Errorf("%s: a move without a solver: %v", g.Name, err)
			}
		}
	}
	if refused == 0 {
		t.Error("no game without a solver to test")
	}
	for _, spec := range []string{"perfect:time=0s", "perfect:time=25h", "perfect:threads=0", "perfect:tt=0", "perfect:tt=100000", "perfect:depth=3"} {
		if _, err := agents.New(spec, 1); err == nil {
			t.Errorf("%s accepted", spec)
		}
	}
}

// hintRecorder is an othello6 position that records the value hint the
// perfect agent gives its solver.
type hintRecorder struct {
	*othello6.State
	hint   int
	hinted bool
}

func (h *hintRecorder) SolveExact(ctx context.Context, o games.SolveOptions) (int, []games.Move, int64, error) {
	h.hint, h.hinted = o.ValueHint, o.HasValueHint
	return h.State.SolveExact(ctx, o)
}

func (h *hintRecorder) Clone() games.State {
	return &hintRecorder{State: h.State.Clone().(*othello6.State)}
}

// TestPerfectHintsItsSolver: after a proven move the agent's next solve is
// told that the position is worth at least the value it proved, whatever
// the opponent replied, and only when the position follows that move.
func TestPerfectHintsItsSolver(t *testing.T) {
	r := rng.New(5)
	a, _ := agents.New("perfect:time=20s", 1)
	for i := range 20 {
		h := &hintRecorder{State: randomOthello(r, 12+r.IntN(4))}
		m, err := a.Move(context.Background(), h, h.ToMove())
		if err != nil {
			t.Fatal(err)
		}
		proved := a.(agents.Reporter).LastStats().Score
		if h.hinted && i == 0 {
			t.Fatal("a hint before any move")
		}
		h.Play(m)
		if h.Terminal() {
			continue
		}
		moves := h.LegalMoves(nil)
		h.Play(moves[r.IntN(len(moves))]) // the opponent's reply (or pass)
		if h.Terminal() || len(h.LegalMoves(nil)) < 2 {
			continue // no solve: game over or an only move
		}
		if _, err := a.Move(context.Background(), h, h.ToMove()); err != nil {
			t.Fatal(err)
		}
		if !h.hinted || h.hint != proved {
			t.Fatalf("position %d: hint %d (%t), the agent had proved %d", i, h.hint, h.hinted, proved)
		}
		if v := a.(agents.Reporter).LastStats().Score; v < proved {
			t.Fatalf("position %d: value %d below the hint %d", i, v, proved)
		}
		// A position that does not follow the agent's last move gets none.
		other := &hintRecorder{State: randomOthello(r, 12)}
		if len(other.LegalMoves(nil)) < 2 {
			continue
		}
		if _, err := a.Move(context.Background(), other, other.ToMove()); err != nil {
			t.Fatal(err)
		}
		if other.hinted {
			t.Fatalf("position %d: a hint %d for an unrelated position", i, other.hint)
		}
	}
}

// keptSolver is an othello6 position whose solver always stops after
// proving that its first legal move keeps the hint (games.KeptHint).
type keptSolver struct{ *othello6.State }

func (k keptSolver) SolveExact(ctx context.Context, o games.SolveOptions) (int, []games.Move, int64, error) {
	hint := o.ValueHint
	m := k.LegalMoves(nil)[0]
	return hint, []games.Move{m}, 7, &games.KeptHint{Move: m, Value: hint, Err: context.DeadlineExceeded}
}

// TestPerfectPlaysKeptMove: when its solve stops with a move that keeps
// the value of the agent's last proven move, the agent plays that move
// (not the depth-4 search's), says so, and hints the value on.
func TestPerfectPlaysKeptMove(t *testing.T) {
	r := rng.New(8)
	a, _ := agents.New("perfect:time=20s", 1)
	s := randomOthello(r, 14)
	m, err := a.Move(context.Background(), s, s.ToMove()) // proven: a solve
	if err != nil {
		t.Fatal(err)
	}
	proved := a.(agents.Reporter).LastStats().Score
	s.Play(m)
	moves := s.LegalMoves(nil) // the opponent's (a pass included)
	s.Play(moves[len(moves)-1])
	if s.Terminal() || len(s.LegalMoves(nil)) < 2 {
		t.Fatal("no choice left: pick another seed")
	}
	k := keptSolver{s}
	got, err := a.Move(context.Background(), k, s.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	st := a.(agents.Reporter).LastStats()
	if got != s.LegalMoves(nil)[0] || !strings.HasPrefix(st.Info, "kept") || st.Score != proved {
		t.Fatalf("played %s with %q (score %d), want the kept move %s, score %d", s.FormatMove(got), st.Info, st.Score, s.FormatMove(s.LegalMoves(nil)[0]), proved)
	}
}

// guessSolver is an othello6 position whose solver always stops before
// proving anything, with move as its best guess (games.BestGuess).
type guessSolver struct {
	*othello6.State
	move games.Move
}

func (g guessSolver) SolveExact(context.Context, games.SolveOptions) (int, []games.Move, int64, error) {
	return 0, nil, 5, &games.BestGuess{Move: g.move, Err: context.DeadlineExceeded}
}

// TestStoppedSolversAnswer: when its solve stops with nothing proven, the
// perfect agent (and alphabeta:exact) plays the solver's best guess and
// says it is not proven; a guess that is not legal leaves the move to the
// depth-4 search. alphabeta:exact also plays a move the solver proved
// worth a bound (perfect's kept moves: TestPerfectPlaysKeptMove).
func TestStoppedSolversAnswer(t *testing.T) {
	s := randomOthello(rng.New(9), 20)
	moves := s.LegalMoves(nil)
	if len(moves) < 2 {
		t.Fatal("no choice: pick another seed")
	}
	last := moves[len(moves)-1]
	for _, spec := range []string{"perfect", "alphabeta:exact"} {
		for _, c := range []struct {
			b      games.Base
			depth4 bool // the depth-4 search's move, else want
			want   games.Move
			info   string // in the stats of perfect, then of alphabeta
			abInfo string
		}{
			{guessSolver{s, last}, false, last, "not proven: the solver stopped", "ordering search's move"},
			{guessSolver{s, othello6.Pass}, true, 0, "not proven: the solver stopped", "depth-4 search"},
			{keptSolver{s}, false, moves[0], "kept value >= +0", "proved worth at least +0"},
		} {
			a, _ := agents.New(spec, 1)
			got, err := a.Move(context.Background(), c.b, s.ToMove())
			if err != nil {
				t.Fatal(err)
			}
			info, want := a.(agents.Reporter).LastStats().Info, c.info
			if spec != "perfect" {
				want = c.abInfo
			}
			if !strings.Contains(info, want) || c.depth4 != strings.Contains(info, "depth-4") || !c.depth4 && got != c.want {
				t.Fatalf("%s, %T: played %s with %q", spec, c.b, s.FormatMove(got), info)
			}
		}
	}
}

// TestPerfectKnowsExactValueAfterBestReply: after a book move, if the
// opponent replies with the book's move the agent's position is worth
// exactly the book's value, so a move its solver proved keeps that value
// is optimal (stats: solved) even when the solve stops; after another
// reply it is only kept.
func TestPerfectKnowsExactValueAfterBestReply(t *testing.T) {
	for _, bestReply := range []bool{true, false} {
		r := rng.New(3)
		var s *othello6.State
		for s == nil || s.Empties() != 27 {
			s = randomOthello(r, 27)
		}
		a, _ := agents.New("perfect", 1)
		// The agent's book move and any reply: the agent is then on the
		// book's paths, where the book holds the opponent's position after
		// its next move, one ply above its bottom (24 empties).
		m, err := a.Move(context.Background(), s, s.ToMove())
		if err != nil {
			t.Fatal(err)
		}
		s.Play(m)
		s.Play(s.LegalMoves(nil)[0])
		if s.Empties() != 25 {
			t.Fatal("a pass: pick another seed")
		}
		if m, err = a.Move(context.Background(), s, s.ToMove()); err != nil {
			t.Fatal(err)
		}
		value := a.(agents.Reporter).LastStats().Score
		if info := a.(agents.Reporter).LastStats().Info; !strings.HasPrefix(info, "book") {
			t.Fatalf("at 25 empties: %s, want a book move", info)
		}
		s.Play(m)
		reply, _, ok := s.BookMove()
		if !ok {
			t.Fatal("the opponent's position is not in the book")
		}
		if !bestReply {
			for _, other := range s.LegalMoves(nil) {
				if other != reply {
					reply = other
					break
				}
			}
		}
		s.Play(reply)
		if len(s.LegalMoves(nil)) < 2 {
			t.Fatal("no choice left: pick another seed")
		}
		// Without the book's reply values, which would give the value
		// after either reply.
		if _, err := a.Move(context.Background(), noReplyValues{keptSolver{s}}, s.ToMove()); err != nil {
			t.Fatal(err)
		}
		st := a.(agents.Reporter).LastStats()
		want := "kept"
		if bestReply {
			want = "solved"
		}
		if !strings.HasPrefix(st.Info, want) || st.Score != value {
			t.Errorf("best reply %t: %q, score %d; want %q, score %d", bestReply, st.Info, st.Score, want, value)
		}
	}
}

// TestPerfectBookOnItsPaths: in games from the start after a random
// opening of up to 6 plies, against random replies, every move of the
// agent with 24 or more empty cells on the board comes from the book
// (whose layer at 24 holds the positions on the agent's paths).
func TestPerfectBookOnItsPaths(t *testing.T) {
	r := rng.New(11)
	for game := range 200 {
		s := othello6.New()
		for range r.IntN(7) {
			moves := s.LegalMoves(nil)
			s.Play(moves[r.IntN(len(moves))])
		}
		seat := game % 2
		a, _ := agents.New("perfect:time=1ms", 1)
		for !s.Terminal() && s.Empties() >= 24 {
			moves := s.LegalMoves(nil)
			if s.ToMove() != seat {
				s.Play(moves[r.IntN(len(moves))])
				continue
			}
			m, err := a.Move(context.Background(), s, seat)
			if err != nil {
				t.Fatal(err)
			}
			if info := a.(agents.Reporter).LastStats().Info; !strings.HasPrefix(info, "book") && info != "only move" {
				t.Fatalf("game %d, %d empty cells: %q, want a book move\n%s", game, s.Empties(), info, s)
			}
			s.Play(m)
		}
	}
}

// noReplyValues is keptSolver whose book knows no position's value.
type noReplyValues struct{ keptSolver }

func (noReplyValues) BookValue() (int, bool) { return 0, false }

// valuedKept is keptSolver whose book knows the position's value.
type valuedKept struct {
	keptSolver
	value int
}

func (v valuedKept) BookValue() (int, bool) { return v.value, true }

// TestPerfectUsesBookValue: when the game's book knows the position's
// exact value (games.BookValuer), the agent hints it to its solver, and a
// move proven to keep it is optimal (stats: solved), even with no move
// of its own before.
func TestPerfectUsesBookValue(t *testing.T) {
	s := randomOthello(rng.New(5), 20)
	a, _ := agents.New("perfect", 1)
	m, err := a.Move(context.Background(), valuedKept{keptSolver{s}, 6}, s.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	st := a.(agents.Reporter).LastStats()
	if m != s.LegalMoves(nil)[0] || !strings.HasPrefix(st.Info, "solved") || st.Score != 6 {
		t.Fatalf("played %s with %q (score %d), want the kept move, solved, score 6", s.FormatMove(m), st.Info, st.Score)
	}
}

// hintedKept is keptSolver that also records the hint it was given.
type hintedKept struct {
	keptSolver
	hint   *int
	hinted *bool
}

func (h hintedKept) SolveExact(ctx context.Context, o games.SolveOptions) (int, []games.Move, int64, error) {
	*h.hint, *h.hinted = o.ValueHint, o.HasValueHint
	return h.keptSolver.SolveExact(ctx, o)
}

// TestPerfectHintFromBookBound: handed a game one ply below the book (a
// position outside the book whose previous position is in it), the agent
// hints its solver the bound the book gives through the positions one
// move before (games.BookBounder): at least what the previous position
// gives, exact when the last move was the book's (stats: solved), a lower
// bound otherwise (kept). The same discs without their history get the
// same hint. Fails when the agent ignores the book's bound.
func TestPerfectHintFromBookBound(t *testing.T) {
	r := rng.New(3)
	var sawExact, sawBound int
	for tries := 0; tries < 2000 && (sawExact < 3 || sawBound < 3); tries++ {
		// The parent on the book's bottom layer (24 empty cells), so that
		// the child (23) is outside the book.
		parent := randomOthello(r, 24)
		if parent.Empties() != 24 {
			continue
		}
		bm, v, ok := parent.BookMove()
		if !ok {
			continue
		}
		moves := parent.LegalMoves(nil)
		m := moves[r.IntN(len(moves))]
		s := parent.Clone().(*othello6.State)
		s.Play(m)
		if _, _, inBook := s.BookMove(); inBook || s.Empties() != 23 || len(s.LegalMoves(nil)) < 2 {
			continue
		}
		if _, known := s.BookValue(); known {
			continue
		}
		bound, exact, ok := s.BookBound()
		if !ok || bound < -v || m == bm && (!exact || bound != -v) {
			t.Fatalf("after %s (book move %s, worth %d): the book's bound %d (exact %t, %t)", parent.FormatMove(m), parent.FormatMove(bm), v, bound, exact, ok)
		}
		want := "kept"
		if exact {
			want = "solved"
			sawExact++
		} else {
			sawBound++
		}
		first, second := s.Discs()
		bare, err := othello6.FromDiscs(first, second, s.ToMove())
		if err != nil {
			t.Fatal(err)
		}
		for _, pos := range []*othello6.State{s, bare} {
			var hint int
			var hinted bool
			a, _ := agents.New("perfect", 1)
			if _, err := a.Move(context.Background(), hintedKept{keptSolver{pos}, &hint, &hinted}, pos.ToMove()); err != nil {
				t.Fatal(err)
			}
			if info := a.(agents.Reporter).LastStats().Info; !hinted || hint != bound || !strings.HasPrefix(info, want) {
				t.Fatalf("after %s (book move %s, worth %d; history %t): hint %d (%t), %q; want %d, %s", parent.FormatMove(m), parent.FormatMove(bm), v, pos == s, hint, hinted, info, bound, want)
			}
		}
	}
	if sawExact < 3 || sawBound < 3 {
		t.Fatalf("found %d positions with an exact bound and %d with another, want 3 of each", sawExact, sawBound)
	}
}

// TestPerfectTableFitsMemory: a table the machine cannot hold is refused
// when the agent is made, as alphabeta's is, not when the solver
// allocates it moves later.
func TestPerfectTableFitsMemory(t *testing.T) {
	total, known := sysmem.Total()
	if !known || total >= 65536<<20*4/3 {
		t.Skip("this machine could hold a 64 GB table")
	}
	if _, err := agents.New("perfect:tt=65536", 1); err == nil || !strings.Contains(err.Error(), "perfect: tt=65536") {
		t.Errorf("perfect:tt=65536: %v, want a refusal naming it", err)
	}
}
