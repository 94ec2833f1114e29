package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

func init() {
	register(command{"tournament", "round-robin or gauntlet tournament with ratings (the default command)", runTournament})
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

// runFlags are the flags that define which games a tournament or match plays.
type runFlags struct {
	fs              *flag.FlagSet
	game            *string
	agents          listFlag
	games           *int
	seed            *uint64
	openings        *string
	shuffleOpenings *bool
	moveTime        *time.Duration
	moveMargin      *time.Duration
	tc              *string
	maxPlies        *int
	adjudicate      *string
	concurrency     *int
	out             *string
	resume          *string
	format          *string
	interval        *int
	noProgress      *bool
	report          *string      // tournament only: the live HTML report
	broker          *brokerFlags // tournament and match: --broker (nil elsewhere)
	shard           *string      // tournament only: --shard i/N (nil elsewhere)
}

// configFlags name the flags that change the planned games: on --resume
// they must agree with the file (or be left out).
var configFlags = []string{"game", "agents", "games", "gauntlet", "seed", "openings", "shuffle-openings", "move-time", "move-margin", "tc", "max-plies", "adjudicate", "sprt", "model", "shard"}

func addRunFlags(fs *flag.FlagSet, defaultGames int, gamesHelp string) *runFlags {
	r := &runFlags{fs: fs}
	r.game = fs.String("game", "othello6", "game spec (see 'arena games')")
	fs.Var(&r.agents, "agents", "agent specs, one per argument (see 'arena agents')")
	r.games = fs.Int("games", defaultGames, gamesHelp+fmt.Sprintf("; even, 2 to %d, and at most %d games in all", maxGames, maxGames))
	r.seed = fs.Uint64("seed", 1, "seed of every random choice: openings, agents, bootstrap")
	r.openings = fs.String("openings", "", "random:K (K random plies per game pair, 0 to 1000), none, or a FILE with one opening per line (a line at most 16 MiB) (default: the game's own number of random plies, 2 for most games)")
	r.shuffleOpenings = fs.Bool("shuffle-openings", false, "use the openings file in an order shuffled by the seed")
	r.moveTime = fs.Duration("move-time", 0, "wall-clock limit per move, 1ms to 24h (0: each agent's time= budget, else the game's limit, else 1m)")
	r.moveMargin = fs.Duration("move-margin", arena.DefaultMargin, "grace beyond the move limit (or the time left on a clock) before a forfeit, 1ms to 1h")
	r.tc = fs.String("tc", "", "game clock BASE[+INC] for every agent without its own tc= key, e.g. 10s+100ms (BASE 1ms to 24h, INC 0 to 1h): a move may use the time left, the increment is added after it, a flag fall loses on time; not with --move-time")
	r.maxPlies = fs.Int("max-plies", arena.DefaultMaxPlies, "adjudicate a game as a draw after this many plies, 0 to 1000000 (0: no cap)")
	r.adjudicate = fs.String("adjudicate", "", fmt.Sprintf("solve:empties=N[,time=D]: before each move, solve a position with at most N empty cells (1 to %d) with the game's exact solver within D (1ms to %s, default %s) and, if it finishes, end the game with the result of perfect play (termination adjudication, adjudicated \"solved\"); games without an exact solver play on (default: none)", arena.MaxAdjudicateEmpties, spec.FormatDuration(arena.MaxAdjudicateTime), spec.FormatDuration(arena.DefaultAdjudicateTime)))
	r.concurrency = fs.Int("concurrency", min(runtime.NumCPU(), maxConcurrency), "games played at once, 1 to 256 (with --broker: by the coordinator's own workers; 0: none, the remote workers play every game)")
	r.out = fs.String("out", "", "record file (JSON Lines) to write; it must not exist yet")
	r.resume = fs.String("resume", "", "continue this record file: finished games are kept, the rest are played")
	r.format = fs.String("format", "text", "output format: text, json, csv or markdown")
	r.interval = fs.Int("rating-interval", 0, "print the standings every N games on stderr, -1 to 1000000 (0: every quarter of runs of 400+ games; -1: never)")
	r.noProgress = fs.Bool("no-progress", false, "no progress bar on stderr")
	return r
}

// setFlags returns the config flags given explicitly.
func (r *runFlags) setFlags() map[string]bool {
	set := map[string]bool{}
	r.fs.Visit(func(f *flag.Flag) {
		if slices.Contains(configFlags, f.Name) {
			set[f.Name] = true
		}
	})
	return set
}

// apply copies the run flags into o: all of them, or (resume) only those
// given explicitly, over the options recorded in the file.
func (r *runFlags) apply(o *arena.Options, only map[string]bool) {
	use := func(name string) bool { return only == nil || only[name] }
	if use("game") {
		o.Game = *r.game
	}
	if use("agents") {
		o.Agents = r.agents
	}
	if use("games") {
		o.GamesPerPair = *r.games
	}
	if use("seed") {
		o.Seed = *r.seed
	}
	if use("openings") {
		o.Openings = *r.openings
	}
	if use("shuffle-openings") {
		o.ShuffleOpenings = *r.shuffleOpenings
	}
	if use("move-time") {
		o.MoveTime = *r.moveTime
	}
	if use("move-margin") {
		o.MoveMargin = *r.moveMargin
	}
	if use("tc") {
		o.TimeControl = agents.TimeControl{}
		if *r.tc != "" {
			o.TimeControl, _ = agents.ParseTimeControl(*r.tc) // check() reported a bad one
		}
	}
	if use("adjudicate") {
		o.Adjudicate = *r.adjudicate
	}
	if use("max-plies") {
		o.MaxPlies = *r.maxPlies
		if o.MaxPlies <= 0 {
			o.MaxPlies = -1 // no cap
		}
	}
	if r.shard != nil && use("shard") {
		o.Shard, _ = results.ParseShard(*r.shard) // parseTournament reported a bad one
	}
}

// session is one run of a tournament or match from the command line: the
// tournament, its record file, the games so far, and Ctrl-C handling.
type session struct {
	tour   *arena.Tournament
	writer *results.Writer
	path   string
	done   []results.GameRecord // recorded before this run (resume)
	mu     sync.Mutex
	games  []*results.GameRecord // everything recorded, old and new
	stderr io.Writer
	// created: this invocation made the record file (--out), so a run that
	// cannot start removes it (see abandon).
	created bool
	// resume is the --resume record, read and checked but not yet written
	// to: start appends to it once the run can start (its broker is up),
	// so that a run refused before then leaves it as it was, torn last
	// line included.
	resume *results.File
	// keepMoves keeps the new games' moves in games (the live report's
	// viewer and game lengths need them; the tables do not).
	keepMoves bool
}

// open builds the tournament and its record file from the flags: a new
// file for --out, the existing one for --resume (whose configuration the
// flags must match if given), or none. extra applies the command's own
// flags (all, or for a resume only those in the set given). check, if not
// nil, is the command's own check of the run (a resumed file's kind and
// agents); it runs, and then checkRun's, before the file is written to, so
// that a refused resume leaves the file as it was and a refused new run
// leaves no file. A resumed file is written to by start.
func open(rf *runFlags, extra func(o *arena.Options, only map[string]bool), check func(*arena.Tournament) error, stderr io.Writer) (*session, error) {
	s := &session{stderr: stderr}
	if err := checkConcurrency(*rf.concurrency, rf.broker); err != nil {
		return nil, err
	}
	if *rf.resume != "" {
		if *rf.out != "" && *rf.out != *rf.resume {
			return nil, errors.New("--resume continues its own file; leave out --out")
		}
		var want *arena.Tournament
		if set := rf.setFlags(); len(set) > 0 {
			// Start from the file's configuration and change what the
			// flags say, so that the error names exactly what differs.
			file, err := results.ReadFile(*rf.resume)
			if err != nil {
				return nil, err
			}
			// The header's sizes first, so that a damaged header is named
			// as such rather than as a flag that differs.
			if err := arena.CheckHeader(*rf.resume, file.Header.Config); err != nil {
				return nil, err
			}
			o := arena.OptionsFrom(file.Header.Config)
			rf.apply(&o, set)
			extra(&o, set)
			if want, err = arena.New(o); err != nil {
				return nil, err
			}
		}
		t, file, err := arena.ReadResume(*rf.resume, want)
		if err != nil {
			return nil, err
		}
		if err := checkRun(rf, t, check); err != nil {
			return nil, err
		}
		s.tour, s.path, s.done, s.resume = t, *rf.resume, file.Games, file
		for i := range s.done {
			s.games = append(s.games, &s.done[i])
		}
		return s, nil
	}
	var o arena.Options
	rf.apply(&o, nil)
	extra(&o, nil)
	t, err := arena.New(o)
	if err != nil {
		return nil, err
	}
	if err := checkRun(rf, t, check); err != nil {
		return nil, err
	}
	s.tour = t
	if *rf.out != "" {
		if s.writer, err = arena.CreateRecord(*rf.out, t, *rf.concurrency); err != nil {
			return nil, err
		}
		s.path, s.created = *rf.out, true
	}
	return s, nil
}

// checkRun is open's checks of the run before any write: the command's
// own (check, if not nil), then that the external programs start here.
func checkRun(rf *runFlags, t *arena.Tournament, check func(*arena.Tournament) error) error {
	if check != nil {
		if err := check(t); err != nil {
			return err
		}
	}
	if *rf.concurrency > 0 {
		// This machine plays: its external programs must start here.
		return checkPrograms(t.Config.Agents)
	}
	return nil
}

// start opens a resumed record to append to it, once the run can start:
// a torn last line is cut off and the resume noted (results.Append). A new
// run's record was made by open.
func (s *session) start(concurrency int) error {
	if s.resume == nil {
		return nil
	}
	w, err := results.Append(s.resume, concurrency)
	if err != nil {
		return err
	}
	if s.resume.Torn {
		fmt.Fprintf(s.stderr, "arena: %s: cut off a torn last line (the run was killed while writing it)\n", s.path)
	}
	s.writer, s.resume = w, nil
	return nil
}

func (s *session) close() {
	if s.writer != nil {
		s.writer.Close()
	}
}

// abandon closes the record file and removes it if this invocation made it
// and recorded nothing in it: a run that could not start (its broker, say)
// leaves no file that would refuse the corrected command ("exists:
// continue it with --resume"). A resumed file has not been written to yet
// (see start).
func (s *session) abandon() {
	s.close()
	s.writer = nil
	if s.created && len(s.games) == 0 {
		os.Remove(s.path)
		s.created = false
	}
}

// record writes a batch to the file (one write) and keeps the games for
// the tables, without their move lists (which the tables do not need).
func (s *session) record(batch []*results.GameRecord) error {
	if s.writer != nil {
		if err := s.writer.WriteGames(batch...); err != nil {
			return fmt.Errorf("writing %s: %w", s.path, err)
		}
	}
	s.mu.Lock()
	for _, g := range batch {
		c := *g
		switch {
		case s.keepMoves && len(s.games) < liveViewerGames:
			c.Moves, c.Opening = slices.Clone(g.Moves), slices.Clone(g.Opening) // the batch may be reused
			c.MoveStats, c.Clocks = slices.Clone(g.MoveStats), slices.Clone(g.Clocks)
		case s.keepMoves:
			// Past the games the live report's viewer shows, its plots
			// need only the times, depths and nodes per move.
			c.Moves, c.Opening, c.Clocks = nil, nil, nil
			c.MoveStats = plotStats(g.MoveStats)
		default:
			// The tables need neither moves nor times per move (an
			// engine's info lines would otherwise stay for the whole run).
			c.Moves, c.Opening, c.MoveStats, c.Clocks = nil, nil, nil, nil
		}
		s.games = append(s.games, &c)
	}
	s.mu.Unlock()
	return nil
}

func (s *session) dataset() *results.Dataset {
	s.mu.Lock()
	defer s.mu.Unlock()
	return results.NewDataset(s.tour.Config.Game, s.tour.Names(), slices.Clone(s.games))
}

// interrupts turns the first Ctrl-C (or SIGTERM) into a soft stop and the
// second into a hard one. release undoes the signal handling.
func interrupts(stderr io.Writer) (ctx context.Context, stop <-chan struct{}, release func()) {
	ctx, cancel := context.WithCancel(context.Background())
	soft := make(chan struct{})
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-sig:
				n++
				if n == 1 {
					fmt.Fprintln(stderr, "\narena: stopping: no new games; the running ones will finish and be recorded (Ctrl-C again to stop at once)")
					close(soft)
				} else {
					fmt.Fprintln(stderr, "\narena: stopping now; games in progress are dropped, recorded ones are safe")
					cancel()
					return
				}
			case <-quit:
				return
			}
		}
	}()
	return ctx, soft, func() {
		signal.Stop(sig)
		close(quit)
		cancel()
	}
}

