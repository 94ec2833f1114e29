// Package server runs any agent as a UGI engine: it reads commands on an
// input and answers on an output, as an engine on stdin and stdout does,
// so that GUIs, fastchess-like runners and other arenas can play the
// arena's agents (arena engine is this over stdin and stdout).
//
// It is a package of its own, above agents, because the ugi package is
// below it: the agents package registers the ugi agent kind, an adapter
// over ugi.Client, and so imports ugi.
package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/ugi"
)

// Config describes the engine to serve.
type Config struct {
	// Game is the game spec played until the GUI sets the UGI_Game
	// option, e.g. othello6.
	Game string
	// Agent is the spec of the agent that moves (see agents.New), built
	// with Seed.
	Agent string
	// Player, when not nil, moves instead of an agent built from Agent
	// (which may then be empty).
	Player agents.Agent
	// Seed seeds the agent's random choices: at the k-th uginewgame an
	// agents.Seeder is reseeded with rng.Derive(Seed, k).
	Seed uint64
	// Name is the engine's id name; "arena AGENT" by default.
	Name string
	// Author is the engine's id author; "boardgame-arena" by default.
	Author string
}

// Bounds of the go command's arguments; a value beyond them is ignored
// with an info string.
var goBounds = ugi.GoBounds{
	MoveTime: 24 * time.Hour,
	// Increments can take a clock past its base, at most 24 h.
	Time:  365 * 24 * time.Hour,
	Inc:   agents.MaxClockInc,
	Depth: agents.MaxLimitDepth,
	Nodes: agents.MaxLimitNodes,
}

// syncMove is how fast an agent's last move must have been for its next
// one to run on the reader goroutine.
const syncMove = time.Millisecond

// Serve serves the engine c describes on in and out until quit or the end
// of in. Its errors before the first command name the options (Game,
// Agent).
func Serve(c Config, in io.Reader, out io.Writer) error {
	s, err := New(c)
	if err != nil {
		return err
	}
	return s.Serve(in, out)
}

// Server is one agent and one game state served over UGI. The reader
// goroutine (Serve) handles every command; go runs the agent in a
// goroutine of its own so that stop and isready are answered while it
// thinks — unless its last move took under syncMove: then on the reader
// goroutine, which is much cheaper. The agent searches the server's state
// itself (it leaves it as it found it, which is checked), so a move costs
// no copy; the reader touches the state only once the search has ended.
type Server struct {
	name  string // the agent, in info strings
	id    [2]string
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
	snap    ugi.Answers   // the answers to query while a search uses s
	fast    bool          // the agent's last move took under syncMove
}

// New returns the server of c, its agent built and checked for the game.
func New(c Config) (*Server, error) {
	s := &Server{seed: c.Seed, name: c.Agent, agent: c.Player}
	if err := s.setGame(c.Game); err != nil {
		return nil, optionErr("Game", err)
	}
	if s.agent == nil {
		a, err := agents.New(c.Agent, c.Seed)
		if err != nil {
			return nil, optionErr("Agent", err)
		}
		s.agent = a
	} else if s.name == "" {
		s.name = s.agent.Name()
	}
	if err := agents.CheckGame(s.agent, s.v); err != nil {
		return nil, optionErr("Agent", err)
	}
	s.id = [2]string{c.Name, c.Author}
	if s.id[0] == "" {
		s.id[0] = "arena " + s.name
	}
	if s.id[1] == "" {
		s.id[1] = "boardgame-arena"
	}
	return s, nil
}

// optionErr is err about option name: "Game: unknown game …", which a
// command line shows as its flag's.
func optionErr(name string, err error) error {
	return fmt.Errorf("%w: %w", &option.Error{Name: name}, err)
}

// setGame switches to the variant named by game, at its start.
func (e *Server) setGame(game string) error {
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

func (e *Server) println(format string, args ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format, args...)
	e.out.WriteByte('\n')
	e.out.Flush()
}

// Serve answers commands from in on out until quit or the end of input,
// and then closes the agent if it is an io.Closer. A server serves once.
func (e *Server) Serve(in io.Reader, out io.Writer) error {
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
		cmd, args := ugi.Field(line)
		switch cmd {
		case "":
			continue
		case "ugi":
			e.println("id name %s", e.id[0])
			e.println("id author %s", e.id[1])
			e.println("option name %s type string default %s", ugi.GameOption, e.v)
			e.println("ugiok")
		case "isready":
			e.println("readyok")
		case "setoption":
			e.setOption(args)
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
			e.query(args)
		case "quit":
			return nil
		default:
			e.println("info string unknown command %q ignored", cmd)
		}
	}
	return sc.Err()
}

func (e *Server) setOption(args string) {
	name, value, ok := ugi.ParseSetOption(args)
	if !ok {
		e.println("info string setoption needs 'name NAME value VALUE'")
		return
	}
	if !strings.EqualFold(name, ugi.GameOption) {
		e.println("info string unknown option %q ignored", name)
		return
	}
	e.stopSearch()
	if err := e.setGame(value); err != nil {
		e.println("info string %s: %v", ugi.GameOption, err)
		return
	}
	if err := agents.CheckGame(e.agent, e.v); err != nil {
		e.println("info string %s: %v", ugi.GameOption, err)
	}
}

