package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

func init() {
	register(command{"tournament", groupPlay, "round robin, gauntlet, Swiss or knockout with ratings (the default command)", runTournament})
}

// demoCandidates are the default agents, with budgets that keep the default
// tournament (arena with no arguments) well under a minute on 2 cores;
// those whose kind is not registered are left out.
var demoCandidates = []string{"random", "greedy", "alphabeta:depth=4", "mcts:iters=2000"}

func demoAgents() []string {
	var out []string
	for _, a := range demoCandidates {
		if agents.Validate(a) == nil {
			out = append(out, a)
		}
	}
	return out
}

// parseTournament parses and checks the tournament flags. It runs nothing
// and opens no file (FuzzFlags calls it).
func parseTournament(args []string, stderr io.Writer) (rf *runFlags, kf *kindFlags, ropts results.AnalysisOptions, err error) {
	fs := newFlagSet("tournament", "[--game GAME] [--agents SPEC…] [--games N] [--gauntlet | --swiss ROUNDS | --knockout] [--out FILE | --resume FILE] [--shard i/N] [--broker URL] [flags]", stderr)
	rf = addRunFlags(fs, 40, "`N` games per pairing, in colour-swapped pairs")
	fs.alias("agent", "agents")
	kf = &kindFlags{}
	kf.gauntlet = fs.Bool("gauntlet", false, "the first agent plays each of the others (default: everyone plays everyone)")
	fs.group("Core", "gauntlet")
	kf.swiss = fs.Int("swiss", 0, "a Swiss tournament of `ROUNDS` rounds; --games is the games per board")
	kf.knockout = fs.Bool("knockout", false, "a knockout; --games is the games per match before its tie-breaks")
	kf.bye = fs.String("bye", "win", "what a Swiss bye earns, `SCORE`: win, draw or loss")
	kf.extraPairs = fs.Int("extra-pairs", 0, "a knockout's tie-break game pairs at most, `N` (0: level is a lot)")
	fs.group("Formats", "swiss knockout bye extra-pairs")
	rt := addRatingFlags(fs, rf.seed)
	rf.report = fs.String("report", "", "keep the HTML report (as arena report writes) in `FILE` up to date")
	fs.group("Output", "report")
	rf.broker = addBrokerFlags(fs)
	rf.shard = fs.String("shard", "", fmt.Sprintf("play only shard `i/N` of the run (1 ≤ i ≤ N ≤ %d) into its own --out file", results.MaxShards))
	fs.group("Distributed", "shard")
	if err = parseNoArgs(fs, args, "agents"); err != nil {
		return
	}
	if err = checkFormat(*rf.format, results.Formats...); err != nil {
		return
	}
	if err = rf.broker.check(); err != nil {
		return
	}
	if _, err = results.ParseShard(*rf.shard); *rf.shard != "" && err != nil {
		return
	}
	if err = checkOutputPath("--report", *rf.report, *rf.out, *rf.resume); err != nil {
		return
	}
	if ropts, err = rt.options(); err != nil {
		return
	}
	kind, err := kf.kind()
	if err != nil {
		return
	}
	if arena.IsFormat(kind) && *rf.broker.broker != "" {
		err = fmt.Errorf("--broker: a %s runs on this machine's workers only (its coordinator does not plan rounds yet); leave out --broker", kind)
		return
	}
	n := len(rf.agents)
	if n == 0 && *rf.resume == "" {
		n = len(demoCandidates)
	}
	rf.kindOptions = func(o *arena.Options) { kf.apply(o, nil) }
	err = rf.check(kind, n)
	return
}

// kindFlags choose the kind of a tournament: a round robin, a gauntlet,
// a Swiss tournament or a knockout, and the formats' settings.
type kindFlags struct {
	gauntlet, knockout *bool
	swiss, extraPairs  *int
	bye                *string
}

// kindFlagNames are the flags kindFlags apply on a resume when given.
var kindFlagNames = []string{"gauntlet", "swiss", "knockout", "bye", "extra-pairs"}

func (k *kindFlags) kind() (string, error) {
	kinds := 0
	kind := results.RoundRobin
	if *k.gauntlet {
		kinds++
		kind = results.Gauntlet
	}
	if *k.swiss != 0 {
		kinds++
		kind = results.Swiss
	}
	if *k.knockout {
		kinds++
		kind = results.Knockout
	}
	if kinds > 1 {
		return "", errors.New("--gauntlet, --swiss and --knockout choose the kind of the tournament: give one of them")
	}
	if _, err := arena.ParseByeScore(*k.bye); err != nil {
		return "", err
	}
	return kind, nil
}

// apply sets o's kind and format settings from the flags: all, or (on a
// resume) those given, when any kind flag is.
func (k *kindFlags) apply(o *arena.Options, only map[string]bool) {
	if only != nil && !slices.ContainsFunc(kindFlagNames, func(n string) bool { return only[n] }) {
		return
	}
	o.Kind, _ = k.kind() // parseTournament checked it
	o.Rounds, o.ExtraPairs = *k.swiss, *k.extraPairs
	o.Bye, _ = arena.ParseByeScore(*k.bye)
}

