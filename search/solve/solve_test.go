package solve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/internal/sysmem"
	"github.com/boardgame-arena/arena/option"
)

// endgame is an Othello 6×6 line from the start to a position with 16
// empty cells whose exact value for the side to move is −4 (the game's
// solver and the generic exact search agree below).
const endgame = "c2 b4 d5 e6 a4 b3 d6 c6 b5 d1 a3 d2 e4 f3 c1 b1"

// erdosLine is the spec's "starvation" line cut 5 plies before its end:
// 11 empty cells, the first player to move, solved in milliseconds.
const erdosLine = "c3:3 c4:4 c5:1 c1:5 d5:5 d1:4 d4:3 b5:4 d3:1 b4:2 a1:3 a2:2 b1:1 a4:1"

// pyrgaLate is the first 20 plies of a random Pyrga game of 30.
const pyrgaLate = "T@a2>E S@b2 C@c2 T@c2>E T@d2>S S@d1 T@c1>E T@d1>N S@d3 T@c3>E T@d3>N C@d4 T@d4>W C@b4 S@b4 T@a4>S C@a3 T@a3>N C@a4 S@a4"

// position is game's start with moves played.
func position(t *testing.T, game, moves string) games.State {
	t.Helper()
	b, err := games.New(game)
	if err != nil {
		t.Fatal(err)
	}
	s := b.(games.State)
	if _, err := games.Replay(game, s, strings.Fields(moves)); err != nil {
		t.Fatal(err)
	}
	return s
}

// replaysToEnd fails unless pv is a legal line from s to the end of the game.
func replaysToEnd(t *testing.T, s games.State, pv []games.Move) {
	t.Helper()
	c := s.Clone()
	for _, m := range pv {
		if !games.IsLegal(c, m) {
			t.Fatalf("the PV plays %s, not legal in\n%s", c.FormatMove(m), c)
		}
		c.Play(m)
	}
	if !c.Terminal() {
		t.Fatalf("the PV %v ends before the end of the game", pv)
	}
}

// TestPosition: the game's own solver (one thread or two) and the generic
// search give the same value; the solvers' principal variations replay to
// the end of the game.
func TestPosition(t *testing.T) {
	for _, c := range []struct {
		game, moves string
		o           Options
		want        Verdict
	}{
		{"othello6", endgame, Options{}, Verdict{-4, "loss"}},
		{"othello6", endgame, Options{Threads: 2}, Verdict{-4, "loss"}},
		// With no empty cells left at the end of this line both
		// conventions agree; the generic search reports the margin.
		{"othello6", endgame, Options{Generic: true, TableMB: 16}, Verdict{-4, "loss"}},
		{"erdos", erdosLine, Options{}, Verdict{1, "win"}},
		{"erdos:algol", erdosLine, Options{}, Verdict{1, "win"}},
	} {
		s := position(t, c.game, c.moves)
		r, err := Position(context.Background(), s, c.o)
		if err != nil || r.Verdict != c.want || r.Nodes <= 0 {
			t.Fatalf("%s %+v: %+v %v, want %+v", c.game, c.o, r, err, c.want)
		}
		replaysToEnd(t, s, r.PV)
	}
}

// TestPositionStops: a solve whose context is done stops with its error,
// the generic search's (which stops a little before a deadline without
// one) included.
func TestPositionStops(t *testing.T) {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	for _, c := range []struct {
		game, moves string
		o           Options
	}{
		{"pyrga", "", Options{Generic: true, TableMB: 4}},
		{"othello6", "", Options{TableMB: 4}},
		{"erdos", "", Options{TableMB: 4}},
	} {
		_, err := Position(ctx, position(t, c.game, c.moves), c.o)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v, want the deadline", c.game, err)
		}
	}
}

