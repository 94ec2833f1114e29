package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/results"
)

func init() {
	register(command{"sprt", "SPRT log-likelihood ratio, Elo, nElo and LOS from pentanomial or W-D-L counts", runSPRT})
}

// maxCount bounds each count of arena sprt: far beyond any real test, and
// small enough that the sums stay exact in float64.
const maxCount = 1_000_000_000_000

// sprtReport is the --format json output of arena sprt (keys as DESIGN.md
// lists them, plus the inputs and the nElo interval). Infinite or
// undefined values are null.
type sprtReport struct {
	Model    string         `json:"model"`
	Elo0     float64        `json:"elo0"`
	Elo1     float64        `json:"elo1"`
	Alpha    float64        `json:"alpha"`
	Beta     float64        `json:"beta"`
	Penta    *results.Penta `json:"penta,omitempty"` // [LL, LD, DD+WL, WD, WW]
	WDL      *results.WDL   `json:"wdl,omitempty"`
	Pairs    int            `json:"pairs,omitempty"`
	Games    int            `json:"games"`
	LLR      float64        `json:"llr"`
	Lower    float64        `json:"lower"`
	Upper    float64        `json:"upper"`
	Decision string         `json:"decision"` // "H0 accepted", "H1 accepted" or "continue"
	Score    *float64       `json:"score"`
	Elo      *float64       `json:"elo"`
	EloLow   *float64       `json:"elo_low"`
	EloHigh  *float64       `json:"elo_high"`
	NElo     *float64       `json:"nelo"`
	NEloLow  *float64       `json:"nelo_low"`
	NEloHigh *float64       `json:"nelo_high"`
	LOS      *float64       `json:"los"`
}

func runSPRT(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sprt", "(--penta LL,LD,DD,WD,WW | --wdl W,D,L) --elo0 E0 --elo1 E1 [--model logistic|normalized] [--alpha 0.05] [--beta 0.05] [--format text|json]", stderr)
	penta := fs.String("penta", "", "game-pair counts LL,LD,DD,WD,WW by the first player's points in the pair (0, ½, 1, 1½, 2; DD counts WL too)")
	wdl := fs.String("wdl", "", "single-game counts W,D,L of the first player (the trinomial test, for games that are not in colour-swapped pairs)")
	elo0 := fs.Float64("elo0", 0, "H0: the Elo difference (in the --model's units) under the null hypothesis (required)")
	elo1 := fs.Float64("elo1", 0, "H1: the Elo difference under the alternative, above elo0 (required)")
	model := fs.String("model", results.Logistic, "hypotheses in logistic Elo (logistic) or normalized Elo (normalized), as fishtest and fastchess")
	alpha := fs.Float64("alpha", 0.05, "probability of accepting H1 when H0 holds, in (0, 0.5)")
	beta := fs.Float64("beta", 0.05, "probability of accepting H0 when H1 holds, in (0, 0.5)")
	format := fs.String("format", "text", "output format: text or json")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format, "text", "json"); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["elo0"] || !set["elo1"] {
		return errors.New("give both hypotheses, e.g. --elo0 0 --elo1 5")
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"elo0", *elo0}, {"elo1", *elo1}, {"alpha", *alpha}, {"beta", *beta}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("--%s must be a finite number, got %v", f.name, f.v)
		}
	}
	test := results.SPRT{Elo0: *elo0, Elo1: *elo1, Alpha: *alpha, Beta: *beta, Model: *model}
	if err := test.Check(); err != nil {
		return err
	}
	rep := sprtReport{Model: test.Model, Elo0: test.Elo0, Elo1: test.Elo1, Alpha: test.Alpha, Beta: test.Beta}
	var e results.Estimate
	switch {
	case (*penta == "") == (*wdl == ""):
		return errors.New("give the counts with exactly one of --penta LL,LD,DD,WD,WW (game pairs) and --wdl W,D,L (single games)")
	case *penta != "":
		c, err := parseCounts("penta", *penta, []string{"LL", "LD", "DD", "WD", "WW"})
		if err != nil {
			return err
		}
		p := results.Penta{c[0], c[1], c[2], c[3], c[4]}
		rep.Penta, rep.Pairs, rep.Games = &p, p.Pairs(), 2*p.Pairs()
		rep.LLR = test.LLR(p)
		e = p.Estimate(0.95)
	default:
		c, err := parseCounts("wdl", *wdl, []string{"W", "D", "L"})
		if err != nil {
			return err
		}
		w := results.WDL{Wins: c[0], Draws: c[1], Losses: c[2]}
		rep.WDL, rep.Games = &w, w.Games()
		rep.LLR = test.LLRWDL(w)
		e = results.EstimateWDL(w, 0.95)
	}
	rep.Lower, rep.Upper = test.Bounds()
	rep.Decision = test.Decide(rep.LLR).String()
	rep.Score, rep.Elo, rep.EloLow, rep.EloHigh = finite(e.Score), finite(e.Elo), finite(e.EloLow), finite(e.EloHigh)
	rep.NElo, rep.NEloLow, rep.NEloHigh, rep.LOS = finite(e.NElo), finite(e.NEloLow), finite(e.NEloHigh), finite(e.LOS)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if rep.Penta != nil {
		fmt.Fprintf(stdout, "Pentanomial [LL, LD, DD+WL, WD, WW]: %s (%d pairs, %d games)\n", rep.Penta, rep.Pairs, rep.Games)
	} else {
		fmt.Fprintf(stdout, "Games W-D-L: %s (%d games)\n", rep.WDL, rep.Games)
	}
	fmt.Fprintf(stdout, "SPRT %s: LLR %.2f (bounds %.2f, %.2f): %s\n", test, rep.LLR, rep.Lower, rep.Upper, rep.Decision)
	if rep.Games == 0 {
		return nil
	}
	fmt.Fprintf(stdout, "Score %.2f %%\n", 100*e.Score)
	fmt.Fprintf(stdout, "Elo %s (95 %%: %s to %s)\n", results.FormatElo(e.Elo), results.FormatElo(e.EloLow), results.FormatElo(e.EloHigh))
	fmt.Fprintf(stdout, "nElo %s (95 %%: %s to %s)\n", results.FormatElo(e.NElo), results.FormatElo(e.NEloLow), results.FormatElo(e.NEloHigh))
	fmt.Fprintf(stdout, "LOS %.2f %%\n", 100*e.LOS)
	return nil
}

// parseCounts reads comma-separated counts named by names.
func parseCounts(flagName, text string, names []string) ([]int, error) {
	want := strings.Join(names, ",")
	parts := strings.Split(text, ",")
	if len(parts) != len(names) {
		return nil, fmt.Errorf("--%s wants %d counts %s, got %d in %q", flagName, len(names), want, len(parts), text)
	}
	out := make([]int, len(parts))
	for i, s := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		switch {
		case err != nil:
			return nil, fmt.Errorf("--%s %s: %q is not a whole number (want %s, e.g. %s)", flagName, names[i], s, want, strings.Repeat("10,", len(names)-1)+"10")
		case v < 0:
			return nil, fmt.Errorf("--%s %s: counts cannot be negative, got %d", flagName, names[i], v)
		case v > maxCount:
			return nil, fmt.Errorf("--%s %s: %d is more than the %d a count may be", flagName, names[i], v, int64(maxCount))
		}
		out[i] = int(v)
	}
	return out, nil
}
