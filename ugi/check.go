package ugi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents/botproc"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// CheckOptions configures Check. Its option errors name the fields as
// Check.Positions, Check.MoveTime and so on.
type CheckOptions struct {
	Engine Engine
	// Game is the game spec the engine is checked on (sequential).
	Game string
	// Positions is how many random positions (1 to 1000) the engine must
	// answer with a legal move, given as move lists and again as text.
	Positions int
	// MoveTime is the movetime of each go, 1 ms to 1 minute.
	MoveTime time.Duration
	// Margin is how late after MoveTime (or after stop) a bestmove may
	// come, 0 to 1 minute.
	Margin time.Duration
	// Clock is the mover's time left in the clock check, 10 ms to 1
	// minute; its bestmove is due within half of it.
	Clock time.Duration
	// Handshake is the longest ugiok and readyok are waited for, 1 ms to
	// 1 hour (Engine.Init is the limit if shorter).
	Handshake time.Duration
	// Seed seeds the random positions.
	Seed uint64

	// Out receives each check's verdict as it is made: "pass NAME detail"
	// or "FAIL NAME reason".
	Out io.Writer
	// Note, if not nil, is told what the checker is waiting for when an
	// engine is silent for long.
	Note func(string)
	// OptionName, if not nil, names an option (such as Check.Handshake)
	// in the verdicts' advice, as the caller's user sets it.
	OptionName func(string) string
}

// CheckResult counts the checks Check made and those that failed.
type CheckResult struct{ Checks, Failed int }

// Bounds of CheckOptions.
const (
	MaxCheckPositions = 1000
	MaxCheckMoveTime  = time.Minute
	MaxCheckMargin    = time.Minute
	MinCheckClock     = 10 * time.Millisecond
	MaxCheckClock     = time.Minute
	MaxCheckHandshake = time.Hour
)

// DefaultCheckHandshake is the usual bound on the handshake of a check.
// A spec's init= may allow a slow engine an hour to load in a match; the
// check of a silent engine (a wrong command, an engine that speaks
// another protocol) should not wait that long unless asked to.
const DefaultCheckHandshake = 10 * time.Second

// checkNoteAfter is how long Check waits in silence for ugiok before it
// says, through Note, what it is waiting for, and until when.
const checkNoteAfter = time.Second

// checkQuitWait is how long Check waits for an engine to exit after quit
// (a Python engine was still running 1s after quit at a load of 8 on 2
// cores). A Client stops an engine at once after quit; here only an
// engine that ignores quit should fail, not one that a busy machine runs
// slowly.
const checkQuitWait = 5 * time.Second

// checkQueryWait bounds the answer to a query.
const checkQueryWait = time.Second

// maxCheckPlies bounds the random games of the query check, for games that
// could go on and on.
const maxCheckPlies = 1000

// validate checks o's values and returns the variant; its errors name the
// options.
func (o CheckOptions) validate() (games.Variant, error) {
	if err := durationIn("Check.Handshake", o.Handshake, time.Millisecond, MaxCheckHandshake, ""); err != nil {
		return games.Variant{}, err
	}
	if o.Positions < 1 || o.Positions > MaxCheckPositions {
		return games.Variant{}, option.New("Check.Positions", o.Positions, "want 1 to %d", MaxCheckPositions)
	}
	if o.MoveTime < time.Millisecond || o.MoveTime > MaxCheckMoveTime {
		return games.Variant{}, option.New("Check.MoveTime", o.MoveTime, "want 1ms to 1m")
	}
	if o.Clock < MinCheckClock || o.Clock > MaxCheckClock {
		return games.Variant{}, option.New("Check.Clock", o.Clock, "want 10ms to 1m")
	}
	// A silent engine is waited for up to the margin in several checks:
	// a bound keeps the check from hanging on a mistyped one.
	if err := durationIn("Check.Margin", o.Margin, 0, MaxCheckMargin, " (how late a bestmove may come)"); err != nil {
		return games.Variant{}, err
	}
	if len(o.Engine.Argv) == 0 {
		return games.Variant{}, option.New("Check.Engine", nil, "the engine's command line (Argv) is empty")
	}
	v, err := games.Lookup(o.Game)
	if err != nil {
		return v, fmt.Errorf("%w: %w", &option.Error{Name: "Check.Game"}, err)
	}
	if _, ok := v.New().(games.State); !ok {
		return v, option.New("Check.Game", v, "{Check.Game} %s is simultaneous; UGI describes sequential games only", v)
	}
	return v, nil
}