// TestPositionProgress: while a solve runs, Progress hears of it at every
// tick, with the nodes its solver counted; none after Position returns.
func TestPositionProgress(t *testing.T) {
	var mu sync.Mutex
	var got []Progress
	returned := false
	// A solve of a few seconds: the context stops it once a report has
	// counted nodes, however slow the machine.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := Options{TableMB: 4, Every: time.Millisecond}
	o.Progress = func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		if returned {
			t.Error("progress after Position returned")
		}
		got = append(got, p)
		if p.Nodes > 0 {
			cancel()
		}
	}
	_, err := Position(ctx, position(t, "erdos", "c3:1 c4:4 c5:5 b3:4 b5:1 b2:5"), o)
	mu.Lock()
	returned = true
	mu.Unlock()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%v, want the cancel after a report with nodes (reports %+v)", err, got)
	}
	last := got[len(got)-1]
	if last.Stage != Searching || last.Nodes <= 0 || last.Elapsed <= 0 {
		t.Fatalf("last report %+v", last)
	}
}

// TestTick: a call at each tick, none after quit.
func TestTick(t *testing.T) {
	ticks, quit, done := make(chan time.Time), make(chan struct{}), make(chan struct{})
	var n int
	go func() {
		tick(ticks, quit, func(time.Time) { n++ })
		close(done)
	}()
	ticks <- time.Now()
	ticks <- time.Now()
	close(quit)
	<-done
	if n != 2 {
		t.Fatalf("%d calls for 2 ticks", n)
	}
}

func TestProgressLeft(t *testing.T) {
	if _, ok := (Progress{Stage: Solving, Elapsed: time.Second, Positions: 9}).Left(); ok {
		t.Error("a time left before any position is solved")
	}
	if left, ok := (Progress{Stage: Solving, Elapsed: 3 * time.Second, Positions: 9, Solved: 3}).Left(); !ok || left != 6*time.Second {
		t.Errorf("left %v %t, want 6s", left, ok)
	}
}

// TestPlies: the positions 3 plies on are counted once up to symmetry,
// their minimax is the position's own value, and the game's solver, the
// generic search and two threads find the same values.
func TestPlies(t *testing.T) {
	for _, game := range []string{"erdos", "erdos:algol"} {
		var first string
		for _, o := range []Options{{}, {Generic: true, TableMB: 4}, {Threads: 2}} {
			r, err := Plies(context.Background(), position(t, game, erdosLine), PliesOptions{Options: o, Plies: 3})
			if err != nil {
				t.Fatal(err)
			}
			n := len(r.Positions)
			if r.Dedup != "symmetry" || n == 0 || r.Solved != n || r.Win+r.Draw+r.Loss != n ||
				r.Start == nil || *r.Start != (Verdict{1, "win"}) || int64(n) >= r.Lines {
				t.Fatalf("%s %+v: %+v", game, o, r)
			}
			sum := 0
			for _, c := range r.Values {
				sum += c
			}
			if sum != n {
				t.Fatalf("%s: values %v count %d positions of %d", game, r.Values, sum, n)
			}
			var b strings.Builder
			for _, l := range r.Positions {
				fmt.Fprintf(&b, "%s %+v %t\n", l.Key, l.Verdict, l.Solved)
			}
			fmt.Fprint(&b, r.Lines, r.Values, r.ValueMin, r.Win, r.Draw, r.Loss)
			if first == "" {
				first = b.String()
			} else if b.String() != first {
				t.Errorf("%s %+v: the positions or values differ from the game solver's", game, o)
			}
		}
	}
	// A game without symmetry classes counts transpositions once, and the
	// minimax over 1 ply is the position's value.
	s := position(t, "pyrga", pyrgaLate)
	r, err := Plies(context.Background(), s, PliesOptions{Options: Options{TableMB: 4}, Plies: 1})
	if err != nil || r.Dedup != "transpositions" || r.Start == nil {
		t.Fatalf("pyrga: %+v %v", r, err)
	}
	one, err := Position(context.Background(), s, Options{TableMB: 4})
	if err != nil || one.Verdict != *r.Start {
		t.Fatalf("pyrga: by plies %+v, by a solve %+v %v", *r.Start, one.Verdict, err)
	}
}

