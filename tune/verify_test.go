package tune

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/arena"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/results"
)

func TestVerify(t *testing.T) {
	for _, tc := range []struct {
		tuned, start string
		want         string
	}{
		{"greedy", "random", "H1 accepted"}, // greedy beats random on othello6 by hundreds of Elo
		{"random", "greedy", "H0 accepted"},
	} {
		r, err := Verify(context.Background(), VerifyOptions{
			Match: arena.Options{Game: "othello6", Seed: 3},
			Tuned: tc.tuned, Start: tc.start, Games: 2000,
			Run: arena.RunOptions{Concurrency: 2},
		})
		if err != nil {
			t.Fatal(err)
		}
		if r.Decision != tc.want || !r.Complete {
			t.Errorf("%s vs %s: %s (complete %v), want %s", tc.tuned, tc.start, r, r.Complete, tc.want)
		}
		if r.SPRT != DefaultVerifySPRT {
			t.Errorf("default test %v, want %v", r.SPRT, DefaultVerifySPRT)
		}
		if g := r.WDL.Games(); g != r.Games() || g == 0 || g > 2000 {
			t.Errorf("%s vs %s: %d games counted, WDL %v", tc.tuned, tc.start, r.Games(), r.WDL)
		}
		if (r.Estimate.Elo > 0) != (tc.want == "H1 accepted") {
			t.Errorf("%s vs %s: Elo %v has the wrong sign", tc.tuned, tc.start, r.Estimate.Elo)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"decision":"`+tc.want+`"`) {
			t.Errorf("JSON %s lacks the decision", b)
		}
	}
}

// A match that runs out of games undecided is complete with "continue";
// a bad test is refused before anything is played.
func TestVerifyUndecidedAndErrors(t *testing.T) {
	test := results.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.001, Beta: 0.001, Model: results.Logistic}
	r, err := Verify(context.Background(), VerifyOptions{
		Match: arena.Options{Game: "othello6", Seed: 1}, Tuned: "random", Start: "random", SPRT: test, Games: 20,
		Run: arena.RunOptions{Concurrency: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Decision != "continue" || !r.Complete || r.Games() != 20 {
		t.Errorf("got %s, complete %v; want 20 games undecided", r, r.Complete)
	}
	_, err = Verify(context.Background(), VerifyOptions{Match: arena.Options{Game: "othello6"}, Tuned: "random", Start: "random",
		SPRT: results.SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}})
	if err == nil || !strings.Contains(err.Error(), "elo0 < elo1") {
		t.Errorf("reversed SPRT: %v", err)
	}
	_, err = Verify(context.Background(), VerifyOptions{Match: arena.Options{Game: "othello6"}, Tuned: "nosuch", Start: "random"})
	if err == nil || !strings.HasPrefix(err.Error(), "verification match: ") || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown agent: %v", err)
	}
}
