package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/tune"
)

func init() {
	registerTune(command{"sweep", groupTune, "Elo against the values of one parameter", runTuneSweep})
}

// sweepFlags are tune sweep's own flags, besides the run and rating flags.
type sweepFlags struct {
	agent   *string
	param   *string
	values  *string
	against listFlag
	plot    *string
	records listFlag // rate these files instead of playing
}

// parseTuneSweep parses and checks the flags of tune sweep. It runs
// nothing and reads no file; it checks that --plot can be written (and
// leaves no file behind).
func parseTuneSweep(args []string, stderr io.Writer) (*runFlags, *sweepFlags, *tune.Sweep, results.AnalysisOptions, error) {
	fs := newFlagSet("tune sweep", "--agent SPEC --param KEY --values V1,V2,… --against SPEC… [--shard i/N] [--broker URL] [flags]", stderr)
	sf := &sweepFlags{}
	sf.agent = fs.String("agent", "", "agent `SPEC` whose --param is swept, e.g. mcts:iters=2000 (required)")
	sf.param = fs.String("param", "", "the spec `KEY` to sweep, e.g. c, fpu, iters or eval.corner (required)")
	sf.values = fs.String("values", "", fmt.Sprintf("`V1,V2,…`: %d to %d distinct values, in the table's order (required)", tune.MinSweepValues, tune.MaxSweepValues))
	fs.Var(&sf.against, "against", fmt.Sprintf("opponents' agent `SPEC`s, one per argument or repeated, 1 to %d (required)", tune.MaxSweepOpponents))
	fs.Var(&sf.records, "records", "play nothing: print the curve of these record `FILE`s of the sweep")
	fs.group("Core", "agent param values against records")
	// The sweep's agents are --agent and --against: --agents is no flag.
	var rf *runFlags
	withoutFlags(fs, []string{"agents"}, func(s *flagSet) { rf = addRunFlags(s, 40, "games per value and opponent") })
	rf.fs = fs
	rt := addRatingFlags(fs, rf.seed)
	fs.Lookup("anchor").Usage = "fix a player's rating: `NAME=R` (default: the first --against at 0)"
	fs.Lookup("format").Usage = "output `FORMAT`: text, json or markdown"
	sf.plot = fs.String("plot", "", "draw the Elo against the values, with 95 % intervals, in `FILE` (SVG)")
	rf.broker = addBrokerFlags(fs)
	rf.shard = fs.String("shard", "", fmt.Sprintf("play only shard `i/N`, 1 ≤ i ≤ N ≤ %d, into its own --out file", results.MaxShards))
	fs.group("Output", "plot")
	fs.group("Distributed", "shard")
	fail := func(err error) (*runFlags, *sweepFlags, *tune.Sweep, results.AnalysisOptions, error) {
		return nil, nil, nil, results.AnalysisOptions{}, err
	}
	if err := parseNoArgs(fs, args, "against", "records"); err != nil {
		return fail(err)
	}
	if _, err := results.ParseShard(*rf.shard); *rf.shard != "" && err != nil {
		return fail(err)
	}
	if len(sf.records) > 0 && (*rf.out != "" || *rf.resume != "" || *rf.shard != "" || *rf.broker.broker != "") {
		return fail(errors.New("--records rates files already played: leave out --out, --resume, --shard and --broker"))
	}
	if err := checkFormat(*rf.format, "text", "json", "markdown"); err != nil {
		return fail(err)
	}
	if err := rf.broker.check(); err != nil {
		return fail(err)
	}
	if *sf.agent == "" {
		return fail(errors.New(`--agent is missing: give the agent spec to sweep, e.g. --agent "mcts:iters=2000"`))
	}
	if *sf.values == "" {
		return fail(errors.New("--values is missing: give the values separated by commas, e.g. --values 0.3,0.5,0.7"))
	}
	if len(sf.against) == 0 {
		return fail(errors.New(`--against is missing: name the opponents every value plays, e.g. --against "alphabeta:depth=2"`))
	}
	sw, err := tune.NewSweep(*sf.agent, *sf.param, strings.Split(*sf.values, ","), sf.against)
	if err != nil {
		return fail(err)
	}
	n := len(sw.Specs) + len(sw.Against)
	if g := *rf.games; g >= 2 && g%2 == 0 && g <= maxGames {
		if all := uint64(len(sw.Specs)) * uint64(len(sw.Against)) * uint64(g); all > maxGames {
			return fail(fmt.Errorf("--games %d with %d values and %d opponents: the sweep plays %d games, and a run plays at most %d; use a smaller --games, or fewer values or opponents",
				g, len(sw.Specs), len(sw.Against), all, maxGames))
		}
	}
	// As a gauntlet of n agents for the checks of --games and --shard
	// (fewer pairings than the sweep's: checked above).
	if err := rf.check(results.Gauntlet, n); err != nil {
		return fail(err)
	}
	if err := checkOutputPath("--plot", *sf.plot, *rf.out, *rf.resume); err != nil {
		return fail(err)
	}
	ropts, err := rt.options()
	if err != nil {
		return fail(err)
	}
	return rf, sf, sw, ropts, nil
}

