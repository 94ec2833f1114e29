package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/ugi"
)

// benchPosition returns othello6 after plies random moves.
func benchPosition(b testing.TB, plies int) games.State {
	b.Helper()
	v, err := games.Lookup("othello6")
	if err != nil {
		b.Fatal(err)
	}
	s := v.New().(games.State)
	r := rng.New(3)
	for i := 0; i < plies && !s.Terminal(); i++ {
		ms := s.LegalMoves(nil)
		s.Play(ms[r.IntN(len(ms))])
	}
	return s
}

// TestEngineCommands runs the server's command loop in-process: the
// answers to ugi, isready, queries, positions (startpos and fen, with
// moves) and go, and info strings for what it cannot do.
func TestEngineCommands(t *testing.T) {
	const fen = "....../.O..../.XOX../..XO../....../...... x"
	// A finished game, played at random.
	s := benchPosition(t, 1000)
	over, err := ugi.History(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	overResult := map[int]string{0: "p1win", 1: "p2win", games.Draw: "draw"}[s.Outcome().Winner]
	for _, tc := range []struct {
		name, game, in string
		want           []string
	}{
		{"handshake", "othello6", "ugi\nisready\n", []string{"id name arena greedy", "option name UGI_Game type string default othello6", "ugiok", "readyok"}},
		{"start", "othello6", "position startpos\nquery p1turn\nquery gameover\nquery result\ngo movetime 5\n", []string{"response true\nresponse false\nresponse none", "bestmove "}},
		{"moves", "othello6", "position startpos moves b3\nquery p1turn\n", []string{"response false"}},
		{"fen", "othello6", "position fen " + fen + " moves b1\nquery p1turn\n", []string{"response false"}},
		{"fen illegal", "othello6", "position fen " + fen + " moves a1\n", []string{`info string position: ply 1: illegal move "a1" (legal: b1 c2 d5 e4)`}},
		{"fen bad", "othello6", "position fen nonsense\n", []string{"info string position fen: othello6: bad position"}},
		{"game option", "othello6", "setoption name UGI_Game value erdos:algol\nposition startpos\ngo movetime 5\n", []string{"bestmove "}},
		{"bad game", "othello6", "setoption name UGI_Game value tryangle\n", []string{"info string UGI_Game: tryangle is simultaneous"}},
		{"unknown option", "othello6", "setoption name Hash value 3\n", []string{`info string unknown option "Hash" ignored`}},
		{"unknown command", "othello6", "frobnicate\n", []string{`info string unknown command "frobnicate" ignored`}},
		{"over", "othello6", "position startpos moves " + strings.Join(over, " ") + "\nquery gameover\nquery result\ngo movetime 5\n", []string{"response true\nresponse " + overResult, "bestmove (none)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := New(Config{Game: tc.game, Agent: "greedy", Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			if err := e.Serve(strings.NewReader(tc.in+"quit\n"), &out); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestEngineGoLimits: go depth N and go nodes N cap the move of agents
// that honour them (the info line shows the depth, or mcts's iterations as
// nodes), replacing budgets of the spec that are far larger; the engine
// says on an info string which limits an agent does not honour and which
// values it refuses, and then plays on the spec's budget.
func TestEngineGoLimits(t *testing.T) {
	for _, tc := range []struct {
		spec, in string
		want     []string
	}{
		{"alphabeta:time=3s", "go depth 3", []string{"info depth 3 "}},
		{"alphabeta:depth=1", "go depth 2 nodes 1000000", []string{"info depth 2 "}},
		{"mcts:iters=100000", "go nodes 77", []string{" nodes 77 "}},
		{"mcts:time=3s", "go nodes 50 movetime 3000", []string{" nodes 50 "}},
		{"mcts:iters=40", "go depth 3", []string{"info string go depth is not supported by mcts:iters=40; ignored", " nodes 40 "}},
		{"greedy", "go depth 3 nodes 5", []string{"info string go depth is not supported by greedy; ignored",
			"info string go nodes is not supported by greedy; ignored"}},
		{"alphabeta:depth=1", "go depth 0", []string{`info string go depth "0" ignored: want 1 to 100`, "info depth 1 "}},
		{"alphabeta:depth=1", "go depth 101", []string{`info string go depth "101" ignored: want 1 to 100`, "info depth 1 "}},
		{"alphabeta:depth=1", "go nodes x", []string{`info string go nodes "x" ignored: want 1 to 1000000000000`, "info depth 1 "}},
		{"alphabeta:depth=1", "go nodes", []string{`info string go nodes "" ignored`, "info depth 1 "}},
	} {
		t.Run(tc.spec+" "+tc.in, func(t *testing.T) {
			e, err := New(Config{Game: "othello6", Agent: tc.spec, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			inW, lines, served := servePipes(e)
			fmt.Fprintf(inW, "position startpos\n%s\n", tc.in)
			var got strings.Builder
			for lines.Scan() {
				got.WriteString(lines.Text() + "\n")
				if strings.HasPrefix(lines.Text(), "bestmove ") {
					break
				}
			}
			quit(t, inW, served)
			for _, w := range tc.want {
				if !strings.Contains(got.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, got.String())
				}
			}
		})
	}
}

// TestEngineStopWhileThinking: under go infinite a searching agent keeps
// the command loop free (isready is answered at once), gives no bestmove
// before stop, and one promptly after it, with an info line of its stats.
func TestEngineStopWhileThinking(t *testing.T) {
	e, err := New(Config{Game: "othello6", Agent: "mcts:iters=1000000000000,maxnodes=65536", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	inW, lines, served := servePipes(e)
	next := func() string { return nextLine(t, lines) }
	fmt.Fprintln(inW, "position startpos\ngo infinite")
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	fmt.Fprintln(inW, "isready")
	if l := next(); l != "readyok" {
		t.Fatalf("got %q while thinking, want readyok", l)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("readyok took %s while thinking", d)
	}
	start = time.Now()
	fmt.Fprintln(inW, "stop")
	info := next()
	if !strings.HasPrefix(info, "info depth ") || !strings.Contains(info, " nodes ") {
		t.Errorf("info line %q", info)
	}
	for l := info; !strings.HasPrefix(l, "bestmove "); l = next() {
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("bestmove %s after stop", d)
	}
	quit(t, inW, served)
}

// clockSpy is an agent that reports, as its stats' Info, the clock and the
// time to the deadline its move's context carried, then waits for the
// context to end (a time manager that uses all it is given); with noWait
// it answers at once.
type clockSpy struct {
	info   string
	noWait bool
}

func (c *clockSpy) Name() string            { return "spy" }
func (c *clockSpy) LastStats() agents.Stats { return agents.Stats{Info: c.info} }
func (c *clockSpy) Move(ctx context.Context, b games.Base, p int) (games.Move, error) {
	c.info = "no clock"
	if cl, ok := agents.ClockFrom(ctx); ok {
		c.info = fmt.Sprintf("clock %v %v", cl.Remaining, cl.Inc)
	}
	if d, ok := ctx.Deadline(); ok {
		c.info += fmt.Sprintf(" deadline in %dms", (time.Until(d)+5*time.Millisecond).Milliseconds()/10*10)
	}
	if _, ok := ctx.Deadline(); ok && !c.noWait {
		<-ctx.Done()
	}
	return b.(games.State).LegalMoves(nil)[0], nil
}

// TestEngineClock: go with p1time/p2time/p1inc/p2inc runs the agent with
// the clock in its context (agents.ClockFrom) and a deadline at the side
// to move's time left, so the bestmove comes within that time; movetime
// and infinite take no clock.
func TestEngineClock(t *testing.T) {
	for _, tc := range []struct {
		name, in, info string
		least, most    time.Duration
	}{
		{"p1 to move", "position startpos\ngo p1time 300 p2time 40000 p1inc 20 p2inc 7\n",
			"info string clock [300ms 40s] [20ms 7ms] deadline in 300ms", 250 * time.Millisecond, 600 * time.Millisecond},
		{"p2 to move", "position startpos moves b3\ngo p1time 40000 p2time 200 p1inc 0 p2inc 5\n",
			"info string clock [40s 200ms] [0s 5ms] deadline in 200ms", 150 * time.Millisecond, 500 * time.Millisecond},
		{"movetime", "position startpos\ngo movetime 100 p1time 40000 p2time 40000\n",
			"info string no clock deadline in 100ms", 50 * time.Millisecond, 400 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := New(Config{Game: "othello6", Agent: "random", Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			e.agent = &clockSpy{}
			inW, lines, served := servePipes(e)
			start := time.Now()
			fmt.Fprint(inW, tc.in)
			var got []string
			for lines.Scan() && !strings.HasPrefix(lines.Text(), "bestmove ") {
				got = append(got, lines.Text())
			}
			if d := time.Since(start); d < tc.least || d > tc.most {
				t.Errorf("bestmove after %s, want %s to %s", d, tc.least, tc.most)
			}
			if !slices.Contains(got, tc.info) {
				t.Errorf("the engine said %q; want %q", got, tc.info)
			}
			quit(t, inW, served)
		})
	}
}

// TestEngineBadGoTimes: a movetime, time left or increment that is not a
// whole number of milliseconds in its range is ignored with an info string
// naming it and the range (as go depth and go nodes are), and the agent
// plays as if it had not been given: no deadline from a bad movetime, no
// clock from a bad time left, a zero increment for a bad one.
func TestEngineBadGoTimes(t *testing.T) {
	const movetime = "ignored: want 1 to 86400000 (milliseconds)"
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"go movetime -5", []string{`info string go movetime "-5" ` + movetime, "info string no clock"}},
		{"go movetime 0", []string{`info string go movetime "0" ` + movetime, "info string no clock"}},
		{"go movetime abc", []string{`info string go movetime "abc" ` + movetime, "info string no clock"}},
		{"go movetime 99999999999999999999", []string{`info string go movetime "99999999999999999999" ` + movetime, "info string no clock"}},
		{"go movetime 86400001", []string{`info string go movetime "86400001" ` + movetime, "info string no clock"}},
		{"go movetime", []string{`info string go movetime "" ` + movetime, "info string no clock"}},
		{"go p1time -1000 p2time 1000", []string{`info string go p1time "-1000" ignored: want 0 to 31536000000 (milliseconds)`, "info string no clock"}},
		{"go p1time 300 p2time 1000 p1inc -3 p2inc 99999999", []string{
			`info string go p1inc "-3" ignored: want 0 to 3600000 (milliseconds)`,
			`info string go p2inc "99999999" ignored: want 0 to 3600000 (milliseconds)`,
			"info string clock [300ms 1s] [0s 0s] deadline in 300ms"}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			e, err := New(Config{Game: "othello6", Agent: "random", Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			e.agent = &clockSpy{noWait: true} // a wrongly kept movetime of a day must not hang the test
			inW, lines, served := servePipes(e)
			fmt.Fprintf(inW, "position startpos\n%s\n", tc.in)
			var got []string
			for lines.Scan() && !strings.HasPrefix(lines.Text(), "bestmove ") {
				got = append(got, lines.Text())
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("the engine said %q; want %q", got, w)
				}
			}
			quit(t, inW, served)
		})
	}
}

// BenchmarkEngineServe measures the server's side of a move in-process,
// over OS pipes as a process would have them: a position and go, answered
// with bestmove by the random agent. The positions are 20 and 22 plies
// in, alternately: each 22 extends the 20 before it (two moves to play),
// each 20 goes back and is read from the start.
func BenchmarkEngineServe(b *testing.B) {
	e, err := New(Config{Game: "othello6", Agent: "random", Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- e.Serve(inR, outW); outW.Close() }()
	out := bufio.NewReader(outR)
	s := benchPosition(b, 24)
	moves, err := ugi.History(s, nil)
	if err != nil {
		b.Fatal(err)
	}
	cmds := [2][]byte{
		[]byte("position startpos moves " + strings.Join(moves[:20], " ") + "\ngo movetime 1000\n"),
		[]byte("position startpos moves " + strings.Join(moves[:22], " ") + "\ngo movetime 1000\n"),
	}
	i := 0
	for b.Loop() {
		if _, err := inW.Write(cmds[i&1]); err != nil {
			b.Fatal(err)
		}
		i++
		for {
			line, err := out.ReadSlice('\n')
			if err != nil {
				b.Fatal(err)
			}
			if bytes.HasPrefix(line, []byte("bestmove ")) {
				break
			}
		}
	}
	b.StopTimer()
	fmt.Fprintln(inW, "quit")
	if err := <-served; err != nil {
		b.Fatal(err)
	}
	inW.Close()
	inR.Close()
	outR.Close()
}

// TestEnginePositionIncremental: position commands that extend the last
// one (as in a game), go back to an earlier ply, start from a fen, carry
// an illegal move or a word that merely begins like the last one all
// leave the engine at the position a fresh replay reaches (or, on an
// error, where it was).
func TestEnginePositionIncremental(t *testing.T) {
	for _, game := range []string{"othello6", "erdos:algol", "pyrga", "gravity"} {
		t.Run(game, func(t *testing.T) {
			v, err := games.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			e, err := New(Config{Game: game, Agent: "random", Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			e.out = bufio.NewWriter(&out)
			r := rng.New(7)
			for g := 0; g < 20; g++ {
				// A random game and the position text of a ply in it.
				s := v.New().(games.State)
				var moves []string
				for !s.Terminal() && len(moves) < 80 {
					ms := s.LegalMoves(nil)
					m := ms[r.IntN(len(ms))]
					moves = append(moves, s.FormatMove(m))
					s.Play(m)
				}
				root, from := "startpos", 0
				if g%3 == 1 {
					from = r.IntN(len(moves))
					f := v.New().(games.State)
					if _, err := games.Replay(v.String(), f, moves[:from]); err != nil {
						t.Fatal(err)
					}
					root = "fen " + f.(games.PositionWriter).Position()
				}
				cmd := func(n int) string {
					c := "position " + root
					if n > from || g%2 == 0 {
						c += " moves " + strings.Join(moves[from:n], " ")
					}
					return c
				}
				want := func(n int) uint64 {
					f := v.New().(games.State)
					games.Replay(v.String(), f, moves[:n])
					return f.Hash()
				}
				for n := from; n <= len(moves); {
					out.Reset()
					e.position(cmd(n))
					if e.s.Hash() != want(n) {
						t.Fatalf("game %d after %q: not the position of ply %d\n%s", g, cmd(n), n, out.String())
					}
					switch k := r.IntN(10); {
					case k == 0 && n < len(moves):
						// An illegal move added: an error, the position stays.
						bad := cmd(n)
						if n == from && g%2 != 0 {
							bad += " moves"
						}
						e.position(bad + " zz9")
						e.out.Flush()
						if !strings.Contains(out.String(), "info string position: ply ") || e.s.Hash() != want(n) {
							t.Fatalf("game %d: %q then an illegal move: %q, position changed: %v", g, cmd(n), out.String(), e.s.Hash() != want(n))
						}
					case k == 1 && n < len(moves):
						// The last word goes on: not an extension.
						e.position(cmd(n) + "x")
						if e.s.Hash() != want(n) {
							t.Fatalf("game %d: %q+x moved the position", g, cmd(n))
						}
					case k == 2:
						n = from + r.IntN(n-from+1) // back
						continue
					case k == 3 && !e.s.Terminal():
						// The agent searches the engine's state.
						e.goSearch("movetime 1000")
						e.stopSearch()
					}
					n += 1 + r.IntN(2)
				}
			}
		})
	}
}

// stateBreaker is an agent that plays its move on the state and leaves it
// there, breaking the agents' contract.
type stateBreaker struct{}

func (stateBreaker) Name() string { return "breaker" }
func (stateBreaker) Move(_ context.Context, b games.Base, _ int) (games.Move, error) {
	s := b.(games.State)
	m := s.LegalMoves(nil)[0]
	s.Play(m)
	return m, nil
}

// TestEngineAgentChangesPosition: an agent that leaves the engine's state
// changed is reported, a legal move still answered, and the next position
// read from scratch.
func TestEngineAgentChangesPosition(t *testing.T) {
	e, err := New(Config{Game: "othello6", Agent: "random", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	e.agent = stateBreaker{}
	var out strings.Builder
	in := "position startpos moves b3\ngo movetime 100\nposition startpos moves b3 b2\nquery p1turn\nquit\n"
	if err := e.Serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"info string agent failed: agent changed the position (ply 2, want 1)", "bestmove ", "response true"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
}

// sleepy is an agent that takes the first legal move after sleeping
// for the next of its delays.
type sleepy struct{ delays []time.Duration }

func (a *sleepy) Name() string { return "sleepy" }
func (a *sleepy) Move(ctx context.Context, b games.Base, _ int) (games.Move, error) {
	if len(a.delays) > 0 {
		// No timer for a zero delay: the move must take well under
		// syncMove even on a loaded machine.
		if a.delays[0] > 0 {
			select {
			case <-time.After(a.delays[0]):
			case <-ctx.Done():
			}
		}
		a.delays = a.delays[1:]
	}
	return b.(games.State).LegalMoves(nil)[0], nil
}

// TestEngineFastAgentsRunInline: after a move that took under syncMove the
// next runs on the reader goroutine (no hand-off); after a slower one, in
// its own goroutine again, so that isready is answered while it thinks;
// go infinite always waits for stop.
func TestEngineFastAgentsRunInline(t *testing.T) {
	e, err := New(Config{Game: "othello6", Agent: "random", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	e.agent = &sleepy{delays: []time.Duration{0, 0, 300 * time.Millisecond, 300 * time.Millisecond, 0}}
	inW, lines, served := servePipes(e)
	next := func() string { return nextLine(t, lines) }
	// Move 1 runs in a goroutine (nothing is known yet), move 2 inline.
	for i := 1; i <= 2; i++ {
		fmt.Fprintln(inW, "position startpos\ngo movetime 1000")
		if l := next(); !strings.HasPrefix(l, "bestmove ") {
			t.Fatalf("move %d: %q", i, l)
		}
	}
	// Move 3, inline, takes 300 ms: isready waits for it.
	start := time.Now()
	fmt.Fprintln(inW, "go movetime 1000\nisready")
	if l := next(); !strings.HasPrefix(l, "bestmove ") {
		t.Fatalf("move 3: %q", l)
	}
	if l := next(); l != "readyok" || time.Since(start) < 250*time.Millisecond {
		t.Fatalf("%q after %s; want readyok after the inline move", l, time.Since(start))
	}
	// Move 4 is slow again, but in its own goroutine: readyok comes
	// first (its order proves it; a bound on its time failed under load).
	fmt.Fprintln(inW, "go movetime 1000\nisready")
	if l := next(); l != "readyok" {
		t.Fatalf("%q; want readyok while the agent thinks", l)
	}
	if l := next(); !strings.HasPrefix(l, "bestmove ") {
		t.Fatalf("move 4: %q", l)
	}
	// Move 5 under go infinite, after a slow move: its own goroutine
	// (and so it would be after a fast one); the bestmove waits for stop.
	fmt.Fprintln(inW, "go movetime 1000")
	next()
	fmt.Fprintln(inW, "go infinite\nisready")
	if l := next(); l != "readyok" {
		t.Fatalf("%q under go infinite; want readyok and no bestmove before stop", l)
	}
	fmt.Fprintln(inW, "stop")
	if l := next(); !strings.HasPrefix(l, "bestmove ") {
		t.Fatalf("after stop: %q", l)
	}
	quit(t, inW, served)
}

// TestEngineUnboundedGoRunsInGoroutine: a go without movetime or clock
// (depth, nodes, bare go) never runs on the reader goroutine, even after
// fast moves: with no deadline, only stop could end a slow move there.
func TestEngineUnboundedGoRunsInGoroutine(t *testing.T) {
	e, err := New(Config{Game: "othello6", Agent: "random", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	e.agent = &sleepy{delays: []time.Duration{0, 0, 3 * time.Second}}
	inW, lines, served := servePipes(e)
	next := func() string { return nextLine(t, lines) }
	fmt.Fprintln(inW, "position startpos\ngo movetime 1000")
	next()
	fmt.Fprintln(inW, "go movetime 1000")
	next()
	// Fast so far; this move would take 3 s, and only stop ends it
	// (readyok before its bestmove shows it). The test agent has no depth
	// budget, which the engine says first.
	fmt.Fprintln(inW, "go depth 3\nisready")
	if l := next(); l != "info string go depth is not supported by random; ignored" {
		t.Fatalf("%q; want the engine to say the depth is ignored", l)
	}
	if l := next(); l != "readyok" {
		t.Fatalf("%q; want readyok while the agent thinks", l)
	}
	fmt.Fprintln(inW, "stop")
	if l := next(); !strings.HasPrefix(l, "bestmove ") {
		t.Fatalf("after stop: %q", l)
	}
	quit(t, inW, served)
}

// servePipes serves e on pipes, as the server serves stdin and stdout:
// the test writes commands to in and reads the engine's lines; served gets
// serve's error once it returns (after quit, or when in is closed).
func servePipes(e *Server) (in *io.PipeWriter, lines *bufio.Scanner, served chan error) {
	inR, in := io.Pipe()
	outR, outW := io.Pipe()
	served = make(chan error, 1)
	go func() { served <- e.Serve(inR, outW); outW.Close() }()
	return in, bufio.NewScanner(outR), served
}

// quit ends a serve of servePipes: quit, and serve's error fails the test.
func quit(t *testing.T, in *io.PipeWriter, served chan error) {
	t.Helper()
	fmt.Fprintln(in, "quit")
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	in.Close()
}

// nextLine returns the engine's next line; the test fails if there is none.
func nextLine(t *testing.T, lines *bufio.Scanner) string {
	t.Helper()
	if !lines.Scan() {
		t.Fatal("the engine's output ended")
	}
	return lines.Text()
}

// TestNewErrors: a game or agent the server cannot serve is an error that
// names the option (a command line shows it as its flag).
func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		c          Config
		name, want string
	}{
		{Config{Game: "chess", Agent: "greedy"}, "Game", `Game: unknown game "chess"`},
		{Config{Game: "tryangle", Agent: "greedy"}, "Game", "Game: tryangle is simultaneous; UGI describes sequential games only"},
		{Config{Game: "othello6", Agent: "frob"}, "Agent", `Agent: unknown agent "frob"`},
		{Config{Game: "othello6", Agent: "cg:cmd=x"}, "Agent", "Agent: cg: bots speak the CodinGame protocol"},
	} {
		_, err := New(tc.c)
		var oe *option.Error
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.As(err, &oe) || oe.Name != tc.name {
			t.Errorf("%+v: %v; want an error about option %s starting %q", tc.c, err, tc.name, tc.want)
		}
	}
}

// TestServePlayer: a Player moves in place of an agent built from a spec,
// named by its own name unless Agent names it; Name and Author replace
// the id lines.
func TestServePlayer(t *testing.T) {
	for _, tc := range []struct {
		c    Config
		want []string
	}{
		{Config{Game: "gravity", Player: &sleepy{}}, []string{"id name arena sleepy\nid author boardgame-arena\noption name UGI_Game type string default gravity\nugiok", "go depth is not supported by sleepy", "bestmove "}},
		{Config{Game: "othello6", Agent: "greedy", Player: &sleepy{}, Name: "mine", Author: "me"}, []string{"id name mine\nid author me\n", "go depth is not supported by greedy", "bestmove "}},
	} {
		var out strings.Builder
		if err := Serve(tc.c, strings.NewReader("ugi\nposition startpos\ngo depth 3 movetime 50\nquit\n"), &out); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%+v: output lacks %q:\n%s", tc.c, w, out.String())
			}
		}
	}
}
