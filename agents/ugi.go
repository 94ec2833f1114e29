package agents

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/spec"
	"github.com/boardgame-arena/arena/ugi"
)

// Defaults of the ugi agent.
const (
	// DefaultUGIInit bounds the handshake (ugi/ugiok, isready/readyok).
	DefaultUGIInit = ugi.DefaultInit
	// DefaultUGIMoveTime is the go movetime sent when the spec gives none
	// of movetime=, depth= and nodes=.
	DefaultUGIMoveTime = time.Second
	// DefaultUGIMargin is how long after its movetime an engine may still
	// answer before it is sent stop.
	DefaultUGIMargin = 500 * time.Millisecond
	// UGIStopWait is how long an engine sent stop has to give its bestmove
	// before it is killed.
	UGIStopWait = ugi.StopWait
	// UGIGameOption is the option by which an engine that plays several
	// games is told the variant (its canonical spec, e.g. erdos:algol).
	UGIGameOption = ugi.GameOption
)

func init() {
	Register(&Kind{
		Name: "ugi",
		Help: "an engine in any language speaking UGI (the Universal Game Interface, UCI's generalisation) on stdin/stdout, for every sequential game; one process per agent, reused across games",
		Keys: []Key{
			{Name: "cmd", Help: "the engine's command line (split on blanks, no shell), e.g. cmd='python3 engine.py'"},
			{Name: "movetime", Help: "go movetime: time per move, 1ms to 24h (default 1000ms unless depth= or nodes= is given)"},
			{Name: "depth", Help: "go depth: search depth per move, 1 to 1000"},
			{Name: "nodes", Help: "go nodes: nodes per move, 1 to 10^15"},
			{Name: "margin", Help: "time after movetime before the engine is sent stop, 0 to 1h (default 500ms)"},
			{Name: "init", Help: "time limit of the handshake (ugiok, readyok), 1ms to 1h (default 10s)"},
			{Name: "stderr", Help: "file the engine's stderr is appended to (default: kept in memory, the end shown on a crash)"},
			{Name: "option.", Help: "option.NAME=VALUE sends 'setoption name NAME value VALUE' after the handshake"},
		},
		New: newUGISpec,
	})
}

func newUGISpec(s spec.Spec, _ uint64) (Agent, error) {
	argv := strings.Fields(s.Vals["cmd"])
	if len(argv) == 0 || s.Bare("cmd") {
		return nil, errors.New("ugi: cmd= is required, e.g. ugi:cmd='python3 engine.py'")
	}
	a := &UGI{name: DisplayName(s), engine: ugi.Engine{Argv: argv, StderrFile: s.Vals["stderr"]}}
	var err error
	if a.search.MoveTime, err = s.DurationIn("movetime", 0, time.Millisecond, maxThink); err != nil {
		return nil, err
	}
	if a.search.Depth, err = s.IntIn("depth", 0, 1, 1000); err != nil {
		return nil, err
	}
	if a.search.Nodes, err = s.Int64In("nodes", 0, 1, 1e15); err != nil {
		return nil, err
	}
	if a.margin, err = s.DurationIn("margin", DefaultUGIMargin, 0, time.Hour); err != nil {
		return nil, err
	}
	if a.engine.Init, err = s.DurationIn("init", DefaultUGIInit, time.Millisecond, time.Hour); err != nil {
		return nil, err
	}
	if a.search == (ugi.Go{}) {
		a.search.MoveTime = DefaultUGIMoveTime
	}
	for _, k := range s.Keys {
		if name, ok := strings.CutPrefix(k, "option."); ok {
			if name == "" || strings.ContainsAny(name, " \t") || strings.ContainsAny(s.Vals[k], "\n\r") {
				return nil, fmt.Errorf("ugi: option %q: a name is not empty and holds no blanks, and a value holds no line breaks", name)
			}
			a.engine.Options = append(a.engine.Options, ugi.Setting{Name: name, Value: s.Vals[k]})
		}
	}
	a.client = ugi.NewClient(a.engine)
	return a, nil
}

// UGIEngine returns the engine a ugi agent spec describes (its command
// line, options and handshake limit), checked as New checks it.
func UGIEngine(text string) (ugi.Engine, error) {
	a, err := New(text, 0)
	if err != nil {
		return ugi.Engine{}, err
	}
	u, ok := a.(*UGI)
	if !ok {
		return ugi.Engine{}, fmt.Errorf("%s is not a ugi agent", a.Name())
	}
	return u.engine, nil
}