// progress reports finished games on stderr: a bar on a terminal, a line
// every tenth of the run otherwise.
type progress struct {
	bar      *progressbar.ProgressBar
	w        io.Writer
	total    int
	done     int
	nextLine int
	start    time.Time
}

func newProgress(w io.Writer, total int, quiet bool) *progress {
	p := &progress{w: w, total: total, start: time.Now(), nextLine: max(total/10, 1)}
	if quiet || total == 0 {
		p.w = nil
		return p
	}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("games"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetWidth(30),
		)
	}
	return p
}

func (p *progress) add(n int) {
	p.done += n
	switch {
	case p.bar != nil:
		p.bar.Add(n)
	case p.w != nil && p.done >= p.nextLine:
		el := time.Since(p.start).Seconds()
		rate := float64(p.done) / el
		eta := time.Duration(float64(p.total-p.done)/rate) * time.Second
		fmt.Fprintf(p.w, "arena: %d/%d games (%.0f %%), %.1f games/s, ETA %s\n", p.done, p.total, 100*float64(p.done)/float64(p.total), rate, eta.Round(time.Second))
		for p.nextLine <= p.done {
			p.nextLine += max(p.total/10, 1)
		}
	}
}

// pause clears the bar before other output on the same stream.
func (p *progress) pause() {
	if p.bar != nil {
		p.bar.Clear()
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// parseTournament parses and checks the tournament flags. It runs nothing
// and opens no file (FuzzFlags calls it).
func parseTournament(args []string, stderr io.Writer) (rf *runFlags, gauntlet bool, ropts results.AnalysisOptions, err error) {
	fs := newFlagSet("tournament", "[--game G] [--agents A B …] [--games N] [--gauntlet] [--concurrency K] [--seed S] [--openings random:K|FILE] [--out F | --resume F] [--format text|json|csv|markdown] [--report F.html] [--shard i/N] [--broker embedded|nats://HOST:PORT …]", stderr)
	rf = addRunFlags(fs, 40, "games per pairing (even: colour-swapped pairs)")
	g := fs.Bool("gauntlet", false, "the first agent plays each of the others (instead of everyone playing everyone)")
	rt := addRatingFlags(fs, rf.seed)
	rf.report = fs.String("report", "", "keep an HTML report (as arena report writes) in this file: rewritten every --rating-interval games (default: every 5 % of the games) and at the end")
	rf.broker = addBrokerFlags(fs)
	rf.shard = fs.String("shard", "", fmt.Sprintf("play only shard i of N, i/N with 1 ≤ i ≤ N ≤ %d: about 1/N of every pairing's colour-swapped game pairs, dealt pairing by pairing, into its own --out file; arena rate and report merge the N files into the unsharded run's result (for Slurm and Kubernetes job arrays)", results.MaxShards))
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
	kind, n := results.RoundRobin, len(rf.agents)
	if *g {
		kind = results.Gauntlet
	}
	if n == 0 && *rf.resume == "" {
		n = len(demoCandidates)
	}
	return rf, *g, ropts, rf.check(kind, n)
}

func runTournament(args []string, stdout, stderr io.Writer) error {
	rf, gauntletFlag, ropts, err := parseTournament(args, stderr)
	if err != nil {
		return err
	}
	gauntlet := &gauntletFlag
	if len(rf.agents) == 0 && *rf.resume == "" {
		rf.agents = demoAgents()
	}
	if ropts.Anchor != "" && *rf.resume == "" {
		// Check --anchor against the agents' names before a record file is
		// created or a game played (the names come from the specs).
		var o arena.Options
		rf.apply(&o, nil)
		if t, err := arena.New(o); err == nil {
			if err := checkAnchor(ropts.Anchor, t.Names()); err != nil {
				return err
			}
		}
	}
	s, err := open(rf, func(o *arena.Options, only map[string]bool) {
		if only == nil || only["gauntlet"] {
			o.Kind = results.RoundRobin
			if *gauntlet {
				o.Kind = results.Gauntlet
			}
		}
	}, func(t *arena.Tournament) error {
		if t.Config.Kind == results.Match {
			return fmt.Errorf("%s records a match: continue it with arena match --resume %s", *rf.resume, *rf.resume)
		}
		return checkAnchor(ropts.Anchor, t.Names()) // a resumed file's agents
	}, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	t := s.tour
	// The record's seed, not the flag's default: a resumed run rates with
	// the seed it started with, as arena rate does.
	ropts.Seed = t.Config.Seed
	remaining := len(t.Fixtures) - len(s.done)
	fmt.Fprintf(stderr, "arena: %s %s, %d agents, %d games per pairing: %d games", t.Config.Game, t.Config.Kind, len(t.Config.Agents), t.Config.GamesPerPair, len(t.Fixtures))
	if sh := t.Config.Shard; sh != nil {
		fmt.Fprintf(stderr, " in shard %s (of the run's %d)", sh, t.Config.TotalGames)
	}
	if len(s.done) > 0 {
		fmt.Fprintf(stderr, " (%d already recorded, %d to play)", len(s.done), remaining)
	}
	fmt.Fprintf(stderr, ", %s, openings %s", plural(*rf.concurrency, "worker", "workers"), t.Config.Openings)
	if tc := t.Config.TimeControl; tc != "" {
		fmt.Fprintf(stderr, ", clock %s", tc)
	}
	fmt.Fprintln(stderr)
	overload := overloadNote(t.Config.Agents, *rf.concurrency, runtime.NumCPU())
	if overload != "" {
		fmt.Fprintln(stderr, "arena: warning:", overload)
	}
	if s.path == "" {
		fmt.Fprintln(stderr, "arena: records are not saved (use --out FILE to keep them and be able to resume)")
	}
	live := newLivePage(*rf.report, s, ropts, *rf.interval, *rf.concurrency, stderr)
	st, elapsed, runErr := playRun(t, s, rf, remaining, stderr, live.update, func(n int) {
		o := ropts
		o.Bootstrap = min(o.Bootstrap, 200)
		if rep, err := results.Analyse(s.dataset(), o); err == nil {
			fmt.Fprintf(stderr, "\nStandings after %d of %d games:\n", n, len(t.Fixtures))
			rep.WriteStandings(stderr, false)
		}
	})
	if se, ok := runErr.(setupError); ok {
		return se.error // nothing was played
	}
	reportErr := live.final(st.Complete && runErr == nil)
	if runErr != nil {
		return runErr
	}
	s.summarise(stderr, st, elapsed)
	if len(s.games) > 0 {
		rep, err := results.Analyse(s.dataset(), ropts)
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
		n := len(s.games)
		if s.path == "" {
			return fmt.Errorf("interrupted after %d of %d games", n, len(t.Fixtures))
		}
		return fmt.Errorf("interrupted after %d of %d games; continue with: arena tournament --resume %s", n, len(t.Fixtures), s.path)
	}
	return reportErr
}

// summarise says on stderr how many games a run played, how fast and
// where they are recorded, and how many stuck agents it left behind.
func (s *session) summarise(stderr io.Writer, st arena.RunStats, elapsed time.Duration) {
	if st.Played > 0 {
		fmt.Fprintf(stderr, "arena: played %d games in %.1f s (%.1f games/s)", st.Played, elapsed.Seconds(), float64(st.Played)/elapsed.Seconds())
		if s.path != "" {
			fmt.Fprintf(stderr, "; records in %s", s.path)
		}
		fmt.Fprintln(stderr)
	}
	if st.Abandoned > 0 {
		fmt.Fprintf(stderr, "arena: %d agent goroutines were still stuck in a move when their games were forfeited\n", st.Abandoned)
	}
}

// setupError is playRun's failure to set up the run's broker, before any
// game; the record file is then removed if this invocation made it.
type setupError struct{ error }

// playRun plays t's games not yet in s (remaining of them), locally or
// through rf's broker, with progress on stderr and Ctrl-C as an orderly
// stop, recording each batch in s. After each batch it calls afterBatch
// (nil: nothing); every --rating-interval games (by default a quarter of a
// run of 400 games or more) it pauses the progress bar and calls interim
// with the number of games recorded, for the standings so far. It returns
// the run's statistics and how long it took; an error setting up the broker
// comes back as a setupError.
func playRun(t *arena.Tournament, s *session, rf *runFlags, remaining int, stderr io.Writer, afterBatch func(), interim func(n int)) (arena.RunStats, time.Duration, error) {
	interval := *rf.interval
	if interval == 0 && len(t.Fixtures) >= 400 {
		interval = max(len(t.Fixtures)/4, 1)
	}
	ctx, stop, release := interrupts(stderr)
	defer release()
	openCtx, cancel := untilStop(ctx, stop)
	runner, cleanup, err := rf.broker.hub(openCtx, false, s.path, stderr)
	cancel()
	if err != nil {
		s.abandon()
		return arena.RunStats{}, 0, setupError{err}
	}
	defer cleanup()
	if err := s.start(*rf.concurrency); err != nil {
		return arena.RunStats{}, 0, setupError{err}
	}
	prog := newProgress(stderr, remaining, *rf.noProgress)
	nextTable := len(s.done) + interval
	start := time.Now()
	st, runErr := t.Run(ctx, arena.RunOptions{
		Concurrency: *rf.concurrency, Stop: stop, Done: s.done, Log: stderr,
		ReuseGames: true, // record copies what it keeps
		Runner:     runner,
		Sink: func(batch []*results.GameRecord) error {
			if err := s.record(batch); err != nil {
				return err
			}
			prog.add(len(batch))
			if afterBatch != nil {
				afterBatch()
			}
			if n := len(s.games); interval > 0 && n >= nextTable && n < len(t.Fixtures) {
				for nextTable <= n {
					nextTable += interval
				}
				prog.pause()
				interim(n)
			}
			return nil
		},
	})
	prog.finish()
	return st, time.Since(start), runErr
}

// checkPrograms refuses agents whose external program cannot start on
// this machine (agents.ProgramChecker): a missing engine would otherwise
// lose every game as a crash.
func checkPrograms(list []results.AgentInfo) error {
	for _, info := range list {
		a, err := agents.New(info.Spec, 0)
		if err != nil {
			return err
		}
		if pc, ok := a.(agents.ProgramChecker); ok {
			err = pc.CheckProgram()
		}
		if c, ok := a.(io.Closer); ok {
			c.Close()
		}
		if err != nil {
			return fmt.Errorf("%v (the run plays no game with it)", err)
		}
	}
	return nil
}
