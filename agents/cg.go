package agents

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/spec"
)

// Errors of the cg agent; Move wraps them with the details.
var (
	// ErrTimeout: the bot did not answer within its time limit (a loss, §9
	// of the TryAngle Catch spec).
	ErrTimeout = errors.New("timeout")
	// ErrCrash: the bot could not be started, exited, or closed its output.
	ErrCrash = errors.New("bot crashed")
	// ErrOutput: the bot wrote something that is not an output line at all
	// (longer than MaxCGLine bytes): an illegal move.
	ErrOutput = errors.New("unusable output")
)

// MaxCGLine bounds one output line of a cg bot.
const MaxCGLine = botproc.DefaultMaxLine

// Default time limits of the cg agent: CodinGame's for TryAngle Catch.
const (
	DefaultCGFirst = 1000 * time.Millisecond
	DefaultCGTurn  = 50 * time.Millisecond
)

// CGGame is a game whose positions can be written as the input a
// CodinGame bot reads on a turn (tryangle.State is one).
type CGGame interface {
	games.Base
	// AppendInput appends player p's input for this turn; first adds the
	// initialisation block of the game's first turn.
	AppendInput(b []byte, p int, first bool) []byte
}

func init() {
	Register(&Kind{
		Name: "cg",
		Help: "an unmodified CodinGame bot run as a process, speaking the game's CodinGame protocol (tryangle): a timeout or crash loses, an unknown command loses by the game's rules",
		Keys: []Key{
			{Name: "cmd", Help: "the bot's command line (split on blanks, no shell), e.g. cmd='python3 bot.py'"},
			{Name: "first", Help: "time limit of the first answer of a game, 1ms to 24h (default 1000ms)"},
			{Name: "turn", Help: "time limit of every later answer, 1ms to 24h (default 50ms)"},
			{Name: "stderr", Help: "file the bot's stderr is appended to (default: kept in memory, last 4 KiB shown on a crash)"},
		},
		New: func(s spec.Spec, _ uint64) (Agent, error) {
			argv := strings.Fields(s.Vals["cmd"])
			if len(argv) == 0 || s.Bare("cmd") {
				return nil, errors.New("cg: cmd= is required, e.g. cg:cmd=./mybot")
			}
			first, err := s.DurationIn("first", DefaultCGFirst, time.Millisecond, maxThink)
			if err != nil {
				return nil, err
			}
			turn, err := s.DurationIn("turn", DefaultCGTurn, time.Millisecond, maxThink)
			if err != nil {
				return nil, err
			}
			return NewCG(DisplayName(s), argv, first, turn, s.Vals["stderr"]), nil
		},
	})
}

// CG plays through an external CodinGame bot. Every game gets a fresh
// process (NewGame, or the first Move), supervised by package botproc: the
// bot runs in a process group of its own, and the whole group is killed
// when the bot fails, at the next game and on Close. Each turn the agent
// writes the game's input for its seat, waits for one line within the time
// limit and returns it as a move (ParseMove). A line holding an unknown
// command is returned as a move too: the game's referee makes the player
// lose with it, exactly as on CodinGame (the arena records the reason, see
// games.MoveFaulter). A timeout, a crash or an overlong line is returned as
// an error wrapping ErrTimeout, ErrCrash or ErrOutput; the bot is then
// stopped and every later Move of that game fails the same way.
type CG struct {
	name        string
	argv        []string
	first, turn time.Duration
	stderrPath  string

	slot      botproc.Slot // the bot's process, killed should the agent be dropped unclosed
	firstTurn bool
	err       error // sticky failure of the current game
	buf       []byte
}

// CheckProgram implements ProgramChecker.
func (a *CG) CheckProgram() error { return checkProgram(a.argv, a.stderrPath) }

// NewCG returns a cg agent running argv. stderrPath, when not empty,
// receives the bot's stderr (appended).
func NewCG(name string, argv []string, first, turn time.Duration, stderrPath string) *CG {
	return &CG{name: name, argv: argv, first: first, turn: turn, stderrPath: stderrPath}
}

// Name implements Agent.
func (a *CG) Name() string { return a.name }

// MoveTime implements Budgeter: first= for the first answer of a game,
// turn= for the others, so that the arena's limit is the bot's own.
func (a *CG) MoveTime(first bool) time.Duration {
	if first {
		return a.first
	}
	return a.turn
}

