package agents

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/spec"
)

// Errors of the cg agent; Move wraps them with the details.
var (
	// ErrTimeout: the bot did not answer within its time limit (a loss, §9
	// of the TryAngle Catch spec).
	ErrTimeout = errors.New("timeout")
	// ErrCrash: the bot could not be started, exited, or closed its output.
	ErrCrash = errors.New("bot crashed")
	// ErrOutput: the bot wrote something that is not an output line at all
	// (longer than MaxCGLine bytes).
	ErrOutput = errors.New("unusable output")
)

// MaxCGLine bounds one output line of a cg bot.
const MaxCGLine = 1 << 20

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
// process (NewGame, or the first Move); each turn the agent writes the
// game's input for its seat, waits for one line within the time limit and
// returns it as a move (ParseMove). A line holding an unknown command is
// returned as a move too: the game's referee makes the player lose with it,
// exactly as on CodinGame. A timeout, a crash or an overlong line is
// returned as an error wrapping ErrTimeout, ErrCrash or ErrOutput; the bot
// is then stopped and every later Move of that game fails the same way.
type CG struct {
	name        string
	argv        []string
	first, turn time.Duration
	stderrPath  string

	proc      *cgProc
	firstTurn bool
	err       error // sticky failure of the current game
	buf       []byte
}

// NewCG returns a cg agent running argv. stderrPath, when not empty,
// receives the bot's stderr (appended).
func NewCG(name string, argv []string, first, turn time.Duration, stderrPath string) *CG {
	return &CG{name: name, argv: argv, first: first, turn: turn, stderrPath: stderrPath}
}

// Name implements Agent.
func (a *CG) Name() string { return a.name }

// NewGame implements GameStarter: it stops the previous process and starts
// a fresh one.
func (a *CG) NewGame(v games.Variant, _ int) error {
	if _, ok := v.New().(CGGame); !ok {
		return fmt.Errorf("cg: %s has no CodinGame protocol", v)
	}
	a.Close()
	a.err = nil
	return a.start()
}

func (a *CG) start() error {
	p, err := startCGProc(a.argv, a.stderrPath)
	if err != nil {
		a.err = fmt.Errorf("cg %s: %w: %v", a.name, ErrCrash, err)
		return a.err
	}
	a.proc, a.firstTurn = p, true
	// Should the agent be dropped without Close, its process still goes.
	runtime.AddCleanup(a, func(p *cgProc) { p.stop() }, p)
	return nil
}

// Close stops the bot's process. The agent can play again (NewGame or Move
// start a new one).
func (a *CG) Close() error {
	if a.proc != nil {
		a.proc.stop()
		a.proc = nil
	}
	return nil
}

// Move implements Agent.
func (a *CG) Move(ctx context.Context, s games.Base, p int) (games.Move, error) {
	g, ok := s.(CGGame)
	if !ok {
		return 0, fmt.Errorf("cg: %T has no CodinGame protocol", s)
	}
	if a.err != nil {
		return 0, a.err
	}
	if a.proc == nil {
		if err := a.start(); err != nil {
			return 0, err
		}
	}
	limit := a.turn
	if a.firstTurn {
		limit = a.first
	}
	a.buf = g.AppendInput(a.buf[:0], p, a.firstTurn)
	a.firstTurn = false
	deadline := time.Now().Add(limit)
	if err := a.proc.send(a.buf, deadline); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return 0, a.fail(ErrTimeout, "did not read its input within %s", limit)
		}
		return 0, a.fail(ErrCrash, "cannot take its input: %v", err)
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case l, ok := <-a.proc.lines:
		switch {
		case !ok:
			return 0, a.fail(ErrCrash, "%s", a.proc.exitReport())
		case l.err != nil:
			return 0, a.fail(ErrOutput, "%v", l.err)
		}
		m, err := s.ParseMove(l.text)
		if err != nil {
			return 0, a.fail(ErrOutput, "%v", err)
		}
		return m, nil
	case <-timer.C:
		return 0, a.fail(ErrTimeout, "no answer within %s", limit)
	case <-a.proc.exited:
		// The process ended; a last line may still be in the pipe.
		select {
		case l, ok := <-a.proc.lines:
			if ok && l.err == nil {
				if m, err := s.ParseMove(l.text); err == nil {
					return m, nil
				}
			}
		case <-time.After(20 * time.Millisecond):
		}
		return 0, a.fail(ErrCrash, "%s", a.proc.exitReport())
	case <-ctx.Done():
		return 0, a.fail(ctx.Err(), "stopped by the arena")
	}
}

