package agents

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/spec"
)

// Defaults of the ugi agent.
const (
	// DefaultUGIInit bounds the handshake (ugi/ugiok, isready/readyok).
	DefaultUGIInit = 10 * time.Second
	// DefaultUGIMoveTime is the go movetime sent when the spec gives none
	// of movetime=, depth= and nodes=.
	DefaultUGIMoveTime = time.Second
	// DefaultUGIMargin is how long after its movetime an engine may still
	// answer before it is sent stop.
	DefaultUGIMargin = 500 * time.Millisecond
	// UGIStopWait is how long an engine sent stop has to give its bestmove
	// before it is killed.
	UGIStopWait = 250 * time.Millisecond
	// UGIGameOption is the option by which an engine that plays several
	// games is told the variant (its canonical spec, e.g. erdos:algol).
	UGIGameOption = "UGI_Game"
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
	a := &UGI{name: DisplayName(s), argv: argv, stderrPath: s.Vals["stderr"]}
	var err error
	if a.movetime, err = s.DurationIn("movetime", 0, time.Millisecond, maxThink); err != nil {
		return nil, err
	}
	if a.depth, err = s.IntIn("depth", 0, 1, 1000); err != nil {
		return nil, err
	}
	if a.nodes, err = s.Int64In("nodes", 0, 1, 1e15); err != nil {
		return nil, err
	}
	if a.margin, err = s.DurationIn("margin", DefaultUGIMargin, 0, time.Hour); err != nil {
		return nil, err
	}
	if a.init, err = s.DurationIn("init", DefaultUGIInit, time.Millisecond, time.Hour); err != nil {
		return nil, err
	}
	if a.movetime == 0 && a.depth == 0 && a.nodes == 0 {
		a.movetime = DefaultUGIMoveTime
	}
	a.goCmd = a.goCommand()
	for _, k := range s.Keys {
		if name, ok := strings.CutPrefix(k, "option."); ok {
			if name == "" || strings.ContainsAny(name, " \t") || strings.ContainsAny(s.Vals[k], "\n\r") {
				return nil, fmt.Errorf("ugi: option %q: a name is not empty and holds no blanks, and a value holds no line breaks", name)
			}
			a.options = append(a.options, [2]string{name, s.Vals[k]})
		}
	}
	return a, nil
}

// CheckProgram implements ProgramChecker.
func (a *UGI) CheckProgram() error { return checkProgram(a.name, a.argv, a.stderrPath) }

// UGI plays through an external engine speaking UGI. One process serves the
// agent for all its games: it is started and greeted (ugi/ugiok,
// setoption for every option.NAME key, isready/readyok) before the first
// game, told of every new game (setoption name UGI_Game when the engine
// advertises that option, uginewgame, isready), and asked for each move
// with "position startpos moves …" and "go". A process that failed (crash,
// timeout) is stopped with its whole process group and a fresh one is
// started for the next game. Failures are errors wrapping ErrTimeout (no
// bestmove in time), ErrCrash (the engine exited or could not start) or
// ErrOutput (a malformed or illegal bestmove), which the arena records as
// timeout, crash and illegal_move.
type UGI struct {
	name       string
	argv       []string
	stderrPath string
	options    [][2]string
	movetime   time.Duration
	depth      int
	nodes      int64
	margin     time.Duration
	init       time.Duration

	procSlot   // the engine's process, killed should the agent be dropped unclosed
	engineName string
	advertised map[string]string // lower-case option name → name as advertised
	announced  string            // variant last announced through UGI_Game
	startHash  uint64            // hash of the variant's start position, from NewGame
	knowStart  bool              // startHash is set (a start's hash may be 0)
	err        error             // sticky failure of the current game
	stats      Stats
	goCmd      string // the go command without a clock

	// The position last sent, kept so that the next move's command
	// only appends the moves played since (see positionLine).
	shadow  games.State // a copy of the game at the position last sent
	line    []byte      // the position command of shadow
	moves   bool        // line has the keyword moves
	hashes  [maxUGIStep]uint64
	request []byte // the position and go commands of a move, one write
	moveBuf []games.Move
}

// maxUGIStep is the most plies between two moves of a game that the ugi
// agent follows incrementally; a longer gap is recovered from scratch.
const maxUGIStep = 64

// Name implements Agent.
func (a *UGI) Name() string { return a.name }

// EngineName returns the name the engine gave in "id name", once started.
func (a *UGI) EngineName() string { return a.engineName }

