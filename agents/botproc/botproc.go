// Package botproc supervises an external bot process that speaks a
// line-based request/response protocol over its standard input and output
// (a CodinGame bot, a UGI engine, …): start it from an argv with an optional
// working directory and environment, write requests, read answer lines
// under a deadline, keep the end of its stderr, and stop it.
//
// Stopping is the point of the package. The bot runs in a process group of
// its own, and every way a Process ends (Stop, Kill, the bot exiting or
// crashing) ends the whole group: SIGTERM, a short grace, then SIGKILL. So a
// bot started through a shell script leaves no child behind, even one that
// ignores SIGTERM and keeps the bot's output open; such a child can make
// neither Stop nor a read hang, and no goroutine of the package outlives the
// bot. (A descendant that leaves the group with setsid escapes; only a
// cgroup or a container could hold it. If this process is killed with
// SIGKILL, the parent-death signal kills the bot it started, but not the
// rest of the bot's group: nothing of this process runs to do it.)
//
// A Process is meant for one goroutine that talks to the bot (Write,
// ReadLine), while any goroutine may Stop or Kill it. Check tells whether
// a Config's program can be started here, before any game. A Slot holds
// the one current process of an owner that replaces its bot after a
// failure (the cg agent, a ugi.Client); Attach makes a new process the
// slot's, to be killed should the owner be dropped without being closed.
//
// Linux is the target. On other Unix systems the same code builds and
// works without the parent-death signal; elsewhere only the bot itself, not
// its group, is killed.
package botproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Defaults of Config.
const (
	DefaultMaxLine    = 1 << 20 // bytes in one output line
	DefaultStderrTail = 4 << 10 // bytes of stderr kept in memory
	DefaultGrace      = 100 * time.Millisecond
	// DefaultStopWait bounds how long Stop waits for the killed bot to be
	// reaped (a process stuck in the kernel may take longer).
	DefaultStopWait = 5 * time.Second
)

// Errors returned by ReadLine and Write, wrapped with details; test them
// with errors.Is.
var (
	// ErrTimeout: the deadline passed before the bot answered (or took its
	// input).
	ErrTimeout = errors.New("botproc: deadline passed")
	// ErrExited: the bot exited or closed its output; the error also says
	// how it exited and how its stderr ends.
	ErrExited = errors.New("botproc: bot exited")
	// ErrLineTooLong: the bot wrote a line longer than Config.MaxLine.
	ErrLineTooLong = errors.New("botproc: output line too long")
	// ErrStopped: the Process was stopped by its owner.
	ErrStopped = errors.New("botproc: stopped")
)

// Config describes the bot to run.
type Config struct {
	// Argv is the program and its arguments (no shell is involved; run
	// "sh", "-c", … for one). Argv[0] is looked up in PATH when it has no
	// slash.
	Argv []string
	// Dir is the working directory; empty means the caller's.
	Dir string
	// Env is the environment, "KEY=value" entries; nil means the caller's.
	Env []string
	// MaxLine bounds one output line in bytes; 0 means DefaultMaxLine.
	MaxLine int
	// StderrTail is how many of the last bytes of stderr are kept in
	// memory (Stderr); 0 means DefaultStderrTail, negative means none.
	StderrTail int
	// StderrFile, when not empty, receives all of stderr (appended; the
	// file is created if needed).
	StderrFile string
	// Grace is how long Stop waits after SIGTERM before SIGKILL; 0 means
	// DefaultGrace, negative means SIGKILL at once.
	Grace time.Duration
}

// Process is a running bot.
type Process struct {
	cmd     *exec.Cmd
	pid     int
	grace   time.Duration
	maxLine int

	stdin  *os.File // our end of the bot's stdin
	stdout *os.File // our end of the bot's stdout, read by readLines
	stderr *os.File // our end of the bot's stderr, read by copyStderr
	tail   *tailBuffer
	file   *os.File // Config.StderrFile, or nil

	lines  chan line     // output lines, closed at the end of the output
	quit   chan struct{} // closed by Stop: readers give up delivering
	exited chan struct{} // closed once the bot has been reaped
	waitEr error         // cmd.Wait's error, valid once exited is closed
	ioDone sync.WaitGroup
	timer  *time.Timer // ReadLine's, reused

	stopOnce sync.Once
	stopErr  error
}

