// Command racesim measures the race of candidates (results.Race) on
// synthetic races of known Elos: for K = 2 … 8 candidates and a few
// configurations of their strengths, the rates of false selection (a
// winner no better than Elo0) and of missed selection (no winner within
// δ = Elo1 − Elo0 of the best, when the best is at least Elo1), and the
// mean game pairs, against K independent SPRTs at α/K and β, and at α/K
// and β/2 (the race's own test; their winner: the passing candidate with
// the highest score). It prints a markdown table; every race draws from
// its own seed, derived from --seed, the configuration and its number.
//
// Usage:
//
//	go run ./benchmarks/racesim [--races 2000] [--elo1 50] [--draw 0.4] [--k 2,3,4,5,6,7,8] [--seed 34]
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

func main() {
	races := flag.Int("races", 2000, "races per row")
	elo1 := flag.Float64("elo1", 50, "the test's elo1 (elo0 is 0), logistic Elo")
	draw := flag.Float64("draw", 0.4, "draw rate at equal strength")
	ks := flag.String("k", "2,3,4,5,6,7,8", "numbers of candidates")
	seed := flag.Uint64("seed", 34, "seed of the simulation")
	flag.Parse()
	test := results.SPRT{Elo0: 0, Elo1: *elo1, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}
	fmt.Printf("Test %s, draw rate %g, %d races a row, seed %d.\n\n", test, *draw, *races, *seed)
	fmt.Println("| K | configuration | true Elos | race: false sel. | race: miss | race: pairs | SPRTs β: false sel. | miss | pairs | race saves | SPRTs β/2: false sel. | miss | pairs | race saves |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	start := time.Now()
	for _, field := range strings.Split(*ks, ",") {
		k, err := strconv.Atoi(field)
		if err != nil || k < 2 {
			fmt.Fprintf(os.Stderr, "racesim: --k %q: want numbers from 2\n", field)
			os.Exit(2)
		}
		for ci, c := range configurations(k, test.Elo0, test.Elo1) {
			sim := results.RaceSim{Test: test, Elos: c.elos, Draw: *draw}
			var race, sprts, half tally
			for i := range *races {
				r := rng.New(rng.Derive(*seed, uint64(k), uint64(ci), uint64(i)))
				race.add(sim.Race(r), c.elos, test)
				sprts.add(sim.SPRTs(r, test.Beta), c.elos, test)
				half.add(sim.SPRTs(r, test.Beta/2), c.elos, test)
			}
			fmt.Printf("| %d | %s | %s | %s | %s | %.0f", k, c.name, formatElos(c.elos), race.rate(race.falseSel, *races), race.rate(race.miss, *races), race.mean(*races))
			for _, b := range []*tally{&sprts, &half} {
				fmt.Printf(" | %s | %s | %.0f | %.0f %%", b.rate(b.falseSel, *races), b.rate(b.miss, *races), b.mean(*races), 100*(1-race.mean(*races)/b.mean(*races)))
			}
			fmt.Println(" |")
			if race.undecided+sprts.undecided+half.undecided > 0 {
				fmt.Fprintf(os.Stderr, "racesim: K %d %s: undecided races %d, SPRTs %d and %d\n", k, c.name, race.undecided, sprts.undecided, half.undecided)
			}
		}
	}
	fmt.Fprintf(os.Stderr, "racesim: %v\n", time.Since(start).Round(time.Second))
}

type configuration struct {
	name string
	elos []float64
}

// configurations are the strengths simulated for k candidates: all at
// Elo0 (least favourable for false selection), the best at Elo1 and the
// rest δ below (least favourable for a miss), a leader 1.5δ up over the
// rest inside the indifference zone, strengths spread from Elo1 down to
// Elo0 − δ, and all alike at Elo1 (any winner is right).
func configurations(k int, elo0, elo1 float64) []configuration {
	d := elo1 - elo0
	fill := func(first, rest float64) []float64 {
		e := make([]float64, k)
		for i := range e {
			e[i] = rest
		}
		e[0] = first
		return e
	}
	spread := make([]float64, k)
	for i := range spread {
		spread[i] = elo1 - 2*d*float64(i)/float64(k-1)
	}
	return []configuration{
		{"null", fill(elo0, elo0)},
		{"least favourable", fill(elo1, elo0)},
		{"leader", fill(elo0+1.5*d, elo0+d/2)},
		{"spread", spread},
		{"all good", fill(elo1, elo1)},
	}
}

// tally counts the errors and pairs of one row's races.
type tally struct{ falseSel, miss, pairs, undecided int }

func (t *tally) add(o results.RaceOutcome, elos []float64, s results.SPRT) {
	t.pairs += o.Pairs
	if !o.Decided {
		t.undecided++
	}
	best := elos[0]
	for _, e := range elos {
		best = max(best, e)
	}
	if o.Winner >= 0 && elos[o.Winner] <= s.Elo0 {
		t.falseSel++
	}
	if best >= s.Elo1 && (o.Winner < 0 || elos[o.Winner] <= best-(s.Elo1-s.Elo0)) {
		t.miss++
	}
}

func (t *tally) rate(n, races int) string { return fmt.Sprintf("%.3f", float64(n)/float64(races)) }

func (t *tally) mean(races int) float64 { return float64(t.pairs) / float64(races) }

func formatElos(e []float64) string {
	parts := make([]string, len(e))
	for i, v := range e {
		parts[i] = strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strings.Join(parts, ", ")
}
