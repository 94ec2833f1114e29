package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

func init() {
	register(command{"tournament", groupPlay, "round robin or gauntlet with ratings (the default command)", runTournament})
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
func parseTournament(args []string, stderr io.Writer) (rf *runFlags, gauntlet bool, ropts results.AnalysisOptions, err error) {
	fs := newFlagSet("tournament", "[--game GAME] [--agents SPEC…] [--games N] [--out FILE | --resume FILE] [--shard i/N] [--broker URL] [flags]", stderr)
	rf = addRunFlags(fs, 40, "`N` games per pairing, in colour-swapped pairs")
	fs.alias("agent", "agents")
	g := fs.Bool("gauntlet", false, "the first agent plays each of the others (default: everyone plays everyone)")
	fs.group("Core", "gauntlet")
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
	kind := results.RoundRobin
	if *g {
		kind = results.Gauntlet
	}
	n := len(rf.agents)
	if n == 0 && *rf.resume == "" {
		n = len(demoCandidates)
	}
	return rf, *g, ropts, rf.check(kind, n)
}

func runTournament(args []string, stdout, stderr io.Writer) error {
	rf, gauntlet, ropts, err := parseTournament(args, stderr)
	if err != nil {
		return err
	}
	if len(rf.agents) == 0 && *rf.resume == "" {
		rf.agents = demoAgents()
	}
	s, err := open(rf, func(o *arena.Options, only map[string]bool) {
		if only == nil || only["gauntlet"] {
			o.Kind = results.RoundRobin
			if gauntlet {
				o.Kind = results.Gauntlet
			}
		}
	}, func(t *arena.Tournament) error {
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
	fmt.Fprintf(stderr, "arena tournament: %s %s, %s, %d games per pairing: %s", t.Config.Game, t.Config.Kind, plural(len(t.Config.Agents), "agent", "agents"), t.Config.GamesPerPair, plural(t.Schedule.Len(), "game", "games"))
	if sh := t.Config.Shard; sh != nil {
		fmt.Fprintf(stderr, " in shard %s (of the run's %d)", sh, t.Config.TotalGames)
	}
	if done > 0 {
		fmt.Fprintf(stderr, " (%d already recorded, %d to play)", done, t.Schedule.Len()-done)
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
	st, elapsed, runErr := playRun(s, rf, stderr, live.update, func(n int) {
		o := ropts
		o.Bootstrap = min(o.Bootstrap, 200)
		if rep, err := s.Analyse(o); err == nil {
			fmt.Fprintf(stderr, "\nStandings after %d of %d games:\n", n, t.Schedule.Len())
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
			return fmt.Errorf("interrupted after %d of %d games", n, t.Schedule.Len())
		}
		return fmt.Errorf("interrupted after %d of %d games; continue with: arena tournament --resume %s", n, t.Schedule.Len(), s.Path())
	}
	return reportErr
}
