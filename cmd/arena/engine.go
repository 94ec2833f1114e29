package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

func init() {
	register(command{"engine", "run any agent as a UGI engine on stdin/stdout (for GUIs, fastchess-like runners, other arenas)", runEngine})
}

func runEngine(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("engine", "--agent SPEC [--game othello6] [--seed 1]", stderr)
	game := fs.String("game", "othello6", "game spec played until the GUI sets the UGI_Game option")
	agent := fs.String("agent", "", "agent spec of the engine, e.g. mcts:time=100ms (required)")
	seed := fs.Uint64("seed", 1, "seed of the agent's random choices (game k after it is reseeded with seed and k)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *agent == "" {
		return fmt.Errorf("--agent is required, e.g. arena engine --agent mcts:time=100ms")
	}
	e, err := newEngine(*game, *agent, *seed)
	if err != nil {
		return err
	}
	return e.serve(os.Stdin, stdout)
}

// engine is arena engine's UGI server: one agent, one game state. The
// reader goroutine (serve) handles every command; go runs the agent in a
// goroutine of its own so that stop and isready are answered while it
// thinks.
type engine struct {
	spec  string
	seed  uint64
	v     games.Variant
	s     games.State
	agent agents.Agent
	newed int // uginewgame count, for the agent's seed

	outMu sync.Mutex
	out   *bufio.Writer

	cancel   context.CancelFunc
	done     chan struct{} // closed when the running search has printed
	stopped  chan struct{} // closed by stop, for go infinite
	stopOnce *sync.Once
}

func newEngine(game, agentSpec string, seed uint64) (*engine, error) {
	e := &engine{spec: agentSpec, seed: seed}
	if err := e.setGame(game); err != nil {
		return nil, fmt.Errorf("--game: %w", err)
	}
	a, err := agents.New(agentSpec, seed)
	if err != nil {
		return nil, fmt.Errorf("--agent: %w", err)
	}
	e.agent = a
	if err := agents.CheckGame(a, e.v); err != nil {
		return nil, fmt.Errorf("--agent: %w", err)
	}
	return e, nil
}

// setGame switches to the variant named by game, at its start.
func (e *engine) setGame(game string) error {
	v, err := games.Lookup(game)
	if err != nil {
		return err
	}
	s, ok := v.New().(games.State)
	if !ok {
		return fmt.Errorf("%s is simultaneous; UGI describes sequential games only", v)
	}
	e.v, e.s = v, s
	return nil
}

func (e *engine) println(format string, args ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format, args...)
	e.out.WriteByte('\n')
	e.out.Flush()
}

// serve answers commands from in until quit or the end of input.
func (e *engine) serve(in io.Reader, out io.Writer) error {
	e.out = bufio.NewWriter(out)
	defer func() {
		e.stopSearch()
		if c, ok := e.agent.(io.Closer); ok {
			c.Close()
		}
	}()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "ugi":
			e.println("id name arena %s", e.spec)
			e.println("id author boardgame-arena")
			e.println("option name %s type string default %s", agents.UGIGameOption, e.v)
			e.println("ugiok")
		case "isready":
			e.println("readyok")
		case "setoption":
			e.setOption(f[1:])
		case "uginewgame":
			e.stopSearch()
			e.newGame()
		case "position":
			e.stopSearch()
			e.position(f[1:])
		case "go":
			e.stopSearch()
			e.goSearch(f[1:])
		case "stop":
			e.stopSearch()
		case "query":
			e.query(f[1:])
		case "quit":
			return nil
		default:
			e.println("info string unknown command %q ignored", f[0])
		}
	}
	return sc.Err()
}

func (e *engine) setOption(f []string) {
	// setoption name NAME [value VALUE]; a name may hold blanks.
	line := strings.Join(f, " ")
	rest, ok := strings.CutPrefix(line, "name ")
	if !ok {
		e.println("info string setoption needs 'name NAME value VALUE'")
		return
	}
	name, value, _ := strings.Cut(rest, " value ")
	name = strings.TrimSpace(name)
	if !strings.EqualFold(name, agents.UGIGameOption) {
		e.println("info string unknown option %q ignored", name)
		return
	}
	e.stopSearch()
	if err := e.setGame(strings.TrimSpace(value)); err != nil {
		e.println("info string %s: %v", agents.UGIGameOption, err)
		return
	}
	if err := agents.CheckGame(e.agent, e.v); err != nil {
		e.println("info string %s: %v", agents.UGIGameOption, err)
	}
}

func (e *engine) newGame() {
	e.newed++
	e.s = e.v.New().(games.State)
	if s, ok := e.agent.(agents.Seeder); ok {
		s.Seed(rng.Derive(e.seed, uint64(e.newed)))
	}
	if g, ok := e.agent.(agents.GameStarter); ok {
		if err := g.NewGame(e.v, 0); err != nil {
			e.println("info string new game: %v", err)
		}
	}
}

