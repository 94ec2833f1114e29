package arena

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// The arena's tests use two tiny games of their own so that they do not
// depend on the real games' packages:
//
//   - "t-sum" (sequential): for 10 plies the players alternately say 1, 2
//     or 3; the higher total wins, equal totals draw. The first mover's
//     margin is the difference of the totals.
//   - "t-sim" (simultaneous): for 6 turns both players say 0, 1 or 2 at
//     once; saying one more than the opponent (mod 3) scores a point.

func init() {
	games.Register(&games.Entry{Name: "t-sum", Title: "test sum game", Notation: "1, 2 or 3",
		New: func(s spec.Spec) (games.Base, error) {
			if err := s.Check(); err != nil {
				return nil, err
			}
			return &sumGame{}, nil
		}})
	games.Register(&games.Entry{Name: "t-sim", Title: "test simultaneous game", Notation: "0, 1 or 2",
		New: func(s spec.Spec) (games.Base, error) {
			if err := s.Check(); err != nil {
				return nil, err
			}
			return &simGame{}, nil
		}})
	for _, k := range testAgents {
		agents.Register(k)
	}
}

const sumPlies = 10

type sumGame struct {
	said []games.Move
}

func (g *sumGame) ToMove() int {
	if g.Terminal() {
		return games.None
	}
	return len(g.said) % 2
}
func (g *sumGame) Terminal() bool { return len(g.said) >= sumPlies }
func (g *sumGame) Outcome() games.Outcome {
	var tot [2]int
	for i, m := range g.said {
		tot[i%2] += int(m)
	}
	o := games.Outcome{Winner: games.Draw, Score: tot[0] - tot[1]}
	switch {
	case tot[0] > tot[1]:
		o.Winner = 0
	case tot[1] > tot[0]:
		o.Winner = 1
	}
	return o
}
func (g *sumGame) Ply() int { return len(g.said) }
func (g *sumGame) Undo()    { g.said = g.said[:len(g.said)-1] }
func (g *sumGame) Hash() uint64 {
	h := uint64(len(g.said))
	for _, m := range g.said {
		h = h*31 + uint64(m)
	}
	return h
}
func (g *sumGame) ComputeHash() uint64            { return g.Hash() } // Hash is from scratch
func (g *sumGame) FormatMove(m games.Move) string { return strconv.Itoa(int(m)) }
func (g *sumGame) ParseMove(s string) (games.Move, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 3 {
		return 0, fmt.Errorf("t-sum: %q is not 1, 2 or 3", s)
	}
	return games.Move(n), nil
}
func (g *sumGame) String() string { return fmt.Sprint(g.said) }
func (g *sumGame) LegalMoves(buf []games.Move) []games.Move {
	if g.Terminal() {
		return buf
	}
	return append(buf, 1, 2, 3)
}
func (g *sumGame) Play(m games.Move) { g.said = append(g.said, m) }
func (g *sumGame) Clone() games.State {
	return &sumGame{said: append([]games.Move(nil), g.said...)}
}

const simTurns = 6

type simGame struct {
	turns [][2]games.Move
}