// line is one output line, or the error that ended the output.
type line struct {
	text string
	err  error
}

// Check reports, without starting anything, why cfg could not start
// here: a program that is not found or not executable, a working
// directory or a StderrFile directory that does not exist. Start checks
// the same by failing; Check lets a caller refuse a run before it begins.
func Check(cfg Config) error {
	if len(cfg.Argv) == 0 || cfg.Argv[0] == "" {
		return errors.New("no command to run")
	}
	if cfg.Dir != "" {
		if st, err := os.Stat(cfg.Dir); err != nil || !st.IsDir() {
			return fmt.Errorf("the working directory %s does not exist", cfg.Dir)
		}
	}
	prog := cfg.Argv[0]
	if strings.Contains(prog, "/") && !filepath.IsAbs(prog) && cfg.Dir != "" {
		prog = filepath.Join(cfg.Dir, prog)
	}
	if _, err := exec.LookPath(prog); err != nil {
		return fmt.Errorf("the program %s cannot be run: %v", cfg.Argv[0], errors.Unwrap(err))
	}
	if cfg.StderrFile != "" {
		dir := filepath.Dir(cfg.StderrFile)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("the stderr file's directory %s does not exist", dir)
		}
	}
	return nil
}

// Start starts the bot described by cfg.
func Start(cfg Config) (*Process, error) {
	if len(cfg.Argv) == 0 || cfg.Argv[0] == "" {
		return nil, errors.New("botproc: no command to run (Config.Argv is empty)")
	}
	p := &Process{
		grace:   cfg.Grace,
		maxLine: cfg.MaxLine,
		lines:   make(chan line, 1),
		quit:    make(chan struct{}),
		exited:  make(chan struct{}),
	}
	if p.grace == 0 {
		p.grace = DefaultGrace
	}
	if p.maxLine <= 0 {
		p.maxLine = DefaultMaxLine
	}
	tail := cfg.StderrTail
	if tail == 0 {
		tail = DefaultStderrTail
	}
	p.tail = newTailBuffer(max(tail, 0))

	// Our own pipes, not exec's: exec copies into an io.Writer with a
	// goroutine that Wait waits for, so a grandchild holding the pipe
	// open would block Wait. With *os.File ends Wait returns when the bot
	// exits, and our readers end when the group is killed.
	var closers []*os.File
	fail := func(err error) (*Process, error) {
		for _, f := range closers {
			f.Close()
		}
		return nil, fmt.Errorf("botproc: starting %s: %w", cfg.Argv[0], err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return fail(err)
	}
	closers = append(closers, inR, inW)
	outR, outW, err := os.Pipe()
	if err != nil {
		return fail(err)
	}
	closers = append(closers, outR, outW)
	errR, errW, err := os.Pipe()
	if err != nil {
		return fail(err)
	}
	closers = append(closers, errR, errW)
	if cfg.StderrFile != "" {
		if p.file, err = os.OpenFile(cfg.StderrFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
			return fail(err)
		}
		closers = append(closers, p.file)
	}

	cmd := exec.Command(cfg.Argv[0], cfg.Argv[1:]...)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = sysProcAttr()
	// Wait must never block on I/O held open by a grandchild. With *os.File
	// streams exec copies nothing, so this is a second line of defence.
	cmd.WaitDelay = p.grace + 10*time.Millisecond
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	// The child holds its own copies of its ends.
	inR.Close()
	outW.Close()
	errW.Close()
	p.cmd, p.pid = cmd, cmd.Process.Pid
	p.stdin, p.stdout, p.stderr = inW, outR, errR
	p.timer = time.NewTimer(time.Hour)
	p.timer.Stop()

	p.ioDone.Add(2)
	go p.readLines()
	go p.copyStderr()
	go func() {
		p.waitEr = cmd.Wait()
		// The bot is gone: so must its group be (a crash leaves children).
		// The readers then see the end of their pipes.
		killGroup(cmd.Process, true)
		close(p.exited)
	}()
	return p, nil
}

// Pid returns the bot's process id, which is also its process group id
// on Unix.
func (p *Process) Pid() int { return p.pid }

// Exited returns a channel closed once the bot has exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Write sends b (the caller supplies the newlines) to the bot's stdin. It
// fails with ErrTimeout if the bot has not taken it all by deadline (zero:
// no deadline), with ErrExited if the bot closed its input or exited.
func (p *Process) Write(b []byte, deadline time.Time) error {
	if err := p.stdin.SetWriteDeadline(deadline); err != nil {
		if errors.Is(err, os.ErrClosed) {
			return ErrStopped
		}
		// not pollable (not expected for a pipe): write without deadline
	}
	_, err := p.stdin.Write(b)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("%w: the bot did not take its input", ErrTimeout)
	case errors.Is(err, os.ErrClosed):
		return ErrStopped
	}
	return fmt.Errorf("%w: cannot write its input: %v", ErrExited, err)
}