// TestPliesListing: the positions 3 plies from the Erdős start, up to
// symmetry (3 764; 7 500 under algol, 120 symmetries), and the lines to
// them (1 398 000), as walking every line counted them; the listing is
// reported a ply at a time. Stopped once listed, the result has them,
// none solved, no start value, and the context's error.
func TestPliesListing(t *testing.T) {
	for _, c := range []struct {
		game     string
		distinct int
	}{{"erdos", 3764}, {"erdos:algol", 7500}} {
		ctx, cancel := context.WithCancel(context.Background())
		var reports []Progress
		o := PliesOptions{Plies: 3, Options: Options{TableMB: 4, Progress: func(p Progress) {
			reports = append(reports, p)
			if p.Stage == Listed {
				cancel()
			}
		}}}
		r, err := Plies(ctx, position(t, c.game, ""), o)
		cancel()
		if !errors.Is(err, context.Canceled) || r.Solved != 0 || r.Start != nil {
			t.Fatalf("%s: %v, %d solved, start %v", c.game, err, r.Solved, r.Start)
		}
		if len(r.Positions) != c.distinct || r.Lines != 1398000 || r.Dedup != "symmetry" {
			t.Errorf("%s: %d distinct positions, %d lines, by %s; want %d, 1398000, symmetry", c.game, len(r.Positions), r.Lines, r.Dedup, c.distinct)
		}
		want := []Progress{
			{Stage: Listing, Plies: 1, Positions: 13},
			{Stage: Listing, Plies: 2},
			{Stage: Listed, Plies: 3, Positions: c.distinct, Lines: 1398000, Dedup: "symmetry"},
		}
		if len(reports) != 3 {
			t.Fatalf("%s: reports %+v", c.game, reports)
		}
		for i := range reports {
			reports[i].Elapsed = 0
		}
		reports[1].Positions = 0 // not checked
		if c.game != "erdos" {
			reports[0].Positions = 13 // checked for erdos only
		}
		if fmt.Sprint(reports) != fmt.Sprint(want) {
			t.Errorf("%s: reports\n%+v, want\n%+v", c.game, reports, want)
		}
	}
}

// TestPliesListingStops: a context done while the listing runs (6 plies
// take minutes) stops it with a *ListingStopped that says at which ply.
func TestPliesListingStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := PliesOptions{Plies: 6, Options: Options{TableMB: 4, Progress: func(p Progress) {
		if p.Stage == Listing && p.Plies == 1 {
			cancel()
		}
	}}}
	r, err := Plies(ctx, position(t, "erdos", ""), o)
	var ls *ListingStopped
	if !errors.As(err, &ls) || ls.Ply != 2 || !errors.Is(err, context.Canceled) || r.Positions != nil {
		t.Fatalf("%v (%d positions), want a stop listing ply 2", err, len(r.Positions))
	}
	if want := "stopped listing the positions after 2 plies: context canceled"; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
}

// TestPliesListingMemory: the listing stops, naming Plies, once the heap
// outgrows its share of the machine's memory (here a share so small that
// the first check stops it).
func TestPliesListingMemory(t *testing.T) {
	if _, known := sysmem.Total(); !known {
		t.Skip("the machine's memory is unknown here")
	}
	defer func(share float64) { heapShare = share }(heapShare)
	heapShare = 1e-12
	_, err := Plies(context.Background(), position(t, "erdos", ""), PliesOptions{Plies: 2, Options: Options{TableMB: 4}})
	var oe *option.Error
	if !errors.As(err, &oe) || oe.Name != "Plies" || !strings.Contains(err.Error(), "distinct positions after 1 ply already fill") ||
		!strings.Contains(err.Error(), "of this machine's memory: use fewer Plies") {
		t.Errorf("%v", err)
	}
}

