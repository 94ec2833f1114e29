package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/agents/botproc"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

func init() {
	register(command{"check-engine", "check that a UGI engine follows the protocol: handshake, legal moves, movetime, stop, info lines", runCheckEngine})
}

func runCheckEngine(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check-engine", "--agent \"ugi:cmd=…\" [--game othello6] [--positions 10] [--movetime 100ms] [--margin 200ms] [--clock 1s] [--seed 1]", stderr)
	game := fs.String("game", "othello6", "game spec the engine is checked on (sequential)")
	agent := fs.String("agent", "", "the engine as a ugi agent spec, e.g. ugi:cmd='python3 engine.py' (required)")
	positions := fs.Int("positions", 10, "random positions (1 to 1000) the engine must answer with a legal move")
	movetime := fs.Duration("movetime", 100*time.Millisecond, "movetime of each go (1ms to 1m)")
	margin := fs.Duration("margin", 200*time.Millisecond, "how late after movetime (or after stop) a bestmove may come (0 to 1m)")
	clock := fs.Duration("clock", time.Second, "the mover's time left in the clock check (10ms to 1m); its bestmove is due within half of it")
	seed := fs.Uint64("seed", 1, "seed of the random positions")
	handshake := fs.Duration("handshake", defaultCheckHandshake, "the longest the handshake's ugiok and readyok are waited for, 1ms to 1h (the agent's init= is the limit if shorter)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := durationIn("handshake", *handshake, time.Millisecond, time.Hour, false, ""); err != nil {
		return err
	}
	if *positions < 1 || *positions > 1000 {
		return fmt.Errorf("--positions %d: want 1 to 1000", *positions)
	}
	if *movetime < time.Millisecond || *movetime > time.Minute {
		return fmt.Errorf("--movetime %s: want 1ms to 1m", *movetime)
	}
	if *clock < 10*time.Millisecond || *clock > time.Minute {
		return fmt.Errorf("--clock %s: want 10ms to 1m", *clock)
	}
	// A silent engine is waited for up to the margin in several checks:
	// a bound keeps the command from hanging on a mistyped one.
	if err := durationIn("margin", *margin, 0, maxCheckMargin, false, " (how late a bestmove may come)"); err != nil {
		return err
	}
	sp, err := spec.Parse(*agent)
	if err != nil || sp.Name != "ugi" {
		return fmt.Errorf("--agent %q: want a ugi agent spec, e.g. --agent \"ugi:cmd='python3 engine.py'\"", *agent)
	}
	if err := agents.Validate(*agent); err != nil {
		return fmt.Errorf("--agent: %w", err)
	}
	v, err := games.Lookup(*game)
	if err != nil {
		return fmt.Errorf("--game: %w", err)
	}
	if _, ok := v.New().(games.State); !ok {
		return fmt.Errorf("--game %s is simultaneous; UGI describes sequential games only", v)
	}
	c := &checker{v: v, sp: sp, movetime: *movetime, margin: *margin, clock: *clock, handshake: *handshake, out: stdout, log: stderr}
	failed := c.run(*positions, *seed)
	if failed > 0 {
		return fmt.Errorf("%d of %d checks failed", failed, c.checks)
	}
	fmt.Fprintf(stdout, "all %d checks passed\n", c.checks)
	return nil
}

// maxCheckMargin bounds check-engine's --margin, as --movetime and
// --clock are bounded.
const maxCheckMargin = time.Minute

// defaultCheckHandshake is check-engine's own bound on the handshake. A
// spec's init= may allow a slow engine an hour to load in a match; the
// check of a silent engine (a wrong command, an engine that speaks
// another protocol) should not wait that long unless asked to
// (--handshake).
const defaultCheckHandshake = 10 * time.Second

// handshakeNoteAfter is how long check-engine waits in silence for ugiok
// before it says on stderr what it is waiting for, and until when.
const handshakeNoteAfter = time.Second

// handshakeWait is how long check-engine waits for ugiok (and readyok):
// the agent's init and --handshake, whichever is shorter (an answer after
// init fails anyway), with the phrase that names the limit.
func handshakeWait(init, handshake time.Duration) (time.Duration, string) {
	if init <= handshake {
		return init, fmt.Sprintf("within init= %s (the agent's init= option)", spec.FormatDuration(init))
	}
	return handshake, fmt.Sprintf("within %s (--handshake; the agent's init= %s is longer: give --handshake %s to wait as long)",
		spec.FormatDuration(handshake), spec.FormatDuration(init), spec.FormatDuration(init))
}

