package results

import (
	"fmt"
	"math"
	"strings"

	"github.com/boardgame-arena/arena/internal/spec"
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
// default to 0.05) and a model name (empty means logistic).
func ParseSPRT(text, model string) (SPRT, error) {
	sp, err := spec.Parse("sprt:" + text)
	if err != nil {
		return SPRT{}, fmt.Errorf("--sprt: %v", err)
	}
	if err := sp.Check("elo0", "elo1", "alpha", "beta"); err != nil {
		return SPRT{}, fmt.Errorf("--sprt: %v", err)
	}
	if !sp.Has("elo0") || !sp.Has("elo1") {
		return SPRT{}, fmt.Errorf("--sprt needs elo0 and elo1, e.g. elo0=0,elo1=10")
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
			return SPRT{}, fmt.Errorf("--sprt: %v", err)
		}
	}
	return s, s.Check()
}

// Check validates the parameters.
func (s SPRT) Check() error {
	switch {
	case s.Model != Logistic && s.Model != Normalized:
		return fmt.Errorf("unknown SPRT model %q (valid: %s, %s)", s.Model, Logistic, Normalized)
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

// pentaScores are the per-game average scores of the five pair outcomes.
var pentaScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// moments returns the mean and variance of the per-game pair score.
func moments(freq [5]float64) (mean, variance float64) {
	for i, f := range freq {
		mean += f * pentaScores[i]
	}
	for i, f := range freq {
		d := pentaScores[i] - mean
		variance += f * d * d
	}
	return mean, variance
}

// LLR returns the generalised log-likelihood ratio of H1 against H0 for
// the pairs counted: N·Σ p̂ᵢ·log(q1ᵢ/q0ᵢ), where p̂ is the observed
// distribution and qk the most likely distribution whose expected score
// is that of hypothesis k. Empty cells get 10⁻³ pairs so that every
// expected score stays reachable.
func (s SPRT) LLR(p Penta) float64 {
	n := p.Pairs()
	if n == 0 {
		return 0
	}
	var freq [5]float64
	var total float64
	for i, c := range p {
		v := float64(c)
		if v == 0 {
			v = 1e-3
		}
		freq[i] = v
		total += v
	}
	for i := range freq {
		freq[i] /= total
	}
	s0, s1 := s.expectedScore(s.Elo0, freq), s.expectedScore(s.Elo1, freq)
	q0, q1 := mleWithMean(freq, s0), mleWithMean(freq, s1)
	var llr float64
	for i, f := range freq {
		llr += f * math.Log(q1[i]/q0[i])
	}
	return float64(n) * llr
}

// expectedScore returns the per-game expected score of a hypothesis.
func (s SPRT) expectedScore(elo float64, freq [5]float64) float64 {
	if s.Model == Normalized {
		_, variance := moments(freq)
		return 0.5 + elo*math.Sqrt2*math.Sqrt(variance)/(800/math.Ln10)
	}
	return 1 / (1 + math.Pow(10, -elo/400))
}

// mleWithMean returns the distribution q closest to freq in likelihood
// with Σ qᵢ·aᵢ = mean: qᵢ = freqᵢ/(1+λ(aᵢ−mean)), where λ solves
// Σ freqᵢ(aᵢ−mean)/(1+λ(aᵢ−mean)) = 0. The left side decreases strictly
// in λ on the interval where every denominator is positive, so bisection
// finds the root to machine precision.
func mleWithMean(freq [5]float64, mean float64) [5]float64 {
	mean = min(max(mean, 1e-9), 1-1e-9)
	lo, hi := -1/(1-mean), 1/mean // denominators positive strictly inside
	f := func(lambda float64) float64 {
		var sum float64
		for i, p := range freq {
			d := pentaScores[i] - mean
			sum += p * d / (1 + lambda*d)
		}
		return sum
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	lambda := (lo + hi) / 2
	var q [5]float64
	for i, p := range freq {
		q[i] = p / (1 + lambda*(pentaScores[i]-mean))
	}
	return q
}

// Estimate summarises a match from its game pairs.
type Estimate struct {
	Pairs   int     `json:"pairs"`
	Score   float64 `json:"score"` // the first agent's mean score per game
	Elo     float64 `json:"elo"`   // logistic Elo of the first agent over the second
	EloLow  float64 `json:"elo_low"`
	EloHigh float64 `json:"elo_high"`
	NElo    float64 `json:"nelo"` // normalized Elo
	LOS     float64 `json:"los"`  // probability that the first agent is the stronger
}

// Estimate returns the Elo difference with its interval at the given
// level (e.g. 0.95) from the pair scores' mean and standard error, and the
// likelihood of superiority Φ((score − ½)/se).
func (p Penta) Estimate(level float64) Estimate {
	n := p.Pairs()
	e := Estimate{Pairs: n}
	if n == 0 {
		nan := math.NaN()
		e.Score, e.Elo, e.EloLow, e.EloHigh, e.NElo, e.LOS = nan, nan, nan, nan, nan, nan
		return e
	}
	var freq [5]float64
	for i, c := range p {
		freq[i] = float64(c) / float64(n)
	}
	mean, variance := moments(freq)
	se := math.Sqrt(variance / float64(n))
	z := distuv.UnitNormal.Quantile(1 - (1-level)/2)
	e.Score = mean
	e.Elo = scoreToElo(mean)
	e.EloLow = scoreToElo(mean - z*se)
	e.EloHigh = scoreToElo(mean + z*se)
	switch {
	case se > 0:
		e.LOS = distuv.UnitNormal.CDF((mean - 0.5) / se)
		e.NElo = (mean - 0.5) / (math.Sqrt2 * math.Sqrt(variance)) * (800 / math.Ln10)
	case mean > 0.5:
		e.LOS, e.NElo = 1, math.Inf(1)
	case mean < 0.5:
		e.LOS, e.NElo = 0, math.Inf(-1)
	default:
		e.LOS = 0.5
	}
	return e
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
	return strings.Replace(fmt.Sprintf("%+.1f", v), "+0.0", "0.0", 1)
}