func (e *Server) newGame() {
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
func (e *Server) position(line string) {
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
	_, args := ugi.Field(line) // "position"
	p, err := ugi.ParsePosition(args)
	if err != nil {
		e.println("info string position: %v", err)
		return
	}
	s := e.v.New().(games.State)
	if !p.StartPos {
		if s, err = games.ParsePosition(e.v, p.FEN); err != nil {
			e.println("info string position fen: %v", err)
			return
		}
	}
	n, err := playMoves(s, p.Moves, 0)
	if err != nil {
		e.println("info string position: %v", err)
		return
	}
	e.s, e.posLine, e.posMoves, e.posPlies = s, line, p.HasMoves, n
}

// extends reports whether line is the last position command with moves
// added, and returns the added moves and whether line has the keyword
// moves.
func (e *Server) extends(line string) (added string, hasMoves, ok bool) {
	if e.posLine == "" || !strings.HasPrefix(line, e.posLine) {
		return "", false, false
	}
	rest := line[len(e.posLine):]
	if rest != "" {
		if w, _ := ugi.Field(rest[:1]); w != "" {
			return "", false, false // the last word goes on
		}
	}
	if e.posMoves {
		return rest, true, true
	}
	switch kw, r := ugi.Field(rest); kw {
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
		tok, rest := ugi.Field(text)
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

// goSearch starts the agent on the position. go movetime MS gives it a
// deadline MS away (1 ms to 24 h); go p1time MS p2time MS [p1inc MS p2inc
// MS] gives it the clock (agents.WithClock), for its own time manager,
// and a deadline at the side to move's time left; go infinite gives it
// neither and holds its bestmove until stop. go depth N and go nodes N cap
// the move instead of the spec's budget (agents.MoveLimits) for agents
// that honour them (agents.MoveLimiter); the server says so on an info
// string for those that do not, and for values out of range. A movetime,
// time left or increment that is not a whole number of milliseconds in
// its range is ignored (the agent's own budget applies) with an info
// string.
func (e *Server) goSearch(args string) {
	g, bad := ugi.ParseGo(args, goBounds)
	for _, b := range bad {
		e.println("info string %s", b)
	}
	caps := e.honoured(agents.MoveLimits{Depth: g.Depth, Nodes: g.Nodes})
	var ctx context.Context
	var cancel context.CancelFunc
	switch mover := e.s.ToMove(); {
	case g.MoveTime > 0:
		ctx, cancel = context.WithTimeout(context.Background(), g.MoveTime)
	case !g.Infinite && mover >= 0 && mover < 2 && g.Time[mover] >= 0:
		// Under a clock the agent plans its own time (agents.ClockFrom)
		// and must answer by its flag: the side to move's time left.
		c := &agents.Clock{Remaining: [2]time.Duration{max(g.Time[0], 0), max(g.Time[1], 0)}, Inc: g.Inc}
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
	if g.Infinite {
		stopped = make(chan struct{})
	}
	done := make(chan struct{})
	e.cancel, e.done, e.stopped = cancel, done, stopped
	e.snap = ugi.AnswersOf(e.s)
	go func() {
		defer close(done)
		e.search(ctx, e.s, stopped)
	}()
}

// honoured returns the limits of l that the agent honours, and says on an
// info string which it does not (its budget is then its spec's).
func (e *Server) honoured(l agents.MoveLimits) agents.MoveLimits {
	var depth, nodes bool
	if ml, ok := e.agent.(agents.MoveLimiter); ok {
		depth, nodes = ml.MoveLimitKeys()
	}
	if l.Depth > 0 && !depth {
		e.println("info string go depth is not supported by %s; ignored", e.name)
		l.Depth = 0
	}
	if l.Nodes > 0 && !nodes {
		e.println("info string go nodes is not supported by %s; ignored", e.name)
		l.Nodes = 0
	}
	return l
}

// search runs the agent on s and prints its move; under go infinite
// (stopped not nil) it prints only once stopped is closed. It notes in
// e.fast whether the agent answered within syncMove.
func (e *Server) search(ctx context.Context, s games.State, stopped chan struct{}) {
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
func (e *Server) stopSearch() {
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

// query answers query gameover|p1turn|result; while a search runs, from
// the position it was started on (the agent is using the state).
func (e *Server) query(args string) {
	q, _ := ugi.Field(args)
	if q == "" {
		e.println("info string query needs gameover, p1turn or result")
		return
	}
	a := e.snap
	if e.done == nil {
		a = ugi.AnswersOf(e.s)
	}
	if r, ok := a.Answer(q); ok {
		e.println("response %s", r)
		return
	}
	e.println("info string unknown query %q (known: gameover, p1turn, result)", q)
}
