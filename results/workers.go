package results

import (
	"maps"
	"math"
	"slices"
)

// WorkerTally counts the games of each broker worker of a run (the
// record's GameRecord.Worker; "" for the process that wrote the record)
// and, per pairing, their results, so that a report can show each
// machine's share and speed and flag one whose results are improbable
// given the others' (Rows: fishtest's per-worker residuals). It holds
// counts only: its memory does not grow with the games.
type WorkerTally struct {
	workers map[string]*workerCounts
}

type workerCounts struct {
	games, forfeits, timeLosses int
	nps, scale                  float64 // sums over the scaled games
	scaled                      int
	// wdl counts, by seating (the players of the first and second
	// seats, by name: files merged need not number agents alike), the
	// first seat's wins, draws and losses.
	wdl map[[2]string]*[3]int
}

// Add counts one game.
func (t *WorkerTally) Add(g *GameRecord) {
	if t.workers == nil {
		t.workers = map[string]*workerCounts{}
	}
	w := t.workers[g.Worker]
	if w == nil {
		w = &workerCounts{wdl: map[[2]string]*[3]int{}}
		t.workers[g.Worker] = w
	}
	w.games++
	if g.Forfeit != -1 {
		w.forfeits++
		if g.Termination == Timeout {
			w.timeLosses++
		}
	}
	if g.TCScale != 0 {
		w.scaled++
		w.scale += g.TCScale
		w.nps += g.WorkerNPS
	}
	// By seating (who has the first move), so that a worker that played
	// more games of one colour is not taken for an odd one.
	k := [2]string{g.Players[0].Name, g.Players[1].Name}
	c := w.wdl[k]
	if c == nil {
		c = new([3]int)
		w.wdl[k] = c
	}
	switch g.Winner {
	case -1:
		c[1]++
	case 0:
		c[0]++
	default:
		c[2]++
	}
}

// WorkerRow is one worker's line of WorkerTally.Rows.
type WorkerRow struct {
	Worker string // "" for the process that wrote the record
	Games  int
	// Wins, Draws and Losses are from the first mover's view.
	Wins, Draws, Losses  int
	Forfeits, TimeLosses int
	// NPS and Scale are the means of the worker's measured speed and
	// time-control scale over its scaled games (0 when none was scaled).
	NPS, Scale float64
	// Residual is fishtest's per-worker residual: how far the worker's
	// results are from the others', as a standard normal deviate (≥ 0);
	// NaN when it cannot be computed (a single worker, or too few games
	// for the chi-squared test).
	Residual float64
	// Flag says why the worker's results are improbable given the others
	// (a residual above the 99 % threshold, or many forfeits); "" if not.
	Flag string
}

// ResidualThresholds are fishtest's Bonferroni-corrected 95 % and 99 %
// levels of WorkerRow.Residual for n workers that have one.
func ResidualThresholds(n int) (z95, z99 float64) {
	return normalISF(0.05 / float64(n)), normalISF(0.01 / float64(n))
}

// Rows returns one row per worker, by name, with fishtest's per-worker
// residuals: for each seating (the agents of the first and second seats),
// the workers' win-draw-loss counts form a contingency table (a worker
// whose expected count of a cell is 5 or less is left out of that
// seating, as fishtest does, until none is); each
// worker's chi-squared against the others collapsed into one row (its
// row's chi-squared divided by 1 − its share of the games) is summed over
// the seatings it qualifies in (2 degrees of freedom each) and turned into
// a standard normal deviate. A worker whose deviate exceeds the
// Bonferroni-corrected 99 % level is flagged (among three workers or
// more: two that differ have the same residual), as is one that lost more
// than 10 % of over 20 games on time (fishtest's crash-or-time rule).
func (t *WorkerTally) Rows() []WorkerRow {
	names := slices.Sorted(maps.Keys(t.workers))
	// As fishtest's bad-worker search: the worst worker above the level
	// is set aside and the others' residuals computed again without it,
	// so that one forged worker does not make the honest ones look odd.
	flagged := map[string]float64{}
	var z map[string]float64
	for {
		z = t.residuals(flagged)
		if len(z) < 3 {
			break // two workers that differ: the residuals cannot say which is odd
		}
		_, z99 := ResidualThresholds(len(z))
		worst := ""
		for _, n := range names {
			if v, ok := z[n]; ok && v > z99 && (worst == "" || v > z[worst]) {
				worst = n
			}
		}
		if worst == "" {
			break
		}
		flagged[worst] = z[worst]
	}
	var rows []WorkerRow
	for _, n := range names {
		w := t.workers[n]
		r := WorkerRow{Worker: n, Games: w.games, Forfeits: w.forfeits, TimeLosses: w.timeLosses, Residual: math.NaN()}
		for _, c := range w.wdl {
			r.Wins, r.Draws, r.Losses = r.Wins+c[0], r.Draws+c[1], r.Losses+c[2]
		}
		if w.scaled > 0 {
			r.NPS, r.Scale = w.nps/float64(w.scaled), w.scale/float64(w.scaled)
		}
		if v, ok := flagged[n]; ok {
			r.Residual = v
			r.Flag = "results improbable given the other workers' (residual above the 99 % level)"
		} else if v, ok := z[n]; ok {
			r.Residual = v
		}
		if r.Flag == "" && w.games > 20 && float64(w.timeLosses) > 0.1*float64(w.games) {
			r.Flag = "more than 10 % of its games lost on time"
		}
		rows = append(rows, r)
	}
	return rows
}

