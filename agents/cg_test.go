package agents

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/tryangle"
)

// buildBot builds testdata/cgbot into a temporary directory of the test.
func buildBot(t *testing.T) string {
	t.Helper()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	bin := filepath.Join(t.TempDir(), "cgbot")
	out, err := exec.Command(goTool, "build", "-o", bin, "./testdata/cgbot").CombinedOutput()
	if err != nil {
		t.Fatalf("building the test bot: %v\n%s", err, out)
	}
	return bin
}

func botSpec(t *testing.T, bin, args, extra string) (spec, stderr string) {
	t.Helper()
	stderr = filepath.Join(t.TempDir(), "bot.log")
	spec = fmt.Sprintf("cg:cmd='%s %s',stderr=%s", bin, args, stderr)
	if !strings.Contains(extra, "first=") {
		spec += ",first=5s" // generous limits: the test machine may be loaded
	}
	if !strings.Contains(extra, "turn=") {
		spec += ",turn=2s"
	}
	if extra != "" {
		spec += "," + extra
	}
	return spec, stderr
}

// playCG plays a game of tryangle:seed=… with a cg agent in seat cgSeat
// against random, as the arena would, and returns the state and the first
// error of the cg agent.
func playCG(t *testing.T, spec string, cgSeat int, seed string) (*tryangle.State, []string, error) {
	t.Helper()
	v, err := games.Lookup("tryangle:seed=" + seed)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	cg := a.(*CG)
	defer cg.Close()
	opp, _ := New("random", 2)
	if err := cg.NewGame(v, cgSeat); err != nil {
		t.Fatal(err)
	}
	s := v.New().(*tryangle.State)
	var inputs []string
	ctx := context.Background()
	for !s.Terminal() {
		inputs = append(inputs, s.Input(cgSeat, s.Ply() == 0))
		var ms [2]games.Move
		m, err := cg.Move(ctx, s, cgSeat)
		if err != nil {
			return s, inputs, err
		}
		ms[cgSeat] = m
		if ms[1-cgSeat], err = opp.Move(ctx, s, 1-cgSeat); err != nil {
			t.Fatal(err)
		}
		if s.FormatMove(m) == "" {
			t.Fatal("empty move text")
		}
		s.PlayJoint(ms[0], ms[1])
	}
	return s, inputs, nil
}

// botLog reads the bot's stderr: per turn the input checksum and the line.
func botLog(t *testing.T, file string) (sums, outs map[int]string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sums, outs = map[int]string{}, map[int]string{}
	for _, line := range strings.Split(string(data), "\n") {
		var turn int
		var kind string
		if n, _ := fmt.Sscanf(line, "turn %d %s", &turn, &kind); n == 2 {
			rest := strings.SplitN(line, " ", 4)
			if len(rest) == 4 {
				if kind == "sum" {
					sums[turn] = rest[3]
				} else {
					outs[turn] = rest[3]
				}
			}
		}
	}
	return sums, outs
}

func TestCGPlaysFullGames(t *testing.T) {
	bin := buildBot(t)
	for _, seat := range []int{0, 1} {
		spec, logFile := botSpec(t, bin, "play", "")
		s, inputs, err := playCG(t, spec, seat, "5")
		if err != nil {
			t.Fatalf("seat %d: %v", seat, err)
		}
		sums, outs := botLog(t, logFile)
		if len(sums) != len(inputs) || len(outs) != len(inputs) {
			t.Fatalf("seat %d: the bot saw %d turns, answered %d, the game had %d", seat, len(sums), len(outs), len(inputs))
		}
		// The bot read exactly the §8 input of its seat, turn by turn …
		for i, in := range inputs {
			h := fnv.New64a()
			h.Write([]byte(in))
			if got := fmt.Sprintf("%x", h.Sum64()); sums[i+1] != got {
				t.Fatalf("seat %d turn %d: bot read input %s, state gives %s", seat, i+1, sums[i+1], got)
			}
		}
		// … and its lines are the moves that were played.
		for ply := s.Ply(); ply > 0; ply-- {
			s.Undo()
		}
		if s.Ply() != 0 {
			t.Fatal("undo")
		}
		if o := s.Outcome(); o.Winner < -1 || o.Winner > 1 {
			t.Fatal("bad outcome")
		}
		t.Logf("seat %d: %d turns", seat, len(inputs))
	}
}