// UGI plays through an external engine speaking UGI, with a ugi.Client:
// one process serves the agent for all its games, and one that failed is
// replaced for the next game. Failures are errors wrapping ErrTimeout (no
// bestmove in time), ErrCrash (the engine exited or could not start) or
// ErrOutput (a malformed or illegal bestmove), which the arena records as
// timeout, crash and illegal_move.
type UGI struct {
	name   string
	engine ugi.Engine
	search ugi.Go // movetime=, depth= and nodes=
	margin time.Duration
	client *ugi.Client
}

// CheckProgram implements ProgramChecker.
func (a *UGI) CheckProgram() error {
	return checkProgram(a.engine.Argv, a.engine.StderrFile)
}

// Name implements Agent.
func (a *UGI) Name() string { return a.name }

// EngineName returns the name the engine gave in "id name", once started.
func (a *UGI) EngineName() string { return a.client.EngineName() }

// Pid returns the process id of the running engine, or 0.
func (a *UGI) Pid() int { return a.client.Pid() }

// Seed implements Seeder. The engine's random choices are its own; what
// the seed decides (the opening) is the arena's, so reseeding keeps the
// process and its handshake for the next game.
func (a *UGI) Seed(uint64) {}

// LastStats implements Reporter with what the info lines of the last
// move said (each field as the last line that gave it).
func (a *UGI) LastStats() Stats {
	i := a.client.Info()
	return Stats{Depth: i.Depth, Score: i.Score, Nodes: i.Nodes, Info: i.Text}
}

// MoveTime implements Budgeter: the movetime the engine is given, plus
// the margin after which it is sent stop and the time it then has to
// answer (0 when it searches to a depth or node count).
func (a *UGI) MoveTime(bool) time.Duration {
	if a.search.Depth > 0 || a.search.Nodes > 0 {
		return 0
	}
	return a.search.MoveTime + a.margin + UGIStopWait
}

// StartTime implements StartBudgeter: NewGame may start the engine (the
// handshake, bounded by init=) and then waits for readyok (init= again).
func (a *UGI) StartTime() time.Duration { return 2*a.engine.Init + UGIStopWait }

// CheckGame implements GameChecker: UGI describes sequential games only.
func (a *UGI) CheckGame(v games.Variant) error {
	if _, ok := v.New().(games.State); ok {
		return nil
	}
	return fmt.Errorf("ugi: UGI engines play sequential games; %s is simultaneous — use cg:cmd=… for a CodinGame bot or a built-in agent (see 'arena agents')", v.Game.Name)
}

// NewGame implements GameStarter: it (re)starts the engine if needed,
// announces the variant and sends uginewgame.
func (a *UGI) NewGame(v games.Variant, _ int) error {
	if err := a.CheckGame(v); err != nil {
		return err
	}
	return a.wrap(a.client.NewGame(v))
}

// Close sends quit and stops the engine with its process group. The agent
// can play again (a new process is started).
func (a *UGI) Close() error { return a.client.Close() }

// GoCommand returns the go command the agent sends (without a clock).
func (a *UGI) GoCommand() string { return a.search.String() }

// Move implements Agent: ugi.Client.Move with the spec's go command and
// margin. A move under a clock (ClockFrom(ctx)) is asked for with the
// clock and the spec's depth= or nodes=, never its movetime=: the engine
// plans its own time.
func (a *UGI) Move(ctx context.Context, b games.Base, p int) (games.Move, error) {
	s, ok := b.(games.State)
	if !ok {
		return 0, fmt.Errorf("ugi: %T is simultaneous; UGI engines play sequential games", b)
	}
	g := a.search
	if c, ok := ClockFrom(ctx); ok {
		g = ugi.Go{Clock: true, Time: c.Remaining, Inc: c.Inc, Depth: a.search.Depth, Nodes: a.search.Nodes}
	}
	m, err := a.client.Move(ctx, s, g, a.margin)
	return m, a.wrap(err)
}

// wrap names the agent in a client's error, and makes the kind of a
// failure the agents' kind the arena records.
func (a *UGI) wrap(err error) error {
	if err == nil {
		return nil // before e, which escapes: a move allocates nothing here
	}
	var e *ugi.Error
	if !errors.As(err, &e) {
		return fmt.Errorf("ugi %s: %v", a.name, err)
	}
	kind := e.Kind
	switch kind {
	case ugi.ErrTimeout:
		kind = ErrTimeout
	case ugi.ErrCrash:
		kind = ErrCrash
	case ugi.ErrOutput:
		kind = ErrOutput
	}
	return fmt.Errorf("ugi %s: %w: %s", a.name, kind, e.Detail)
}
