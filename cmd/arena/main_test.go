package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
)

// commandLines lists every command as it is typed: "tournament", "tune
// spsa" (tune itself is only a prefix).
func commandLines() [][]string {
	var out [][]string
	for _, c := range commands {
		if c.name != "tune" {
			out = append(out, []string{c.name})
		}
	}
	for _, c := range tuneCommands {
		out = append(out, []string{"tune", c.name})
	}
	return out
}

// commandFlags returns the flags of the command line cmd (aliases left
// out), from the flag set its --help makes.
func commandFlags(t *testing.T, cmd []string) []*flag.Flag {
	t.Helper()
	var sets []*flagSet
	newFlagSetHook = func(fs *flagSet) { sets = append(sets, fs) }
	code, _, stderr := runArena(append(cmd, "--help")...)
	newFlagSetHook = nil
	if code != 0 || len(sets) == 0 {
		t.Fatalf("arena %s --help: exit %d, %d flag sets: %s", strings.Join(cmd, " "), code, len(sets), stderr)
	}
	fs := sets[len(sets)-1]
	var out []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if fs.aliases[f.Name] == "" {
			out = append(out, f)
		}
	})
	return out
}

// arena runs the command line in-process and returns exit code and outputs.
func runArena(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestEveryCommandHasHelp(t *testing.T) {
	if len(commands) == 0 {
		t.Fatal("no commands registered")
	}
	for _, cmd := range commandLines() {
		code, _, errOut := runArena(append(cmd, "--help")...)
		name := strings.Join(cmd, " ")
		if code != 0 || !strings.Contains(errOut, "Usage: arena "+name) || !strings.Contains(errOut, "Reference: "+docPage(name)) {
			t.Errorf("arena %s --help: exit %d, output %q", name, code, errOut)
		}
	}
	code, out, _ := runArena("help")
	for _, g := range groupOrder {
		if code != 0 || !strings.Contains(out, "\n"+g+":\n") {
			t.Errorf("arena help: exit %d, no heading %q in %q", code, g, out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"perft", "--depht", "3"}, 2, "arena perft: unknown flag --depht; did you mean --depth?\nRun 'arena perft --help' for its flags; the reference is docs/commands/perft.md.\n"},
		{[]string{"tournament", "--agent", "greedy", "random", "--agnets"}, 2, "arena tournament: unknown flag --agnets; did you mean --agents?\n"},
		{[]string{"tune", "spsa", "--itertions", "3"}, 2, "arena tune spsa: unknown flag --itertions; did you mean --iterations?\n"},
		{[]string{"perft", "--depth"}, 2, "arena perft: --depth needs a value\n"},
		{[]string{"perft", "--depth", "x"}, 2, "arena perft: --depth \"x\": not a whole number\n"},
		{[]string{"solve", "--game", "tryangle"}, 1, "arena solve: --game tryangle has simultaneous moves: solve needs a game of alternating moves\n"},
		{[]string{"tune", "spsa", "--agent", "mcts", "--params", "/nonexistent", "--iterations", "2"}, 1, "arena tune spsa: --params: open /nonexistent"},
		{[]string{"tournamnt"}, 2, "arena: unknown command \"tournamnt\"; did you mean tournament?\nRun 'arena help' for the commands.\n"},
		{[]string{"perft", "--game", "chess"}, 1, `unknown game "chess"`},
		{[]string{"perft", "--format", "xml"}, 1, `unknown --format "xml"`},
		{[]string{"perft", "--depth", "0"}, 1, "--depth 0 is out of range: use 1 to 64 plies"},
		{[]string{"play", "--agents", "greedy"}, 1, "--agents needs exactly two agent specs, got 1"},
		{[]string{"play", "--agents", "greedy", "minimax"}, 1, `unknown agent "minimax"`},
		{[]string{"play", "extra"}, 1, `unexpected argument "extra"`},
		{[]string{"replay", "--moves", "e4", "--file", "x"}, 1, "not both"},
		{[]string{"replay", "--file", "/nonexistent/moves"}, 1, "--file /nonexistent/moves: no such file"},
		// A device that never ends is refused at the limit, not read whole.
		{[]string{"replay", "--game", "othello6", "--file", "/dev/zero"}, 1, "--file /dev/zero: more than 16 MiB; a moves file is at most 16 MiB"},
	}
	for _, tt := range tests {
		code, _, errOut := runArena(tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("arena %v: exit %d (want %d), stderr %q (want %q)", tt.args, code, tt.code, errOut, tt.want)
		}
	}
}

// TestDurationFlagsNeedUnit: every duration flag of every command (found
// in its --help) refuses a bare number with a message that names the flag
// and the missing unit, not the flag package's "invalid value "1" for
// flag -time: parse error".
func TestDurationFlagsNeedUnit(t *testing.T) {
	n := 0
	for _, cmd := range commandLines() {
		for _, f := range commandFlags(t, cmd) {
			if g, ok := f.Value.(flag.Getter); !ok {
				continue
			} else if _, ok := g.Get().(time.Duration); !ok {
				continue
			}
			m := []string{"", f.Name}
			n++
			for value, want := range map[string]string{
				"1":   fmt.Sprintf(`--%s: "1" needs a unit, such as 1s or 500ms`, m[1]),
				"1.5": fmt.Sprintf(`--%s: "1.5" needs a unit, such as 1s or 500ms`, m[1]),
				"abc": fmt.Sprintf(`--%s: "abc" is not a duration: write a number and a unit`, m[1]),
			} {
				code, _, stderr := runArena(append(cmd, "--"+m[1], value)...)
				if code != 2 || !strings.HasPrefix(stderr, "arena "+strings.Join(cmd, " ")+": "+want) || strings.Contains(stderr, "parse error") || strings.Count(stderr, "\n") != 2 {
					t.Errorf("arena %s --%s %s: exit %d, stderr %q; want 2 and %q, then where to read more", strings.Join(cmd, " "), m[1], value, code, stderr, want)
				}
			}
		}
	}
	// 18 today: check-engine's, match's, tournament's and tune sweep's
	// three each, solve's and tune spsa's two, tune texel's and worker's one.
	if n < 18 {
		t.Errorf("found %d duration flags in the commands' help; want every one (18 or more)", n)
	}
}

func TestPerftJSON(t *testing.T) {
	for _, generic := range []string{"--generic=false", "--generic"} {
		code, out, errOut := runArena("perft", "--game", "othello6", "--depth", "6", "--format", "json", generic)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v in %q", err, out)
		}
		if rep["game"] != "othello6" || rep["depth"] != 6.0 || rep["nodes"] != 7604.0 {
			t.Errorf("perft report %v", rep)
		}
		for _, k := range []string{"seconds", "nps"} {
			if _, ok := rep[k].(float64); !ok {
				t.Errorf("perft report lacks %s: %v", k, rep)
			}
		}
	}
}

