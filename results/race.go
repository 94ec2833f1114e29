package results

import (
	"fmt"
	"math"
	"strings"

	"github.com/boardgame-arena/arena/option"
)

// Race selects the best of K candidates, each playing colour-swapped game
// pairs against a common base, with two error rates that hold together:
//
//   - False selection: whatever the candidates' strengths, the race names
//     a winner no better than Elo0 with probability at most Alpha.
//   - Missed selection: when the best candidate is at least Elo1 over the
//     base and at least δ = Elo1 − Elo0 better than every other candidate,
//     the race fails to name it with probability at most Beta.
//
// It combines two published procedures:
//
//   - Each candidate runs the pentanomial GSPRT of Test against the base
//     (the same LLR as SPRT) with its false-acceptance rate split by
//     Bonferroni, α/K, and false rejection β/2. A candidate whose LLR
//     reaches the lower bound is out (no better than Elo0); one that
//     reaches the upper bound is qualified, for good. Stopping some
//     of these tests early, or playing them at different speeds, only
//     shortens them: the probability that a candidate no better than Elo0
//     ever crosses its upper bound stays at most α/K, so the winner, which
//     must have qualified, is such a candidate with probability at most α.
//   - Among the candidates still in the race, Paulson's sequential
//     elimination (E. Paulson, "A sequential procedure for selecting the
//     population with the largest mean from k normal populations", Ann.
//     Math. Statist. 35 (1964) 174–180) removes the clearly worse: after n
//     pairs each, candidate i is eliminated when S_max − S_i > max(0,
//     a − λn), S the candidates' summed pair scores, λ = δ/2 and a =
//     σ²/(δ−λ)·ln((K−1)/γ) with γ = β/2, σ² the variance of a pair score
//     (pooled over the candidates) and δ in score units. The difference
//     between the best and another candidate drifts down by at least δ
//     per pair, so it crosses the triangle with probability at most
//     exp(−(δ−λ)a/σ²) = γ/(K−1), and the best is eliminated with
//     probability at most γ. The triangle closes after a/λ pairs, and
//     then only the leader stays.
//
// The best candidate is missed only if its own test ends at the lower
// bound (β/2) or it is eliminated (γ = β/2). The race is decided when one
// candidate is left and qualified (the winner), or none is left (no
// candidate proven better than the base). Both guarantees hold to the
// accuracy of Wald's bounds for the GSPRT and of the plug-in σ², as the
// SPRT's own do; the simulations in race_test.go and benchmarks/racesim
// measure them.
//
// Games go only to candidates still in the race (neither out nor
// eliminated), round-robin: the race counts pairs in stages, stage n
// taking pair n of every live candidate, so all live candidates have the
// same number of pairs when they are compared. Pairs that arrive ahead
// of their stage wait; pairs of a candidate that has left are ignored.
type Race struct {
	Test       SPRT
	Candidates []RaceCandidate
	// Stage is the number of pairs every live candidate has had counted.
	Stage int
	// OnStage, when not nil, is called after each stage is counted (a
	// report draws each candidate's LLR after each of its pairs from it).
	OnStage func()

	lower, upper float64 // the candidates' GSPRT bounds (α/K, β/2)
	gamma        float64 // Paulson's elimination error
	winner       int
	decided      bool
}

// RaceState is where a candidate stands.
type RaceState int

const (
	Live       RaceState = iota // playing; its test has not decided
	Qualified                   // its test accepted H1; still playing to be compared
	Out                         // its test accepted H0: no better than Elo0
	Eliminated                  // clearly worse than another live candidate
)

func (s RaceState) String() string {
	return [...]string{"live", "qualified", "out", "eliminated"}[s]
}

// RaceCandidate is one candidate's evidence against the base.
type RaceCandidate struct {
	State RaceState
	Penta Penta   // counted pairs, from the candidate's side
	Sum   float64 // the counted pairs' scores (½ per pair game point)
	LLR   float64
	// LeftAt is the stage at which the candidate qualified, went out or
	// was eliminated (0 while live).
	LeftAt int
	// pairs holds the pair totals (0 … 4 half points) received ahead of
	// the stage.
	pairs []uint8
}

// inRace reports whether the candidate still plays.
func (c *RaceCandidate) inRace() bool { return c.State == Live || c.State == Qualified }

// minEliminationStage is the first stage at which Paulson's rule runs:
// the plug-in σ² needs a few pairs of every candidate.
const minEliminationStage = 8

// NewRace starts a race of k ≥ 2 candidates under the test s (its Alpha
// and Beta are the race's family-wise error rates). Its errors name the
// options Candidates and SPRT.
func NewRace(s SPRT, k int) (*Race, error) {
	if k < 2 {
		return nil, option.New("Candidates", k, "a race needs at least two candidates (one is a match)")
	}
	if err := s.Check(); err != nil {
		return nil, option.New("SPRT", s.String(), "%v", err)
	}
	r := &Race{Test: s, Candidates: make([]RaceCandidate, k), winner: -1, gamma: s.Beta / 2}
	each := s
	each.Alpha, each.Beta = s.Alpha/float64(k), s.Beta/2
	r.lower, r.upper = each.Bounds()
	return r, nil
}

// Bounds returns every candidate's GSPRT bounds (α/K and β/2).
func (r *Race) Bounds() (lower, upper float64) { return r.lower, r.upper }

// Add takes candidate i's next game pair (its points in the two games, in
// the candidate's round order) and returns the number of stages it
// completed. Pairs of a candidate no longer in the race, and pairs after
// the decision, are ignored.
func (r *Race) Add(i int, points1, points2 float64) int {
	c := &r.Candidates[i]
	if r.decided || !c.inRace() {
		return 0
	}
	k := int(math.Round(2 * (points1 + points2)))
	c.pairs = append(c.pairs, uint8(min(max(k, 0), 4)))
	stages := 0
	for !r.decided && r.ready() {
		r.step()
		stages++
	}
	return stages
}