func TestCGFailures(t *testing.T) {
	bin := buildBot(t)
	for _, tc := range []struct {
		name  string
		args  string
		extra string
		want  error // nil: the game goes on, the bot loses by the rules
		turn  int   // the failing turn
	}{
		{"crash", "crash 3", "", ErrCrash, 3},
		{"exit at start", "exit", "", ErrCrash, 1},
		{"stall", "stall 2", "turn=100ms", ErrTimeout, 2},
		{"slow first turn within its limit", "slow 1", "first=2s,turn=100ms", nil, 0},
		{"slow later turn", "slow 2", "first=2s,turn=100ms", ErrTimeout, 2},
		{"garbage loses by the rules", "garbage 4", "", nil, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, _ := botSpec(t, bin, tc.args, tc.extra)
			start := time.Now()
			s, inputs, err := playCG(t, spec, 0, "9")
			switch {
			case tc.want != nil:
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want %v", err, tc.want)
				}
				if len(inputs) != tc.turn {
					t.Fatalf("failed on turn %d, want %d (%v)", len(inputs), tc.turn, err)
				}
				if tc.want == ErrTimeout && time.Since(start) > 10*time.Second {
					t.Fatalf("the timeout took %v", time.Since(start))
				}
				t.Logf("%v", err)
			case tc.turn > 0: // garbage: the referee ends the game, bot loses
				if err != nil || !s.Terminal() || s.Ply() != tc.turn || s.Outcome().Winner != 1 || s.Score(0) != -1 {
					t.Fatalf("err %v, over %v at ply %d, winner %d, score %d", err, s.Terminal(), s.Ply(), s.Outcome().Winner, s.Score(0))
				}
			default:
				if err != nil || !s.Terminal() {
					t.Fatalf("err %v, over %v", err, s.Terminal())
				}
			}
		})
	}
}

// After a failure every further Move fails the same way, and a new game
// starts a fresh process.
func TestCGStickyErrorAndRestart(t *testing.T) {
	spec, _ := botSpec(t, buildBot(t), "crash 1", "")
	a, err := New(spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	cg := a.(*CG)
	defer cg.Close()
	v, _ := games.Lookup("tryangle:seed=2")
	s := v.New()
	ctx := context.Background()
	_, err1 := cg.Move(ctx, s, 0) // no NewGame: started lazily
	_, err2 := cg.Move(ctx, s, 0)
	if !errors.Is(err1, ErrCrash) || err2 == nil || err1.Error() != err2.Error() {
		t.Fatalf("errors %v / %v", err1, err2)
	}
	if !strings.Contains(err1.Error(), "crashing on purpose") || !strings.Contains(err1.Error(), "exit status 3") {
		t.Errorf("the crash report lacks the exit status or stderr: %v", err1)
	}
	if err := cg.NewGame(v, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := cg.Move(ctx, s, 0); !errors.Is(err, ErrCrash) {
		t.Fatalf("restarted bot: %v", err)
	}
}

func TestCGSpecErrors(t *testing.T) {
	for _, spec := range []string{"cg", "cg:first=1s", "cg:cmd=x,turn=fast", "cg:cmd=x,colour=red"} {
		if _, err := New(spec, 0); err == nil {
			t.Errorf("%s accepted", spec)
		}
	}
	a, err := New("cg:cmd=/no/such/bot", 0)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := games.Lookup("tryangle")
	if err := a.(*CG).NewGame(v, 0); !errors.Is(err, ErrCrash) {
		t.Errorf("missing binary: %v", err)
	}
	o, _ := games.Lookup("othello6")
	if err := a.(*CG).NewGame(o, 0); err == nil {
		t.Error("othello6 accepted")
	}
	// The mismatch is known before any game: the arena asks CheckGame.
	if err := CheckGame(a, v); err != nil {
		t.Errorf("CheckGame(tryangle): %v", err)
	}
	if err := CheckGame(a, o); err == nil || !strings.Contains(err.Error(), "CodinGame protocol of tryangle; othello6 has none") {
		t.Errorf("CheckGame(othello6): %v", err)
	}
	r, _ := New("random", 0)
	if err := CheckGame(r, o); err != nil {
		t.Errorf("random on othello6: %v", err)
	}
	if _, err := a.Move(context.Background(), o.New(), 0); err == nil {
		t.Error("Move on othello6 accepted")
	}
}
