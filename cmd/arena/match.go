package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

func init() {
	register(command{"match", groupPlay, "two agents in colour-swapped pairs until an SPRT decides", runMatch})
}

// matchReport is the --format json output of match.
type matchReport struct {
	Game      string        `json:"game"`
	Agents    [2]string     `json:"agents"` // the first is the one whose results are counted
	SPRT      *results.SPRT `json:"sprt"`
	Decision  string        `json:"decision"` // "H0 accepted", "H1 accepted", "continue" or "no test"
	Pairs     int           `json:"pairs"`
	Games     int           `json:"games"`
	Penta     results.Penta `json:"penta"` // [LL, LD, DD+WL, WD, WW]
	LLR       *float64      `json:"llr,omitempty"`
	LLRLower  *float64      `json:"llr_lower,omitempty"`
	LLRUpper  *float64      `json:"llr_upper,omitempty"`
	Wins      int           `json:"wins"`
	Draws     int           `json:"draws"`
	Losses    int           `json:"losses"`
	Score     *float64      `json:"score"`
	Elo       *float64      `json:"elo"`
	EloLow    *float64      `json:"elo_low"`
	EloHigh   *float64      `json:"elo_high"`
	NElo      *float64      `json:"nelo"`
	LOS       *float64      `json:"los"`
	Uncounted int           `json:"uncounted_games"` // finished after the decision
}

// finite maps NaN and ±Inf to null in JSON.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// parseMatch parses and checks the match flags. It runs nothing and opens
// no file (FuzzFlags calls it).
func parseMatch(args []string, stderr io.Writer) (rf *runFlags, test *results.SPRT, err error) {
	fs := newFlagSet("match", "--agents SPEC SPEC [--sprt TEST] [--games N] [--out FILE | --resume FILE] [--broker URL] [flags]", stderr)
	rf = addRunFlags(fs, 10000, "at most `N` games; without --sprt, exactly N")
	fs.alias("agent", "agents")
	fs.Lookup("agents").Usage = "the two agents, `SPEC…`; the results are from the first one's view"
	fs.Lookup("no-progress").Usage = "no progress bar (a match has none; see --rating-interval)"
	fs.Lookup("format").Usage = "output `FORMAT`: text or json"
	fs.Lookup("rating-interval").Usage = fmt.Sprintf("a status line on stderr every `N` games, -1 to %d (0: automatic, -1: never)", maxGames)
	sprtText := fs.String("sprt", "", "stop when the sequential test `TEST` decides: elo0=E0,elo1=E1[,alpha=A][,beta=B]")
	model := fs.String("model", results.Logistic, "SPRT `MODEL`: logistic or normalized (Elo)")
	fs.group("Ratings", "sprt model")
	rf.report = fs.String("report", "", "keep the HTML report (as arena report writes) in `FILE` up to date")
	fs.group("Output", "report")
	rf.broker = addBrokerFlags(fs)
	shard := fs.String("shard", "", "not for a match (refused): give `i/N` to a tournament of the two agents")
	fs.group("Distributed", "shard")
	if err = parseNoArgs(fs, args, "agents"); err != nil {
		return
	}
	if *shard != "" {
		return rf, nil, fmt.Errorf("--shard %s: a match cannot be sharded: an SPRT decides on the game pairs in order, so its games cannot be dealt to independent jobs in advance; for a fixed number of games, shard a tournament of the two agents (it plays the same games): arena tournament --agents A B --games G --shard i/N --out shard-i.jsonl", *shard)
	}
	if err = checkFormat(*rf.format, "text", "json"); err != nil {
		return
	}
	if err = rf.broker.check(); err != nil {
		return
	}
	if err = checkOutputPath("--report", *rf.report, *rf.out, *rf.resume); err != nil {
		return
	}
	if *sprtText != "" {
		s, perr := results.ParseSPRT(*sprtText, *model)
		if perr != nil {
			return rf, nil, perr // "sprt: …", naming the flag's own word
		}
		test = &s
	} else if *model != results.Logistic && *model != results.Normalized {
		return rf, nil, fmt.Errorf("unknown --model %q (valid: logistic, normalized)", *model)
	}
	return rf, test, rf.check(results.Match, len(rf.agents))
}

