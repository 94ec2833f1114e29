package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

func init() {
	register(command{"race", groupPlay, "K candidates against a base until the best is proven (or none)", runRace})
}

// raceReport is the --format json output of race.
type raceReport struct {
	Game       string          `json:"game"`
	Base       string          `json:"base"`
	SPRT       results.SPRT    `json:"sprt"`       // the race's family-wise α and β
	LLRLower   float64         `json:"llr_lower"`  // each candidate's bounds (α/K, β/2)
	LLRUpper   float64         `json:"llr_upper"`  //
	Decision   string          `json:"decision"`   // "winner", "none better" or "continue"
	Winner     *string         `json:"winner"`     // null unless a winner
	Stage      int             `json:"stage"`      // pairs every live candidate has had counted
	Pairs      int             `json:"pairs"`      // counted, over all candidates
	Candidates []raceCandidate `json:"candidates"` // in the order given
	Uncounted  int             `json:"uncounted_games"`
}

// raceCandidate is one candidate's line of a raceReport.
type raceCandidate struct {
	Name    string        `json:"name"`
	State   string        `json:"state"`             // live, qualified, out or eliminated
	LeftAt  int           `json:"left_at,omitempty"` // the stage it qualified, went out or was eliminated
	Pairs   int           `json:"pairs"`
	Penta   results.Penta `json:"penta"` // [LL, LD, DD+WL, WD, WW] from the candidate's view
	LLR     float64       `json:"llr"`
	Elo     *float64      `json:"elo"` // over the base
	EloLow  *float64      `json:"elo_low"`
	EloHigh *float64      `json:"elo_high"`
	LOS     *float64      `json:"los"`
}

