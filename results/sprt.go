package results

import (
	"fmt"
	"math"

	"github.com/boardgame-arena/arena/spec"
	"gonum.org/v1/gonum/stat/distuv"
)

// SPRT models.
const (
	// Logistic states the hypotheses in logistic Elo: expected score
	// 1/(1+10^(−elo/400)).
	Logistic = "logistic"
	// Normalized states them in normalized Elo, which measures the score
	// excess in standard deviations of a game pair: nElo = (800/ln 10)·t with
	// t = (score − ½)/(√2·σpair). Its bounds mean the same effort whatever
	// the draw rate.
	Normalized = "normalized"
)

// SPRT is a sequential probability ratio test between H0: elo = Elo0 and
// H1: elo = Elo1, on game pairs (the pentanomial GSPRT).
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"` // false acceptance of H1
	Beta  float64 `json:"beta"`  // false acceptance of H0
	Model string  `json:"model"` // Logistic or Normalized
}

// ParseSPRT reads "elo0=0,elo1=10,alpha=0.05,beta=0.05" (alpha and beta
// default to 0.05) and a model name (empty means logistic). Its errors do
// not name a flag: the caller says where the text came from.
func ParseSPRT(text, model string) (SPRT, error) {
	sp, err := spec.Parse("sprt:" + text)
	if err == nil {
		err = sp.Check("elo0", "elo1", "alpha", "beta")
	}
	if err != nil {
		return SPRT{}, err
	}
	if !sp.Has("elo0") || !sp.Has("elo1") {
		return SPRT{}, fmt.Errorf("the SPRT needs elo0 and elo1, e.g. elo0=0,elo1=10")
	}
	s := SPRT{Model: model}
	if s.Model == "" {
		s.Model = Logistic
	}
	for _, f := range []struct {
		key string
		dst *float64
		def float64
	}{{"elo0", &s.Elo0, 0}, {"elo1", &s.Elo1, 0}, {"alpha", &s.Alpha, 0.05}, {"beta", &s.Beta, 0.05}} {
		if *f.dst, err = sp.Float(f.key, f.def); err != nil {
			return SPRT{}, err
		}
	}
	return s, s.Check()
}

// MaxSPRTElo bounds the hypotheses: 2000 logistic Elo is a score of
// 99.999 %, and far beyond it the expected scores round to 0 and 1, so the
// LLR silently loses its meaning.
const MaxSPRTElo = 2000

// Check validates the parameters.
func (s SPRT) Check() error {
	switch {
	case s.Model != Logistic && s.Model != Normalized:
		return fmt.Errorf("unknown SPRT model %q (valid: %s, %s)", s.Model, Logistic, Normalized)
	case !(math.Abs(s.Elo0) <= MaxSPRTElo && math.Abs(s.Elo1) <= MaxSPRTElo): // also NaN and ±Inf
		return fmt.Errorf("SPRT elo0 and elo1 must lie within ±%d, got %v and %v", MaxSPRTElo, s.Elo0, s.Elo1)
	case !(s.Elo0 < s.Elo1):
		return fmt.Errorf("SPRT needs elo0 < elo1, got %v and %v", s.Elo0, s.Elo1)
	case !(s.Alpha > 0 && s.Alpha < 0.5 && s.Beta > 0 && s.Beta < 0.5):
		return fmt.Errorf("SPRT alpha and beta must lie in (0, 0.5), got %v and %v", s.Alpha, s.Beta)
	}
	return nil
}

// String formats the test as it is given on the command line.
func (s SPRT) String() string {
	return fmt.Sprintf("elo0=%g,elo1=%g,alpha=%g,beta=%g (%s)", s.Elo0, s.Elo1, s.Alpha, s.Beta, s.Model)
}

// Bounds returns Wald's stopping bounds for the log-likelihood ratio: H0 is
// accepted at or below lower, H1 at or above upper.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Decision is the state of a sequential test.
type Decision int

const (
	Continue Decision = iota // keep playing
	AcceptH0                 // elo0 is the better explanation
	AcceptH1                 // elo1 is the better explanation
)

