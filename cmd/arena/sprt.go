package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/boardgame-arena/arena/results"
)

func init() {
	register(command{"sprt", groupRate, "SPRT verdict, Elo and LOS from pentanomial or W-D-L counts", runSPRT})
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
	var r results.SPRTResult
	switch {
	case (*penta == "") == (*wdl == ""):
		return errors.New("give the counts with exactly one of --penta LL,LD,DD,WD,WW (game pairs) and --wdl W,D,L (single games)")
	case *penta != "":
		p, err := results.ParsePenta(*penta)
		if err != nil {
			return err
		}
		r = test.OnPenta(p)
	default:
		w, err := results.ParseWDL(*wdl)
		if err != nil {
			return err
		}
		r = test.OnWDL(w)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	if r.Penta != nil {
		fmt.Fprintf(stdout, "Pentanomial [LL, LD, DD+WL, WD, WW]: %s (%d pairs, %d games)\n", r.Penta, r.Pairs, r.Games)
	} else {
		fmt.Fprintf(stdout, "Games W-D-L: %s (%d games)\n", r.WDL, r.Games)
	}
	fmt.Fprintf(stdout, "SPRT %s: LLR %.2f (bounds %.2f, %.2f): %s\n", test, r.LLR, r.Lower, r.Upper, r.Decision)
	if r.Games == 0 {
		return nil
	}
	e := r.Estimate
	fmt.Fprintf(stdout, "Score %.2f %%\n", 100*e.Score)
	fmt.Fprintf(stdout, "Elo %s (95 %%: %s to %s)\n", results.FormatElo(e.Elo), results.FormatElo(e.EloLow), results.FormatElo(e.EloHigh))
	fmt.Fprintf(stdout, "nElo %s (95 %%: %s to %s)\n", results.FormatElo(e.NElo), results.FormatElo(e.NEloLow), results.FormatElo(e.NEloHigh))
	fmt.Fprintf(stdout, "LOS %.2f %%\n", 100*e.LOS)
	return nil
}
