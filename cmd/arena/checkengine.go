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
	fs := newFlagSet("check-engine", "--agent \"ugi:cmd=…\" [--game othello6] [--positions 10] [--movetime 100ms] [--margin 200ms] [--seed 1]", stderr)
	game := fs.String("game", "othello6", "game spec the engine is checked on (sequential)")
	agent := fs.String("agent", "", "the engine as a ugi agent spec, e.g. ugi:cmd='python3 engine.py' (required)")
	positions := fs.Int("positions", 10, "random positions (1 to 1000) the engine must answer with a legal move")
	movetime := fs.Duration("movetime", 100*time.Millisecond, "movetime of each go (1ms to 1m)")
	margin := fs.Duration("margin", 200*time.Millisecond, "how late after movetime (or after stop) a bestmove may come")
	seed := fs.Uint64("seed", 1, "seed of the random positions")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *positions < 1 || *positions > 1000 {
		return fmt.Errorf("--positions %d: want 1 to 1000", *positions)
	}
	if *movetime < time.Millisecond || *movetime > time.Minute {
		return fmt.Errorf("--movetime %s: want 1ms to 1m", *movetime)
	}
	if *margin < 0 {
		return fmt.Errorf("--margin %s: want 0 or more", *margin)
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
	c := &checker{v: v, sp: sp, movetime: *movetime, margin: *margin, out: stdout}
	failed := c.run(*positions, *seed)
	if failed > 0 {
		return fmt.Errorf("%d of %d checks failed", failed, c.checks)
	}
	fmt.Fprintf(stdout, "all %d checks passed\n", c.checks)
	return nil
}

// checker runs the checks of arena check-engine on one engine process.
type checker struct {
	v                games.Variant
	sp               spec.Spec
	movetime, margin time.Duration
	out              io.Writer
	proc             *botproc.Process
	checks           int
	failed           int
	badInfo          []string
	infos            int
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

// readUntil reads lines until one starting with word, by deadline,
// checking every info line on the way.
func (c *checker) readUntil(word string, deadline time.Time) (string, error) {
	for {
		line, err := c.proc.ReadLine(context.Background(), deadline)
		if err != nil {
			if errors.Is(err, botproc.ErrTimeout) {
				return "", fmt.Errorf("no %s in time", word)
			}
			return "", fmt.Errorf("waiting for %s: %v", word, err)
		}
		f := strings.Fields(line)
		if word == "" {
			return line, nil // any line
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

	// Handshake: ugi … ugiok, and whether it advertises UGI_Game.
	start := time.Now()
	gameOption := ""
	err = c.send("ugi")
	var name string
handshake:
	for err == nil {
		var line string
		line, err = c.readUntil("", time.Now().Add(init))
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
		_, err = c.readUntil("readyok", time.Now().Add(init))
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

	// Legal bestmoves within movetime in random positions.
	r := rng.New(seed)
	var illegal, late error
	worst := time.Duration(0)
	for i := 0; i < positions && illegal == nil; i++ {
		s, moves := randomPosition(c.v, r)
		cmd := "position startpos"
		if len(moves) > 0 {
			cmd += " moves " + strings.Join(moves, " ")
		}
		c.send(cmd)
		t0 := time.Now()
		c.send(fmt.Sprintf("go movetime %d", c.movetime.Milliseconds()))
		line, err := c.readUntil("bestmove", t0.Add(c.movetime+c.margin+2*time.Second))
		el := time.Since(t0)
		worst = max(worst, el)
		if err != nil {
			illegal = fmt.Errorf("after %q: %v", cmd, err)
			break
		}
		if el > c.movetime+c.margin && late == nil {
			late = fmt.Errorf("bestmove after %s with go movetime %d (allowed %s) after %q", el.Round(time.Millisecond), c.movetime.Milliseconds(), c.movetime+c.margin, cmd)
		}
		if err := legalBest(s, line); err != nil {
			illegal = fmt.Errorf("after %q: %v", cmd, err)
		}
	}
	c.report("legal-moves", fmt.Sprintf("%d positions answered with legal moves", positions), illegal)
	c.report("movetime", fmt.Sprintf("slowest answer %s for movetime %s", worst.Round(time.Millisecond), c.movetime), late)

	// go infinite, then stop: bestmove only after stop, and promptly
	// (checked even after a wrong move: a separate failure).
	if !exited(p) {
		s, moves := randomPosition(c.v, r)
		cmd := "position startpos"
		if len(moves) > 0 {
			cmd += " moves " + strings.Join(moves, " ")
		}
		c.send(cmd)
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

	// quit ends the process.
	err = c.send("quit")
	if err == nil {
		err = p.Wait(time.Second)
		if errors.Is(err, botproc.ErrTimeout) {
			err = errors.New("still running 1s after quit")
		} else {
			err = nil
		}
	}
	c.report("quit", "exited after quit", err)
	return c.failed
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
			return fmt.Sprintf("unknown field %q", f[i])
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
