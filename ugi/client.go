package ugi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc"
	"github.com/boardgame-arena/arena/games"
)

// DefaultInit bounds the handshake (ugi … ugiok, isready … readyok) when
// Engine.Init is 0.
const DefaultInit = 10 * time.Second

// StopWait is how long an engine sent stop has to give its bestmove before
// it is killed.
const StopWait = 250 * time.Millisecond

// Engine describes an engine to run.
type Engine struct {
	// Argv is the engine's command line (no shell).
	Argv []string
	// StderrFile, when not empty, receives the engine's stderr
	// (appended); else its end is kept in memory and shown on a failure.
	StderrFile string
	// Options are set with setoption after ugiok, in this order.
	Options []Setting
	// Init bounds the handshake: ugiok, and readyok after it; 0 means
	// DefaultInit.
	Init time.Duration
}

// Setting is an option's value.
type Setting struct{ Name, Value string }

// init is e's bound on the handshake.
func (e Engine) init() time.Duration {
	if e.Init > 0 {
		return e.Init
	}
	return DefaultInit
}

// Kinds of failure of an engine, wrapped by *Error.
var (
	// ErrTimeout: no answer in time.
	ErrTimeout = errors.New("timeout")
	// ErrCrash: the engine could not start, exited, or closed its output.
	ErrCrash = errors.New("engine crashed")
	// ErrOutput: a bestmove that is missing, unreadable or illegal, or an
	// overlong line.
	ErrOutput = errors.New("unusable output")
)

// Error is a failure of the engine in a game: Kind is ErrTimeout,
// ErrCrash, ErrOutput, or the context's error when the caller gave up.
type Error struct {
	Kind   error
	Detail string // what happened, with the end of the engine's stderr if useful
}

func (e *Error) Error() string { return e.Kind.Error() + ": " + e.Detail }
func (e *Error) Unwrap() error { return e.Kind }

// Client plays through one external engine speaking UGI. One process
// serves all its games: it is started and greeted (ugi … ugiok, setoption
// for each of Engine.Options, isready … readyok) before the first game,
// told of every new game (setoption name UGI_Game when the engine
// advertises that option, uginewgame, isready), and asked for each move
// with "position startpos moves …" (or "position fen …") and go. A
// process that failed (crash, timeout) is stopped with its whole process
// group, and a fresh one started for the next game.
//
// Failures are *Error values. A failure sticks to its game: later moves
// return it again until NewGame.
type Client struct {
	engine     Engine
	slot       botproc.Slot // the engine's process, killed should the client be dropped unclosed
	engineName string
	advertised map[string]string // lower-case option name → name as advertised
	announced  string            // variant last announced through UGI_Game
	startHash  uint64            // hash of the variant's start position, from NewGame
	knowStart  bool              // startHash is set (a start's hash may be 0)
	err        error             // sticky failure of the current game
	info       Info

	// The position last sent, kept so that the next move's command
	// only appends the moves played since (see positionLine).
	shadow  games.State // a copy of the game at the position last sent
	line    []byte      // the position command of shadow
	moves   bool        // line has the keyword moves
	hashes  [maxStep]uint64
	request []byte // the position and go commands of a move, one write
	moveBuf []games.Move
}

// NewClient returns a client of engine e; nothing is started yet.
func NewClient(e Engine) *Client { return &Client{engine: e} }

// EngineName returns the name the engine gave in "id name", once started.
func (c *Client) EngineName() string { return c.engineName }

// Pid returns the process id of the running engine, or 0.
func (c *Client) Pid() int {
	if p := c.slot.Process(); p != nil {
		return p.Pid()
	}
	return 0
}

// Info returns what the info lines of the last move said.
func (c *Client) Info() Info { return c.info }