// WriteLine writes s and a newline; see Write.
func (p *Process) WriteLine(s string, deadline time.Time) error {
	return p.Write([]byte(s+"\n"), deadline)
}

// ReadLine returns the bot's next output line without its line ending. It
// fails with ErrTimeout when deadline (zero: none) passes first, with
// ctx.Err() when ctx ends first, with ErrLineTooLong for an overlong line
// and with ErrExited (saying how the bot exited) when the bot exited or
// closed its output without another line. A line the bot wrote just before
// exiting is still returned.
func (p *Process) ReadLine(ctx context.Context, deadline time.Time) (string, error) {
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		p.timer.Reset(time.Until(deadline))
		defer p.timer.Stop()
		timeout = p.timer.C
	}
	select {
	case l, ok := <-p.lines:
		return p.result(l, ok)
	case <-p.exited:
		// The group has been killed, so the output ends soon: deliver
		// what the bot wrote before it went.
		select {
		case l, ok := <-p.lines:
			return p.result(l, ok)
		case <-time.After(time.Second): // a descendant left the group and holds the pipe
			return "", p.exitError()
		}
	case <-timeout:
		return "", ErrTimeout
	case <-ctx.Done():
		return "", ctx.Err()
	case <-p.quit:
		return "", ErrStopped
	}
}

func (p *Process) result(l line, ok bool) (string, error) {
	switch {
	case !ok:
		select {
		case <-p.quit:
			return "", ErrStopped
		default:
		}
		return "", p.exitError()
	case l.err != nil:
		return "", l.err
	}
	return l.text, nil
}

// exitError describes the end of the bot's output: how it exited (waiting
// a little for it) and the end of its stderr.
func (p *Process) exitError() error {
	status := "closed its output"
	if err := p.Wait(500 * time.Millisecond); err == nil {
		status = "exited with status 0"
	} else if !errors.Is(err, ErrTimeout) {
		status = err.Error()
	}
	if t := p.StderrTail(300); t != "" {
		return fmt.Errorf("%w: %s; stderr ends with: %s", ErrExited, status, t)
	}
	return fmt.Errorf("%w: %s", ErrExited, status)
}

// Wait waits up to d for the bot to exit (d <= 0: no limit) and for its
// stderr to be copied. It returns nil for a zero exit status, the exit
// status or signal otherwise ("exit status 3", "signal: killed"), or an
// error wrapping ErrTimeout if the bot is still running.
func (p *Process) Wait(d time.Duration) error {
	var timeout <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-p.exited:
	case <-timeout:
		return fmt.Errorf("%w: the bot is still running after %s", ErrTimeout, d)
	}
	// Its group was killed with it, so stderr ends at once unless a
	// descendant escaped the group.
	done := make(chan struct{})
	go func() { p.ioDone.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(100 * time.Millisecond):
	}
	var ee *exec.ExitError
	if errors.As(p.waitEr, &ee) {
		return errors.New(ee.Error()) // "exit status 3", "signal: killed"
	}
	return p.waitEr
}

// Stderr returns the last bytes of the bot's stderr kept in memory.
func (p *Process) Stderr() string { return p.tail.String() }

// StderrTail returns at most about n of the last bytes of the bot's stderr,
// trimmed, starting at a line boundary when it was cut ("…" marks the cut).
func (p *Process) StderrTail(n int) string {
	t := strings.TrimSpace(p.tail.String())
	if len(t) <= n {
		return t
	}
	cut := t[len(t)-n:]
	if i := strings.IndexByte(cut, '\n'); i >= 0 && i+1 < len(cut) {
		cut = cut[i+1:]
	}
	return "…" + cut
}