// fail records the game's failure, stops the bot and returns the error.
func (a *CG) fail(kind error, format string, args ...any) error {
	a.err = fmt.Errorf("cg %s: %w: %s", a.name, kind, fmt.Sprintf(format, args...))
	if a.proc != nil {
		if tail := a.proc.stderrTail(); tail != "" && kind != ErrCrash {
			a.err = fmt.Errorf("%w; stderr ends with: %s", a.err, tail)
		}
		a.proc.stop()
		a.proc = nil
	}
	return a.err
}

// ---------------------------------------------------------------------------
// The process.

type cgLine struct {
	text string
	err  error
}

type cgProc struct {
	cmd     *exec.Cmd
	stdin   *os.File
	lines   chan cgLine
	done    chan struct{} // closed by stop
	exited  chan struct{} // closed when the process has been waited for
	waitErr error
	stderr  *tailWriter
	once    sync.Once
}

func startCGProc(argv []string, stderrPath string) (*cgProc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	p := &cgProc{
		stdin:  inW,
		lines:  make(chan cgLine, 4),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
		stderr: &tailWriter{max: 4096},
	}
	var file *os.File
	if stderrPath != "" {
		file, err = os.OpenFile(stderrPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			inR.Close()
			inW.Close()
			outR.Close()
			outW.Close()
			return nil, err
		}
		p.stderr.file = file
	}
	p.cmd = exec.Command(argv[0], argv[1:]...)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, p.stderr
	err = p.cmd.Start()
	inR.Close() // the child holds its own copies
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		if file != nil {
			file.Close()
		}
		return nil, err
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		if file != nil {
			file.Close()
		}
		close(p.exited)
	}()
	go p.read(outR)
	return p, nil
}

// read delivers the bot's output lines until it closes its output.
func (p *cgProc) read(r *os.File) {
	defer r.Close()
	defer close(p.lines)
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, chunk...)
			if len(long) > MaxCGLine {
				p.deliver(cgLine{err: fmt.Errorf("an output line longer than %d bytes", MaxCGLine)})
				return
			}
			continue
		}
		line := string(append(long, chunk...))
		long = long[:0]
		if err != nil { // EOF: a last line without newline still counts
			if line != "" {
				p.deliver(cgLine{text: line})
			}
			return
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if !p.deliver(cgLine{text: line}) {
			return
		}
	}
}

func (p *cgProc) deliver(l cgLine) bool {
	select {
	case p.lines <- l:
		return true
	case <-p.done:
		return false
	}
}

func (p *cgProc) send(b []byte, deadline time.Time) error {
	if err := p.stdin.SetWriteDeadline(deadline); err != nil {
		// not a pollable pipe: write without a deadline
		_, err = p.stdin.Write(b)
		return err
	}
	_, err := p.stdin.Write(b)
	return err
}

// stop kills the process and waits for it (idempotent).
func (p *cgProc) stop() {
	p.once.Do(func() {
		close(p.done)
		p.stdin.Close()
		if p.cmd.Process != nil {
			p.cmd.Process.Kill()
		}
		<-p.exited
	})
}

// exitReport describes why the bot's output ended.
func (p *cgProc) exitReport() string {
	select {
	case <-p.exited:
	case <-time.After(200 * time.Millisecond):
		return "closed its output" + p.tailSuffix()
	}
	status := "exited"
	if p.waitErr != nil {
		status = "exited: " + p.waitErr.Error()
	}
	return status + p.tailSuffix()
}

func (p *cgProc) tailSuffix() string {
	if t := p.stderrTail(); t != "" {
		return "; stderr ends with: " + t
	}
	return ""
}

func (p *cgProc) stderrTail() string {
	t := strings.TrimSpace(p.stderr.String())
	if i := strings.LastIndexByte(t[:max(0, len(t)-300)], '\n'); len(t) > 300 && i >= 0 {
		t = "…" + t[i+1:]
	}
	return t
}

// tailWriter keeps the last max bytes written and copies all to file.
type tailWriter struct {
	mu   sync.Mutex
	max  int
	buf  []byte
	file io.Writer
}

func (w *tailWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.file != nil {
		w.file.Write(b)
	}
	w.buf = append(w.buf, b...)
	if over := len(w.buf) - w.max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(b), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}