func runTournament(args []string, stdout, stderr io.Writer) error {
	rf, kf, ropts, err := parseTournament(args, stderr)
	if err != nil {
		return err
	}
	if len(rf.agents) == 0 && *rf.resume == "" {
		rf.agents = demoAgents()
	}
	s, err := open(rf, kf.apply, func(t *arena.Tournament) error {
		if t.Format() != nil && *rf.broker.broker != "" {
			return fmt.Errorf("--broker: %s records a %s, which runs on this machine's workers only; leave out --broker", *rf.resume, t.Config.Kind)
		}
		if t.Config.Kind == results.Match {
			return fmt.Errorf("%s records a match: continue it with arena match --resume %s", *rf.resume, *rf.resume)
		}
		if t.IsRace() {
			return fmt.Errorf("%s records a race: continue it with arena race --resume %s", *rf.resume, *rf.resume)
		}
		// Before a record file is created or a game played.
		return checkAnchor(ropts.Anchor, t.Names())
	})
	if err != nil {
		return err
	}
	defer s.Close()
	t := s.Tournament()
	// The record's seed, not the flag's default: a resumed run rates with
	// the seed it started with, as arena rate does.
	ropts.Seed = t.Config.Seed
	done := s.Done().Len()
	planned := t.PlannedGames() // the schedule's games, or a format's most
	switch t.Config.Kind {
	case results.Swiss:
		fmt.Fprintf(stderr, "arena tournament: %s swiss of %d rounds, %s, %d games per board: %s", t.Config.Game, t.Config.Rounds, plural(len(t.Config.Agents), "agent", "agents"), t.Config.GamesPerPair, plural(planned, "game", "games"))
	case results.Knockout:
		fmt.Fprintf(stderr, "arena tournament: %s knockout, %s, %d games per match and up to %d tie-break pairs: at most %s", t.Config.Game, plural(len(t.Config.Agents), "agent", "agents"), t.Config.GamesPerPair, t.Config.ExtraPairs, plural(planned, "game", "games"))
	default:
		fmt.Fprintf(stderr, "arena tournament: %s %s, %s, %d games per pairing: %s", t.Config.Game, t.Config.Kind, plural(len(t.Config.Agents), "agent", "agents"), t.Config.GamesPerPair, plural(planned, "game", "games"))
	}
	if sh := t.Config.Shard; sh != nil {
		fmt.Fprintf(stderr, " in shard %s (of the run's %d)", sh, t.Config.TotalGames)
	}
	if done > 0 {
		fmt.Fprintf(stderr, " (%d already recorded, %d to play)", done, planned-done)
	}
	fmt.Fprintf(stderr, ", %s, openings %s", plural(*rf.concurrency, "worker", "workers"), t.Config.Openings)
	if tc := t.Config.TimeControl; tc != "" {
		fmt.Fprintf(stderr, ", clock %s", tc)
	}
	fmt.Fprintln(stderr)
	overload := overloadNote(t.Config.Agents, *rf.concurrency, runtime.NumCPU())
	if overload != "" {
		fmt.Fprintln(stderr, "arena tournament: warning:", overload)
	}
	if s.Path() == "" {
		fmt.Fprintln(stderr, "arena tournament: records are not saved (use --out FILE to keep them and be able to resume)")
	}
	live := newLivePage(*rf.report, s, rf.liveDone, ropts, *rf.interval, stderr)
	after := live.update
	var finished []arena.FormatResult // a format's results, for its standings
	if t.Format() != nil {
		finished = s.Done().FormatResults()
		after = func(batch []*results.GameRecord) {
			live.update(batch)
			for _, g := range batch {
				fr, _ := t.FormatResult(g)
				finished = append(finished, fr)
			}
		}
	}
	st, elapsed, runErr := playRun(s, rf, stderr, after, func(n int) {
		o := ropts
		o.Bootstrap = min(o.Bootstrap, 200)
		if rep, err := s.Analyse(o); err == nil {
			fmt.Fprintf(stderr, "\nStandings after %d of %d games:\n", n, planned)
			rep.WriteStandings(stderr, false)
		}
	})
	if _, ok := runErr.(setupError); ok {
		return runErr // nothing was played: no page
	}
	reportErr := live.final(st.Complete && runErr == nil)
	if runErr != nil {
		return runErr
	}
	summarise(stderr, s, st, elapsed)
	if t.Format() != nil && s.Recorded() > 0 {
		// The format's own standings: with the tables on stdout in text,
		// else on stderr (stdout holds one document).
		w := stderr
		if *rf.format == "text" {
			w = stdout
		}
		if err := t.WriteFormatStandings(w, finished); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if s.Recorded() > 0 {
		rep, err := s.Analyse(ropts)
		if err != nil {
			return err
		}
		if overload != "" && st.Played > 0 {
			rep.Notes = append(rep.Notes, overload)
		}
		if err := rep.Write(stdout, *rf.format); err != nil {
			return err
		}
	}
	if !st.Complete {
		n := s.Recorded()
		if s.Path() == "" {
			return fmt.Errorf("interrupted after %d of %d games", n, planned)
		}
		return fmt.Errorf("interrupted after %d of %d games; continue with: arena tournament --resume %s", n, planned, s.Path())
	}
	return reportErr
}
