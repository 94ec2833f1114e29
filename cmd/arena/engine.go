package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
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
	if sp, err := spec.Parse(*agent); err == nil && sp.Name == "human" {
		return errors.New("--agent human: the engine's stdin carries UGI, so nobody can type moves there; play against an agent with arena play --agents human A")
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
// thinks — unless its last move took under syncMove: then on the reader
// goroutine, which is much cheaper. The agent searches the engine's state itself (it leaves it as
// it found it, which is checked), so a move costs no copy; the reader
// touches the state only once the search has ended.
type engine struct {
	spec  string
	seed  uint64
	v     games.Variant
	s     games.State
	agent agents.Agent
	newed int // uginewgame count, for the agent's seed

	outMu sync.Mutex
	out   *bufio.Writer

	// The last position command applied, so that the next one, which
	// in a game repeats it and adds moves, only plays the new moves.
	// "" when s was set otherwise.
	posLine  string
	posMoves bool // posLine has the moves keyword
	posPlies int  // moves posLine lists

	cancel  context.CancelFunc
	done    chan struct{} // closed when the running search has printed
	stopped chan struct{} // closed by stop, for go infinite; nil otherwise
	snap    queryState    // the answers to query while a search uses s
	fast    bool          // the agent's last move took under syncMove
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
	e.v, e.s, e.posLine = v, s, ""
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
		line := sc.Text()
		cmd, args := field(line)
		switch cmd {
		case "":
			continue
		case "ugi":
			e.println("id name arena %s", e.spec)
			e.println("id author boardgame-arena")
			e.println("option name %s type string default %s", agents.UGIGameOption, e.v)
			e.println("ugiok")
		case "isready":
			e.println("readyok")
		case "setoption":
			e.setOption(strings.Fields(args))
		case "uginewgame":
			e.stopSearch()
			e.newGame()
		case "position":
			e.stopSearch()
			e.position(line)
		case "go":
			e.stopSearch()
			e.goSearch(args)
		case "stop":
			e.stopSearch()
		case "query":
			e.query(strings.Fields(args))
		case "quit":
			return nil
		default:
			e.println("info string unknown command %q ignored", cmd)
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
	e.s, e.posLine = e.v.New().(games.State), ""
	if s, ok := e.agent.(agents.Seeder); ok {
		s.Seed(rng.Derive(e.seed, uint64(e.newed)))
	}
	if g, ok := e.agent.(agents.GameStarter); ok {
		if err := g.NewGame(e.v, 0); err != nil {
			e.println("info string new game: %v", err)
		}
	}
}

// position sets the position from a position command line: "position
// startpos" or "position fen TEXT" (the game's position format, see
// games.ParsePosition), then "moves …". A line that repeats the last one
// and adds moves only plays the new moves (what a runner sends in a game);
// any other is read from scratch. On an error the position stays as it was.
func (e *engine) position(line string) {
	if rest, hasMoves, ok := e.extends(line); ok {
		n, err := playMoves(e.s, rest, e.posPlies)
		if err != nil {
			for ; n > 0; n-- {
				e.s.Undo()
			}
			e.println("info string position: %v", err)
			return
		}
		e.posLine, e.posMoves, e.posPlies = line, hasMoves, e.posPlies+n
		return
	}
	_, f := field(line) // "position"
	root, f := field(f)
	var s games.State
	switch root {
	case "startpos":
		s = e.v.New().(games.State)
	case "fen":
		// The text runs to the word "moves", if any.
		text := f
		f = ""
		for r := text; ; {
			at := len(text) - len(r)
			w, after := field(r)
			if w == "" {
				break
			}
			if w == "moves" {
				text, f = text[:at], text[at:]
				break
			}
			r = after
		}
		var err error
		if s, err = games.ParsePosition(e.v, strings.Join(strings.Fields(text), " ")); err != nil {
			e.println("info string position fen: %v", err)
			return
		}
	default:
		e.println("info string position: want 'position startpos [moves …]' or 'position fen TEXT [moves …]'")
		return
	}
	kw, rest := field(f)
	if kw != "" && kw != "moves" {
		e.println("info string position: expected 'moves', got %q", kw)
		return
	}
	n, err := playMoves(s, rest, 0)
	if err != nil {
		e.println("info string position: %v", err)
		return
	}
	e.s, e.posLine, e.posMoves, e.posPlies = s, line, kw == "moves", n
}

// extends reports whether line is the last position command with moves
// added, and returns the added moves and whether line has the keyword
// moves.
func (e *engine) extends(line string) (added string, hasMoves, ok bool) {
	if e.posLine == "" || !strings.HasPrefix(line, e.posLine) {
		return "", false, false
	}
	rest := line[len(e.posLine):]
	if rest != "" && !isBlank(rest[0]) {
		return "", false, false // the last word goes on
	}
	if e.posMoves {
		return rest, true, true
	}
	switch kw, r := field(rest); kw {
	case "":
		return "", false, true // the same line
	case "moves":
		return r, true, true
	}
	return "", false, false
}

// playMoves plays the blank-separated moves of text on s, checking each;
// plies is how many moves of the command came before, for the error. It
// returns how many it played and, on a move that is not legal, an
// *games.IllegalMoveError.
func playMoves(s games.State, text string, plies int) (int, error) {
	n := 0
	for {
		tok, rest := field(text)
		if tok == "" {
			return n, nil
		}
		text = rest
		m, err := s.ParseMove(tok)
		if err != nil || !games.IsLegal(s, m) {
			return n, &games.IllegalMoveError{Ply: plies + n + 1, Move: tok, Legal: games.MoveStrings(s, s.LegalMoves(nil)), Err: err}
		}
		s.Play(m)
		n++
	}
}

// field returns the first blank-separated word of s and what follows it
// (strings.Fields one word at a time, without allocating).
func field(s string) (word, rest string) {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isBlank(s[j]) {
		j++
	}
	return s[i:j], s[j:]
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// maxEngineClock bounds the time left that go p1time and p2time give
// (increments can take a clock past its base, at most 24 h).
const maxEngineClock = 365 * 24 * time.Hour

// goSearch starts the agent on the position. go movetime MS gives it a
// deadline MS away (1 ms to 24 h); go p1time MS p2time MS [p1inc MS p2inc MS] gives it
// the clock (agents.WithClock), for its own time manager, and a deadline
// at the side to move's time left; go infinite gives it neither and holds
// its bestmove until stop. go depth N and go nodes N cap the move instead
// of the spec's budget (agents.MoveLimits) for agents that honour them
// (agents.MoveLimiter); the engine says so on an info string for those
// that do not, and for values out of range. A movetime, time left or
// increment that is not a whole number of milliseconds in its range is
// ignored (the agent's own budget applies) with an info string.
func (e *engine) goSearch(args string) {
	var limit time.Duration
	var caps agents.MoveLimits
	infinite := false
	p1, p2, inc1, inc2 := time.Duration(-1), time.Duration(-1), time.Duration(0), time.Duration(0)
	for args != "" {
		var w string
		w, args = field(args)
		// num reads w's value in whole milliseconds, lo to hi; another
		// value is ignored (-1) with an info string that says so.
		num := func(lo, hi time.Duration) time.Duration {
			var v string
			v, args = field(args)
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < lo.Milliseconds() || n > hi.Milliseconds() {
				e.println("info string go %s %q ignored: want %d to %d (milliseconds)", w, v, lo.Milliseconds(), hi.Milliseconds())
				return -1
			}
			return time.Duration(n) * time.Millisecond
		}
		switch w {
		case "infinite":
			infinite = true
		case "movetime":
			limit = num(time.Millisecond, maxMoveTime)
		case "p1time":
			p1 = num(0, maxEngineClock)
		case "p2time":
			p2 = num(0, maxEngineClock)
		case "p1inc":
			inc1 = max(num(0, agents.MaxClockInc), 0)
		case "p2inc":
			inc2 = max(num(0, agents.MaxClockInc), 0)
		case "depth", "nodes":
			var v string
			v, args = field(args)
			n, err := strconv.ParseInt(v, 10, 64)
			most := map[string]int64{"depth": agents.MaxLimitDepth, "nodes": agents.MaxLimitNodes}[w]
			if err != nil || n < 1 || n > most {
				e.println("info string go %s %q ignored: want 1 to %d", w, v, most)
				continue
			}
			if w == "depth" {
				caps.Depth = int(n)
			} else {
				caps.Nodes = n
			}
		}
	}
	caps = e.honoured(caps)
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
	if caps != (agents.MoveLimits{}) {
		ctx = agents.WithMoveLimits(ctx, caps)
	}
	if _, bounded := ctx.Deadline(); e.fast && bounded {
		// An agent that answers at once: handing the search to another
		// goroutine would cost more than the search (and, with another
		// thread to wake, tens of microseconds on a busy machine). A
		// command that comes meanwhile waits for the move, which the
		// deadline bounds should the agent be slower this time.
		e.search(ctx, e.s, nil)
		cancel()
		return
	}
	var stopped chan struct{}
	if infinite {
		stopped = make(chan struct{})
	}
	done := make(chan struct{})
	e.cancel, e.done, e.stopped = cancel, done, stopped
	e.snap = queryOf(e.s)
	go func() {
		defer close(done)
		e.search(ctx, e.s, stopped)
	}()
}

// honoured returns the limits of l that the agent honours, and says on an
// info string which it does not (its budget is then its spec's).
func (e *engine) honoured(l agents.MoveLimits) agents.MoveLimits {
	var depth, nodes bool
	if ml, ok := e.agent.(agents.MoveLimiter); ok {
		depth, nodes = ml.MoveLimitKeys()
	}
	if l.Depth > 0 && !depth {
		e.println("info string go depth is not supported by %s; ignored", e.spec)
		l.Depth = 0
	}
	if l.Nodes > 0 && !nodes {
		e.println("info string go nodes is not supported by %s; ignored", e.spec)
		l.Nodes = 0
	}
	return l
}

// syncMove is how fast an agent's last move must have been for its next
// one to run on the reader goroutine.
const syncMove = time.Millisecond

// search runs the agent on s and prints its move; under go infinite
// (stopped not nil) it prints only once stopped is closed. It notes in
// e.fast whether the agent answered within syncMove.
func (e *engine) search(ctx context.Context, s games.State, stopped chan struct{}) {
	if s.Terminal() {
		if stopped != nil {
			<-stopped
		}
		e.println("info string the game is over")
		e.println("bestmove (none)")
		return
	}
	start := time.Now()
	hash, ply := s.Hash(), s.Ply()
	m, err := e.agent.Move(ctx, s, s.ToMove())
	if s.Hash() != hash || s.Ply() != ply {
		// The agent broke its contract; the next position is read
		// from scratch, and this one's move chosen blind.
		e.posLine = ""
		err = fmt.Errorf("agent changed the position (ply %d, want %d)", s.Ply(), ply)
		for s.Ply() > ply {
			s.Undo()
		}
	}
	if err == nil && !games.IsLegal(s, m) {
		err = fmt.Errorf("agent chose the illegal move %s", s.FormatMove(m))
	}
	if err != nil {
		// Still answer with a legal move, so that the game goes on.
		e.println("info string agent failed: %v; playing the first legal move", err)
		m = s.LegalMoves(nil)[0]
	}
	elapsed := time.Since(start)
	e.fast = elapsed < syncMove
	if stopped != nil {
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
	e.outMu.Lock()
	e.out.WriteString("bestmove ")
	e.out.WriteString(mv)
	e.out.WriteByte('\n')
	e.out.Flush()
	e.outMu.Unlock()
}

// stopSearch cancels the running search, if any, and waits for its
// bestmove to be printed.
func (e *engine) stopSearch() {
	if e.done == nil {
		return
	}
	if e.stopped != nil {
		close(e.stopped)
		e.stopped = nil
	}
	e.cancel()
	<-e.done
	e.done = nil
}

// queryState holds the answers to query in one position.
type queryState struct {
	over, p1 bool
	result   string
}

// queryOf answers query in s.
func queryOf(s games.State) queryState {
	q := queryState{over: s.Terminal(), p1: s.ToMove() == 0, result: "none"}
	if q.over {
		switch s.Outcome().Winner {
		case 0:
			q.result = "p1win"
		case 1:
			q.result = "p2win"
		default:
			q.result = "draw"
		}
	}
	return q
}

// query answers query gameover|p1turn|result; while a search runs, from
// the position it was started on (the agent is using the state).
func (e *engine) query(f []string) {
	if len(f) == 0 {
		e.println("info string query needs gameover, p1turn or result")
		return
	}
	q := e.snap
	if e.done == nil {
		q = queryOf(e.s)
	}
	switch f[0] {
	case "gameover":
		e.println("response %t", q.over)
	case "p1turn":
		e.println("response %t", q.p1)
	case "result":
		e.println("response %s", q.result)
	default:
		e.println("info string unknown query %q (known: gameover, p1turn, result)", f[0])
	}
}
