package main

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/boardgame-arena/arena/tune"
)

// FuzzTuneFlags feeds argument vectors to the flag parsing and checks of
// tune sweep and tune texel (nothing is played, no file is opened): no
// input may panic, and what is accepted lies within the documented limits.
// (tune spsa's parser reads its parameter file: tune's FuzzParseParams
// fuzzes that.)
func FuzzTuneFlags(f *testing.F) {
	for _, s := range []string{
		"--agent mcts:iters=100 --param iters --values 10,20 --against random",
		"--agent mcts --param c --values 0.3,0.3 --against random",
		"--agent mcts --param c --values 1,2,3 --against random --against greedy --games 3",
		"--agent alphabeta --param eval.corner_open --values 10,20 --against greedy --games 100000000",
		"--game othello6 --self-play 10", "--records a.jsonl --skip-plies -5",
		"--self-play 3", "--positions 0 --records x", "--k NaN --records x", "--verify-sprt elo0=5,elo1=0 --records x",
	} {
		f.Add(false, s)
		f.Add(true, s)
	}
	f.Fuzz(func(t *testing.T, texel bool, line string) {
		if !utf8.ValidString(line) {
			return
		}
		args := strings.Fields(line)
		if texel {
			tf, err := parseTuneTexel(args, io.Discard)
			if err != nil {
				return
			}
			switch {
			case tf.SelfPlay != 0 && (tf.SelfPlay < 2 || tf.SelfPlay%2 != 0 || tf.SelfPlay > maxGames):
				t.Fatalf("%q: accepted --self-play %d", args, tf.SelfPlay)
			case tf.Positions < 1 || tf.Positions > tune.MaxPositions:
				t.Fatalf("%q: accepted --positions %d", args, tf.Positions)
			case tf.SelfPlay == 0 && len(tf.Records) == 0 && tf.Resume == "":
				t.Fatalf("%q: accepted without --records, --self-play or --resume", args)
			}
			return
		}
		rf, _, sw, _, err := parseTuneSweep(args, io.Discard)
		if err != nil {
			return
		}
		if n := len(sw.Values); n < tune.MinSweepValues || n > tune.MaxSweepValues {
			t.Fatalf("%q: accepted %d values", args, n)
		}
		if n := len(sw.Against); n < 1 || n > tune.MaxSweepOpponents {
			t.Fatalf("%q: accepted %d opponents", args, n)
		}
		if g := *rf.games; g < 2 || g%2 != 0 || sw.Games(g) > maxGames {
			t.Fatalf("%q: accepted --games %d", args, g)
		}
	})
}