// NewGame starts the engine if it is not running, announces the variant
// and sends uginewgame. v must be sequential.
func (c *Client) NewGame(v games.Variant) error {
	if !c.alive() {
		c.slot.Stop() // a failed engine was stopped; one that lost by its answer plays on
	}
	c.err, c.shadow = nil, nil
	c.startHash, c.knowStart = v.New().Hash(), true
	if c.slot.Process() == nil {
		if err := c.start(); err != nil {
			return err
		}
	}
	deadline := time.Now().Add(c.engine.init())
	if name, ok := c.advertised[strings.ToLower(GameOption)]; ok && c.announced != v.String() {
		if err := c.send(deadline, SetOption(name, v.String())); err != nil {
			return err
		}
		c.announced = v.String()
	}
	if err := c.send(deadline, "uginewgame"); err != nil {
		return err
	}
	return c.ready(deadline)
}

// alive reports whether the engine's process is running.
func (c *Client) alive() bool {
	p := c.slot.Process()
	if p == nil {
		return false
	}
	select {
	case <-p.Exited():
		return false
	default:
		return true
	}
}

// start starts the engine and greets it.
func (c *Client) start() error {
	p, err := botproc.Start(botproc.Config{Argv: c.engine.Argv, StderrFile: c.engine.StderrFile})
	if err != nil {
		c.err = &Error{Kind: ErrCrash, Detail: err.Error()}
		return c.err
	}
	botproc.Attach(c, &c.slot, p)
	c.announced, c.engineName = "", ""
	c.advertised = map[string]string{}
	deadline := time.Now().Add(c.engine.init())
	if err := c.send(deadline, "ugi"); err != nil {
		return err
	}
	for {
		line, err := c.read(context.Background(), deadline, "ugiok")
		if err != nil {
			return err
		}
		switch cmd, args := Field(line); cmd {
		case "ugiok":
			if w, _ := Field(args); w != "" {
				continue
			}
			for _, o := range c.engine.Options {
				if err := c.send(deadline, SetOption(o.Name, o.Value)); err != nil {
					return err
				}
			}
			return c.ready(deadline)
		case "id":
			if key, text := ID(args); key == "name" && text != "" {
				c.engineName = text
			}
		case "option":
			if name, ok := OptionName(args); ok {
				c.advertised[strings.ToLower(name)] = name
			}
		}
	}
}

// ready sends isready and waits for readyok.
func (c *Client) ready(deadline time.Time) error {
	if err := c.send(deadline, "isready"); err != nil {
		return err
	}
	for {
		line, err := c.read(context.Background(), deadline, "readyok")
		if err != nil {
			return err
		}
		if cmd, args := Field(line); cmd == "readyok" && strings.TrimSpace(args) == "" {
			return nil
		}
	}
}

// send writes one command line.
func (c *Client) send(deadline time.Time, line string) error {
	if err := c.slot.Process().WriteLine(line, deadline); err != nil {
		cmd, _ := Field(line)
		return c.classify(err, "sending "+cmd)
	}
	return nil
}

// read reads one line; waiting names what was awaited, for the error.
func (c *Client) read(ctx context.Context, deadline time.Time, waiting string) (string, error) {
	line, err := c.slot.Process().ReadLine(ctx, deadline)
	if err != nil {
		return "", c.classify(err, "waiting for "+waiting)
	}
	return line, nil
}