func runTuneSweep(args []string, stdout, stderr io.Writer) error {
	rf, sf, sw, ropts, err := parseTuneSweep(args, stderr)
	if err != nil {
		return err
	}
	if len(sf.records) > 0 {
		return rateSweepRecords(rf, sf, sw, ropts, stdout, stderr)
	}
	s, err := open(rf, func(o *arena.Options, _ map[string]bool) {
		*o = sw.Options(*o) // the agents always come from the sweep's flags
	}, func(t *arena.Tournament) error {
		if err := sw.Check(t); err != nil {
			if *rf.resume != "" {
				return fmt.Errorf("--resume %s: %w", *rf.resume, err)
			}
			return err
		}
		return checkAnchor(ropts.Anchor, t.Names())
	})
	if err != nil {
		return err
	}
	defer s.Close()
	t := s.Tournament()
	ropts.Seed = t.Config.Seed // a resumed sweep's, as in arena tournament
	names := t.Names()
	ropts = sw.ReportOptions(ropts, names)
	done := s.Done().Len()
	opponents := "1 opponent"
	if len(sw.Against) > 1 {
		opponents = fmt.Sprintf("%d opponents", len(sw.Against))
	}
	fmt.Fprintf(stderr, "arena tune sweep: %s sweep of %s over %d values against %s, %d games per pairing: %d games",
		t.Config.Game, sw.Param, len(sw.Values), opponents, t.Config.GamesPerPair, t.Schedule.Len())
	if sh := t.Config.Shard; sh != nil {
		fmt.Fprintf(stderr, " in shard %s (of the sweep's %d)", sh, t.Config.TotalGames)
	}
	if done > 0 {
		fmt.Fprintf(stderr, " (%d already recorded, %d to play)", done, t.Schedule.Len()-done)
	}
	fmt.Fprintf(stderr, ", %s, openings %s\n", plural(*rf.concurrency, "worker", "workers"), t.Config.Openings)
	overload := overloadNote(t.Config.Agents, *rf.concurrency, runtime.NumCPU())
	if overload != "" {
		fmt.Fprintln(stderr, "arena tune sweep: warning:", overload)
	}
	if s.Path() == "" {
		fmt.Fprintln(stderr, "arena tune sweep: records are not saved (use --out FILE to keep them and be able to resume)")
	}
	st, elapsed, err := playRun(s, rf, stderr, nil, func(n int) {
		o := ropts
		o.Bootstrap = min(o.Bootstrap, 200)
		if r, err := sw.RateSession(s, names, o); err == nil {
			fmt.Fprintf(stderr, "\nAfter %d of %d games:\n", n, t.Schedule.Len())
			r.WriteTable(stderr, false)
		}
	})
	if err != nil {
		return err
	}
	summarise(stderr, s, st, elapsed)
	n := s.Recorded()
	if n > 0 {
		r, err := sw.RateSession(s, names, ropts)
		if err != nil {
			return err
		}
		if overload != "" && st.Played > 0 {
			r.Notes = append(r.Notes, overload)
		}
		if err := writeSweep(r, *rf.format, *sf.plot, stdout, stderr); err != nil {
			return err
		}
	}
	if !st.Complete {
		if s.Path() == "" {
			return fmt.Errorf("interrupted after %d of %d games", n, t.Schedule.Len())
		}
		return fmt.Errorf("interrupted after %d of %d games; continue with: arena tune sweep --resume %s %s", n, t.Schedule.Len(), s.Path(), sweepArgs(sw))
	}
	return nil
}

// rateSweepRecords prints the curve of a sweep's record files (its shards,
// or one file) without playing: each file must record this sweep.
func rateSweepRecords(rf *runFlags, sf *sweepFlags, sw *tune.Sweep, ropts results.AnalysisOptions, stdout, stderr io.Writer) error {
	// The bootstrap's seed: --seed if given, else the sweep's, as the
	// sweep printed its intervals (readAndMerge reads rf.fs's flags).
	d, err := readAndMerge("tune sweep", sf.records, rf.fs, &ropts.Seed, stderr)
	if err != nil {
		return err
	}
	names, err := sw.CheckRecords(sf.records)
	if err != nil {
		return err
	}
	if err := checkAnchor(ropts.Anchor, names); err != nil {
		return err
	}
	r, err := sw.Rate(d, names, ropts)
	if err != nil {
		return err
	}
	return writeSweep(r, *rf.format, *sf.plot, stdout, stderr)
}

// writeSweep prints the sweep's curve in the format, and writes its
// figure to plot if given.
func writeSweep(r tune.SweepReport, format, plot string, stdout, stderr io.Writer) error {
	if err := r.Write(stdout, format); err != nil {
		return err
	}
	if plot == "" {
		return nil
	}
	if err := r.WriteSVGFile(plot); err != nil {
		return fmt.Errorf("--plot: %w", err)
	}
	fmt.Fprintf(stderr, "arena tune sweep: plot in %s\n", plot)
	return nil
}

// sweepArgs are the sweep's own flags as a shell would take them, for the
// resume hint (a resume needs them: the record file holds the agents, not
// which key was swept).
func sweepArgs(sw *tune.Sweep) string {
	parts := []string{"--agent", shellQuote(sw.Agent), "--param", shellQuote(sw.Param), "--values", shellQuote(strings.Join(sw.Values, ","))}
	for _, a := range sw.Against {
		parts = append(parts, "--against", shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// withoutFlags calls add, which defines flags, so that those named in
// drop (with their aliases and their places in the help's groups) are left
// out of fs: add defines them on a scratch set, whose other flags, aliases
// and groups move to fs.
func withoutFlags(fs *flagSet, drop []string, add func(*flagSet)) {
	scratch := &flagSet{FlagSet: flag.NewFlagSet(fs.name, flag.ContinueOnError), name: fs.name}
	add(scratch)
	kept := func(name string) bool { return !slices.Contains(drop, scratch.canonical(name)) }
	scratch.VisitAll(func(f *flag.Flag) {
		if kept(f.Name) && scratch.aliases[f.Name] == "" {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	for alias, name := range scratch.aliases {
		if kept(name) {
			fs.alias(alias, name)
		}
	}
	for _, g := range scratch.groups {
		var names []string
		for _, n := range g.names {
			if kept(n) {
				names = append(names, n)
			}
		}
		fs.group(g.title, strings.Join(names, " "))
	}
}