// Pid returns the process id of the running engine, or 0.
func (a *UGI) Pid() int {
	if a.proc == nil {
		return 0
	}
	return a.proc.Pid()
}

// Seed implements Seeder. The engine's random choices are its own; what
// the seed decides (the opening) is the arena's, so reseeding keeps the
// process and its handshake for the next game.
func (a *UGI) Seed(uint64) {}

// LastStats implements Reporter with the last info line of the last move.
func (a *UGI) LastStats() Stats { return a.stats }

// MoveTime implements Budgeter: the movetime the engine is given, plus
// the margin after which it is sent stop and the time it then has to
// answer (0 when it searches to a depth or node count).
func (a *UGI) MoveTime(bool) time.Duration {
	if a.depth > 0 || a.nodes > 0 {
		return 0
	}
	return a.movetime + a.margin + UGIStopWait
}

// StartTime implements StartBudgeter: NewGame may start the engine (the
// handshake, bounded by init=) and then waits for readyok (init= again).
func (a *UGI) StartTime() time.Duration { return 2*a.init + UGIStopWait }

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
	if !a.alive() {
		a.stop() // a failed engine was stopped; one that lost by its answer plays on
	}
	a.err, a.shadow = nil, nil
	a.startHash, a.knowStart = v.New().Hash(), true
	if a.proc == nil {
		if err := a.start(); err != nil {
			return err
		}
	}
	deadline := time.Now().Add(a.init)
	if name, ok := a.advertised[strings.ToLower(UGIGameOption)]; ok && a.announced != v.String() {
		if err := a.send(deadline, "setoption name "+name+" value "+v.String()); err != nil {
			return err
		}
		a.announced = v.String()
	}
	if err := a.send(deadline, "uginewgame"); err != nil {
		return err
	}
	return a.ready(deadline)
}

// alive reports whether the engine's process is running.
func (a *UGI) alive() bool {
	if a.proc == nil {
		return false
	}
	select {
	case <-a.proc.Exited():
		return false
	default:
		return true
	}
}

// start starts the engine and greets it.
func (a *UGI) start() error {
	p, err := botproc.Start(botproc.Config{Argv: a.argv, StderrFile: a.stderrPath})
	if err != nil {
		a.err = fmt.Errorf("ugi %s: %w: %v", a.name, ErrCrash, err)
		return a.err
	}
	attachProc(a, &a.procSlot, p)
	a.announced, a.engineName = "", ""
	a.advertised = map[string]string{}
	deadline := time.Now().Add(a.init)
	if err := a.send(deadline, "ugi"); err != nil {
		return err
	}
	for {
		line, err := a.read(context.Background(), deadline, "ugiok")
		if err != nil {
			return err
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 1 && f[0] == "ugiok":
			for _, o := range a.options {
				if err := a.send(deadline, "setoption name "+o[0]+" value "+o[1]); err != nil {
					return err
				}
			}
			return a.ready(deadline)
		case len(f) >= 3 && f[0] == "id" && f[1] == "name":
			a.engineName = strings.Join(f[2:], " ")
		case len(f) >= 3 && f[0] == "option" && f[1] == "name":
			name := strings.Join(f[2:], " ")
			if i := strings.Index(name, " type "); i >= 0 {
				name = name[:i]
			}
			a.advertised[strings.ToLower(name)] = name
		}
	}
}

// ready sends isready and waits for readyok.
func (a *UGI) ready(deadline time.Time) error {
	if err := a.send(deadline, "isready"); err != nil {
		return err
	}
	for {
		line, err := a.read(context.Background(), deadline, "readyok")
		if err != nil {
			return err
		}
		if strings.TrimSpace(line) == "readyok" {
			return nil
		}
	}
}

// send writes one command line.
func (a *UGI) send(deadline time.Time, line string) error {
	if err := a.proc.WriteLine(line, deadline); err != nil {
		return a.classify(err, "sending "+strings.Fields(line)[0])
	}
	return nil
}

// read reads one line; waiting names what was awaited, for the error.
func (a *UGI) read(ctx context.Context, deadline time.Time, waiting string) (string, error) {
	line, err := a.proc.ReadLine(ctx, deadline)
	if err != nil {
		return "", a.classify(err, "waiting for "+waiting)
	}
	return line, nil
}