// parseRace parses and checks the race flags. It runs nothing and opens
// no file (FuzzFlags calls it).
func parseRace(args []string, stderr io.Writer) (rf *runFlags, test *results.SPRT, err error) {
	fs := newFlagSet("race", "--base SPEC --candidates SPEC SPEC… --sprt TEST [--games N] [--out FILE | --resume FILE] [--broker URL] [flags]", stderr)
	rf = addRunFlags(fs, 20000, "at most `N` games per candidate")
	fs.alias("agent", "agents")
	fs.Lookup("agents").Usage = "the base, then the candidates, `SPEC…` (or --base and --candidates)"
	base := fs.String("base", "", "the base agent `SPEC` every candidate plays")
	var candidates listFlag
	fs.Var(&candidates, "candidates", "the candidates, `SPEC…`, two or more")
	fs.group("Core", "base candidates")
	fs.Lookup("no-progress").Usage = "no progress bar (a race has none; see --rating-interval)"
	fs.Lookup("format").Usage = "output `FORMAT`: text or json"
	fs.Lookup("rating-interval").Usage = fmt.Sprintf("a status line on stderr every `N` games, -1 to %d (0: automatic, -1: never)", maxGames)
	sprtText := fs.String("sprt", "", "each candidate's test `TEST`: elo0=E0,elo1=E1[,alpha=A][,beta=B]")
	model := fs.String("model", results.Logistic, "SPRT `MODEL`: logistic or normalized (Elo)")
	fs.group("Ratings", "sprt model")
	rf.report = fs.String("report", "", "keep the HTML report (as arena report writes) in `FILE` up to date")
	fs.group("Output", "report")
	rf.broker = addBrokerFlags(fs)
	if err = parseNoArgs(fs, args, "agents", "candidates"); err != nil {
		return
	}
	if *base != "" || len(candidates) > 0 {
		switch {
		case len(rf.agents) > 0:
			return rf, nil, errors.New("give the agents as --base and --candidates, or as --agents (base first), not both")
		case *base == "":
			return rf, nil, errors.New("--candidates needs --base, the agent they all play")
		}
		// Through the flag, so that a resume sees the agents given.
		for _, spec := range append([]string{*base}, candidates...) {
			if err = fs.Set("agents", spec); err != nil {
				return
			}
		}
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
	switch {
	case *sprtText != "":
		s, perr := results.ParseSPRT(*sprtText, *model)
		if perr != nil {
			return rf, nil, perr // "sprt: …", naming the flag's own word
		}
		test = &s
	case *rf.resume == "":
		return rf, nil, errors.New("a race needs --sprt elo0=E0,elo1=E1: each candidate's test against the base")
	case *model != results.Logistic && *model != results.Normalized:
		return rf, nil, fmt.Errorf("unknown --model %q (valid: logistic, normalized)", *model)
	}
	return rf, test, rf.check(results.Gauntlet, len(rf.agents))
}

func runRace(args []string, stdout, stderr io.Writer) error {
	rf, test, err := parseRace(args, stderr)
	if err != nil {
		return err
	}
	s, err := open(rf, func(o *arena.Options, only map[string]bool) {
		o.Kind = results.Gauntlet
		if only == nil || only["sprt"] || only["model"] {
			o.SPRT = test
		}
	}, func(t *arena.Tournament) error {
		if !t.IsRace() {
			return fmt.Errorf("%s records a %s, not a race: continue it with arena %s --resume %s", *rf.resume, t.Config.Kind, runCommand(t.Config.Kind), *rf.resume)
		}
		return nil
	})
	if err != nil {
		return err
	}
	defer s.Close()
	t := s.Tournament()
	names := t.Names()
	k := len(names) - 1
	fmt.Fprintf(stderr, "arena race: %s, %s against the base %s, at most %d games each, %s, SPRT %s (each candidate at alpha/%d, beta/2)\n",
		t.Config.Game, plural(k, "candidate", "candidates"), names[0], t.Config.GamesPerPair, plural(*rf.concurrency, "worker", "workers"), t.Config.SPRT, k)
	if s.Path() == "" {
		fmt.Fprintln(stderr, "arena race: records are not saved (use --out FILE to keep them and be able to resume)")
	}
	every := *rf.interval // games between status lines; -1: never
	if every == 0 {
		every = 2 * k * max(*rf.concurrency, 10)
	}
	next := every
	run, err := startSequential(s, rf, "race", max(every, 0), stderr)
	if err != nil {
		return err
	}
	defer run.close()
	start := time.Now()
	race, st, runErr := s.RunRace(run.ctx, run.opts, func(r *results.Race) {
		if every > 0 && (2*r.Pairs() >= next || r.Decided()) {
			for next <= 2*r.Pairs() {
				next += every
			}
			fmt.Fprintln(run.log, r.Status(names[1:])+run.note.String())
		}
	})
	interrupted := run.stopped() // else the games ran out (skipped ones leave st.Complete false)
	reportErr := run.live.final(race.Decided() || !interrupted)
	if runErr != nil {
		return runErr
	}
	summarise(stderr, s, st, time.Since(start))
	rep := buildRaceReport(t, race, s.Recorded())
	if *rf.format == "json" {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		writeRaceText(stdout, race, rep)
	}
	if !race.Decided() && interrupted {
		if s.Path() == "" {
			return errors.New("interrupted before the race was decided")
		}
		return fmt.Errorf("interrupted before the race was decided; continue with: arena race --resume %s", s.Path())
	}
	return reportErr
}

func buildRaceReport(t *arena.Tournament, race *results.Race, recorded int) raceReport {
	names := t.Names()
	r := raceReport{Game: t.Config.Game, Base: names[0], SPRT: race.Test, Decision: "continue", Stage: race.Stage, Pairs: race.Pairs(), Uncounted: recorded - 2*race.Pairs()}
	r.LLRLower, r.LLRUpper = race.Bounds()
	switch {
	case race.Winner() >= 0:
		r.Decision, r.Winner = "winner", &names[race.Winner()+1]
	case race.Decided():
		r.Decision = "none better"
	}
	for i, c := range race.Candidates {
		e := c.Penta.Estimate(0.95)
		r.Candidates = append(r.Candidates, raceCandidate{
			Name: names[i+1], State: c.State.String(), LeftAt: c.LeftAt, Pairs: c.Penta.Pairs(), Penta: c.Penta, LLR: c.LLR,
			Elo: finite(e.Elo), EloLow: finite(e.EloLow), EloHigh: finite(e.EloHigh), LOS: finite(e.LOS),
		})
	}
	return r
}

func writeRaceText(w io.Writer, race *results.Race, r raceReport) {
	fmt.Fprintf(w, "%s: a race of %s against %s\n", r.Game, plural(len(r.Candidates), "candidate", "candidates"), r.Base)
	switch r.Decision {
	case "winner":
		fmt.Fprintf(w, "Winner: %s, after %s (%s)\n", *r.Winner, plural(r.Pairs, "pair", "pairs"), plural(2*r.Pairs, "game", "games"))
	case "none better":
		fmt.Fprintf(w, "No candidate proven better than the base, after %s (%s)\n", plural(r.Pairs, "pair", "pairs"), plural(2*r.Pairs, "game", "games"))
	default:
		fmt.Fprintf(w, "Undecided after %s (%s)\n", plural(r.Pairs, "pair", "pairs"), plural(2*r.Pairs, "game", "games"))
	}
	fmt.Fprintf(w, "SPRT %s; each candidate's LLR bounds %.2f, %.2f (alpha/%d, beta/2)\n", r.SPRT, r.LLRLower, r.LLRUpper, len(r.Candidates))
	width := len("candidate")
	for _, c := range r.Candidates {
		width = max(width, len(c.Name))
	}
	states := make([]string, len(r.Candidates))
	stateWidth := len("state")
	for i, c := range r.Candidates {
		states[i] = c.State
		if c.LeftAt > 0 {
			states[i] += fmt.Sprintf(" at %d", c.LeftAt)
		}
		stateWidth = max(stateWidth, len(states[i]))
	}
	fmt.Fprintf(w, "%-*s  %-*s  %5s  %7s  %-24s  %s\n", width, "candidate", stateWidth, "state", "pairs", "LLR", "pentanomial", "Elo (95 %)")
	for i, c := range r.Candidates {
		state := states[i]
		e := race.Candidates[i].Penta.Estimate(0.95)
		elo := "n/a"
		if c.Pairs > 0 {
			elo = fmt.Sprintf("%s (%s to %s)", results.FormatElo(e.Elo), results.FormatElo(e.EloLow), results.FormatElo(e.EloHigh))
		}
		fmt.Fprintf(w, "%-*s  %-*s  %5d  %7.2f  %-24s  %s\n", width, c.Name, stateWidth, state, c.Pairs, c.LLR, c.Penta, elo)
	}
	if r.Uncounted > 0 {
		fmt.Fprintf(w, "(%s recorded but not counted: finished after its candidate left or the race was decided, or waiting for its pair)\n", plural(r.Uncounted, "more game", "more games"))
	}
}