// Stop ends the bot and its whole process group: it closes the bot's
// stdin, sends SIGTERM to the group, waits up to Config.Grace for the bot
// to exit, then sends SIGKILL to the group, and waits (up to
// DefaultStopWait) for the bot to be reaped and for the package's
// goroutines to end. It returns nil if the bot was reaped, whatever its
// exit status. Stop may be called any number of times, from any goroutine.
func (p *Process) Stop() error {
	p.stopOnce.Do(func() { p.stopErr = p.stop(p.grace) })
	return p.stopErr
}

// Kill is Stop without the grace: SIGKILL to the group at once.
func (p *Process) Kill() error {
	p.stopOnce.Do(func() { p.stopErr = p.stop(-1) })
	return p.stopErr
}

// Close is Stop (io.Closer).
func (p *Process) Close() error { return p.Stop() }

func (p *Process) stop(grace time.Duration) error {
	close(p.quit)
	p.stdin.Close()
	select {
	case <-p.exited:
	default:
		if grace > 0 {
			killGroup(p.cmd.Process, false)
			t := time.NewTimer(grace)
			select {
			case <-p.exited:
			case <-t.C:
			}
			t.Stop()
		}
		// Also after the bot exited on SIGTERM: its descendants may ignore it.
		killGroup(p.cmd.Process, true)
	}
	var err error
	t := time.NewTimer(DefaultStopWait)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		err = fmt.Errorf("botproc: process %d was killed but not reaped within %s", p.pid, DefaultStopWait)
	}
	// The readers end when the group's last writer is gone; one that left
	// the group could keep a pipe open: closing our ends unblocks them.
	p.stdout.Close()
	p.stderr.Close()
	p.ioDone.Wait()
	if p.file != nil {
		p.file.Close()
	}
	return err
}

// readLines delivers the bot's output lines until its output ends.
func (p *Process) readLines() {
	defer p.ioDone.Done()
	defer close(p.lines)
	br := bufio.NewReaderSize(p.stdout, min(64<<10, p.maxLine+2))
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, chunk...)
			if len(long) > p.maxLine {
				p.deliver(line{err: fmt.Errorf("%w: more than %d bytes without a newline", ErrLineTooLong, p.maxLine)})
				return
			}
			continue
		}
		var text string
		if len(long) > 0 {
			long = append(long, chunk...)
			text, long = string(long), long[:0]
		} else {
			text = string(chunk)
		}
		if err != nil { // the end: a last line without newline still counts
			if text != "" {
				p.deliver(line{text: text})
			}
			return
		}
		text = strings.TrimSuffix(text[:len(text)-1], "\r")
		if len(text) > p.maxLine {
			p.deliver(line{err: fmt.Errorf("%w: a line of %d bytes (at most %d)", ErrLineTooLong, len(text), p.maxLine)})
			return
		}
		if !p.deliver(line{text: text}) {
			return
		}
	}
}

func (p *Process) deliver(l line) bool {
	select {
	case p.lines <- l:
		return true
	case <-p.quit:
		return false
	}
}

// copyStderr keeps the end of the bot's stderr and appends it to the file.
func (p *Process) copyStderr() {
	defer p.ioDone.Done()
	buf := make([]byte, 4096)
	for {
		n, err := p.stderr.Read(buf)
		if n > 0 {
			p.tail.Write(buf[:n])
			if p.file != nil {
				p.file.Write(buf[:n])
			}
		}
		if err != nil {
			return
		}
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTailBuffer(n int) *tailBuffer { return &tailBuffer{max: n} }

func (w *tailBuffer) Write(b []byte) (int, error) {
	if w.max == 0 {
		return len(b), nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(b) >= w.max {
		w.buf = append(w.buf[:0], b[len(b)-w.max:]...)
		return len(b), nil
	}
	if over := len(w.buf) + len(b) - w.max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	w.buf = append(w.buf, b...)
	return len(b), nil
}

func (w *tailBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}

var _ io.Closer = (*Process)(nil)
