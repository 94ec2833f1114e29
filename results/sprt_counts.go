package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/option"
)

// MaxCount bounds each count ParsePenta and ParseWDL read: far beyond any
// real test, and small enough that the sums stay exact in float64.
const MaxCount = 1_000_000_000_000

// ParsePenta reads game-pair counts "LL,LD,DD,WD,WW" (spaces allowed);
// its errors name the option Penta.
func ParsePenta(text string) (Penta, error) {
	c, err := parseCounts("Penta", text, []string{"LL", "LD", "DD", "WD", "WW"})
	if err != nil {
		return Penta{}, err
	}
	return Penta{c[0], c[1], c[2], c[3], c[4]}, nil
}

// ParseWDL reads single-game counts "W,D,L"; its errors name the option
// WDL.
func ParseWDL(text string) (WDL, error) {
	c, err := parseCounts("WDL", text, []string{"W", "D", "L"})
	if err != nil {
		return WDL{}, err
	}
	return WDL{Wins: c[0], Draws: c[1], Losses: c[2]}, nil
}

// parseCounts reads the comma-separated counts names of option opt.
func parseCounts(opt, text string, names []string) ([]int, error) {
	want := strings.Join(names, ",")
	parts := strings.Split(text, ",")
	if len(parts) != len(names) {
		return nil, fmt.Errorf("%w wants %d counts %s, got %d in %q", named(opt), len(names), want, len(parts), text)
	}
	out := make([]int, len(parts))
	for i, s := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		switch {
		case err != nil:
			return nil, option.New(opt, names[i], "%q is not a whole number (want %s, e.g. %s)", s, want, strings.Repeat("10,", len(names)-1)+"10")
		case v < 0:
			return nil, option.New(opt, names[i], "counts cannot be negative, got %d", v)
		case v > MaxCount:
			return nil, option.New(opt, names[i], "%d is more than the %d a count may be", v, int64(MaxCount))
		}
		out[i] = int(v)
	}
	return out, nil
}

// SPRTResult is an SPRT on counts with the estimates of the Elo
// difference: arena sprt's --format json document. Infinite or undefined
// values are null.
type SPRTResult struct {
	Model    string   `json:"model"`
	Elo0     float64  `json:"elo0"`
	Elo1     float64  `json:"elo1"`
	Alpha    float64  `json:"alpha"`
	Beta     float64  `json:"beta"`
	Penta    *Penta   `json:"penta,omitempty"` // [LL, LD, DD+WL, WD, WW]
	WDL      *WDL     `json:"wdl,omitempty"`
	Pairs    int      `json:"pairs,omitempty"`
	Games    int      `json:"games"`
	LLR      float64  `json:"llr"`
	Lower    float64  `json:"lower"`
	Upper    float64  `json:"upper"`
	Decision string   `json:"decision"` // "H0 accepted", "H1 accepted" or "continue"
	Score    *float64 `json:"score"`
	Elo      *float64 `json:"elo"`
	EloLow   *float64 `json:"elo_low"`
	EloHigh  *float64 `json:"elo_high"`
	NElo     *float64 `json:"nelo"`
	NEloLow  *float64 `json:"nelo_low"`
	NEloHigh *float64 `json:"nelo_high"`
	LOS      *float64 `json:"los"`
	// Estimate holds the estimates as they are, infinite ones included
	// (for text, which writes them as ±inf).
	Estimate Estimate `json:"-"`
}

// OnPenta is the test s on game-pair counts p, with the 95 % estimates.
func (s SPRT) OnPenta(p Penta) SPRTResult {
	r := s.result(s.LLR(p), p.Estimate(0.95))
	r.Penta, r.Pairs, r.Games = &p, p.Pairs(), 2*p.Pairs()
	return r
}

// OnWDL is the test s on single-game counts w (the trinomial test), with
// the 95 % estimates.
func (s SPRT) OnWDL(w WDL) SPRTResult {
	r := s.result(s.LLRWDL(w), EstimateWDL(w, 0.95))
	r.WDL, r.Games = &w, w.Games()
	return r
}

func (s SPRT) result(llr float64, e Estimate) SPRTResult {
	r := SPRTResult{Model: s.Model, Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, LLR: llr, Decision: s.Decide(llr).String(), Estimate: e}
	r.Lower, r.Upper = s.Bounds()
	r.Score, r.Elo, r.EloLow, r.EloHigh = finite(e.Score), finite(e.Elo), finite(e.EloLow), finite(e.EloHigh)
	r.NElo, r.NEloLow, r.NEloHigh, r.LOS = finite(e.NElo), finite(e.NEloLow), finite(e.NEloHigh), finite(e.LOS)
	return r
}

// finite is v, or nil when it is infinite or undefined.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
