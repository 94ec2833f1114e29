// Package agents defines the Agent interface, the registry of agent kinds
// and the agents of the project, each named by a spec such as "random",
// "greedy" or "mcts:iters=2000,c=1.2".
//
// Parse reads a spec once into a Spec (its kind, keys, display name and
// its own tc= clock) and Spec.New builds an agent from it with a seed; New
// and Validate do both from the text. Every random choice an agent makes
// flows from that seed, so the same seed and settings give the same games.
// A kind registers itself (Register with a Kind: name, help, keys, New),
// and is then accepted wherever a spec is; errors name the spec and the
// key that was wrong and list the kinds or keys that exist.
//
// The kinds: random, greedy, human, alphabeta and mcts (over
// search/alphabeta and search/mcts), perfect (a game's exact solver and
// book), and the external ones, cg (a CodinGame bot, supervised by
// agents/botproc) and ugi (an engine speaking UGI: a thin adapter over
// ugi.Client, whose grammar and client live in package ugi).
//
// An agent's display name (DisplayName) is its name= key, else for an
// external agent its program's name ("ugi:cmd=python3 bots/engine.py" is
// engine.py), else its spec; a run makes its agents' names unique (Names)
// and records each spec whole beside its name.
//
// Optional interfaces say more about an agent to the arena: Seeder,
// GameStarter, GameChecker, ProgramChecker, Budgeter, StartBudgeter,
// MoveLimiter, Reporter (Stats of a move) and Analyser (what it thinks of
// every move). A move's context carries its deadline, and may carry a
// game clock (WithClock, ClockFrom; the arena's and ugi/server's) and move
// limits (WithMoveLimits; ugi/server's go depth and go nodes).
package agents

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/spec"
)

// Agent chooses moves.
type Agent interface {
	// Name is the display name (DisplayName: the spec's name= key, else
	// an external agent's program, else the spec itself).
	Name() string
	// Move returns a legal move for player p in s. For a sequential game p
	// is s.ToMove(); for a simultaneous one it is the player whose move is
	// wanted. The agent may play and undo moves on s but must leave it as it
	// found it. ctx carries the arena's deadline for this move; an agent
	// with its own time budget should stop well before it.
	Move(ctx context.Context, s games.Base, p int) (games.Move, error)
}

// Stats describes the work behind an agent's last move.
type Stats struct {
	Nodes int64  // positions, iterations or playouts searched
	Depth int    // completed search depth, if the agent has one
	Score int    // the agent's evaluation of its move, from its own view
	Info  string // free-form detail, e.g. a principal variation
}

// Reporter is implemented by agents that report Stats for their last move.
type Reporter interface {
	LastStats() Stats
}

// GameStarter is implemented by agents that want to know when a new game
// starts (to reset trees or talk to an external process). The arena calls
// NewGame before the first move of every game; p is the agent's seat.
type GameStarter interface {
	NewGame(v games.Variant, p int) error
}

// Seeder is implemented by agents that can restart their random choices
// from a new seed. After Seed(s) (and NewGame, for a GameStarter) the agent
// must play exactly as a fresh New(spec, s) would, so that the arena can
// reuse one instance for many games and still reproduce each game from its
// seed. The arena rebuilds agents without it for every game.
type Seeder interface {
	Seed(seed uint64)
}

// GameChecker is implemented by agents that can play only some games (an
// external bot speaks one game's protocol). CheckGame returns an error
// saying what the agent needs and what to use instead when it cannot play
// v; the arena asks before the first game, so that a mismatch stops a run
// at once instead of losing every game.
type GameChecker interface {
	CheckGame(v games.Variant) error
}

// CheckGame returns a's CheckGame error for v if a is a GameChecker, else
// nil.
func CheckGame(a Agent, v games.Variant) error {
	if c, ok := a.(GameChecker); ok {
		return c.CheckGame(v)
	}
	return nil
}

// Budgeter is implemented by agents that keep their own time per move
// (a search's time=, an external bot's turn=): MoveTime returns the
// wall-clock time the agent takes for a move, first telling whether it is
// the agent's first move of a game (which external protocols often allow
// more time); 0 means the agent has no time budget. In automatic mode the
// arena makes this its per-move limit, so that an agent is held to the
// budget it was given and not to a limit it knows nothing of.
type Budgeter interface {
	MoveTime(first bool) time.Duration
}

// MoveTime returns a's MoveTime(first) if a is a Budgeter, else 0.
func MoveTime(a Agent, first bool) time.Duration {
	if b, ok := a.(Budgeter); ok {
		return b.MoveTime(first)
	}
	return 0
}

