package main

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// randomLine plays n seeded random plies of spec (fewer if the game ends)
// and returns the moves and the position they reach, as text.
func randomLine(t *testing.T, spec string, n int, seed uint64) (moves, fen string) {
	t.Helper()
	v, err := games.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	s := v.New().(games.State)
	r := rng.New(seed)
	var list []string
	for range n {
		legal := s.LegalMoves(nil)
		if len(legal) == 0 {
			break
		}
		m := legal[r.IntN(len(legal))]
		list = append(list, s.FormatMove(m))
		s.Play(m)
	}
	return strings.Join(list, " "), s.(games.PositionWriter).Position()
}

// TestFenAgreesWithMoves: every command started from a position with --fen
// gives what it gives after the moves that reach that position.
func TestFenAgreesWithMoves(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		plies int
	}{
		{"othello6", 8}, {"erdos", 6}, {"erdos:algol", 9}, {"pyrga", 7}, {"pyrga:bga", 2}, {"gravity", 11},
	} {
		moves, fen := randomLine(t, tc.spec, tc.plies, 7)
		code, out, errOut := runArena("replay", "--game", tc.spec, "--moves", moves)
		if code != 0 || !strings.Contains(out, "position: "+fen+"\n") {
			t.Fatalf("%s: replay --moves %q: exit %d, %s%s; want position: %s", tc.spec, moves, code, out, errOut, fen)
		}
		// replay --fen with no moves shows the same position and moves.
		code, fromFen, errOut := runArena("replay", "--game", tc.spec, "--fen", fen)
		_, tail, _ := strings.Cut(out, "\n\n")
		if code != 0 || fromFen != "\n"+tail {
			t.Errorf("%s: replay --fen %q: exit %d, %s%s\nwant\n%s", tc.spec, fen, code, fromFen, errOut, "\n"+tail)
		}
		perft := func(start ...string) string {
			args := append([]string{"perft", "--game", tc.spec, "--depth", "3", "--divide", "--format", "json"}, start...)
			code, out, errOut := runArena(args...)
			if code != 0 {
				t.Fatalf("%s: %v: exit %d, %s", tc.spec, args, code, errOut)
			}
			_, counts, _ := strings.Cut(out, `"divide"`)
			counts, _, _ = strings.Cut(counts, `"seconds"`)
			if !strings.Contains(counts, `"leaves"`) {
				t.Fatalf("%s: %v: no divide counts in %s", tc.spec, args, out)
			}
			return counts
		}
		if a, b := perft("--moves", moves), perft("--fen", fen); a != b {
			t.Errorf("%s: perft --moves gives %s, --fen %s", tc.spec, a, b)
		}
		analyse := func(start ...string) string {
			args := append([]string{"analyse", "--game", tc.spec, "--agent", "alphabeta:depth=2", "--format", "json"}, start...)
			code, out, errOut := runArena(args...)
			if code != 0 {
				t.Fatalf("%s: %v: exit %d, %s", tc.spec, args, code, errOut)
			}
			_, move, _ := strings.Cut(out, `"move"`)
			move, _, _ = strings.Cut(move, ",")
			if len(move) < 3 {
				t.Fatalf("%s: %v: no move in %s", tc.spec, args, out)
			}
			return move
		}
		if a, b := analyse("--moves", moves), analyse("--fen", fen); a != b {
			t.Errorf("%s: analyse --moves plays %s, --fen %s", tc.spec, a, b)
		}
	}
}

// TestSolveFen solves an Othello endgame given as text, by the game's
// solver and the generic one, as after the moves that reach it.
func TestSolveFen(t *testing.T) {
	moves, fen := randomLine(t, "othello6", 22, 3)
	for _, generic := range []string{"--generic=false", "--generic=true"} {
		value := func(start ...string) string {
			args := append([]string{"solve", "--game", "othello6", generic, "--format", "json"}, start...)
			code, out, errOut := runArena(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d, %s", args, code, errOut)
			}
			v, _, _ := strings.Cut(out, `"nodes"`)
			if !strings.Contains(v, `"value"`) {
				t.Fatalf("%v: no value in %s", args, out)
			}
			return v
		}
		if a, b := value("--moves", moves), value("--fen", fen); a != b {
			t.Errorf("solve %s: --moves gives %s, --fen %s", generic, a, b)
		}
	}
}

func TestFenErrors(t *testing.T) {
	start := "....../....../..OX../..XO../....../...... x"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"perft", "--fen", start, "--moves", "d3"}, "--fen or --moves, not both"},
		{[]string{"solve", "--fen", start, "--moves", "d3"}, "--fen or --moves, not both"},
		{[]string{"analyse", "--fen", start, "--moves", "d3"}, "--fen or --moves, not both"},
		{[]string{"perft", "--fen", "....../...... x"}, "--fen: othello6: bad position"},
		{[]string{"replay", "--fen", start, "--moves", "a1"}, `illegal move "a1"`},
		{[]string{"replay", "--game", "erdos", "--fen", start}, "--fen: erdos: bad position"},
		{[]string{"replay", "--game", "tryangle", "--fen", "x"}, "tryangle has no position format"},
		{[]string{"analyse", "--game", "tryangle", "--fen", "x"}, "tryangle has no position format"},
		{[]string{"solve", "--fen", "XXXXXX/XXXXXX/XXXXXX/XXXXXX/XXXXXX/XXXXX. o"}, "already over"},
	} {
		code, _, errOut := runArena(tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("arena %q: exit %d, stderr %q, want exit 1 and %q", tc.args, code, errOut, tc.want)
		}
	}
}