// CheckGame implements GameChecker: a cg bot needs a game with a CodinGame
// protocol (its state implements CGGame).
func (a *CG) CheckGame(v games.Variant) error {
	if _, ok := v.New().(CGGame); ok {
		return nil
	}
	var with []string
	for _, g := range games.All() {
		if w, err := games.Lookup(g.Name); err == nil {
			if _, ok := w.New().(CGGame); ok {
				with = append(with, g.Name)
			}
		}
	}
	return fmt.Errorf("cg: bots speak the CodinGame protocol of %s; %s has none — use a built-in agent (see 'arena agents')", strings.Join(with, ", "), v.Game.Name)
}

// NewGame implements GameStarter: it stops the previous process and starts
// a fresh one.
func (a *CG) NewGame(v games.Variant, _ int) error {
	if err := a.CheckGame(v); err != nil {
		return err
	}
	a.Close()
	a.err = nil
	return a.start()
}

func (a *CG) start() error {
	p, err := botproc.Start(botproc.Config{Argv: a.argv, MaxLine: MaxCGLine, StderrFile: a.stderrPath})
	if err != nil {
		a.err = fmt.Errorf("cg %s: %w: %v", a.name, ErrCrash, err)
		return a.err
	}
	botproc.Attach(a, &a.slot, p)
	a.firstTurn = true
	return nil
}

// Close stops the bot's process and its whole process group. The agent can
// play again (NewGame or Move start a new process).
func (a *CG) Close() error {
	a.slot.Stop()
	return nil
}

// Move implements Agent. The answer is due within the bot's own limit
// (first= or turn=), or by ctx's deadline when that comes first; both are
// reported alike, as "no answer within" the limit that expired.
func (a *CG) Move(ctx context.Context, s games.Base, p int) (games.Move, error) {
	g, ok := s.(CGGame)
	if !ok {
		return 0, fmt.Errorf("cg: %T has no CodinGame protocol", s)
	}
	if a.err != nil {
		return 0, a.err
	}
	if a.slot.Process() == nil {
		if err := a.start(); err != nil {
			return 0, err
		}
	}
	proc := a.slot.Process()
	start := time.Now()
	limit := a.turn
	if a.firstTurn {
		limit = a.first
	}
	deadline := start.Add(limit)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline, limit = d, d.Sub(start).Round(time.Millisecond)
	}
	a.buf = g.AppendInput(a.buf[:0], p, a.firstTurn)
	a.firstTurn = false
	// A bot that does not take its input has not answered either: the
	// same timeout, whichever step it stalls in.
	err := proc.Write(a.buf, deadline)
	var line string
	if err == nil {
		line, err = proc.ReadLine(ctx, deadline)
	}
	switch {
	case err == nil:
		m, err := s.ParseMove(line)
		if err != nil {
			return 0, a.fail(ErrOutput, "%v", err)
		}
		return m, nil
	case errors.Is(err, botproc.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return 0, a.fail(ErrTimeout, "no answer within %s", limit)
	case errors.Is(err, botproc.ErrLineTooLong):
		return 0, a.fail(ErrOutput, "an output line longer than %d bytes", MaxCGLine)
	case errors.Is(err, botproc.ErrExited):
		return 0, a.fail(ErrCrash, "%s", a.exitReport(err))
	case errors.Is(err, context.Canceled):
		return 0, a.fail(err, "stopped by the arena")
	}
	return 0, a.fail(ErrCrash, "%v", err)
}

// exitReport describes how the bot ended, without botproc's prefix.
func (a *CG) exitReport(err error) string {
	msg := err.Error()
	return strings.TrimPrefix(msg, botproc.ErrExited.Error()+": ")
}

// fail records the game's failure, stops the bot (its whole process
// group) and returns the error, with the end of the bot's stderr added
// (but for a crash, whose description already carries it).
func (a *CG) fail(kind error, format string, args ...any) error {
	a.err = fmt.Errorf("cg %s: %w: %s", a.name, kind, fmt.Sprintf(format, args...))
	if tail := a.slot.StopTail(300); tail != "" && kind != ErrCrash {
		a.err = fmt.Errorf("%w; stderr ends with: %s", a.err, tail)
	}
	return a.err
}