// residuals returns the residual of every worker not in skip that
// qualifies in some seating, when at least two do.
func (t *WorkerTally) residuals(skip map[string]float64) map[string]float64 {
	chi2 := map[string]float64{}
	dof := map[string]int{}
	seatings := map[[2]string]bool{}
	for _, w := range t.workers {
		for k := range w.wdl {
			seatings[k] = true
		}
	}
	for k := range seatings {
		in := map[string]*[3]int{}
		for n, w := range t.workers {
			if _, out := skip[n]; !out && w.wdl[k] != nil {
				in[n] = w.wdl[k]
			}
		}
		for len(in) >= 2 {
			var col [3]float64
			total := 0.0
			for _, c := range in {
				for j := range col {
					col[j] += float64(c[j])
					total += float64(c[j])
				}
			}
			dropped := false
			for n, c := range in {
				row := float64(c[0] + c[1] + c[2])
				for j := range col {
					if row*col[j]/total <= 5 {
						delete(in, n)
						dropped = true
						break
					}
				}
			}
			if dropped {
				continue
			}
			for n, c := range in {
				row := float64(c[0] + c[1] + c[2])
				x := 0.0
				for j := range col {
					e := row * col[j] / total
					x += (float64(c[j]) - e) * (float64(c[j]) - e) / e
				}
				chi2[n] += x / (1 - row/total)
				dof[n] += 2
			}
			break
		}
	}
	z := map[string]float64{}
	if len(dof) < 2 {
		return z
	}
	for n, d := range dof {
		z[n] = max(0, normalISFLog(chi2LogSF(chi2[n], d)))
	}
	return z
}

// chi2LogSF is the logarithm of the chi-squared survival function for an
// even number of degrees of freedom 2m: e^(−x/2) Σ_{i<m} (x/2)^i / i!.
func chi2LogSF(x float64, dof int) float64 {
	if x <= 0 {
		return 0
	}
	h := x / 2
	// log-sum-exp of the terms i·ln h − ln i!
	terms := make([]float64, dof/2)
	top := math.Inf(-1)
	for i := range terms {
		lg, _ := math.Lgamma(float64(i + 1))
		terms[i] = float64(i)*math.Log(h) - lg
		top = max(top, terms[i])
	}
	sum := 0.0
	for _, v := range terms {
		sum += math.Exp(v - top)
	}
	return -h + top + math.Log(sum)
}

// normalISF is the standard normal's inverse survival function.
func normalISF(p float64) float64 { return normalISFLog(math.Log(p)) }

// normalISFLog is normalISF of e^logP, also for probabilities far below
// what math.Erfcinv resolves (it loses them under 1e-16): bisection on
// the tail log(erfc(z/√2)/2), then, beyond erfc's range, the asymptotic
// −2 ln p = z² + 2 ln z + ln 2π solved by iteration.
func normalISFLog(logP float64) float64 {
	logQ := func(z float64) float64 { return math.Log(math.Erfc(z/math.Sqrt2) / 2) }
	const far = 37.0
	if logP >= logQ(far) {
		lo, hi := -far, far
		for range 200 {
			mid := (lo + hi) / 2
			if logQ(mid) > logP {
				lo = mid
			} else {
				hi = mid
			}
		}
		return (lo + hi) / 2
	}
	t := -2 * logP
	z := math.Sqrt(t)
	for range 50 {
		z = math.Sqrt(t - math.Log(2*math.Pi) - 2*math.Log(z))
	}
	return z
}