// checker runs the checks of arena check-engine on one engine process.
type checker struct {
	v                games.Variant
	sp               spec.Spec
	movetime, margin time.Duration
	clock            time.Duration // the mover's time left in the clock check
	handshake        time.Duration // --handshake
	out              io.Writer
	log              io.Writer // stderr: what the checker is waiting for
	proc             *botproc.Process
	checks           int
	failed           int
	badInfo          []string
	infos            int
	said             string // the last info string line, shown with a failure
}

// report prints one check's verdict; err nil is a pass.
func (c *checker) report(name string, detail string, err error) bool {
	c.checks++
	if err != nil {
		c.failed++
		fmt.Fprintf(c.out, "FAIL %-14s %v\n", name, err)
		return false
	}
	fmt.Fprintf(c.out, "pass %-14s %s\n", name, detail)
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
		f := strings.Fields(line)
		if len(f) > 1 && f[0] == "info" && f[1] == "string" {
			c.said = line
		}
		if len(f) > 0 && f[0] == "info" {
			c.infos++
			if msg := checkInfo(f[1:]); msg != "" && len(c.badInfo) < 5 {
				c.badInfo = append(c.badInfo, fmt.Sprintf("%q: %s", line, msg))
			}
		}
		if len(f) > 0 && f[0] == word {
			return line, nil
		}
	}
}

func (c *checker) send(line string) error {
	return c.proc.WriteLine(line, time.Now().Add(time.Second))
}