// classify turns a botproc error into the agent's failure.
func (a *UGI) classify(err error, doing string) error {
	switch {
	case errors.Is(err, botproc.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return a.fail(ErrTimeout, "no answer %s", doing)
	case errors.Is(err, botproc.ErrLineTooLong):
		return a.fail(ErrOutput, "an output line longer than %d bytes %s", botproc.DefaultMaxLine, doing)
	case errors.Is(err, botproc.ErrExited):
		return a.fail(ErrCrash, "%s %s", strings.TrimPrefix(err.Error(), botproc.ErrExited.Error()+": "), doing)
	case errors.Is(err, context.Canceled):
		return a.fail(err, "stopped by the arena %s", doing)
	}
	return a.fail(ErrCrash, "%v %s", err, doing)
}

// fail records the game's failure, stops the engine and returns the error.
func (a *UGI) fail(kind error, format string, args ...any) error {
	a.err = a.failed(fmt.Errorf("ugi %s: %w: %s", a.name, kind, fmt.Sprintf(format, args...)), kind)
	return a.err
}

// Close sends quit and stops the engine with its process group. The agent
// can play again (a new process is started).
func (a *UGI) Close() error {
	if a.alive() {
		a.proc.WriteLine("quit", time.Now().Add(50*time.Millisecond))
		a.proc.Wait(100 * time.Millisecond)
	}
	a.stop()
	return nil
}

// GoCommand returns the go command the agent sends (without a clock).
func (a *UGI) GoCommand() string { return a.goCmd }

func (a *UGI) goCommand() string {
	var b strings.Builder
	b.WriteString("go")
	if a.movetime > 0 {
		fmt.Fprintf(&b, " movetime %d", a.movetime.Milliseconds())
	}
	b.WriteString(a.limitArgs())
	return b.String()
}

// limitArgs returns the go arguments of the spec's depth= and nodes=.
func (a *UGI) limitArgs() string {
	var b strings.Builder
	if a.depth > 0 {
		fmt.Fprintf(&b, " depth %d", a.depth)
	}
	if a.nodes > 0 {
		fmt.Fprintf(&b, " nodes %d", a.nodes)
	}
	return b.String()
}

// ClockGoCommand returns the go command of a move under clock c:
// "go p1time MS p2time MS p1inc MS p2inc MS", in whole milliseconds (UGI's
// unit; a remaining time is rounded down, never up).
func ClockGoCommand(c *Clock) string {
	return fmt.Sprintf("go p1time %d p2time %d p1inc %d p2inc %d",
		max(c.Remaining[0].Milliseconds(), 0), max(c.Remaining[1].Milliseconds(), 0),
		max(c.Inc[0].Milliseconds(), 0), max(c.Inc[1].Milliseconds(), 0))
}

// Move implements Agent. The bestmove is due within movetime + margin (when
// a movetime is given) and UGIStopWait before ctx's deadline; past it the
// engine is sent stop, and killed if it does not answer within
// UGIStopWait. A move under a clock (ClockFrom(ctx)) is asked for with
// ClockGoCommand (and the spec's depth= or nodes=, never its movetime=):
// the engine plans its own time, and is stopped only when it nears the
// flag, ctx's deadline (a quarter of its time, at most UGIStopWait, before).
func (a *UGI) Move(ctx context.Context, b games.Base, p int) (games.Move, error) {
	s, ok := b.(games.State)
	if !ok {
		return 0, fmt.Errorf("ugi: %T is simultaneous; UGI engines play sequential games", b)
	}
	if a.err != nil {
		return 0, a.err
	}
	if !a.alive() {
		a.stop()
		if err := a.start(); err != nil {
			return 0, err
		}
	}
	if err := a.positionLine(s); err != nil {
		return 0, fmt.Errorf("ugi %s: %v", a.name, err)
	}
	a.stats = Stats{}
	start := time.Now()
	clock, onClock := ClockFrom(ctx)
	var deadline time.Time
	if a.movetime > 0 && a.depth == 0 && a.nodes == 0 && !onClock {
		deadline = start.Add(a.movetime + a.margin)
	}
	stopWait := UGIStopWait
	if d, ok := ctx.Deadline(); ok {
		if onClock {
			// The deadline is the mover's flag, and the engine plans
			// its own time from p1time/p2time: only an engine that
			// runs out is stopped, a quarter of its time before the
			// flag at most, so that a short clock is not cut at once.
			stopWait = max(min(UGIStopWait, d.Sub(start)/4), 0)
		}
		// Stop early enough that the engine's answer to stop, or its
		// kill, still comes by the arena's deadline.
		d = d.Add(-stopWait)
		if d.Before(start) {
			d = start
		}
		if deadline.IsZero() || d.Before(deadline) {
			deadline = d
		}
	}
	// The position and go in one write: one system call, and the engine
	// reads both at once.
	a.request = append(append(a.request[:0], a.line...), '\n')
	if onClock {
		a.request = append(append(a.request, ClockGoCommand(clock)...), a.limitArgs()...)
	} else {
		a.request = append(a.request, a.goCmd...)
	}
	a.request = append(a.request, '\n')
	// The write has until the engine would be killed (a little more when
	// that is now): a pipe takes a line at once unless the engine stopped
	// reading, and a move already out of time is then a missing bestmove.
	writeBy := deadline
	if !writeBy.IsZero() {
		writeBy = writeBy.Add(stopWait)
		if least := time.Now().Add(10 * time.Millisecond); writeBy.Before(least) {
			writeBy = least
		}
	}
	if err := a.proc.Write(a.request, writeBy); err != nil {
		return 0, a.classify(err, "sending position and go")
	}
	stopped := false
	for {
		line, err := a.proc.ReadLine(ctx, deadline)
		if err != nil {
			late := errors.Is(err, botproc.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
			if late && !stopped {
				// Too slow, or the arena gave up: ask for the move now.
				stopped = true
				a.proc.WriteLine("stop", time.Now().Add(stopWait))
				deadline = time.Now().Add(stopWait)
				ctx = context.Background()
				continue
			}
			if late {
				return 0, a.fail(ErrTimeout, "no bestmove within %s, nor %s after stop", (time.Since(start) - stopWait).Round(time.Millisecond), stopWait.Round(time.Millisecond))
			}
			return 0, a.classify(err, "waiting for bestmove")
		}
		word, rest := nextField(line)
		switch word {
		case "info":
			ParseUGIInfo(strings.Fields(rest), &a.stats)
		case "bestmove":
			mv, _ := nextField(rest)
			if mv == "" {
				return 0, a.failGame(ErrOutput, "bestmove without a move")
			}
			m, err := s.ParseMove(mv)
			if err != nil {
				return 0, a.failGame(ErrOutput, "bestmove %q: %v", mv, err)
			}
			if !games.IsLegal(s, m) {
				return 0, a.failGame(ErrOutput, "bestmove %q is illegal after %q (legal: %s)", mv, a.line, games.FormatMoves(s, s.LegalMoves(nil)))
			}
			return m, nil
		}
	}
}

// failGame records a failure that loses the game but leaves the engine
// running and in sync (it answered): it plays the next game.
func (a *UGI) failGame(kind error, format string, args ...any) error {
	a.err = fmt.Errorf("ugi %s: %w: %s", a.name, kind, fmt.Sprintf(format, args...))
	return a.err
}

// ParseUGIInfo reads the fields of an info line (after "info") into st:
// depth, score cp|mate, nodes, and nps and pv into Info. Unknown fields
// are skipped; a malformed number leaves its field as it was.
func ParseUGIInfo(f []string, st *Stats) {
	var info []string
	for i := 0; i < len(f); i++ {
		next := func() string {
			if i+1 < len(f) {
				i++
				return f[i]
			}
			return ""
		}
		switch f[i] {
		case "depth":
			if n, err := strconv.Atoi(next()); err == nil {
				st.Depth = n
			}
		case "nodes":
			if n, err := strconv.ParseInt(next(), 10, 64); err == nil {
				st.Nodes = n
			}
		case "score":
			switch next() {
			case "cp":
				if n, err := strconv.Atoi(next()); err == nil {
					st.Score = n
				}
			case "mate":
				if n, err := strconv.Atoi(next()); err == nil {
					st.Score = MateScore(n)
				}
			}
		case "nps":
			info = append(info, "nps "+next())
		case "pv":
			info = append(info, "pv "+strings.Join(f[i+1:], " "))
			i = len(f)
		case "string":
			info = append(info, strings.Join(f[i:], " "))
			i = len(f)
		}
	}
	if len(info) > 0 {
		st.Info = strings.Join(info, " ")
	}
}

// MateScore is the Score of a win in n moves (n < 0: a loss in -n moves).
func MateScore(n int) int {
	switch {
	case n > 0:
		return games.WinScore - n
	case n < 0:
		return -games.WinScore - n
	}
	return 0
}

// positionLine sets a.line to the position command of s: "position
// startpos moves …", or "position fen TEXT moves …" when the game began
// elsewhere than the variant's start. States keep no moves, only their
// undo history, so the moves are recovered from positions' hashes (see
// History). Within a game the moves played since the last call are
// found by undoing them on s itself and playing them back (which leaves
// s as it was), checked against a copy of the game at the position last
// sent, and appended: no copy, no allocation. Anything else (a new game,
// a position that does not follow from the last) is recovered from
// scratch.
func (a *UGI) positionLine(s games.State) error {
	if a.shadow != nil && a.follow(s) {
		return nil
	}
	hist, root, fen, c, err := history(s, nil)
	if err != nil {
		return err
	}
	a.line = append(a.line[:0], "position startpos"...)
	if a.knowStart && root != a.startHash {
		// The game began elsewhere than the variant's start: an opening
		// given as a position.
		if fen == nil {
			return fmt.Errorf("the game did not begin at the start position, and %T writes no position text for 'position fen'", s)
		}
		a.line = append(append(a.line[:0], "position fen "...), fen.Position()...)
	}
	a.moves = false
	for _, mv := range hist {
		a.appendMove(mv)
	}
	a.shadow = c
	return nil
}

// follow brings a.shadow and a.line up to s when s is a.shadow's game
// with moves played since, and reports whether it could.
func (a *UGI) follow(s games.State) bool {
	n, k := s.Ply(), a.shadow.Ply()
	if n < k || n-k > maxUGIStep {
		return false
	}
	for i := n; i > k; i-- {
		a.hashes[i-k-1] = s.Hash()
		s.Undo()
	}
	same := s.Hash() == a.shadow.Hash()
	if a.moveBuf == nil {
		a.moveBuf = make([]games.Move, 0, games.MaxMoves)
	}
	for i := k; i < n; i++ {
		found := false
		a.moveBuf = s.LegalMoves(a.moveBuf[:0])
		for _, m := range a.moveBuf {
			s.Play(m)
			if s.Hash() == a.hashes[i-k] {
				if same {
					a.appendMove(a.shadow.FormatMove(m)) // in the position before m
					a.shadow.Play(m)
				}
				found = true
				break
			}
			s.Undo()
		}
		if !found {
			// Not a game's history (cannot happen with consistent rules):
			// s stays short of its position, which the referee reports.
			a.shadow = nil
			return false
		}
	}
	return same
}

// appendMove appends a move's text to a.line.
func (a *UGI) appendMove(mv string) {
	if !a.moves {
		a.line = append(a.line, " moves"...)
		a.moves = true
	}
	a.line = append(append(a.line, ' '), mv...)
}

// nextField returns the first blank-separated word of s and the rest.
func nextField(s string) (word, rest string) {
	s = strings.TrimLeft(s, " \t\r")
	i := strings.IndexAny(s, " \t\r")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// History appends to out the moves, in s's notation, that lead from the
// start of s's game (ply 0) to s. States keep their undo history but not
// the moves, so each move is found as the legal move whose position has
// the hash the game had after it.
func History(s games.State, out []string) ([]string, error) {
	out, _, _, _, err := history(s, out)
	return out, err
}

// history is History that also returns the hash of the game's first
// position, when the game writes positions as text that position's text
// (else nil), and a copy of s (with its history).
func history(s games.State, out []string) ([]string, uint64, games.PositionWriter, games.State, error) {
	c := s.Clone()
	n := c.Ply()
	hashes := make([]uint64, n+1)
	for i := n; i > 0; i-- {
		hashes[i] = c.Hash()
		c.Undo()
	}
	root := c.Hash()
	var fen games.PositionWriter
	if w, ok := c.(games.PositionWriter); ok {
		fen = fenText(w.Position())
	}
	buf := make([]games.Move, 0, games.MaxMoves)
	for i := 1; i <= n; i++ {
		found := false
		for _, m := range c.LegalMoves(buf[:0]) {
			c.Play(m)
			h := c.Hash()
			c.Undo()
			if h == hashes[i] {
				out = append(out, c.FormatMove(m))
				c.Play(m)
				found = true
				break
			}
		}
		if !found {
			return out, root, fen, nil, fmt.Errorf("cannot recover ply %d of the game from its positions", i)
		}
	}
	return out, root, fen, c, nil
}

// fenText is a position already written as text.
type fenText string

func (f fenText) Position() string { return string(f) }