func (g *simGame) ToMove() int {
	if g.Terminal() {
		return games.None
	}
	return games.Both
}
func (g *simGame) Terminal() bool { return len(g.turns) >= simTurns }
func (g *simGame) Outcome() games.Outcome {
	var pts [2]int
	for _, t := range g.turns {
		for p := 0; p < 2; p++ {
			if t[p] == (t[1-p]+1)%3 {
				pts[p]++
			}
		}
	}
	o := games.Outcome{Winner: games.Draw, Score: pts[0] - pts[1]}
	switch {
	case pts[0] > pts[1]:
		o.Winner = 0
	case pts[1] > pts[0]:
		o.Winner = 1
	}
	return o
}
func (g *simGame) Ply() int { return len(g.turns) }
func (g *simGame) Undo()    { g.turns = g.turns[:len(g.turns)-1] }
func (g *simGame) Hash() uint64 {
	h := uint64(len(g.turns))
	for _, t := range g.turns {
		h = h*31 + uint64(t[0])*3 + uint64(t[1])
	}
	return h
}
func (g *simGame) ComputeHash() uint64            { return g.Hash() } // Hash is from scratch
func (g *simGame) FormatMove(m games.Move) string { return strconv.Itoa(int(m)) }
func (g *simGame) ParseMove(s string) (games.Move, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > 2 {
		return 0, fmt.Errorf("t-sim: %q is not 0, 1 or 2", s)
	}
	return games.Move(n), nil
}
func (g *simGame) String() string { return fmt.Sprint(g.turns) }
func (g *simGame) LegalMovesFor(p int, buf []games.Move) []games.Move {
	if g.Terminal() {
		return buf
	}
	return append(buf, 0, 1, 2)
}
func (g *simGame) PlayJoint(a, b games.Move) { g.turns = append(g.turns, [2]games.Move{a, b}) }
func (g *simGame) Clone() games.SimState {
	return &simGame{turns: append([][2]games.Move(nil), g.turns...)}
}

// Misbehaving agents. Each plays uniformly random legal moves until its
// "at" key (a ply, default 0) and then misbehaves in its own way.
var testAgents = []*agents.Kind{
	badKind("t-panic", "panics", func(b *badAgent, ctx context.Context, s games.Base, p int) (games.Move, error) {
		var m map[string]int
		m["boom"]++ // a nil-map panic, as a real bug would
		return 0, nil
	}),
	badKind("t-error", "returns an error", func(b *badAgent, ctx context.Context, s games.Base, p int) (games.Move, error) {
		return 0, errors.New("cannot think today")
	}),
	badKind("t-illegal", "returns an illegal move", func(b *badAgent, ctx context.Context, s games.Base, p int) (games.Move, error) {
		return 99, nil
	}),
	badKind("t-mutate", "plays a move on the state and leaves it there", func(b *badAgent, ctx context.Context, s games.Base, p int) (games.Move, error) {
		st := s.(games.State)
		var buf [8]games.Move
		m := st.LegalMoves(buf[:0])[0]
		st.Play(m)
		return m, nil
	}),
	badKind("t-slow", "sleeps for its sleep= duration (ignoring the context), then moves", func(b *badAgent, ctx context.Context, s games.Base, p int) (games.Move, error) {
		time.Sleep(b.sleep)
		return b.random(s, p)
	}),
	badKind("t-stuck", "blocks until the test releases it (ignores the context)", func(b *badAgent, ctx context.Context, s games.Base, p int) (games.Move, error) {
		stuckMu.Lock()
		stuckCalls[b.name]++
		ch := stuckRelease
		stuckMu.Unlock()
		<-ch
		return b.random(s, p)
	}),
	badKind("t-hang", "plays random moves, and blocks on the call'th Move of all t-hang agents until the test releases it", func(b *badAgent, ctx context.Context, s games.Base, p int) (games.Move, error) {
		if hangCalls.Add(1) == int64(b.call) {
			stuckMu.Lock()
			ch := stuckRelease
			stuckMu.Unlock()
			<-ch
		}
		return b.random(s, p)
	}),
	badKind("t-giveup", "waits for the context to end, then returns its error", func(b *badAgent, ctx context.Context, s games.Base, p int) (games.Move, error) {
		<-ctx.Done()
		return 0, fmt.Errorf("gave up: %w", ctx.Err())
	}),
	badKind("t-polite", "waits for the context to end, then answers at once", func(b *badAgent, ctx context.Context, s games.Base, p int) (games.Move, error) {
		<-ctx.Done()
		return b.random(s, p)
	}),
}

// hangCalls counts the Move calls of all t-hang agents.
var hangCalls atomic.Int64

// stuckRelease is closed by tests to let t-stuck agents return.
var (
	stuckMu      sync.Mutex
	stuckRelease = make(chan struct{})
	stuckCalls   = map[string]int{} // by agent name
)