// ready reports whether every live candidate has its next pair.
func (r *Race) ready() bool {
	some := false
	for i := range r.Candidates {
		c := &r.Candidates[i]
		if c.inRace() {
			if len(c.pairs) == 0 {
				return false
			}
			some = true
		}
	}
	return some
}

// step counts one stage: a pair of every live candidate, their tests,
// then the elimination.
func (r *Race) step() {
	r.Stage++
	each := r.Test
	for i := range r.Candidates {
		c := &r.Candidates[i]
		if !c.inRace() {
			continue
		}
		v := c.pairs[0]
		c.pairs = c.pairs[1:]
		c.Penta[v]++
		c.Sum += float64(v) / 4
		c.LLR = each.LLR(c.Penta)
		if c.State == Qualified {
			continue // decided for good; it plays on to be compared
		}
		switch {
		case c.LLR >= r.upper:
			c.State, c.LeftAt = Qualified, r.Stage
		case c.LLR <= r.lower:
			c.State, c.LeftAt, c.pairs = Out, r.Stage, nil
		}
	}
	r.eliminate()
	live, last := 0, -1
	for i := range r.Candidates {
		if r.Candidates[i].inRace() {
			live, last = live+1, i
		}
	}
	switch {
	case live == 0:
		r.decided = true
	case live == 1 && r.Candidates[last].State == Qualified:
		r.decided, r.winner = true, last
	}
	if r.OnStage != nil {
		r.OnStage()
	}
}

// eliminate applies Paulson's rule to the candidates in the race.
func (r *Race) eliminate() {
	k := len(r.Candidates)
	if r.Stage < minEliminationStage {
		return
	}
	best, in := math.Inf(-1), 0
	for i := range r.Candidates {
		if c := &r.Candidates[i]; c.inRace() {
			best, in = max(best, c.Sum), in+1
		}
	}
	if in < 2 {
		return
	}
	variance := r.pooledVariance()
	delta := r.delta(variance)
	if !(variance > 0 && delta > 0) {
		return // every pair alike so far: no evidence of a difference
	}
	lambda := delta / 2
	a := variance / (delta - lambda) * math.Log(float64(k-1)/r.gamma)
	margin := max(0, a-lambda*float64(r.Stage))
	for i := range r.Candidates {
		if c := &r.Candidates[i]; c.inRace() && best-c.Sum > margin {
			c.State, c.LeftAt, c.pairs = Eliminated, r.Stage, nil
		}
	}
}

// pooledVariance is the within-candidate variance of a pair score (per
// game, ¼ per half point) over every counted pair.
func (r *Race) pooledVariance() float64 {
	var ss float64
	n, groups := 0, 0
	for i := range r.Candidates {
		p := r.Candidates[i].Penta
		m := p.Pairs()
		if m == 0 {
			continue
		}
		mean := r.Candidates[i].Sum / float64(m)
		for v, cnt := range p {
			d := pentaScores[v] - mean
			ss += float64(cnt) * d * d
		}
		n, groups = n+m, groups+1
	}
	if n <= groups {
		return 0
	}
	return ss / float64(n-groups)
}

// delta is the indifference zone Elo1 − Elo0 in pair-score units: the
// logistic scores' difference, or for normalized Elo the t-value's times
// √2·σ (a pair score's standard deviation).
func (r *Race) delta(variance float64) float64 {
	s := r.Test
	if s.Model == Normalized {
		return (s.Elo1 - s.Elo0) / nEloPerT * math.Sqrt2 * math.Sqrt(variance)
	}
	return eloToScore(s.Elo1) - eloToScore(s.Elo0)
}

// Live returns the candidates still in the race (live or qualified).
func (r *Race) Live() []int {
	var out []int
	for i := range r.Candidates {
		if r.Candidates[i].inRace() && !r.decided {
			out = append(out, i)
		}
	}
	return out
}

// InRace reports whether candidate i still gets games.
func (r *Race) InRace(i int) bool { return !r.decided && r.Candidates[i].inRace() }

// Decided reports whether the race is over.
func (r *Race) Decided() bool { return r.decided }

// Winner returns the winning candidate, or −1 (undecided, or no candidate
// proven better than the base).
func (r *Race) Winner() int { return r.winner }

// Pairs returns the pairs counted over all candidates.
func (r *Race) Pairs() int {
	n := 0
	for i := range r.Candidates {
		n += r.Candidates[i].Penta.Pairs()
	}
	return n
}

// Status is a one-line summary: the stage, then each candidate's LLR and
// state, e.g. "stage 40 [-3.66, 4.08]: 1 2.71 qualified · 2 -0.40 live ·
// 3 -3.70 out@31", with names from names (candidate numbers when nil).
func (r *Race) Status(names []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "stage %d [%.2f, %.2f]:", r.Stage, r.lower, r.upper)
	for i := range r.Candidates {
		c := &r.Candidates[i]
		name := fmt.Sprint(i + 1)
		if i < len(names) {
			name = names[i]
		}
		if i > 0 {
			b.WriteString(" ·")
		}
		fmt.Fprintf(&b, " %s %.2f %s", name, c.LLR, c.State)
		if c.State != Live && c.State != Qualified {
			fmt.Fprintf(&b, "@%d", c.LeftAt)
		}
	}
	switch {
	case r.decided && r.winner >= 0:
		name := fmt.Sprint(r.winner + 1)
		if r.winner < len(names) {
			name = names[r.winner]
		}
		fmt.Fprintf(&b, "; winner %s", name)
	case r.decided:
		b.WriteString("; no candidate better than the base")
	}
	return b.String()
}