// durationIn refuses d outside lo to hi as option name, in the words the
// arena uses for every duration: "Margin 2m is out of range: use 0s to 1m".
func durationIn(name string, d, lo, hi time.Duration, note string) error {
	if d >= lo && d <= hi {
		return nil
	}
	return option.OutOfRange(name, spec.FormatDuration(d), spec.FormatDuration(lo), spec.FormatDuration(hi), note)
}

// Check runs an engine through the protocol and reports on each part:
// start, handshake (ugiok within the limit, id name), isready, legal
// bestmoves within movetime in random positions given as move lists and
// as text, the movetime itself, query gameover|p1turn|result, a short
// clock, stop after go infinite, the info lines seen, and quit. A failure
// of the start, handshake or isready ends the check. An error is returned
// only for options Check refuses, before the engine starts.
func Check(o CheckOptions) (CheckResult, error) {
	v, err := o.validate()
	if err != nil {
		return CheckResult{}, err
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	c := &checker{CheckOptions: o, v: v}
	c.run()
	return CheckResult{Checks: c.checks, Failed: c.failed}, nil
}

// checker runs Check's checks on one engine process.
type checker struct {
	CheckOptions
	v       games.Variant
	proc    *botproc.Process
	checks  int
	failed  int
	badInfo []string
	infos   int
	said    string // the last info string line, shown with a failure
}

// handshakeWait is how long Check waits for ugiok (and readyok): init and
// the Handshake option, whichever is shorter (an answer after init fails
// anyway), with the phrase that names the limit.
func handshakeWait(init, handshake time.Duration, name func(string) string) (time.Duration, string) {
	if init <= handshake {
		return init, fmt.Sprintf("within init= %s (the agent's init= option)", spec.FormatDuration(init))
	}
	if name == nil {
		name = func(s string) string { return s }
	}
	opt := name("Check.Handshake")
	return handshake, fmt.Sprintf("within %s (%s; the agent's init= %s is longer: give %s %s to wait as long)",
		spec.FormatDuration(handshake), opt, spec.FormatDuration(init), opt, spec.FormatDuration(init))
}

// report prints one check's verdict; err nil is a pass.
func (c *checker) report(name string, detail string, err error) bool {
	c.checks++
	if err != nil {
		c.failed++
		fmt.Fprintf(c.Out, "FAIL %-14s %v\n", name, err)
		return false
	}
	fmt.Fprintf(c.Out, "pass %-14s %s\n", name, detail)
	return true
}

// readLine reads the next line by deadline; an error names the word the
// checker was waiting for and, on a timeout, the limit (e.g. "in time").
func (c *checker) readLine(word, limit string, deadline time.Time) (string, error) {
	line, err := c.proc.ReadLine(context.Background(), deadline)
	if err != nil {
		if errors.Is(err, botproc.ErrTimeout) {
			return "", noLine(fmt.Sprintf("no %s %s", word, limit))
		}
		return "", fmt.Errorf("waiting for %s: %v", word, err)
	}
	return line, nil
}

// noLine is readLine's error on a timeout: its message, and
// botproc.ErrTimeout to errors.Is.
type noLine string

func (e noLine) Error() string { return string(e) }
func (e noLine) Unwrap() error { return botproc.ErrTimeout }

// readUntil reads lines until one starting with word, by deadline,
// checking every info line on the way.
func (c *checker) readUntil(word string, deadline time.Time) (string, error) {
	for {
		line, err := c.readLine(word, "in time", deadline)
		if err != nil {
			return "", err
		}
		cmd, args := Field(line)
		if cmd == "info" {
			if w, _ := Field(args); w == "string" {
				c.said = line
			}
			c.infos++
			if err := CheckInfo(args); err != nil && len(c.badInfo) < 5 {
				c.badInfo = append(c.badInfo, fmt.Sprintf("%q: %v", line, err))
			}
		}
		if cmd == word {
			return line, nil
		}
	}
}

func (c *checker) send(line string) error {
	return c.proc.WriteLine(line, time.Now().Add(time.Second))
}

func (c *checker) run() {
	init := c.Engine.init()
	p, err := botproc.Start(botproc.Config{Argv: c.Engine.Argv, StderrFile: c.Engine.StderrFile})
	if !c.report("start", "", err) {
		return
	}
	c.proc = p
	defer p.Stop()

	// Handshake: ugi … ugiok, and whether it advertises UGI_Game, by one
	// deadline (lines such as id name do not extend it).
	start := time.Now()
	wait, limit := handshakeWait(init, c.Handshake, c.OptionName)
	deadline, noteAt := start.Add(wait), start.Add(checkNoteAfter)
	gameOption := ""
	err = c.send("ugi")
	var name string
handshake:
	for err == nil {
		// A long wait is announced once, after a second of silence.
		by := deadline
		if noteAt.Before(deadline) {
			by = noteAt
		}
		var line string
		line, err = c.readLine("ugiok", limit, by)
		if errors.Is(err, botproc.ErrTimeout) && by != deadline {
			if c.Note != nil {
				c.Note(fmt.Sprintf("no ugiok yet after %s; waiting up to %s in all for the engine's answer to ugi", spec.FormatDuration(checkNoteAfter), spec.FormatDuration(wait)))
			}
			noteAt, err = deadline, nil
			continue
		}
		if err != nil {
			break
		}
		switch cmd, args := Field(line); cmd {
		case "ugiok":
			if w, _ := Field(args); w == "" {
				break handshake
			}
		case "id":
			if key, text := ID(args); key == "name" && text != "" {
				name = text
			}
		case "option":
			if o, ok := OptionName(args); ok && strings.EqualFold(o, GameOption) {
				gameOption = o
			}
		}
	}
	if err == nil && time.Since(start) > init {
		err = fmt.Errorf("ugiok after %s, beyond init= %s", time.Since(start).Round(time.Millisecond), init)
	}
	detail := fmt.Sprintf("ugiok in %s, id name %q", time.Since(start).Round(time.Microsecond), name)
	if name == "" {
		detail += " (no id name line)"
	}
	if !c.report("handshake", detail, err) {
		return
	}
	for _, o := range c.Engine.Options {
		c.send(SetOption(o.Name, o.Value))
	}
	if gameOption != "" {
		c.send(SetOption(gameOption, c.v.String()))
	}

	// isready latency.
	start = time.Now()
	err = c.send("isready")
	if err == nil {
		_, err = c.readUntil("readyok", time.Now().Add(wait))
	}
	lat := time.Since(start)
	if err == nil && lat > time.Second {
		err = fmt.Errorf("readyok after %s (want under 1s)", lat.Round(time.Millisecond))
	}
	if !c.report("isready", fmt.Sprintf("readyok in %s", lat.Round(time.Microsecond)), err) {
		return
	}
	if err := c.send("uginewgame"); err != nil {
		c.report("uginewgame", "", err)
		return
	}

	// Legal bestmoves within movetime in random positions given as move
	// lists, then as positions in the game's text format.
	r := rng.New(c.Seed)
	var illegal, late error
	worst := time.Duration(0)
	for i := 0; i < c.Positions && illegal == nil; i++ {
		s, moves := randomPosition(c.v, r)
		illegal = c.bestmove(s, movesCommand(moves), &worst, &late)
	}
	c.report("legal-moves", fmt.Sprintf("%d positions given as move lists answered with legal moves", c.Positions), illegal)
	if _, ok := c.v.New().(games.PositionWriter); !ok {
		c.report("fen", fmt.Sprintf("not applicable: %s has no position format", c.v), nil)
	} else {
		var bad error
		for i := 0; i < c.Positions && bad == nil && !exited(p); i++ {
			s, moves := randomPosition(c.v, r)
			bad = c.bestmove(s, fenCommand(c.v, moves, r), &worst, &late)
		}
		if bad != nil {
			bad = fmt.Errorf("%v (positions as text: see 'arena games' and the game's package documentation)", bad)
		}
		c.report("fen", fmt.Sprintf("%d positions given as 'position fen' answered with legal moves", c.Positions), bad)
	}
	c.report("movetime", fmt.Sprintf("slowest answer %s for movetime %s", worst.Round(time.Millisecond), c.MoveTime), late)

	// query gameover, p1turn and result, in random positions and in
	// finished games.
	if !exited(p) {
		n, err := c.queries(r)
		c.report("query", fmt.Sprintf("%d positions (%d finished) answered correctly", 2*c.Positions, n), err)
	}

	// A short clock: bestmove well inside the mover's time.
	if !exited(p) {
		c.report(c.clockCheck(r))
	}

	// go infinite, then stop: bestmove only after stop, and promptly
	// (checked even after a wrong move: a separate failure).
	if !exited(p) {
		s, moves := randomPosition(c.v, r)
		c.send(movesCommand(moves))
		c.send(Go{Infinite: true}.String())
		_, early := c.readUntil("bestmove", time.Now().Add(c.MoveTime))
		var err error
		var el time.Duration
		if early == nil {
			err = errors.New("bestmove before stop under go infinite (an engine must wait for stop)")
		} else {
			t0 := time.Now()
			c.send("stop")
			var line string
			line, err = c.readUntil("bestmove", t0.Add(c.Margin))
			el = time.Since(t0)
			if err != nil {
				err = fmt.Errorf("no bestmove within %s of stop after go infinite", c.Margin)
			} else {
				err = legalBest(s, line)
			}
		}
		c.report("stop", fmt.Sprintf("bestmove %s after stop", el.Round(time.Microsecond)), err)
	}

	// Info lines seen on the way.
	var infoErr error
	if len(c.badInfo) > 0 {
		infoErr = fmt.Errorf("malformed info lines: %s", strings.Join(c.badInfo, "; "))
	}
	c.report("info", fmt.Sprintf("%d info lines, all well formed", c.infos), infoErr)

	// quit ends the process.
	err = c.send("quit")
	if err == nil {
		err = p.Wait(checkQuitWait)
		if errors.Is(err, botproc.ErrTimeout) {
			err = fmt.Errorf("still running %v after quit", checkQuitWait)
		} else {
			err = nil
		}
	}
	c.report("quit", "exited after quit", err)
}

// bestmove sets a position by cmd, sends go movetime and checks the
// answer is a legal move of s; a late answer is noted in late (the first)
// and worst, and does not fail. A missing answer fails, and is noted in
// late too: it was not within movetime + margin either.
func (c *checker) bestmove(s games.State, cmd string, worst *time.Duration, late *error) error {
	c.said = ""
	c.send(cmd)
	t0 := time.Now()
	c.send(Go{MoveTime: c.MoveTime}.String())
	line, err := c.readUntil("bestmove", t0.Add(c.MoveTime+c.Margin+2*time.Second))
	el := time.Since(t0)
	if err != nil {
		if *late == nil {
			*late = fmt.Errorf("no bestmove with go movetime %d (allowed %s) after %q: %v", c.MoveTime.Milliseconds(), c.MoveTime+c.Margin, cmd, err)
		}
		return fmt.Errorf("after %q: %v", cmd, err)
	}
	*worst = max(*worst, el)
	if el > c.MoveTime+c.Margin && *late == nil {
		*late = fmt.Errorf("bestmove after %s with go movetime %d (allowed %s) after %q", el.Round(time.Millisecond), c.MoveTime.Milliseconds(), c.MoveTime+c.Margin, cmd)
	}
	if err := legalBest(s, line); err != nil {
		if c.said != "" {
			return fmt.Errorf("after %q: %v; the engine said %q", cmd, err, c.said)
		}
		return fmt.Errorf("after %q: %v", cmd, err)
	}
	return nil
}

// queries asks query gameover, p1turn and result in Positions random
// positions and as many random games played to the end (p1turn only
// before the end: UGI leaves it open after), and returns how many were
// finished and the first wrong or missing answer.
func (c *checker) queries(r *rng.Rand) (finished int, err error) {
	for i := 0; i < 2*c.Positions; i++ {
		var s games.State
		var moves []string
		if i%2 == 0 {
			s, moves = randomPosition(c.v, r)
		} else {
			s, moves = randomGame(c.v, r)
		}
		if s.Terminal() {
			finished++
		}
		cmd := movesCommand(moves)
		c.send(cmd)
		want := AnswersOf(s)
		for _, q := range Queries {
			if q == "p1turn" && s.Terminal() {
				continue // UGI does not say whose turn it is after the end
			}
			c.send("query " + q)
			line, err := c.readUntil("response", time.Now().Add(checkQueryWait))
			if err != nil {
				return finished, fmt.Errorf("query %s after %q: %v (UGI engines answer 'query gameover|p1turn|result' with 'response true|false' or 'response p1win|p2win|draw|none')", q, cmd, err)
			}
			if a, _ := want.Answer(q); Words(line) != "response "+a {
				return finished, fmt.Errorf("query %s after %q: answered %q, want \"response %s\"", q, cmd, line, a)
			}
		}
	}
	return finished, nil
}

// clockCheck gives the engine a short clock in a few random positions:
// each bestmove is due within half the mover's time left.
func (c *checker) clockCheck(r *rng.Rand) (name, detail string, err error) {
	const tries = 3
	left := c.Clock
	worst := time.Duration(0)
	for i := 0; i < tries; i++ {
		s, moves := randomPosition(c.v, r)
		cmd := movesCommand(moves)
		c.send(cmd)
		g := Go{Clock: true, Time: [2]time.Duration{3 * left, 3 * left}, Inc: [2]time.Duration{left / 100, left / 100}}
		g.Time[s.ToMove()] = left
		goCmd := g.String()
		t0 := time.Now()
		c.send(goCmd)
		line, err := c.readUntil("bestmove", t0.Add(left+c.Margin))
		el := time.Since(t0)
		worst = max(worst, el)
		if err != nil {
			return "clock", "", fmt.Errorf("%q after %q: %v (the mover had %s)", goCmd, cmd, err, left)
		}
		if el > left/2 {
			return "clock", "", fmt.Errorf("bestmove after %s for %q after %q: more than half of the mover's %s (a time manager should spend a small share of its clock)", el.Round(time.Millisecond), goCmd, cmd, left)
		}
		if err := legalBest(s, line); err != nil {
			return "clock", "", fmt.Errorf("after %q and %q: %v", cmd, goCmd, err)
		}
	}
	return "clock", fmt.Sprintf("slowest answer %s with %s on the mover's clock", worst.Round(time.Millisecond), left), nil
}

// movesCommand is the position command of a game's moves from the start.
func movesCommand(moves []string) string { return string(AppendPosition(nil, "", moves...)) }

// fenCommand is a position command that gives the position after a
// random number of the moves as text, and the rest of the moves after it
// (v's states write positions as text).
func fenCommand(v games.Variant, moves []string, r *rng.Rand) string {
	cut := r.IntN(len(moves) + 1)
	s := v.New().(games.State)
	if _, err := games.Replay(v.String(), s, moves[:cut]); err != nil {
		panic(err) // moves came from the rules
	}
	return string(AppendPosition(nil, s.(games.PositionWriter).Position(), moves[cut:]...))
}

// randomPosition plays a random number of random moves from the start,
// stopping before the game ends.
func randomPosition(v games.Variant, r *rng.Rand) (games.State, []string) {
	s := v.New().(games.State)
	var moves []string
	n := r.IntN(40)
	var buf []games.Move
	for i := 0; i < n; i++ {
		buf = s.LegalMoves(buf[:0])
		m := buf[r.IntN(len(buf))]
		s.Play(m)
		if s.Terminal() {
			s.Undo()
			break
		}
		moves = append(moves, s.FormatMove(m))
	}
	return s, moves
}

// randomGame plays random moves from the start to the end of the game (at
// most maxCheckPlies).
func randomGame(v games.Variant, r *rng.Rand) (games.State, []string) {
	s := v.New().(games.State)
	var moves []string
	var buf []games.Move
	for len(moves) < maxCheckPlies && !s.Terminal() {
		buf = s.LegalMoves(buf[:0])
		m := buf[r.IntN(len(buf))]
		moves = append(moves, s.FormatMove(m))
		s.Play(m)
	}
	return s, moves
}

// legalBest checks a bestmove line against s.
func legalBest(s games.State, line string) error {
	_, args := Field(line)
	mv := BestMove(args)
	if mv == "" {
		return fmt.Errorf("%q names no move", line)
	}
	if _, err := games.ParseLegal(s, mv); err != nil {
		return fmt.Errorf("bestmove %s: %v", mv, err)
	}
	return nil
}

// exited reports whether the engine's process has ended.
func exited(p *botproc.Process) bool {
	select {
	case <-p.Exited():
		return true
	default:
		return false
	}
}
