package arena

import (
	"context"
	"fmt"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// Solver adjudication (Options.Adjudicate solve:empties=N[,time=D]): before each
// move, a position that can say how many empty cells it has
// (games.EmptiesCounter) and has an exact solver (games.ExactSolver) is
// solved once it has at most N empties, within D. If the solver finishes,
// the game ends there: its principal variation is played out on the board
// to the end of the game, whose outcome is the recorded result, with the
// termination results.Adjudication and Adjudicated results.AdjudicatedSolved;
// the moves recorded are those the agents played. If it does not finish,
// the game goes on and the next position is tried. Games of other kinds
// are never adjudicated this way.

// Limits of solve adjudication.
const (
	// MaxAdjudicateEmpties bounds empties=N (more than any game's board).
	MaxAdjudicateEmpties = 100
	// DefaultAdjudicateTime is the solve budget when time= is left out.
	DefaultAdjudicateTime = time.Second
	// MaxAdjudicateTime bounds time=D: a solve is tried before every move.
	MaxAdjudicateTime = 10 * time.Minute
	// verifyTimeFactor: CheckGame re-solves with this many times the
	// budget (at least verifyMinTime), as the checker may be busier than
	// the worker was.
	verifyTimeFactor = 10
	verifyMinTime    = 10 * time.Second
)

// SolveAdjudication is a parsed Options.Adjudicate solve:… setting; the zero
// value is off.
type SolveAdjudication struct {
	Empties int           // solve positions with at most this many empties (0: off)
	Time    time.Duration // the budget of one solve
}

// ParseAdjudicate reads an Options.Adjudicate value: "" or "none" (off), or
// solve:empties=N[,time=D] with N from 1 to MaxAdjudicateEmpties and D from
// 1ms to MaxAdjudicateTime (default DefaultAdjudicateTime).
func ParseAdjudicate(text string) (SolveAdjudication, error) {
	if text == "" || text == "none" {
		return SolveAdjudication{}, nil
	}
	sp, err := spec.Parse(text)
	if err != nil {
		return SolveAdjudication{}, option.New("Adjudicate", text, "%v", err)
	}
	if sp.Name != "solve" {
		return SolveAdjudication{}, option.New("Adjudicate", text, "unknown kind %q; want solve:empties=N[,time=D] (end a game once the game's exact solver settles it) or none", sp.Name)
	}
	if err := sp.Check("empties", "time"); err != nil {
		return SolveAdjudication{}, option.New("Adjudicate", nil, "%v", err)
	}
	if !sp.Has("empties") {
		return SolveAdjudication{}, option.New("Adjudicate", text, "say from how many empty cells to solve, e.g. solve:empties=10")
	}
	var a SolveAdjudication
	if a.Empties, err = sp.IntIn("empties", 0, 1, MaxAdjudicateEmpties); err != nil {
		return SolveAdjudication{}, option.New("Adjudicate", nil, "%v", err)
	}
	if a.Time, err = sp.DurationIn("time", DefaultAdjudicateTime, time.Millisecond, MaxAdjudicateTime); err != nil {
		return SolveAdjudication{}, option.New("Adjudicate", nil, "%v", err)
	}
	return a, nil
}

// String is the canonical text, which ParseAdjudicate reads back ("" when
// off).
func (a SolveAdjudication) String() string {
	if a.Empties == 0 {
		return ""
	}
	return fmt.Sprintf("solve:empties=%d,time=%s", a.Empties, spec.FormatDuration(a.Time))
}

// solvable returns b as a solver when adjudication a applies to it now: a
// sequential game in progress, with an exact solver, at most a.Empties
// empty cells.
func (a SolveAdjudication) solvable(b games.Base) (games.ExactSolver, bool) {
	if a.Empties == 0 || b.Terminal() {
		return nil, false
	}
	if _, ok := b.(games.State); !ok {
		return nil, false
	}
	ec, ok := b.(games.EmptiesCounter)
	if !ok || ec.Empties() > a.Empties {
		return nil, false
	}
	s, ok := b.(games.ExactSolver)
	return s, ok
}

// solvedOutcome solves b (which must be solvable) within budget and plays
// the principal variation out on b to the end of the game, then takes it
// back: it returns that final outcome and the solver's value. ok is false
// when the solver did not finish, or its line does not replay legally to
// the end, or the value's sign disagrees with the line's result (the game
// then goes on).
func solvedOutcome(ctx context.Context, s games.ExactSolver, b games.Base, budget time.Duration) (o games.Outcome, value int, ok bool) {
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	value, pv, _, err := s.SolveExact(ctx, games.SolveOptions{Threads: 1})
	if err != nil {
		return o, 0, false
	}
	mover := b.(games.State).ToMove()
	played := 0
	defer func() {
		for ; played > 0; played-- {
			b.Undo()
		}
	}()
	for _, m := range pv {
		if b.Terminal() {
			return o, 0, false // a line longer than the game
		}
		st := b.(games.State)
		if !legalFor(b, st.ToMove(), m) {
			return o, 0, false
		}
		st.Play(m)
		played++
	}
	if !b.Terminal() {
		return o, 0, false
	}
	o = b.Outcome()
	// The value is the mover's: its sign must be the line's result for
	// the mover (a win, a loss, or 0 for a draw).
	want := 0
	switch o.Winner {
	case mover:
		want = 1
	case 1 - mover:
		want = -1
	}
	if sign(value) != want {
		return o, 0, false
	}
	return o, value, true
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// adjudicateSolved writes a solved adjudication into rec.
func adjudicateSolved(rec *results.GameRecord, o games.Outcome, value, empties, ply int) {
	rec.Winner, rec.Score, rec.Result = o.Winner, o.Score, o.Result()
	rec.Termination, rec.Adjudicated = results.Adjudication, results.AdjudicatedSolved
	rec.Detail = fmt.Sprintf("solved after ply %d with %d empty cells: value %+d for the side to move; perfect play ends %s (score %d)", ply, empties, value, o.Result(), o.Score)
}

// checkSolved checks a record's solved adjudication: the final position
// must be one adjudication a applies to, and solving it again must give
// the recorded result.
func checkSolved(g *results.GameRecord, a SolveAdjudication, b games.Base) error {
	s, ok := a.solvable(b)
	if !ok {
		return fmt.Errorf("game %d: adjudicated as solved, but the run's adjudication %q does not apply to the final position", g.Index, a.String())
	}
	o, _, ok := solvedOutcome(context.Background(), s, b, max(verifyTimeFactor*a.Time, verifyMinTime))
	if !ok {
		return fmt.Errorf("game %d: adjudicated as solved, but solving the final position again did not finish in time", g.Index)
	}
	if o.Winner != g.Winner || o.Score != g.Score || o.Result() != g.Result {
		return fmt.Errorf("game %d: adjudicated as solved with %s (score %d), but solving the final position gives %s (score %d)", g.Index, g.Result, g.Score, o.Result(), o.Score)
	}
	return nil
}