func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Decide compares llr with the bounds.
func (s SPRT) Decide(llr float64) Decision {
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// Penta counts game pairs (same opening, colours swapped) by the first
// agent's total: LL (0 points), LD (½), DD or WL (1), WD (1½), WW (2).
type Penta [5]int

// Add records one pair from the first agent's points in its two games.
func (p *Penta) Add(points1, points2 float64) {
	k := int(math.Round(2 * (points1 + points2)))
	p[min(max(k, 0), 4)]++
}

// Pairs returns the number of pairs counted.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// String formats as "[LL, LD, DD+WL, WD, WW]".
func (p Penta) String() string {
	return fmt.Sprintf("[%d, %d, %d, %d, %d]", p[0], p[1], p[2], p[3], p[4])
}

// nEloPerT converts a t-value per game to normalized Elo: nElo = t·800/ln 10.
const nEloPerT = 800 / math.Ln10

// pentaScores are the per-game average scores of the five pair outcomes.
var pentaScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// moments returns the mean and variance of the per-game pair score.
func moments(freq [5]float64) (mean, variance float64) {
	return distMoments(&pentaScores, &freq, 5)
}

// outcomes is an observed distribution over k equally spaced outcome
// scores a_i = i/(k−1) (k = 3: L, D, W; k = 5: the pentanomial pair
// outcomes), the input of the GSPRT. It lives in fixed arrays so that
// the LLR of every new pair allocates nothing.
type outcomes struct {
	k     int
	a, p  [5]float64
	total float64 // the regularised count N
}

// newOutcomes regularises counts as fishtest and fastchess do: an empty
// cell gets 10⁻³ so that every expected score stays reachable and no
// logarithm sees 0; N is the regularised total.
func newOutcomes(counts []int) outcomes {
	o := outcomes{k: len(counts)}
	for i, c := range counts {
		v := float64(c)
		if c == 0 {
			v = 1e-3
		}
		o.a[i] = float64(i) / float64(o.k-1)
		o.p[i] = v
		o.total += v
	}
	for i := range o.k {
		o.p[i] /= o.total
	}
	return o
}

// distMoments returns the mean and variance of the first k outcomes.
func distMoments(a, q *[5]float64, k int) (mean, variance float64) {
	for i := range k {
		mean += q[i] * a[i]
	}
	for i := range k {
		d := a[i] - mean
		variance += q[i] * d * d
	}
	return mean, variance
}

// secular solves Σ pᵢφᵢ/(1+xφᵢ) = 0 for x on the interval where every
// 1+xφᵢ is positive, (−1/max φ, −1/min φ). The left side falls strictly
// from +∞ to −∞ there, so bisection finds the root to machine precision.
// ok is false when the φᵢ do not change sign (no root exists).
func secular(p, phi *[5]float64, k int) (x float64, ok bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range k {
		lo, hi = min(lo, phi[i]), max(hi, phi[i])
	}
	if !(lo < 0 && hi > 0) {
		return 0, false
	}
	lo, hi = -1/hi, -1/lo
	for range 2000 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		var f float64
		for i := range k {
			f += p[i] * phi[i] / (1 + mid*phi[i])
		}
		if f > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2, true
}

// mleMean returns the distribution q of maximum likelihood for the
// observation o under the constraint Σ qᵢaᵢ = s (Van den Bergh,
// "Comments on normalized Elo", proposition 1.1, as in fishtest's
// MLE_expected): qᵢ = pᵢ/(1+x(aᵢ−s)) with x the root of the secular
// equation.
func mleMean(o *outcomes, s float64) [5]float64 {
	var phi, q [5]float64
	for i := range o.k {
		phi[i] = o.a[i] - s
	}
	x, _ := secular(&o.p, &phi, o.k) // s ∈ (0, 1) always brackets
	for i := range o.k {
		q[i] = o.p[i] / (1 + x*phi[i])
	}
	return q
}

// mleTValue returns the distribution q of maximum likelihood for the
// observation o under the constraint (μ_q − ref)/σ_q = t (the same
// paper, section 4.1, as in fishtest's MLE_t_value): starting from the
// uniform distribution, each step solves the secular equation for
// φᵢ = aᵢ − ref − t·σ·(1 + ((aᵢ−μ)/σ)²)/2 with μ, σ of the previous
// step. fishtest stops after 10 steps or a change below 10⁻⁹; this runs
// to a change below 10⁻¹³ (at most 100 steps), which agrees with it to
// the printed digits whenever fishtest converged.
func mleTValue(o *outcomes, ref, t float64) [5]float64 {
	var q, phi [5]float64
	for i := range o.k {
		q[i] = 1 / float64(o.k)
	}
	for range 100 {
		mu, variance := distMoments(&o.a, &q, o.k)
		sigma := math.Sqrt(variance)
		for i := range o.k {
			z := (mu - o.a[i]) / sigma
			phi[i] = o.a[i] - ref - t*sigma*(1+z*z)/2
		}
		x, ok := secular(&o.p, &phi, o.k)
		if !ok {
			break // no distribution has that t-value: keep the last step
		}
		var change float64
		for i := range o.k {
			v := o.p[i] / (1 + x*phi[i])
			change = max(change, math.Abs(v-q[i]))
			q[i] = v
		}
		if change < 1e-13 {
			break
		}
	}
	return q
}

// LLR returns the generalised log-likelihood ratio of H1 against H0 for
// the pairs counted, as fishtest computes it: N·Σ p̂ᵢ·log(q1ᵢ/q0ᵢ), with
// p̂ the observed pentanomial distribution (empty cells regularised to
// 10⁻³ pairs) and qk the most likely distribution under hypothesis k.
// Logistic: qk has the expected score 1/(1+10^(−Elo_k/400)). Normalized:
// qk has the t-value (μ−½)/σ = √2·nElo_k/(800/ln 10), σ the standard
// deviation of the per-game pair score.
func (s SPRT) LLR(p Penta) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	o := newOutcomes(p[:])
	return s.llr(&o)
}