func TestPerftDivide(t *testing.T) {
	code, out, _ := runArena("perft", "--depth", "3", "--divide", "--moves", "e4")
	if code != 0 {
		t.Fatal(out)
	}
	for _, want := range []string{"c5 ", "e3 ", "e5 ", "perft(3) of othello6 = "} {
		if !strings.Contains(out, want) {
			t.Errorf("divide output lacks %q:\n%s", want, out)
		}
	}
}

func TestReplayJSON(t *testing.T) {
	code, out, errOut := runArena("replay", "--game", "othello6", "--moves", "e4 e5 d5", "--format", "json")
	if code != 0 {
		t.Fatal(errOut)
	}
	want := `{"game":"othello6","plies":[{"legal":["b3","c2","d5","e4"],"move":"e4"},{"legal":["c5","e3","e5"],"move":"e5"},{"legal":["b3","c2","d5","e6"],"move":"d5"}],"final":{"to_move":1,"legal":["c5","e3"],"terminal":false,"result":"*","score":0,"board":"  a b c d e f\n1 . . . . . .\n2 . . . . . .\n3 . . O X . .\n4 . . X X X .\n5 . . . X O .\n6 . . . . . .\nO (second player) to move; X 5, O 2","position":"....../....../..OX../..XXX./...XO./...... o"}}` + "\n"
	if out != want {
		t.Errorf("replay JSON:\n%s\nwant:\n%s", out, want)
	}
}

func TestReplayFileAndGameOver(t *testing.T) {
	// The golden transcript of othello6 is a finished game; replay it from a file.
	data, err := os.ReadFile("../../games/othello6/testdata/random-seed12.golden")
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && strings.HasSuffix(f[0], ".") {
			moves = append(moves, f[1])
		}
	}
	file := filepath.Join(t.TempDir(), "game.txt")
	os.WriteFile(file, []byte("# a finished game\n"+strings.Join(moves, " ")+"\n"), 0o644)
	code, out, errOut := runArena("replay", "--file", file, "--format", "json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var tr struct {
		Final struct {
			ToMove   int      `json:"to_move"`
			Legal    []string `json:"legal"`
			Terminal bool     `json:"terminal"`
			Result   string   `json:"result"`
			Score    int      `json:"score"`
		} `json:"final"`
	}
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	f := tr.Final
	if f.ToMove != -1 || len(f.Legal) != 0 || !f.Terminal || f.Result != "0-1" || f.Score != -2 {
		t.Errorf("final %+v, want the golden game's end: 0-1, score -2", f)
	}
	// One move more is illegal: the game is over.
	code, _, errOut = runArena("replay", "--moves", strings.Join(moves, " ")+" a1")
	if code != 1 || !strings.Contains(errOut, "the game is already over") {
		t.Errorf("move after the end: exit %d, %q", code, errOut)
	}
}