func runMatch(args []string, stdout, stderr io.Writer) error {
	rf, test, err := parseMatch(args, stderr)
	if err != nil {
		return err
	}
	s, err := open(rf, func(o *arena.Options, only map[string]bool) {
		o.Kind = results.Match
		if only == nil || only["sprt"] || only["model"] {
			o.SPRT = test
		}
	}, func(t *arena.Tournament) error {
		if t.Config.Kind != results.Match {
			return fmt.Errorf("%s records a %s: continue it with arena tournament --resume %s", *rf.resume, t.Config.Kind, *rf.resume)
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer s.Close()
	t := s.Tournament()
	names := t.Names()
	fmt.Fprintf(stderr, "arena match: %s, %s vs %s (results from %s's view), at most %d games, %s", t.Config.Game, names[0], names[1], names[0], t.Schedule.Len(), plural(*rf.concurrency, "worker", "workers"))
	if t.Config.SPRT != nil {
		fmt.Fprintf(stderr, ", SPRT %s", t.Config.SPRT)
	}
	if tc := t.Config.TimeControl; tc != "" {
		fmt.Fprintf(stderr, ", clock %s", tc)
	}
	fmt.Fprintln(stderr)
	if s.Path() == "" {
		fmt.Fprintln(stderr, "arena match: records are not saved (use --out FILE to keep them and be able to resume)")
	}
	batchPairs := (*rf.interval + 1) / 2 // -1: never; 1: every pair
	if *rf.interval == 0 {
		batchPairs = max(*rf.concurrency, 10)
	}
	nextLine := batchPairs
	run, err := startSequential(s, rf, "match", *rf.interval, stderr)
	if err != nil {
		return err
	}
	defer run.close()
	start := time.Now()
	tr, st, runErr := s.RunMatch(run.ctx, run.opts, func(tr *results.PairTracker) {
		if batchPairs > 0 && (tr.Penta.Pairs() >= nextLine || tr.Decision != results.Continue) {
			for nextLine <= tr.Penta.Pairs() {
				nextLine += batchPairs
			}
			fmt.Fprintln(run.log, statusLine(tr)+run.note.String())
		}
	})
	reportErr := run.live.final(st.Complete || tr.Decision != results.Continue)
	if runErr != nil {
		return runErr
	}
	summarise(stderr, s, st, time.Since(start))
	rep := buildMatchReport(t, tr, s.Recorded())
	if *rf.format == "json" {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		writeMatchText(stdout, t, tr, rep)
	}
	if tr.Decision == results.Continue && !st.Complete {
		if s.Path() == "" {
			return errors.New("interrupted before the match was decided")
		}
		return fmt.Errorf("interrupted before the match was decided; continue with: arena match --resume %s", s.Path())
	}
	return reportErr
}

// statusLine is the progress line printed after each batch of pairs.
func statusLine(tr *results.PairTracker) string {
	e := tr.Penta.Estimate(0.95)
	line := fmt.Sprintf("pairs %5d %s", tr.Penta.Pairs(), tr.Penta)
	if tr.Test != nil {
		lo, hi := tr.Test.Bounds()
		line += fmt.Sprintf("  LLR %6.2f [%.2f, %.2f]", tr.LLR, lo, hi)
	}
	line += fmt.Sprintf("  Elo %s (%s to %s)  LOS %.1f %%", results.FormatElo(e.Elo), results.FormatElo(e.EloLow), results.FormatElo(e.EloHigh), 100*e.LOS)
	if tr.Decision != results.Continue {
		line += "  " + tr.Decision.String()
	}
	return line
}

func buildMatchReport(t *arena.Tournament, tr *results.PairTracker, recorded int) matchReport {
	names := t.Names()
	e := tr.Penta.Estimate(0.95)
	r := matchReport{
		Game: t.Config.Game, Agents: [2]string{names[0], names[1]}, SPRT: tr.Test,
		Decision: tr.Decision.String(), Pairs: tr.Penta.Pairs(), Games: 2 * tr.Penta.Pairs(), Penta: tr.Penta,
		Wins: tr.WDL.Wins, Draws: tr.WDL.Draws, Losses: tr.WDL.Losses,
		Score: finite(e.Score), Elo: finite(e.Elo), EloLow: finite(e.EloLow), EloHigh: finite(e.EloHigh),
		NElo: finite(e.NElo), LOS: finite(e.LOS),
		Uncounted: recorded - 2*tr.Penta.Pairs(),
	}
	if tr.Test != nil {
		lo, hi := tr.Test.Bounds()
		r.LLR, r.LLRLower, r.LLRUpper = finite(tr.LLR), &lo, &hi
	} else {
		r.Decision = "no test"
	}
	return r
}

func writeMatchText(w io.Writer, t *arena.Tournament, tr *results.PairTracker, r matchReport) {
	e := tr.Penta.Estimate(0.95)
	fmt.Fprintf(w, "%s: %s vs %s (from %s's view)\n", r.Game, r.Agents[0], r.Agents[1], r.Agents[0])
	switch {
	case tr.Test == nil:
		fmt.Fprintf(w, "Fixed-length match: %s (%s)\n", plural(r.Pairs, "pair", "pairs"), plural(r.Games, "game", "games"))
	case tr.Decision == results.Continue:
		fmt.Fprintf(w, "SPRT %s: undecided after %s (%s)\n", tr.Test, plural(r.Pairs, "pair", "pairs"), plural(r.Games, "game", "games"))
	default:
		fmt.Fprintf(w, "SPRT %s: %s after %s (%s)\n", tr.Test, tr.Decision, plural(r.Pairs, "pair", "pairs"), plural(r.Games, "game", "games"))
	}
	fmt.Fprintf(w, "Pentanomial [LL, LD, DD+WL, WD, WW]: %s\n", tr.Penta)
	fmt.Fprintf(w, "Games: %d-%d-%d (W-D-L), score %.1f %%\n", r.Wins, r.Draws, r.Losses, 100*tr.WDL.Score())
	if tr.Test != nil {
		fmt.Fprintf(w, "LLR %.2f (bounds %.2f, %.2f)\n", tr.LLR, *r.LLRLower, *r.LLRUpper)
	}
	if r.Pairs > 0 {
		fmt.Fprintf(w, "Elo %s (95 %%: %s to %s), nElo %s, LOS %.1f %%\n", results.FormatElo(e.Elo), results.FormatElo(e.EloLow), results.FormatElo(e.EloHigh), results.FormatElo(e.NElo), 100*e.LOS)
	}
	decided := tr.Test != nil && tr.Decision != results.Continue
	switch {
	case r.Uncounted == 1 && decided:
		fmt.Fprintln(w, "(1 more game finished after the decision; it is recorded but not counted)")
	case r.Uncounted > 1 && decided:
		fmt.Fprintf(w, "(%d more games finished after the decision; they are recorded but not counted)\n", r.Uncounted)
	case r.Uncounted > 0:
		// Stopped early: pairs are counted whole and in round order.
		fmt.Fprintf(w, "(%s recorded but not counted yet: a game pair is counted once it and every pair before it are complete)\n", plural(r.Uncounted, "more game", "more games"))
	}
}