// classify turns a botproc error into the game's failure.
func (c *Client) classify(err error, doing string) error {
	switch {
	case errors.Is(err, botproc.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return c.fail(ErrTimeout, "no answer %s", doing)
	case errors.Is(err, botproc.ErrLineTooLong):
		return c.fail(ErrOutput, "an output line longer than %d bytes %s", botproc.DefaultMaxLine, doing)
	case errors.Is(err, botproc.ErrExited):
		return c.fail(ErrCrash, "%s %s", strings.TrimPrefix(err.Error(), botproc.ErrExited.Error()+": "), doing)
	case errors.Is(err, context.Canceled):
		return c.fail(err, "stopped by the arena %s", doing)
	}
	return c.fail(ErrCrash, "%v %s", err, doing)
}

// fail records the game's failure, stops the engine and returns the error,
// with the end of the engine's stderr added (but for a crash, whose
// description already carries it).
func (c *Client) fail(kind error, format string, args ...any) error {
	e := &Error{Kind: kind, Detail: fmt.Sprintf(format, args...)}
	if tail := c.slot.StopTail(300); tail != "" && kind != ErrCrash {
		e.Detail += "; stderr ends with: " + tail
	}
	c.err = e
	return e
}

// failGame records a failure that loses the game but leaves the engine
// running and in sync (it answered): it plays the next game.
func (c *Client) failGame(kind error, format string, args ...any) error {
	c.err = &Error{Kind: kind, Detail: fmt.Sprintf(format, args...)}
	return c.err
}

// Close sends quit and stops the engine with its process group. The
// client can play again (a new process is started).
func (c *Client) Close() error {
	if c.alive() {
		p := c.slot.Process()
		p.WriteLine("quit", time.Now().Add(50*time.Millisecond))
		p.Wait(100 * time.Millisecond)
	}
	c.slot.Stop()
	return nil
}

// Move asks the engine for its move in s with the go command g, and
// returns it once checked legal.
//
// With a movetime and neither depth nor nodes nor a clock, the bestmove
// is due within movetime + margin; in any case StopWait before ctx's
// deadline. Past it the engine is sent stop, and killed if it does not
// answer within StopWait. On a clock (g.Clock) the engine plans its own
// time, and is stopped only when it nears the flag, ctx's deadline: a
// quarter of its time, at most StopWait, before.
func (c *Client) Move(ctx context.Context, s games.State, g Go, margin time.Duration) (games.Move, error) {
	if c.err != nil {
		return 0, c.err
	}
	if !c.alive() {
		c.slot.Stop()
		if err := c.start(); err != nil {
			return 0, err
		}
	}
	if err := c.positionLine(s); err != nil {
		return 0, err
	}
	c.info = Info{}
	start := time.Now()
	var deadline time.Time
	if g.MoveTime > 0 && g.Depth == 0 && g.Nodes == 0 && !g.Clock {
		deadline = start.Add(g.MoveTime + margin)
	}
	stopWait := StopWait
	if d, ok := ctx.Deadline(); ok {
		if g.Clock {
			// The deadline is the mover's flag, and the engine plans
			// its own time from p1time/p2time: only an engine that
			// runs out is stopped, a quarter of its time before the
			// flag at most, so that a short clock is not cut at once.
			stopWait = max(min(StopWait, d.Sub(start)/4), 0)
		}
		// Stop early enough that the engine's answer to stop, or its
		// kill, still comes by the caller's deadline.
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
	c.request = append(append(c.request[:0], c.line...), '\n')
	c.request = append(g.Append(c.request), '\n')
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
	proc := c.slot.Process()
	if err := proc.Write(c.request, writeBy); err != nil {
		return 0, c.classify(err, "sending position and go")
	}
	stopped := false
	for {
		line, err := proc.ReadLine(ctx, deadline)
		if err != nil {
			late := errors.Is(err, botproc.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
			if late && !stopped {
				// Too slow, or the caller gave up: ask for the move now.
				stopped = true
				proc.WriteLine("stop", time.Now().Add(stopWait))
				deadline = time.Now().Add(stopWait)
				ctx = context.Background()
				continue
			}
			if late {
				return 0, c.fail(ErrTimeout, "no bestmove within %s, nor %s after stop", (time.Since(start) - stopWait).Round(time.Millisecond), stopWait.Round(time.Millisecond))
			}
			return 0, c.classify(err, "waiting for bestmove")
		}
		switch cmd, args := Field(line); cmd {
		case "info":
			c.info.Update(args)
		case "bestmove":
			mv := BestMove(args)
			if mv == "" {
				return 0, c.failGame(ErrOutput, "bestmove without a move")
			}
			m, err := s.ParseMove(mv)
			if err != nil {
				return 0, c.failGame(ErrOutput, "bestmove %q: %v", mv, err)
			}
			if !games.IsLegal(s, m) {
				return 0, c.failGame(ErrOutput, "bestmove %q is illegal after %q (legal: %s)", mv, c.line, games.FormatMoves(s, s.LegalMoves(nil)))
			}
			return m, nil
		}
	}
}
