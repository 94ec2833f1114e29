package results

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/option"
)

func TestParseCounts(t *testing.T) {
	if p, err := ParsePenta("0, 0, 5, 20, 175"); err != nil || p != (Penta{0, 0, 5, 20, 175}) {
		t.Errorf("ParsePenta = %v, %v", p, err)
	}
	if w, err := ParseWDL("100,20,40"); err != nil || w != (WDL{Wins: 100, Draws: 20, Losses: 40}) {
		t.Errorf("ParseWDL = %v, %v", w, err)
	}
	for _, tc := range []struct {
		penta bool
		text  string
		want  string // the error in Go names
	}{
		{true, "1,2,3,4", `Penta wants 5 counts LL,LD,DD,WD,WW, got 4 in "1,2,3,4"`},
		{true, "1,2,-3,4,5", "Penta DD: counts cannot be negative, got -3"},
		{false, "1,x,3", `WDL D: "x" is not a whole number (want W,D,L, e.g. 10,10,10)`},
		{false, "1,2,NaN", `WDL L: "NaN" is not a whole number`},
		{false, "1,2,2000000000000", "WDL L: 2000000000000 is more than the 1000000000000 a count may be"},
		{false, "", `WDL wants 3 counts W,D,L, got 1 in ""`},
	} {
		var err error
		name := "WDL"
		if tc.penta {
			_, err = ParsePenta(tc.text)
			name = "Penta"
		} else {
			_, err = ParseWDL(tc.text)
		}
		var oe *option.Error
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.As(err, &oe) || oe.Name != name {
			t.Errorf("%q: %v, want %q (an error of %s)", tc.text, err, tc.want, name)
		}
	}
}

// TestSPRTOnCounts: the LLR, decision and games of tests on counts (the
// LLRs are fishtest's, see TestLLRReferenceValues), and the estimates that
// are infinite written as null.
func TestSPRTOnCounts(t *testing.T) {
	logistic := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: Logistic}
	normalized := logistic
	normalized.Model = Normalized
	loose := normalized
	loose.Alpha, loose.Beta = 0.2, 0.2
	for _, tc := range []struct {
		r        SPRTResult
		llr      float64
		decision string
		games    int
	}{
		{normalized.OnPenta(Penta{0, 0, 0, 0, 5550}), 111.7975550867, "H1 accepted", 11100},
		{normalized.OnPenta(Penta{0, 0, 5, 20, 175}), 3.8736336147, "H1 accepted", 400},
		{logistic.OnPenta(Penta{0, 0, 5, 20, 175}), 2.8575195235, "continue", 400},
		{logistic.OnWDL(WDL{Wins: 100, Draws: 20, Losses: 40}), 0.9683119634, "continue", 160},
		{loose.OnPenta(Penta{100, 0, 0, 0, 0}), -2.0557935170, "H0 accepted", 200},
	} {
		if math.Abs(tc.r.LLR-tc.llr) > 1e-6*max(1, math.Abs(tc.llr)) || tc.r.Decision != tc.decision || tc.r.Games != tc.games {
			t.Errorf("%v %v: llr %v, %s, %d games; want %v, %s, %d", tc.r.Penta, tc.r.WDL, tc.r.LLR, tc.r.Decision, tc.r.Games, tc.llr, tc.decision, tc.games)
		}
		if l, u := (SPRT{Alpha: tc.r.Alpha, Beta: tc.r.Beta}).Bounds(); tc.r.Lower != l || tc.r.Upper != u {
			t.Errorf("bounds %v, %v; want %v, %v", tc.r.Lower, tc.r.Upper, l, u)
		}
	}
	// All pairs won: the interval is open above (null) with a finite
	// lower bound, not [+inf, +inf].
	r := logistic.OnPenta(Penta{0, 0, 0, 0, 50})
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"llr", "lower", "upper", "decision", "elo", "elo_low", "elo_high", "nelo", "los", "penta", "pairs", "games"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing from %s", k, js)
		}
	}
	if low, ok := m["elo_low"].(float64); !ok || low <= 0 || m["elo_high"] != nil || m["elo"] != nil || !math.IsInf(r.Estimate.Elo, 1) {
		t.Errorf("all won: elo %v, interval %v to %v; want null, a positive number and null", m["elo"], m["elo_low"], m["elo_high"])
	}
}
