package main

import (
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
	fs := newFlagSet("sprt", "(--penta LL,LD,DD,WD,WW | --wdl W,D,L) --elo0 E0 --elo1 E1 [flags]", stderr)
	penta := fs.String("penta", "", "game-pair counts `LL,LD,DD,WD,WW` of the first player (DD counts WL too)")
	wdl := fs.String("wdl", "", "single-game counts `W,D,L` of the first player (the trinomial test)")
	elo0 := fs.Float64("elo0", 0, "the Elo difference `E0` under H0, in --model's units (required)")
	elo1 := fs.Float64("elo1", 0, "the Elo difference `E1` under H1, above E0 (required)")
	model := fs.String("model", results.Logistic, "the Elo `MODEL` of the hypotheses: logistic or normalized")
	alpha := fs.Float64("alpha", 0.05, "the chance `A` of accepting H1 when H0 holds, in (0, 0.5)")
	beta := fs.Float64("beta", 0.05, "the chance `B` of accepting H0 when H1 holds, in (0, 0.5)")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	fs.group("Core", "penta wdl elo0 elo1")
	fs.group("Ratings", "model alpha beta")
	fs.group("Output", "format")
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
		return writeJSON(stdout, r)
	}
	if r.Penta != nil {
		fmt.Fprintf(stdout, "Pentanomial [LL, LD, DD+WL, WD, WW]: %s (%s, %s)\n", r.Penta, plural(r.Pairs, "pair", "pairs"), plural(r.Games, "game", "games"))
	} else {
		fmt.Fprintf(stdout, "Games W-D-L: %s (%s)\n", r.WDL, plural(r.Games, "game", "games"))
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