// LLRWDL is LLR on single games (the trinomial GSPRT), for results that
// do not come in pairs.
func (s SPRT) LLRWDL(w WDL) float64 {
	if w.Games() == 0 {
		return 0
	}
	o := newOutcomes([]int{w.Losses, w.Draws, w.Wins})
	return s.llr(&o)
}

func (s SPRT) llr(o *outcomes) float64 {
	var q0, q1 [5]float64
	if s.Model == Normalized {
		t0, t1 := s.Elo0/nEloPerT, s.Elo1/nEloPerT
		if o.k == 5 {
			// Pairs: the t-value of the pair score is √2 times the
			// per-game one that nElo measures.
			t0, t1 = t0*math.Sqrt2, t1*math.Sqrt2
		}
		q0, q1 = mleTValue(o, 0.5, t0), mleTValue(o, 0.5, t1)
	} else {
		q0, q1 = mleMean(o, eloToScore(s.Elo0)), mleMean(o, eloToScore(s.Elo1))
	}
	var llr float64
	for i := range o.k {
		llr += o.p[i] * (math.Log(q1[i]) - math.Log(q0[i]))
	}
	return o.total * llr
}

// eloToScore is the logistic expected score of an Elo difference.
func eloToScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Estimate summarises a match: the first agent's score, its Elo and
// normalized Elo over the second with intervals, and the likelihood of
// superiority.
type Estimate struct {
	Pairs    int     `json:"pairs,omitempty"` // game pairs (pentanomial estimates)
	Games    int     `json:"games"`
	Score    float64 `json:"score"` // the first agent's mean score per game
	Elo      float64 `json:"elo"`   // logistic Elo of the first agent over the second
	EloLow   float64 `json:"elo_low"`
	EloHigh  float64 `json:"elo_high"`
	NElo     float64 `json:"nelo"` // normalized Elo: score excess per game standard deviation
	NEloLow  float64 `json:"nelo_low"`
	NEloHigh float64 `json:"nelo_high"`
	LOS      float64 `json:"los"` // probability that the first agent is the stronger
}

