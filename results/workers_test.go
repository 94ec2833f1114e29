package results

import (
	"math"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

func TestChi2AndNormalTails(t *testing.T) {
	for _, c := range []struct {
		x    float64
		dof  int
		want float64
	}{{5.991464547, 2, 0.05}, {9.487729037, 4, 0.05}, {0, 2, 1}, {13.27670414, 4, 0.01}} {
		if got := math.Exp(chi2LogSF(c.x, c.dof)); math.Abs(got-c.want) > 1e-8 {
			t.Errorf("chi2 sf(%v, %d) = %v, want %v", c.x, c.dof, got, c.want)
		}
	}
	if z := normalISF(0.025); math.Abs(z-1.959963985) > 1e-8 {
		t.Errorf("normal isf(0.025) = %v", z)
	}
	// The tail formula joins the direct one.
	if a, b := normalISFLog(math.Log(math.Erfc(37/math.Sqrt2)/2)-1e-9), normalISFLog(math.Log(math.Erfc(37/math.Sqrt2)/2)+1e-9); math.Abs(a-b) > 0.01 {
		t.Errorf("normal isf at z = 37: %v and %v", a, b)
	}
}

// TestWorkerResiduals: workers that play from the same distribution are
// not flagged; one whose results are forged far off is, whatever its
// name's place.
func TestWorkerResiduals(t *testing.T) {
	r := rng.New(7)
	names := []string{"a", "b", "c"}
	var tally WorkerTally
	game := func(worker string, a, b int, u float64) {
		g := &GameRecord{Worker: worker, Forfeit: -1, Termination: Normal, Winner: -1}
		g.Players[0].Name, g.Players[1].Name = names[a], names[b]
		switch {
		case u < 0.4:
			g.Winner = 0
		case u < 0.7:
			g.Winner = 1
		}
		tally.Add(g)
	}
	for i := range 4000 {
		w := []string{"", "alpha", "beta", "gamma"}[i%4]
		a, b := i%3, (i/3)%2+1 // a few pairings, both colours
		if a == b {
			b = 0
		}
		game(w, a, b, r.Float64())
	}
	// The forged worker: the first seat wins every game.
	for i := range 300 {
		game("forger", i%3, (i%3+1)%3, 0)
	}
	rows := tally.Rows()
	if len(rows) != 5 {
		t.Fatalf("%d rows, want 5: %+v", len(rows), rows)
	}
	for _, row := range rows {
		forged := row.Worker == "forger"
		if forged != (row.Flag != "") || math.IsNaN(row.Residual) {
			t.Errorf("worker %q: residual %.2f, flag %q", row.Worker, row.Residual, row.Flag)
		}
	}
	// One worker alone has no residual.
	var one WorkerTally
	for i := range 100 {
		g := &GameRecord{Worker: "solo", Forfeit: -1, Termination: Normal, Winner: i%3 - 1}
		g.Players[0].Name, g.Players[1].Name = "a", "b"
		one.Add(g)
	}
	if rows := one.Rows(); len(rows) != 1 || !math.IsNaN(rows[0].Residual) || rows[0].Flag != "" || rows[0].Games != 100 {
		t.Errorf("a single worker: %+v", rows)
	}
}