// StartBudgeter is implemented by agents whose NewGame may take longer
// than a move: an external engine started (or restarted after a crash) by
// NewGame, with its handshake. StartTime returns the longest NewGame may
// take; the arena allows NewGame the larger of it and the first move's
// limit, so that a slow process start (an interpreter on a loaded
// machine) does not lose the game before its first move. The agent's own
// protocol deadlines still stop a hung start.
type StartBudgeter interface {
	StartTime() time.Duration
}

// StartTime returns a's StartTime() if a is a StartBudgeter, else 0.
func StartTime(a Agent) time.Duration {
	if b, ok := a.(StartBudgeter); ok {
		return b.StartTime()
	}
	return 0
}

// Key documents one key an agent spec accepts.
type Key struct {
	Name string // a name ending in "." stands for every key with that prefix
	Help string
}

// Kind is a registered kind of agent.
type Kind struct {
	Name string
	Help string
	Keys []Key // accepted keys besides name=
	// New builds an agent from a parsed spec whose keys were checked
	// against Keys, and a seed for its random choices.
	New func(s spec.Spec, seed uint64) (Agent, error)
}

var (
	mu    sync.RWMutex
	kinds = map[string]*Kind{}
)

// Register adds an agent kind; it panics on a duplicate name.
func Register(k *Kind) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := kinds[k.Name]; dup {
		panic("agents: duplicate registration of " + k.Name)
	}
	kinds[k.Name] = k
}

// Kinds returns the registered agent kinds sorted by name.
func Kinds() []*Kind {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]*Kind, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b *Kind) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ProgramChecker is an agent that runs an external program (ugi, cg):
// CheckProgram says why the program could not start on this machine
// (botproc.Check), so that a run can refuse it before its first game
// instead of losing every game as a crash. The error does not name the
// agent: the caller names it, by the spec it was given.
type ProgramChecker interface {
	CheckProgram() error
}

// checkProgram is CheckProgram for an agent that runs argv, its stderr
// appended to stderrPath if not empty.
func checkProgram(argv []string, stderrPath string) error {
	return botproc.Check(botproc.Config{Argv: argv, StderrFile: stderrPath})
}

// Spec is an agent spec read once: its kind and keys, and its own time
// control (tc=, every kind's key). The arena reads each spec of a run
// into a Spec and builds its agents from it, instead of parsing the text
// again for the name, the clock and each agent.
type Spec struct {
	spec.Spec
	// Clock is the spec's tc= time control; HasClock is false without one.
	Clock    TimeControl
	HasClock bool
}

// Parse reads an agent spec: its syntax and its tc= key. Whether the kind
// exists and takes the keys given is checked by New.
func Parse(text string) (Spec, error) {
	sp, err := spec.Parse(text)
	if err != nil {
		return Spec{}, fmt.Errorf("agent spec: %v", err)
	}
	s := Spec{Spec: sp}
	if v, ok := sp.Vals["tc"]; ok {
		if s.Clock, err = ParseTimeControl(v); err != nil {
			return Spec{}, fmt.Errorf("%s: tc=%v", sp.Name, err)
		}
		s.HasClock = true
	}
	return s, nil
}

// Name is the display name (DisplayName): the name= key, else the
// program of an agent that runs one (cmd=), else the spec text itself.
// A run makes the names of its agents unique (Names).
func (s Spec) Name() string { return DisplayName(s.Spec) }

// New builds the agent described by text with the given seed. Errors say
// what was wrong and list the kinds or keys that exist.
func New(text string, seed uint64) (Agent, error) {
	s, err := Parse(text)
	if err != nil {
		return nil, err
	}
	return s.New(seed)
}

// New builds the agent s describes with the given seed.
func (s Spec) New(seed uint64) (Agent, error) {
	sp := s.Spec
	mu.RLock()
	k := kinds[sp.Name]
	mu.RUnlock()
	if k == nil {
		var names []string
		for _, k := range Kinds() {
			names = append(names, k.Name)
		}
		return nil, fmt.Errorf("unknown agent %q (known: %s)", sp.Name, strings.Join(names, ", "))
	}
	// name= and tc= (a per-agent time control, which the arena's clock
	// runs) are valid for every kind.
	valid := []string{"name", "tc"}
	for _, key := range k.Keys {
		valid = append(valid, key.Name)
		if strings.HasSuffix(key.Name, ".") {
			// A family of keys, such as ugi's option.NAME: every key
			// with the prefix is valid.
			for _, given := range sp.Keys {
				if strings.HasPrefix(given, key.Name) && len(given) > len(key.Name) {
					valid = append(valid, given)
				}
			}
		}
	}
	if err := sp.Check(valid...); err != nil {
		return nil, err
	}
	return k.New(sp, seed)
}

// Validate checks an agent spec without keeping the agent.
func Validate(text string) error {
	a, err := New(text, 0)
	if c, ok := a.(interface{ Close() error }); ok {
		c.Close()
	}
	return err
}