// Estimate returns the Elo difference with its interval at the given
// level (e.g. 0.95) from the pair scores' mean and standard error, the
// normalized Elo (μ−½)/(√2·σ_pair)·800/ln 10 with its interval, and the
// likelihood of superiority Φ((score − ½)/se).
func (p Penta) Estimate(level float64) Estimate {
	n := p.Pairs()
	var freq [5]float64
	for i, c := range p {
		freq[i] = float64(c) / float64(max(n, 1))
	}
	e := estimate(&pentaScores, &freq, 5, n, level, math.Sqrt2)
	e.Pairs, e.Games = n, 2*n
	return e
}

// EstimateWDL is Estimate for single games: nElo is (μ−½)/σ_game·800/ln 10.
func EstimateWDL(w WDL, level float64) Estimate {
	n := w.Games()
	var freq [5]float64
	if n > 0 {
		freq[0], freq[1], freq[2] = float64(w.Losses)/float64(n), float64(w.Draws)/float64(n), float64(w.Wins)/float64(n)
	}
	e := estimate(&[5]float64{0, 0.5, 1}, &freq, 3, n, level, 1)
	e.Games = n
	return e
}

// estimate computes an Estimate from n observations with the outcome
// distribution freq over scores a; perGame converts the observations'
// standard deviation to a per-game one for nElo (√2 for pairs).
func estimate(a, freq *[5]float64, k, n int, level, perGame float64) Estimate {
	var e Estimate
	if n == 0 {
		nan := math.NaN()
		e.Score, e.Elo, e.EloLow, e.EloHigh, e.NElo, e.NEloLow, e.NEloHigh, e.LOS = nan, nan, nan, nan, nan, nan, nan, nan
		return e
	}
	mean, variance := distMoments(a, freq, k)
	se := math.Sqrt(variance / float64(n))
	z := distuv.UnitNormal.Quantile(1 - (1-level)/2)
	e.Score = mean
	e.Elo = scoreToElo(mean)
	e.EloLow = scoreToElo(mean - z*se)
	e.EloHigh = scoreToElo(mean + z*se)
	// nElo is linear in the score with σ held at its estimate, so its
	// half-width is z·se/(perGame·σ)·800/ln 10 = z/(perGame·√n)·800/ln 10.
	half := z / (perGame * math.Sqrt(float64(n))) * nEloPerT
	switch {
	case se > 0:
		e.LOS = distuv.UnitNormal.CDF((mean - 0.5) / se)
		e.NElo = (mean - 0.5) / (perGame * math.Sqrt(variance)) * nEloPerT
		e.NEloLow, e.NEloHigh = e.NElo-half, e.NElo+half
		return e
	case mean > 0.5:
		e.LOS, e.NElo = 1, math.Inf(1)
	case mean < 0.5:
		e.LOS, e.NElo = 0, math.Inf(-1)
	default:
		e.LOS = 0.5
	}
	// Every observation alike (all won, all lost, all drawn): the normal
	// interval has width 0 and the observed σ cannot normalise anything.
	// The Elo interval becomes Wilson's score interval, valid for any
	// score in [0, 1] because its variance is at most s(1−s): at 100 %
	// it is open above and bounded below by n/(n+z²). nElo has no interval.
	e.EloLow, e.EloHigh = scoreToElo(wilson(mean, n, -z)), scoreToElo(wilson(mean, n, z))
	e.NEloLow, e.NEloHigh = math.NaN(), math.NaN()
	return e
}

// wilson returns one end of Wilson's score interval for a proportion
// observed as s over n trials (z < 0 for the lower end).
func wilson(s float64, n int, z float64) float64 {
	switch {
	case s >= 1 && z > 0:
		return 1
	case s <= 0 && z < 0:
		return 0
	}
	nf := float64(n)
	return (s + z*z/(2*nf) + z*math.Sqrt(s*(1-s)/nf+z*z/(4*nf*nf))) / (1 + z*z/nf)
}

// scoreToElo converts an expected score to logistic Elo (±Inf at 0 and 1).
func scoreToElo(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// FormatElo writes an Elo value with one decimal, "+inf"/"-inf" when infinite.
func FormatElo(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+inf"
	case math.IsInf(v, -1):
		return "-inf"
	case math.IsNaN(v):
		return "n/a"
	}
	s := fmt.Sprintf("%+.1f", v)
	if s == "+0.0" || s == "-0.0" {
		return "0.0"
	}
	return s
}
