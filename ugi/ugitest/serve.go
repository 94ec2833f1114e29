package ugitest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	_ "github.com/boardgame-arena/arena/games/all" // the games an engine may be asked to play
	"github.com/boardgame-arena/arena/ugi/server"
)

// The environment of a test binary run as an engine (see Engine).
const (
	serveEnv  = "ARENA_UGITEST_SERVE"  // the agent spec
	brokenEnv = "ARENA_UGITEST_BROKEN" // how the engine is broken, if at all
	pidsEnv   = "ARENA_UGITEST_PIDS"   // the file it appends its PID to
)

// Engine returns the command line (for ugi:cmd= or ugi.Engine.Argv) of
// an engine that this test binary serves: agent (a spec without commas or
// blanks) on othello6 until UGI_Game says otherwise, seed 1. The test
// binary's TestMain must call ServeIfAsked first. broken, if not "",
// breaks the engine: "nofen" ignores position fen (an info string says so
// and the position stays as it was), "noquery" never answers query,
// "swapresult" answers query result with the winners swapped, and
// "verbose" prints an info string of VerboseInfo bytes before each
// bestmove (as a chatty engine may: lines of up to a MiB). pids, if
// not "", names the file the engine appends its PID to.
func Engine(t testing.TB, agent, broken, pids string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// GORACE: a race-enabled binary otherwise sleeps 1s at exit, and
	// fails check-engine's quit check.
	return "env GORACE=atexit_sleep_ms=0 " + serveEnv + "=" + agent + " " + brokenEnv + "=" + broken + " " + pidsEnv + "=" + pids + " " + self
}

// ServeIfAsked, when the environment asks for an engine (see Engine),
// serves it on stdin and stdout and exits; else it returns.
func ServeIfAsked() {
	agent := os.Getenv(serveEnv)
	if agent == "" {
		return
	}
	os.Exit(serve(agent, os.Getenv(brokenEnv), os.Getenv(pidsEnv)))
}

func serve(agent, mode, pids string) int {
	if pids != "" {
		if f, err := os.OpenFile(pids, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintln(f, os.Getpid())
			f.Close()
		}
	}
	c := server.Config{Game: "othello6", Agent: agent, Seed: 1}
	if mode == "" {
		if err := server.Serve(c, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	in, toEngine := io.Pipe()
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case mode == "nofen" && strings.HasPrefix(line, "position fen"):
				line = "frobnicate" // answered with an info string
			case mode == "noquery" && strings.HasPrefix(line, "query"):
				continue
			}
			fmt.Fprintln(toEngine, line)
		}
		toEngine.Close()
	}()
	var out io.Writer = os.Stdout
	switch mode {
	case "swapresult":
		out = swapWriter{os.Stdout}
	case "verbose":
		out = verboseWriter{os.Stdout}
	}
	if err := server.Serve(c, in, out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// swapWriter swaps p1win and p2win in what the engine writes (one line a
// Write: the engine flushes each line).
type swapWriter struct{ w io.Writer }

func (s swapWriter) Write(b []byte) (int, error) {
	t := strings.NewReplacer("response p1win", "response p2win", "response p2win", "response p1win").Replace(string(b))
	if _, err := io.WriteString(s.w, t); err != nil {
		return 0, err
	}
	return len(b), nil
}

// VerboseInfo is the length of the info string a "verbose" engine (see
// Engine) prints before each move: about what the audit of issue 33 saw
// an engine print, under the 1 MiB a line may have.
const VerboseInfo = 900_000

// verboseWriter writes a long info string before each bestmove line (one
// line a Write: the engine flushes each line).
type verboseWriter struct{ w io.Writer }

func (v verboseWriter) Write(b []byte) (int, error) {
	if strings.HasPrefix(string(b), "bestmove") {
		if _, err := io.WriteString(v.w, "info string "+strings.Repeat("x", VerboseInfo)+"\n"); err != nil {
			return 0, err
		}
	}
	return v.w.Write(b)
}
