package results

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/rng"
)

// raceTest is the test of the simulated races: wide bounds keep a race
// at a few hundred pairs, and the error rates do not depend on the width
// (the LLR of a pair scales with it).
var raceTest = SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05, Model: Logistic}

// TestRaceErrorRates pins the race's two family-wise error rates by
// simulation, at their least favourable configurations: every candidate
// at Elo0 (the most likely false selection), and the best at Elo1 with
// the rest δ below it (the most likely miss). The tolerance is three
// binomial standard deviations above the stated rate.
func TestRaceErrorRates(t *testing.T) {
	for _, tc := range []struct {
		name  string
		elos  []float64
		races int
		miss  bool // count races that do not pick candidate 0 (else: that pick any)
	}{
		{"null K=2", []float64{0, 0}, 1000, false},
		{"null K=4", []float64{0, 0, 0, 0}, 1000, false},
		{"null K=8", []float64{0, 0, 0, 0, 0, 0, 0, 0}, 1000, false},
		{"least favourable K=4", []float64{50, 0, 0, 0}, 1000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sim := RaceSim{Test: raceTest, Elos: tc.elos, Draw: 0.4}
			r := rng.New(34)
			wrong := 0
			for range tc.races {
				o := sim.Race(r)
				if !o.Decided {
					t.Fatalf("race undecided after %d pairs", o.Pairs)
				}
				if tc.miss && o.Winner != 0 || !tc.miss && o.Winner >= 0 {
					wrong++
				}
			}
			rate, want := float64(wrong)/float64(tc.races), raceTest.Alpha
			if tc.miss {
				want = raceTest.Beta
			}
			t.Logf("wrong %d of %d (%.3f, stated %.2f)", wrong, tc.races, rate, want)
			if tol := 3 * math.Sqrt(want*(1-want)/float64(tc.races)); rate > want+tol {
				t.Errorf("error rate %.3f above %.2f + %.3f", rate, want, tol)
			}
		})
	}
}

// TestRaceSavesGames: with a clear leader over candidates inside the
// indifference zone (where SPRTs are slowest), the race stops the
// others by comparison and plays far fewer pairs than K SPRTs.
func TestRaceSavesGames(t *testing.T) {
	sim := RaceSim{Test: raceTest, Elos: []float64{75, 25, 25, 25}, Draw: 0.4}
	r := rng.New(35)
	var race, sprts, right int
	const n = 300
	for range n {
		o := sim.Race(r)
		race += o.Pairs
		if o.Winner == 0 {
			right++
		}
		sprts += sim.SPRTs(r, raceTest.Beta).Pairs
	}
	t.Logf("race %.0f pairs, SPRTs %.0f, winner right %d of %d", float64(race)/n, float64(sprts)/n, right, n)
	if float64(race) > 0.75*float64(sprts) {
		t.Errorf("race %d pairs, SPRTs %d: expected at least a quarter saved", race, sprts)
	}
	if right < n*9/10 {
		t.Errorf("the leader won %d of %d races", right, n)
	}
}

// TestRaceStepping follows a race pair by pair: pairs ahead of their
// stage wait for the other candidates, an out candidate's pairs are
// ignored, and the last qualified candidate wins.
func TestRaceStepping(t *testing.T) {
	r, err := NewRace(SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05, Model: Logistic}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Add(0, 1, 1); n != 0 || r.Stage != 0 {
		t.Fatalf("one candidate's pair completed %d stages", n)
	}
	r.Add(0, 1, 1) // candidate 0 is two pairs ahead
	r.Add(1, 0, 0)
	if n := r.Add(2, 0.5, 0.5); n != 1 || r.Stage != 1 || r.Candidates[0].Penta != (Penta{0, 0, 0, 0, 1}) {
		t.Fatalf("stage %d after %d, candidate 0 %v", r.Stage, n, r.Candidates[0].Penta)
	}
	for range 200 {
		if r.Decided() {
			break
		}
		for i, pts := range [][2]float64{{1, 1}, {0, 0.5}, {0.5, 0}} {
			if r.InRace(i) {
				r.Add(i, pts[0], pts[1])
			}
		}
	}
	if !r.Decided() || r.Winner() != 0 || r.Live() != nil {
		t.Fatalf("decided %v, winner %d, live %v: %s", r.Decided(), r.Winner(), r.Live(), r.Status(nil))
	}
	for i := 1; i < 3; i++ {
		if c := r.Candidates[i]; c.State != Out && c.State != Eliminated {
			t.Errorf("candidate %d %v", i, c.State)
		}
	}
	before := r.Candidates[1].Penta
	if r.Add(1, 1, 1); r.Candidates[1].Penta != before {
		t.Error("a pair after the decision was counted")
	}
	status := r.Status([]string{"a", "b", "c"})
	if !strings.HasPrefix(status, "stage ") || !strings.Contains(status, "a ") || !strings.HasSuffix(status, "; winner a") {
		t.Errorf("status %q", status)
	}
}

// TestRaceNoneBetter: candidates all clearly worse than the base go out
// and the race ends without a winner.
func TestRaceNoneBetter(t *testing.T) {
	r, _ := NewRace(SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05, Model: Normalized}, 2)
	for range 500 {
		for i := range 2 {
			if r.InRace(i) {
				r.Add(i, 0, 0.5)
			}
		}
	}
	if !r.Decided() || r.Winner() != -1 || !strings.HasSuffix(r.Status(nil), "no candidate better than the base") {
		t.Errorf("%s", r.Status(nil))
	}
}

func TestNewRaceErrors(t *testing.T) {
	var oe *option.Error
	if _, err := NewRace(raceTest, 1); !errors.As(err, &oe) || oe.Name != "Candidates" {
		t.Errorf("one candidate: %v", err)
	}
	bad := raceTest
	bad.Elo1 = -1
	if _, err := NewRace(bad, 3); !errors.As(err, &oe) || oe.Name != "SPRT" {
		t.Errorf("elo1 < elo0: %v", err)
	}
}