type badAgent struct {
	name  string
	at    int
	sleep time.Duration
	call  int
	r     *rng.Rand
	buf   []games.Move
	bad   func(*badAgent, context.Context, games.Base, int) (games.Move, error)
}

func badKind(name, help string, bad func(*badAgent, context.Context, games.Base, int) (games.Move, error)) *agents.Kind {
	return &agents.Kind{
		Name: name, Help: "test agent: " + help,
		Keys: []agents.Key{{Name: "at", Help: "ply of the misbehaviour"}, {Name: "sleep", Help: "t-slow's delay"}, {Name: "call", Help: "t-hang's call"}},
		New: func(s spec.Spec, seed uint64) (agents.Agent, error) {
			at, err := s.Int("at", 0)
			if err != nil {
				return nil, err
			}
			sleep, err := s.Duration("sleep", time.Second)
			if err != nil {
				return nil, err
			}
			call, err := s.Int("call", 0)
			if err != nil {
				return nil, err
			}
			return &badAgent{name: agents.DisplayName(s), at: at, sleep: sleep, call: call, r: rng.New(seed), bad: bad}, nil
		},
	}
}

func (b *badAgent) Name() string { return b.name }

func (b *badAgent) Move(ctx context.Context, s games.Base, p int) (games.Move, error) {
	if s.Ply() >= b.at {
		return b.bad(b, ctx, s, p)
	}
	return b.random(s, p)
}

func (b *badAgent) random(s games.Base, p int) (games.Move, error) {
	switch st := s.(type) {
	case games.State:
		b.buf = st.LegalMoves(b.buf[:0])
	case games.SimState:
		b.buf = st.LegalMovesFor(p, b.buf[:0])
	}
	return b.buf[b.r.IntN(len(b.buf))], nil
}

func init() {
	agents.Register(&agents.Kind{Name: "t-max", Help: "test agent: always plays the largest legal move",
		New: func(s spec.Spec, seed uint64) (agents.Agent, error) {
			return &maxAgent{name: agents.DisplayName(s)}, nil
		}})
}

// maxAgent plays the largest legal move; deterministic.
type maxAgent struct {
	name string
	buf  []games.Move
}

func (a *maxAgent) Name() string { return a.name }
func (a *maxAgent) Move(_ context.Context, s games.Base, p int) (games.Move, error) {
	switch st := s.(type) {
	case games.State:
		a.buf = st.LegalMoves(a.buf[:0])
	case games.SimState:
		a.buf = st.LegalMovesFor(p, a.buf[:0])
	}
	best := a.buf[0]
	for _, m := range a.buf {
		best = max(best, m)
	}
	return best, nil
}

// "t-seeded" is t-sum with a seed option that sets the game's length
// (8 + seed mod 4 plies), standing in for a game whose seed picks a map.
func init() {
	games.Register(&games.Entry{Name: "t-seeded", Title: "test seeded game", Notation: "1, 2 or 3",
		Options:  []games.Option{{Key: "seed", Help: "length 8 + seed mod 4"}},
		RoundKey: "seed", // each round of a bare "t-seeded" draws its own
		New: func(s spec.Spec) (games.Base, error) {
			if err := s.Check("seed"); err != nil {
				return nil, err
			}
			seed, err := s.Int64("seed", 0)
			if err != nil {
				return nil, err
			}
			return &seededGame{plies: 8 + int(uint64(seed)%4)}, nil
		}})
}

type seededGame struct {
	sumGame
	plies int
}

func (g *seededGame) Terminal() bool { return len(g.said) >= g.plies }
func (g *seededGame) ToMove() int {
	if g.Terminal() {
		return games.None
	}
	return len(g.said) % 2
}
func (g *seededGame) LegalMoves(buf []games.Move) []games.Move {
	if g.Terminal() {
		return buf
	}
	return append(buf, 1, 2, 3)
}
func (g *seededGame) Clone() games.State {
	return &seededGame{sumGame: sumGame{said: append([]games.Move(nil), g.said...)}, plies: g.plies}
}