func TestReplayIllegalMove(t *testing.T) {
	code, out, errOut := runArena("replay", "--moves", "e4 f5")
	if code != 1 || out != "" || !strings.Contains(errOut, `ply 2: illegal move "f5" (legal: c5 e3 e5)`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestPlayFullGame(t *testing.T) {
	code, out, errOut := runArena("play", "--game", "othello6", "--agents", "greedy", "random", "--seed", "3")
	if code != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, "othello6: greedy (first) vs random (second), seed 3") ||
		!strings.Contains(out, "game over: X ") || !strings.Contains(out, "\nresult ") {
		t.Errorf("play output:\n%s", out)
	}
	// Same seed, same game.
	_, again, _ := runArena("play", "--game", "othello6", "--agents", "greedy", "random", "--seed", "3")
	if again != out {
		t.Error("the same seed played a different game")
	}
}

func TestListings(t *testing.T) {
	_, out, _ := runArena("games")
	if !strings.Contains(out, "othello6") {
		t.Errorf("games: %q", out)
	}
	// Each game's evaluation weights, with default and range.
	for _, want := range []string{"alphabeta:eval.corner_open=110", "corner_open      110  [0, 500] ", "column", "tower", "window4", "unit_first"} {
		if !strings.Contains(out, want) {
			t.Errorf("games lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runArena("agents")
	for _, want := range []string{"random", "greedy"} {
		if !strings.Contains(out, want) {
			t.Errorf("agents lacks %s: %q", want, out)
		}
	}
}

// TestUsageNamesBrokerAndShard: a command that takes --broker or --shard
// says so in its usage line, not only in the list of flags below it
// (match lists --shard only to refuse it).
func TestUsageNamesBrokerAndShard(t *testing.T) {
	for _, args := range [][]string{{"tournament"}, {"match"}, {"tune", "spsa"}, {"tune", "sweep"}, {"tune", "texel"}, {"worker"}} {
		_, _, help := runArena(append(args, "--help")...)
		usage, flags, _ := strings.Cut(help, "\n")
		for _, flag := range []string{"broker", "shard"} {
			takes := strings.Contains(flags, "\n  --"+flag+" ") && !(flag == "shard" && strings.Contains(flags, "not for a match (refused)"))
			if flag == "broker" && !takes {
				// Every command listed takes --broker: a help this test
				// cannot read would pass it unseen.
				t.Errorf("arena %s: no --broker in its help:\n%s", strings.Join(args, " "), help)
			}
			if takes && !strings.Contains(usage, "--"+flag) {
				t.Errorf("arena %s takes --%s, its usage line does not say so: %s", strings.Join(args, " "), flag, usage)
			}
		}
	}
}

// TestPerftRefusesHopelessDepth: a depth whose tree has more than 2^64
// positions (perft --depth 64 on any game) is refused at once, with the
// estimate and the depth from which it passes the bound; it ran for ever.
// The estimate comes from a fixed seed: the same verdict on every run.
func TestPerftRefusesHopelessDepth(t *testing.T) {
	for _, g := range games.All() {
		v, err := games.Lookup(g.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := v.New().(games.State); !ok {
			continue // simultaneous: perft refuses it anyway
		}
		code, stdout, stderr := runArena("perft", "--game", g.Name, "--depth", "64")
		want := fmt.Sprintf("arena perft: --depth 64: perft(64) of %s would visit about ", g.Name)
		if code != 1 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "more than a 64-bit count holds") || !strings.Contains(stderr, "the estimate passes 2^64 from depth ") || stdout != "" {
			t.Errorf("perft --game %s --depth 64: exit %d, stdout %q, stderr %q; want 1 and %q…", g.Name, code, stdout, stderr, want)
		}
	}
	// A small perft says nothing on stderr.
	if code, _, stderr := runArena("perft", "--game", "othello6", "--depth", "6"); code != 0 || stderr != "" {
		t.Errorf("perft --depth 6: exit %d, stderr %q", code, stderr)
	}
}

// TestPerftDivideProgress: the progress of a long perft ends with a line
// after the last first move, with the total leaves.
func TestPerftDivideProgress(t *testing.T) {
	v, _ := games.Lookup("othello6")
	var progress bytes.Buffer
	entries := perftDivide(v.New().(games.State), 6, games.Perft, &progress)
	if len(entries) != 4 || !strings.HasSuffix(progress.String(), "\n") || !strings.Contains(progress.String(), "arena perft: 4 of 4 first moves counted, 7604 leaves so far, ") {
		t.Errorf("%d entries, progress %q", len(entries), progress.String())
	}
	for _, line := range strings.Split(strings.TrimSuffix(progress.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, "arena perft: ") {
			t.Errorf("a progress line without the prefix \"arena perft: \": %q", line)
		}
	}
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{100 * time.Second, "1m40s"}, {3*time.Hour + 20*time.Minute + 10*time.Second, "3h20m"}, {12 * 24 * time.Hour, "12 days"}, {100 * 8766 * time.Hour, "100 years"}} {
		if got := roughDuration(tc.d); got != tc.want {
			t.Errorf("roughDuration(%s) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
