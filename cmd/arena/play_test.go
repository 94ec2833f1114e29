package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// TestPlaySVG plays one game of every game with --svg: one well-formed
// picture per position, the start included, and the last one shows the
// final position's pieces.
func TestPlaySVG(t *testing.T) {
	for _, game := range []string{"othello6", "erdos:algol", "pyrga", "gravity", "tryangle:seed=5"} {
		t.Run(game, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "svg")
			code, out, errOut := runArena("play", "--game", game, "--agents", "greedy", "random", "--quiet", "--svg", dir)
			if code != 0 {
				t.Fatal(errOut)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "turn-*.svg"))
			plies := strings.Count(out, "\n") - 3 // header, blank line, result line
			if len(files) != plies+1 || plies < 1 {
				t.Fatalf("%d pictures for %d moves (want one per move plus the start)", len(files), plies)
			}
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				counts, err := gamestest.SVGCount(data)
				if err != nil || counts["svg"] != 1 || !strings.HasPrefix(string(data), "<svg") {
					t.Fatalf("%s is not an SVG picture: %v %v", f, err, counts)
				}
			}
			// The last picture is the final position: replay the moves
			// and compare.
			var moves []string
			for _, line := range strings.Split(out, "\n") {
				if _, m, ok := strings.Cut(line, ". "); ok && line[0] >= '0' && line[0] <= '9' {
					moves = append(moves, m)
				}
			}
			v, err := games.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			if games.Simultaneous(v.New()) {
				return // a turn's joint move is not one line of the output
			}
			b := v.New()
			for _, m := range moves {
				mv, err := b.ParseMove(m)
				if err != nil {
					t.Fatalf("move %q: %v", m, err)
				}
				b.(games.State).Play(mv)
			}
			var want strings.Builder
			if err := games.WriteSVG(&want, b.(games.Drawer)); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("turn-%03d.svg", len(moves))))
			if string(got) != want.String() {
				t.Errorf("the last picture is not the final position after %d moves", len(moves))
			}
		})
	}
}

func TestPlaySVGErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runArena("play", "--game", "othello6", "--quiet", "--svg", filepath.Join(file, "svg"))
	if code != 1 || !strings.Contains(errOut, "--svg: ") || !strings.Contains(errOut, "not a directory") {
		t.Errorf("--svg under a file: exit %d, %q", code, errOut)
	}
}