// position sets the position: "startpos" or "fen TEXT" (the game's
// position format, see games.ParsePosition), then "moves …".
func (e *engine) position(f []string) {
	var s games.State
	var rest []string
	switch {
	case len(f) > 0 && f[0] == "startpos":
		s, rest = e.v.New().(games.State), f[1:]
	case len(f) > 1 && f[0] == "fen":
		end := slices.Index(f, "moves")
		if end < 0 {
			end = len(f)
		}
		var err error
		if s, err = games.ParsePosition(e.v, strings.Join(f[1:end], " ")); err != nil {
			e.println("info string position fen: %v", err)
			return
		}
		rest = f[end:]
	default:
		e.println("info string position: want 'position startpos [moves …]' or 'position fen TEXT [moves …]'")
		return
	}
	var moves []string
	if len(rest) > 0 {
		if rest[0] != "moves" {
			e.println("info string position: expected 'moves', got %q", rest[0])
			return
		}
		moves = rest[1:]
	}
	if _, err := games.Replay(e.v.String(), s, moves); err != nil {
		e.println("info string position: %v", err)
		return
	}
	e.s = s
}

// goSearch starts the agent on a copy of the position. go movetime MS
// gives it a deadline MS away; go p1time MS p2time MS [p1inc MS p2inc MS]
// gives it the clock (agents.WithClock), for its own time manager, and a
// deadline at the side to move's time left; go infinite gives it neither
// and holds its bestmove until stop. depth and nodes are ignored (a
// built-in agent's budget is its spec's).
func (e *engine) goSearch(f []string) {
	var limit time.Duration
	infinite := false
	p1, p2, inc1, inc2 := time.Duration(-1), time.Duration(-1), time.Duration(0), time.Duration(0)
	for i := 0; i < len(f); i++ {
		num := func() time.Duration {
			if i+1 < len(f) {
				i++
				if n, err := strconv.ParseInt(f[i], 10, 64); err == nil && n >= 0 {
					return time.Duration(n) * time.Millisecond
				}
			}
			return -1
		}
		switch f[i] {
		case "infinite":
			infinite = true
		case "movetime":
			limit = num()
		case "p1time":
			p1 = num()
		case "p2time":
			p2 = num()
		case "p1inc":
			inc1 = max(num(), 0)
		case "p2inc":
			inc2 = max(num(), 0)
		case "depth", "nodes":
			num() // built-in agents take their budget from their spec
		}
	}
	var ctx context.Context
	var cancel context.CancelFunc
	switch mover := e.s.ToMove(); {
	case limit > 0:
		ctx, cancel = context.WithTimeout(context.Background(), limit)
	case !infinite && mover >= 0 && mover < 2 && [2]time.Duration{p1, p2}[mover] >= 0:
		// Under a clock the agent plans its own time (agents.ClockFrom)
		// and must answer by its flag: the side to move's time left.
		c := &agents.Clock{Remaining: [2]time.Duration{max(p1, 0), max(p2, 0)}, Inc: [2]time.Duration{inc1, inc2}}
		ctx, cancel = context.WithTimeout(agents.WithClock(context.Background(), c), c.Remaining[mover])
	default:
		ctx, cancel = context.WithCancel(context.Background())
	}
	e.cancel, e.done, e.stopped, e.stopOnce = cancel, make(chan struct{}), make(chan struct{}), new(sync.Once)
	s := e.s.Clone()
	done, stopped := e.done, e.stopped
	go func() {
		defer close(done)
		if s.Terminal() {
			if infinite {
				<-stopped
			}
			e.println("info string the game is over")
			e.println("bestmove (none)")
			return
		}
		start := time.Now()
		m, err := e.agent.Move(ctx, s, s.ToMove())
		if err == nil && !games.IsLegal(s, m) {
			err = fmt.Errorf("agent chose the illegal move %s", s.FormatMove(m))
		}
		if err != nil {
			// Still answer with a legal move, so that the game goes on.
			e.println("info string agent failed: %v; playing the first legal move", err)
			m = s.LegalMoves(nil)[0]
		}
		elapsed := time.Since(start)
		if infinite {
			<-stopped // UGI: no bestmove before stop under go infinite
		}
		mv := s.FormatMove(m)
		if r, ok := e.agent.(agents.Reporter); ok {
			st := r.LastStats()
			nps := int64(0)
			if elapsed > 0 {
				nps = int64(float64(st.Nodes) / elapsed.Seconds())
			}
			e.println("info depth %d score cp %d nodes %d nps %d time %d pv %s", st.Depth, st.Score, st.Nodes, nps, elapsed.Milliseconds(), mv)
			if st.Info != "" {
				e.println("info string %s", strings.ReplaceAll(st.Info, "\n", " "))
			}
		}
		e.println("bestmove %s", mv)
	}()
}

// stopSearch cancels the running search, if any, and waits for its
// bestmove to be printed.
func (e *engine) stopSearch() {
	if e.done == nil {
		return
	}
	e.stopOnce.Do(func() { close(e.stopped) })
	e.cancel()
	<-e.done
	e.done = nil
}

func (e *engine) query(f []string) {
	if len(f) == 0 {
		e.println("info string query needs gameover, p1turn or result")
		return
	}
	switch f[0] {
	case "gameover":
		e.println("response %t", e.s.Terminal())
	case "p1turn":
		e.println("response %t", e.s.ToMove() == 0)
	case "result":
		r := "none"
		if e.s.Terminal() {
			switch e.s.Outcome().Winner {
			case 0:
				r = "p1win"
			case 1:
				r = "p2win"
			default:
				r = "draw"
			}
		}
		e.println("response %s", r)
	default:
		e.println("info string unknown query %q (known: gameover, p1turn, result)", f[0])
	}
}