// TestOptionErrors: values out of range are refused naming the option,
// before any work.
func TestOptionErrors(t *testing.T) {
	s := position(t, "erdos", erdosLine)
	for _, c := range []struct {
		o    PliesOptions
		name string
		want string
	}{
		{PliesOptions{Options: Options{Threads: -1}, Plies: 1}, "Threads", "Threads -1: use 1 to 256"},
		{PliesOptions{Options: Options{Threads: 257}}, "Threads", "Threads 257: use 1 to 256"},
		{PliesOptions{Options: Options{TableMB: -1}}, "TableMB", "TableMB -1: use 1 to 65536 MB (0: the solver's choice)"},
		{PliesOptions{Options: Options{TableMB: MaxTableMB + 1}}, "TableMB", "TableMB 65537: use 1 to 65536 MB"},
		{PliesOptions{Plies: 65}, "Plies", "Plies 65: use 0 to 64 (0: the position itself)"},
		{PliesOptions{Plies: -1}, "Plies", "Plies -1: use 0 to 64"},
	} {
		_, err := Plies(context.Background(), s, c.o)
		errs := []error{err}
		if c.o.Plies == 0 {
			_, err := Position(context.Background(), s, c.o.Options)
			errs = append(errs, err)
		}
		for _, err := range errs {
			var oe *option.Error
			if !errors.As(err, &oe) || oe.Name != c.name || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%+v: %v, want %q", c.o, err, c.want)
			}
		}
	}
	// Every thread of Plies has its own table: all of them must fit.
	if total, known := sysmem.Total(); known {
		mb := min(int(total>>20)/4, MaxTableMB)
		n := min(int(total>>20)/mb+1, MaxThreads)
		o := PliesOptions{Options: Options{Threads: n, TableMB: mb}, Plies: 1}
		_, err := Plies(context.Background(), s, o)
		want := fmt.Sprintf("TableMB: %d per thread × Threads %d (with Plies each thread has its own table) = %d MB is more than this machine can hold", mb, n, n*mb)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
	}
	over := position(t, "erdos", erdosLine)
	for !over.Terminal() {
		over.Play(over.LegalMoves(nil)[0])
	}
	if _, err := Position(context.Background(), over, Options{}); err == nil || !strings.HasPrefix(err.Error(), "the game is already over") {
		t.Errorf("a finished game: %v", err)
	}
}

// TestStopped: what a stopped solve still proved, read from its error and
// said in the game's notation; nothing for a move that is not legal or no
// such error.
func TestStopped(t *testing.T) {
	s := position(t, "othello6", "")
	c2, err := s.ParseMove("c2")
	if err != nil {
		t.Fatal(err)
	}
	pass, _ := s.ParseMove("pass")
	for _, c := range []struct {
		err  error
		want string
	}{
		{&games.KeptHint{Move: c2, Value: -4, Err: context.DeadlineExceeded}, "c2 is proven worth at least -4"},
		{fmt.Errorf("wrapped: %w", &games.BestGuess{Move: c2, Err: context.DeadlineExceeded}), "its best guess: c2"},
		{&games.BestGuess{Move: pass, Err: context.DeadlineExceeded}, ""},
		{context.DeadlineExceeded, ""},
		{&games.ProvenBounds{Lo: 1, Hi: 5, Err: context.Canceled}, "proven: the value is from +1 to +5, a win for the side to move"},
		{&games.ProvenBounds{Lo: -5, Hi: -1, Err: context.Canceled}, "proven: the value is from -5 to -1, a loss for the side to move"},
		{&games.ProvenBounds{Lo: 0, Hi: 2, Err: context.Canceled}, "proven: the value is from +0 to +2, at least a draw for the side to move"},
		{&games.ProvenBounds{Lo: -2, Hi: 0, Err: context.Canceled}, "proven: the value is from -2 to +0, at best a draw for the side to move"},
		{&games.ProvenBounds{Lo: -3, Hi: 3, Err: context.Canceled}, "proven: the value is from -3 to +3, the winner not yet known"},
	} {
		if got := Stopped(s, c.err).Describe(s); got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
}
