package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestSPRTCommandJSON: the flags reach the test on counts (results'
// OnPenta and OnWDL, whose values and open intervals are its unit tests)
// and --format json writes its document.
func TestSPRTCommandJSON(t *testing.T) {
	tests := []struct {
		args     []string
		llr      float64 // fishtest's value (see results.TestLLRReferenceValues)
		decision string
		games    float64
	}{
		{[]string{"--penta", "0,0,5,20,175", "--elo0", "0", "--elo1", "5", "--model", "normalized"}, 3.8736336147, "H1 accepted", 400},
		{[]string{"--wdl", "100,20,40", "--elo0", "0", "--elo1", "5"}, 0.9683119634, "continue", 160},
		{[]string{"--penta", "100,0,0,0,0", "--elo0", "0", "--elo1", "5", "--model", "normalized", "--alpha", "0.2", "--beta", "0.2"}, -2.0557935170, "H0 accepted", 200},
	}
	for _, tt := range tests {
		code, out, errOut := runArena(append([]string{"sprt", "--format", "json"}, tt.args...)...)
		if code != 0 {
			t.Fatalf("arena sprt %v: exit %d: %s", tt.args, code, errOut)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v in %q", err, out)
		}
		for _, k := range []string{"model", "elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "decision", "elo", "elo_low", "elo_high", "nelo", "los"} {
			if _, ok := rep[k]; !ok {
				t.Errorf("%v: key %q missing from %s", tt.args, k, out)
			}
		}
		if llr, _ := rep["llr"].(float64); math.Abs(llr-tt.llr) > 1e-6*max(1, math.Abs(tt.llr)) {
			t.Errorf("%v: llr %v, want %v", tt.args, rep["llr"], tt.llr)
		}
		if rep["decision"] != tt.decision || rep["games"] != tt.games {
			t.Errorf("%v: decision %v, games %v; want %s, %v", tt.args, rep["decision"], rep["games"], tt.decision, tt.games)
		}
	}
}

func TestSPRTCommandText(t *testing.T) {
	code, out, errOut := runArena("sprt", "--penta", "10,40,100,60,15", "--elo0", "0", "--elo1", "5", "--model", "normalized")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Pentanomial [LL, LD, DD+WL, WD, WW]: [10, 40, 100, 60, 15] (225 pairs, 450 games)", "LLR ", "bounds -2.94, 2.94", "Elo +", "nElo +", "LOS "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// One of a kind is said in the singular.
	for _, c := range []struct{ counts, want string }{
		{"--penta=0,0,0,0,1", "(1 pair, 2 games)"},
		{"--wdl=1,0,0", "(1 game)"},
	} {
		if _, out, _ := runArena("sprt", "--elo0", "0", "--elo1", "5", c.counts); !strings.Contains(out, c.want) {
			t.Errorf("sprt %s: output lacks %q:\n%s", c.counts, c.want, out)
		}
	}
}

func TestSPRTCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--penta", "1,2,3,4,5"}, "give both hypotheses"},
		{[]string{"--elo0", "0", "--elo1", "5"}, "exactly one of --penta"},
		{[]string{"--penta", "1,2,3,4,5", "--wdl", "1,2,3", "--elo0", "0", "--elo1", "5"}, "exactly one of --penta"},
		// The counts' errors (results.TestParseCounts), in flag names.
		{[]string{"--penta", "1,2,3,4", "--elo0", "0", "--elo1", "5"}, "--penta wants 5 counts LL,LD,DD,WD,WW, got 4"},
		{[]string{"--penta", "1,2,-3,4,5", "--elo0", "0", "--elo1", "5"}, "--penta DD: counts cannot be negative"},
		{[]string{"--wdl", "1,x,3", "--elo0", "0", "--elo1", "5"}, `--wdl D: "x" is not a whole number`},
		{[]string{"--wdl", "1,2,2000000000000", "--elo0", "0", "--elo1", "5"}, "--wdl L: 2000000000000 is more than the"},
		{[]string{"--wdl", "1,2,3", "--elo0", "NaN", "--elo1", "5"}, "--elo0 must be a finite number"},
		{[]string{"--wdl", "1,2,3", "--elo0", "0", "--elo1", "+Inf"}, "--elo1 must be a finite number"},
		{[]string{"--wdl", "1,2,3", "--elo0", "5", "--elo1", "5"}, "elo0 < elo1"},
		{[]string{"--wdl", "1,2,3", "--elo0", "5", "--elo1", "0"}, "elo0 < elo1"},
		{[]string{"--penta", "10,20,30,20,10", "--elo0", "0", "--elo1", "1e300"}, "must lie within ±2000"},
		{[]string{"--wdl", "1,2,3", "--elo0", "-2001", "--elo1", "0"}, "must lie within ±2000"},
		{[]string{"--wdl", "1,2,3", "--elo0", "0", "--elo1", "5", "--alpha", "0.5"}, "alpha and beta must lie in (0, 0.5)"},
		{[]string{"--wdl", "1,2,3", "--elo0", "0", "--elo1", "5", "--beta", "0"}, "alpha and beta must lie in (0, 0.5)"},
		{[]string{"--wdl", "1,2,3", "--elo0", "0", "--elo1", "5", "--model", "bayes"}, `unknown SPRT model "bayes"`},
		{[]string{"--wdl", "1,2,3", "--elo0", "0", "--elo1", "5", "--format", "csv"}, `unknown --format "csv"`},
	}
	for _, tt := range tests {
		code, _, errOut := runArena(append([]string{"sprt"}, tt.args...)...)
		if code != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("arena sprt %v: exit %d, stderr %q (want %q)", tt.args, code, errOut, tt.want)
		}
	}
}
