package main

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/tune"
)

func writeParams(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "params.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTuneSPSAErrors(t *testing.T) {
	good := writeParams(t, "c, float, 0.7, 0.1, 3, 0.1, 0.002\n")
	bad := writeParams(t, "# mcts\nc, float, 0.7, 0.1, 3, 0.1\n")
	lowMin := writeParams(t, "c, float, 0.05, -1, 2.0, 0.2, 0.002\n")
	lowIters := writeParams(t, "# budget\niters, int, 1, 0, 100, 2, 0.002\n")
	highFPU := writeParams(t, "c, float, 0.7, 0.1, 3, 0.1, 0.002\nfpu, float, 0.5, 0, 2, 0.1, 0.002\n")
	noDir := filepath.Join(t.TempDir(), "missing")
	existing := filepath.Join(t.TempDir(), "run.jsonl")
	os.WriteFile(existing, []byte("x\n"), 0o644)
	tornHeader := filepath.Join(t.TempDir(), "torn.jsonl")
	os.WriteFile(tornHeader, []byte(`{"record":"spsa","game":"othel`), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--params", good, "--iterations", "5"}, "--agent is missing"},
		{[]string{"--agent", "mcts:iters=10", "--iterations", "5"}, "--params is missing"},
		{[]string{"--agent", "mcts:iters=10", "--params", good}, "--iterations is missing"},
		{[]string{"--agent", "mcts:iters=10", "--params", bad, "--iterations", "5"}, "line 2: 6 fields"},
		{[]string{"--agent", "mcts:iters=10", "--params", "/nonexistent/p.txt", "--iterations", "5"}, "--params"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "2000000"}, "--iterations 2000000: use 1 to 1000000"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "0"}, "--iterations 0: use 1 to 1000000"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--alpha", "0"}, "--alpha 0 and --gamma 0.101: use exponents in (0, 10]"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--gamma", "0"}, "--gamma 0: use exponents"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--A", "-2"}, "--A -2: use 0 to 1000000, or -1"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--pairs-per", "0"}, "--pairs-per 0"},
		{[]string{"--agent", "greedy", "--params", good, "--iterations", "5"}, `unknown option "c"`},
		// Bounds the agent refuses: before any game, not at iteration 1.
		{[]string{"--agent", "mcts:iters=20", "--params", lowMin, "--iterations", "5"}, "parameter c (parameter file line 1): its min -1 is not a value the agent takes (mcts:iters=20,c=-1): mcts: option c=-1 is out of range"},
		{[]string{"--agent", "mcts:iters=20", "--params", lowIters, "--iterations", "5"}, "parameter iters (parameter file line 2): its min 0 is not a value the agent takes (mcts:iters=0)"},
		{[]string{"--agent", "mcts:iters=20", "--params", highFPU, "--iterations", "5"}, "parameter fpu (parameter file line 2): its max 2 is not a value the agent takes (mcts:iters=20,c=0.7,fpu=2)"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--history", "h.txt"}, ".csv or a .json"},
		// Outputs written after the last iteration are checked before the first.
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--plot", filepath.Join(noDir, "p.svg")}, "--plot " + filepath.Join(noDir, "p.svg") + " cannot be written: the directory " + noDir + " does not exist"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--history", filepath.Join(noDir, "h.csv")}, "--history " + filepath.Join(noDir, "h.csv") + " cannot be written: the directory " + noDir + " does not exist"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--plot", filepath.Dir(good)}, "is a directory"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--history", filepath.Join(good, "h.json")}, "is not a directory"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--verify-games", "3"}, "--verify-games 3"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--verify-sprt", "elo0=5,elo1=0"}, "elo0 < elo1"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--verify-sprt", "foo"}, `--verify-sprt: sprt: unknown option "foo"`},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--concurrency", "0"}, "--concurrency 0"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--openings", "random:5000"}, "random:K"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--tc", "1s", "--move-time", "1s"}, "cannot be used together"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "--out", existing}, "already exists"},
		{[]string{"--resume", existing, "--iterations", "5"}, "--iterations: a resumed run keeps the configuration"},
		{[]string{"--resume", existing, "--out", "x.jsonl"}, "leave out --out"},
		{[]string{"--resume", existing}, "no SPSA header"},
		{[]string{"--resume", tornHeader}, "--resume " + tornHeader + ": the file holds only part of a header line (30 bytes, no newline) and no iteration: the run that created it was interrupted (or the disk filled up) while writing its header, before its first iteration; there is nothing to resume or read: delete the file and start the run again"},
		{[]string{"--agent", "mcts:iters=10", "--params", good, "--iterations", "5", "stray"}, "unexpected argument"},
	} {
		code, _, errOut := runArena(append([]string{"tune", "spsa"}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("tune spsa %s: exit %d, stderr %q; want an error with %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
}

func TestTuneSPSARun(t *testing.T) {
	dir := t.TempDir()
	params := writeParams(t, "c, float, 0.7, 0.1, 3, 0.1, 0.002\nfpu, float, 0.5, 0, 1, 0.1, 0.002\n")
	out, hist, hcsv, plot := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "h.json"), filepath.Join(dir, "h.csv"), filepath.Join(dir, "p.svg")
	code, stdout, errOut := runArena("tune", "spsa", "--agent", "mcts:iters=20", "--params", params, "--iterations", "6", "--pairs-per", "2",
		"--out", out, "--history", hist, "--plot", plot, "--verify-games", "20", "--format", "json", "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep tune.SPSAReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if !rep.Complete || rep.Iterations != 6 || rep.Games != 24 || len(rep.Params) != 2 || rep.Start != "mcts:iters=20,c=0.7,fpu=0.5" {
		t.Errorf("report %+v", rep)
	}
	if !strings.HasPrefix(rep.Agent, "mcts:iters=20,c=") || !strings.Contains(rep.Agent, ",fpu=") {
		t.Errorf("tuned agent %q", rep.Agent)
	}
	if rep.Verify == nil || rep.Verify.Games() == 0 || rep.Verify.Games() > 20 || rep.Verify.Tuned != rep.Agent {
		t.Errorf("verification %+v", rep.Verify)
	}
	var its []map[string]any
	data, _ := os.ReadFile(hist)
	if err := json.Unmarshal(data, &its); err != nil || len(its) != 6 {
		t.Fatalf("history: %d iterations, %v", len(its), err)
	}
	if svg, _ := os.ReadFile(plot); !strings.Contains(string(svg), "<svg") || !strings.Contains(string(svg), "fpu") {
		t.Errorf("plot is not an SVG with the parameters' names: %.80q", svg)
	}
	// A finished run resumed again plays no iteration more, and its
	// verification as the run was started (at most 20 games, from the
	// file); its history in CSV has a header and a row per iteration.
	code, stdout, errOut = runArena("tune", "spsa", "--resume", out, "--history", hcsv, "--no-progress")
	if code != 0 || !strings.Contains(stdout, "Tuned agent: "+rep.Agent) || !strings.Contains(errOut, "SPRT elo0=0,elo1=5") || !strings.Contains(errOut, "at most 20 games") {
		t.Fatalf("resume of a finished run: exit %d, %s %s", code, stdout, errOut)
	}
	code, _, errOut = runArena("tune", "spsa", "--resume", out, "--verify=false", "--verify-games", "4")
	if code == 0 || !strings.Contains(errOut, "--verify, --verify-games: a resumed run keeps its verification settings in") {
		t.Errorf("resume with verification flags: exit %d, %s", code, errOut)
	}
	csvData, _ := os.ReadFile(hcsv)
	lines := strings.Split(strings.TrimSpace(string(csvData)), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "k,wins,draws,losses,c.flip,c.plus,c.minus,c,fpu.flip") {
		t.Errorf("CSV history: %d lines, header %q", len(lines), lines[0])
	}
}

// A run killed with SIGKILL in the middle, then resumed, has the same
// trajectory as an uninterrupted run: equal θ after every iteration.
func TestTuneSPSAKillResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena binary")
	}
	bin := arenaBinary(t)
	dir := t.TempDir()
	params := writeParams(t, "c, float, 0.7, 0.1, 3, 0.2, 0.004\nfpu, float, 0.5, 0, 1, 0.1, 0.004\n")
	args := []string{"tune", "spsa", "--agent", "mcts:iters=300", "--params", params, "--iterations", "24", "--pairs-per", "2", "--verify=false", "--no-progress", "--seed", "5"}
	whole, killed := filepath.Join(dir, "whole.jsonl"), filepath.Join(dir, "killed.jsonl")
	if code, _, errOut := runArena(append(args, "--out", whole)...); code != 0 {
		t.Fatalf("uninterrupted run: exit %d: %s", code, errOut)
	}

	cmd := exec.Command(bin, append(args, "--out", killed, "--concurrency", "1")...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for countLines(killed) < 6 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	n := countLines(killed) - 1
	if n >= 24 {
		t.Skip("the run finished before it could be killed")
	}
	t.Logf("killed after %d iterations", n)
	if code, _, errOut := runArena("tune", "spsa", "--resume", killed, "--no-progress"); code != 0 { // --verify=false is in the file
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	a, b := readThetas(t, whole), readThetas(t, killed)
	if len(a) != 24 || len(b) != 24 {
		t.Fatalf("%d and %d iterations, want 24", len(a), len(b))
	}
	for k := range a {
		if a[k] != b[k] {
			t.Errorf("iteration %d: θ %s uninterrupted, %s killed and resumed", k+1, a[k], b[k])
		}
	}
}

func countLines(path string) int {
	data, _ := os.ReadFile(path)
	return strings.Count(string(data), "\n")
}

// readThetas returns each iteration's θ after, as its JSON text.
func readThetas(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var it struct {
			Record string          `json:"record"`
			After  json.RawMessage `json:"theta_after"`
		}
		if json.Unmarshal(sc.Bytes(), &it) == nil && it.Record == "iteration" {
			out = append(out, string(it.After))
		}
	}
	return out
}

// TestTuneSPSARefusedResumeLeavesFile: a resume refused for what the file
// holds (a configuration that is no longer valid), for flags a resumed run
// refuses, or because its broker cannot start, leaves the file byte for
// byte as it was, torn last line included; an accepted one cuts the torn
// line and finishes the run. The torn line was cut before anything was
// checked.
func TestTuneSPSARefusedResumeLeavesFile(t *testing.T) {
	dir := t.TempDir()
	params := writeParams(t, "c, float, 0.7, 0.1, 3, 0.1, 0.002\n")
	path := filepath.Join(dir, "run.jsonl")
	if code, _, errOut := runArena("tune", "spsa", "--agent", "mcts:iters=10", "--params", params, "--iterations", "3", "--pairs-per", "1",
		"--verify=false", "--no-progress", "--out", path); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(whole), "\n")
	if len(lines) != 5 { // header, 3 iterations, ""
		t.Fatalf("%d lines: %s", len(lines)-1, whole)
	}
	torn := strings.Join(lines[:3], "") + lines[3][:30] // two iterations and part of the third
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, tc := range []struct {
		name, old, new string
		args           []string
		want           string
	}{
		{"verification flags", "", "", []string{"--verify-games", "4"}, "a resumed run keeps its verification settings"},
		{"a configuration NewSPSA refuses", `"pairs_per":1,`, `"pairs_per":0,`, nil, "--pairs-per 0"}, // tune's TestSPSASession has more
		{"a broker that cannot start", "", "", []string{"--broker", "embedded", "--listen", busy.Addr().String()}, "cannot listen there"},
	} {
		data := strings.Replace(torn, tc.old, tc.new, 1)
		if data == torn && tc.old != "" {
			t.Fatalf("%s: %q is not in the file", tc.name, tc.old)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runArena(append([]string{"tune", "spsa", "--resume", path, "--no-progress"}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, want an error with %q: %s", tc.name, code, tc.want, errOut)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Errorf("%s: the resume was refused, yet changed the file:\n%s\nwas:\n%s", tc.name, got, data)
		}
	}
	os.WriteFile(path, []byte(torn), 0o644)
	code, _, errOut := runArena("tune", "spsa", "--resume", path, "--no-progress")
	if code != 0 || !strings.Contains(errOut, "cut off a torn last line") || !strings.Contains(errOut, "resuming after iteration 2 of 3") {
		t.Fatalf("resume: exit %d: %s", code, errOut)
	}
	wholePath := filepath.Join(dir, "whole.jsonl")
	os.WriteFile(wholePath, whole, 0o644)
	if a, b := readThetas(t, path), readThetas(t, wholePath); strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("θ after each iteration: %v resumed, %v uninterrupted", a, b)
	}
}

// TestTuneSPSANotes: tune spsa's notes on stderr start with the command's
// name, and say "1 parameter", "1 iteration", "1 game pair" (they said
// "1 parameters, 1 iterations of 1 game pairs" under "arena: ").
func TestTuneSPSANotes(t *testing.T) {
	params := writeParams(t, "c, float, 0.7, 0.1, 3, 0.1, 0.002\n")
	code, _, errOut := runArena("tune", "spsa", "--agent", "mcts:iters=10", "--params", params, "--iterations", "1", "--pairs-per", "1",
		"--concurrency", "1", "--verify=false", "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"arena tune spsa: SPSA on othello6: mcts:iters=10, 1 parameter, 1 iteration of 1 game pair, ",
		"arena tune spsa: iterations are not saved",
		"arena tune spsa: 1 iteration (2 games) in ",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
		if !strings.HasPrefix(line, "arena tune spsa: ") {
			t.Errorf("a note without the command's prefix: %q", line)
		}
	}
}