func (c *checker) run(positions int, seed uint64) int {
	init := agents.DefaultUGIInit
	if d, err := c.sp.DurationIn("init", init, time.Millisecond, time.Hour); err == nil {
		init = d
	}
	p, err := botproc.Start(botproc.Config{Argv: strings.Fields(c.sp.Vals["cmd"]), StderrFile: c.sp.Vals["stderr"]})
	if !c.report("start", "", err) {
		return c.failed
	}
	c.proc = p
	defer p.Stop()

	// Handshake: ugi … ugiok, and whether it advertises UGI_Game, by one
	// deadline (lines such as id name do not extend it).
	start := time.Now()
	wait, limit := handshakeWait(init, c.handshake)
	deadline, noteAt := start.Add(wait), start.Add(handshakeNoteAfter)
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
			fmt.Fprintf(c.log, "arena check-engine: no ugiok yet after %s; waiting up to %s in all for the engine's answer to ugi\n", spec.FormatDuration(handshakeNoteAfter), spec.FormatDuration(wait))
			noteAt, err = deadline, nil
			continue
		}
		f := strings.Fields(line)
		switch {
		case err != nil:
		case len(f) == 1 && f[0] == "ugiok":
			break handshake
		case len(f) >= 3 && f[0] == "id" && f[1] == "name":
			name = strings.Join(f[2:], " ")
		case len(f) >= 3 && f[0] == "option" && f[1] == "name" && strings.EqualFold(f[2], agents.UGIGameOption):
			gameOption = f[2]
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
		return c.failed
	}
	for _, k := range c.sp.Keys {
		if o, ok := strings.CutPrefix(k, "option."); ok {
			c.send("setoption name " + o + " value " + c.sp.Vals[k])
		}
	}
	if gameOption != "" {
		c.send("setoption name " + gameOption + " value " + c.v.String())
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
		return c.failed
	}
	if err := c.send("uginewgame"); err != nil {
		c.report("uginewgame", "", err)
		return c.failed
	}

	// Legal bestmoves within movetime in random positions given as move
	// lists, then as positions in the game's text format.
	r := rng.New(seed)
	var illegal, late error
	worst := time.Duration(0)
	for i := 0; i < positions && illegal == nil; i++ {
		s, moves := randomPosition(c.v, r)
		illegal = c.bestmove(s, movesCommand(moves), &worst, &late)
	}
	c.report("legal-moves", fmt.Sprintf("%d positions given as move lists answered with legal moves", positions), illegal)
	if _, ok := c.v.New().(games.PositionWriter); !ok {
		c.report("fen", fmt.Sprintf("not applicable: %s has no position format", c.v), nil)
	} else {
		var bad error
		for i := 0; i < positions && bad == nil && !exited(p); i++ {
			s, moves := randomPosition(c.v, r)
			bad = c.bestmove(s, fenCommand(c.v, moves, r), &worst, &late)
		}
		if bad != nil {
			bad = fmt.Errorf("%v (positions as text: see 'arena games' and the game's package documentation)", bad)
		}
		c.report("fen", fmt.Sprintf("%d positions given as 'position fen' answered with legal moves", positions), bad)
	}
	c.report("movetime", fmt.Sprintf("slowest answer %s for movetime %s", worst.Round(time.Millisecond), c.movetime), late)

	// query gameover, p1turn and result, in random positions and in
	// finished games.
	if !exited(p) {
		n, err := c.queries(positions, r)
		c.report("query", fmt.Sprintf("%d positions (%d finished) answered correctly", 2*positions, n), err)
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
		c.send("go infinite")
		_, early := c.readUntil("bestmove", time.Now().Add(c.movetime))
		var err error
		var el time.Duration
		if early == nil {
			err = errors.New("bestmove before stop under go infinite (an engine must wait for stop)")
		} else {
			t0 := time.Now()
			c.send("stop")
			var line string
			line, err = c.readUntil("bestmove", t0.Add(c.margin))
			el = time.Since(t0)
			if err != nil {
				err = fmt.Errorf("no bestmove within %s of stop after go infinite", c.margin)
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

	// quit ends the process. The arena itself stops an engine at once
	// after quit; here it is given quitWait, so that only an engine that
	// ignores quit fails, not one that a busy machine runs slowly.
	err = c.send("quit")
	if err == nil {
		err = p.Wait(quitWait)
		if errors.Is(err, botproc.ErrTimeout) {
			err = fmt.Errorf("still running %v after quit", quitWait)
		} else {
			err = nil
		}
	}
	c.report("quit", "exited after quit", err)
	return c.failed
}

// quitWait is how long check-engine waits for an engine to exit after quit
// (a Python engine was still running 1s after quit at a load of 8 on 2
// cores).
const quitWait = 5 * time.Second

// bestmove sets a position by cmd, sends go movetime and checks the
// answer is a legal move of s; a late answer is noted in late (the first)
// and worst, and does not fail. A missing answer fails, and is noted in
// late too: it was not within movetime + margin either.
func (c *checker) bestmove(s games.State, cmd string, worst *time.Duration, late *error) error {
	c.said = ""
	c.send(cmd)
	t0 := time.Now()
	c.send(fmt.Sprintf("go movetime %d", c.movetime.Milliseconds()))
	line, err := c.readUntil("bestmove", t0.Add(c.movetime+c.margin+2*time.Second))
	el := time.Since(t0)
	if err != nil {
		if *late == nil {
			*late = fmt.Errorf("no bestmove with go movetime %d (allowed %s) after %q: %v", c.movetime.Milliseconds(), c.movetime+c.margin, cmd, err)
		}
		return fmt.Errorf("after %q: %v", cmd, err)
	}
	*worst = max(*worst, el)
	if el > c.movetime+c.margin && *late == nil {
		*late = fmt.Errorf("bestmove after %s with go movetime %d (allowed %s) after %q", el.Round(time.Millisecond), c.movetime.Milliseconds(), c.movetime+c.margin, cmd)
	}
	if err := legalBest(s, line); err != nil {
		if c.said != "" {
			return fmt.Errorf("after %q: %v; the engine said %q", cmd, err, c.said)
		}
		return fmt.Errorf("after %q: %v", cmd, err)
	}
	return nil
}

// queryWait bounds the answer to a query.
const queryWait = time.Second

// queries asks query gameover, p1turn and result in positions random
// positions and as many random games played to the end (p1turn only
// before the end: UGI leaves it open after), and returns how many were
// finished and the first wrong or missing answer.
func (c *checker) queries(positions int, r *rng.Rand) (finished int, err error) {
	for i := 0; i < 2*positions; i++ {
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
		want := queryAnswers(s)
		for _, q := range []string{"gameover", "p1turn", "result"} {
			if q == "p1turn" && s.Terminal() {
				continue // UGI does not say whose turn it is after the end
			}
			c.send("query " + q)
			line, err := c.readUntil("response", time.Now().Add(queryWait))
			if err != nil {
				return finished, fmt.Errorf("query %s after %q: %v (UGI engines answer 'query gameover|p1turn|result' with 'response true|false' or 'response p1win|p2win|draw|none')", q, cmd, err)
			}
			if got := strings.Join(strings.Fields(line), " "); got != "response "+want[q] {
				return finished, fmt.Errorf("query %s after %q: answered %q, want \"response %s\"", q, cmd, line, want[q])
			}
		}
	}
	return finished, nil
}

// queryAnswers returns the right answers to the queries in s, by query.
func queryAnswers(s games.State) map[string]string {
	result := "none"
	if s.Terminal() {
		switch s.Outcome().Winner {
		case 0:
			result = "p1win"
		case 1:
			result = "p2win"
		default:
			result = "draw"
		}
	}
	return map[string]string{
		"gameover": strconv.FormatBool(s.Terminal()),
		"p1turn":   strconv.FormatBool(s.ToMove() == 0),
		"result":   result,
	}
}

// clockCheck gives the engine a short clock in a few random positions:
// each bestmove is due within half the mover's time left.
func (c *checker) clockCheck(r *rng.Rand) (name, detail string, err error) {
	const tries = 3
	left := c.clock
	worst := time.Duration(0)
	for i := 0; i < tries; i++ {
		s, moves := randomPosition(c.v, r)
		cmd := movesCommand(moves)
		c.send(cmd)
		times := [2]time.Duration{3 * left, 3 * left}
		times[s.ToMove()] = left
		inc := left / 100
		goCmd := fmt.Sprintf("go p1time %d p2time %d p1inc %d p2inc %d", times[0].Milliseconds(), times[1].Milliseconds(), inc.Milliseconds(), inc.Milliseconds())
		t0 := time.Now()
		c.send(goCmd)
		line, err := c.readUntil("bestmove", t0.Add(left+c.margin))
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
func movesCommand(moves []string) string {
	if len(moves) == 0 {
		return "position startpos"
	}
	return "position startpos moves " + strings.Join(moves, " ")
}

// fenCommand is a position command that gives the position after a
// random number of the moves as text, and the rest of the moves after it
// (v's states write positions as text).
func fenCommand(v games.Variant, moves []string, r *rng.Rand) string {
	cut := r.IntN(len(moves) + 1)
	s := v.New().(games.State)
	if _, err := games.Replay(v.String(), s, moves[:cut]); err != nil {
		panic(err) // moves came from the rules
	}
	cmd := "position fen " + s.(games.PositionWriter).Position()
	if cut < len(moves) {
		cmd += " moves " + strings.Join(moves[cut:], " ")
	}
	return cmd
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

// maxCheckPlies bounds randomGame for games that could go on and on.
const maxCheckPlies = 1000

// legalBest checks a bestmove line against s.
func legalBest(s games.State, line string) error {
	f := strings.Fields(line)
	if len(f) < 2 {
		return fmt.Errorf("%q names no move", line)
	}
	if _, err := games.ParseLegal(s, f[1]); err != nil {
		return fmt.Errorf("bestmove %s: %v", f[1], err)
	}
	return nil
}

// checkInfo returns what is wrong with the fields of an info line, or "".
// The UCI fields are checked; any other name must be followed by an
// integer.
func checkInfo(f []string) string {
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "depth", "seldepth", "time", "nodes", "nps", "hashfull", "multipv", "currmovenumber", "tbhits":
			if i+1 >= len(f) {
				return f[i] + " without a number"
			}
			i++
			if _, err := strconv.ParseInt(f[i], 10, 64); err != nil {
				return fmt.Sprintf("%s %q is not an integer", f[i-1], f[i])
			}
		case "score":
			if i+2 >= len(f) || (f[i+1] != "cp" && f[i+1] != "mate") {
				return "score needs cp N or mate N"
			}
			if _, err := strconv.Atoi(f[i+2]); err != nil {
				return fmt.Sprintf("score %s %q is not an integer", f[i+1], f[i+2])
			}
			i += 2
			if i+1 < len(f) && (f[i+1] == "lowerbound" || f[i+1] == "upperbound") {
				i++
			}
		case "currmove":
			i++
		case "pv", "string":
			return ""
		default:
			// An engine's own statistic (cutegames' engines send
			// tthits N): a name and an integer.
			if i+1 < len(f) {
				if _, err := strconv.ParseInt(f[i+1], 10, 64); err == nil {
					i++
					continue
				}
			}
			return fmt.Sprintf("unknown field %q (not followed by an integer)", f[i])
		}
	}
	return ""
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
