package main

// This file holds what tournament, match and tune sweep share: the flags
// of a run, their arena.SessionOptions, and the loop that plays a session
// with Ctrl-C, the broker, the progress bar and the interim tables.

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/internal/linelog"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/report"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// runFlags are the flags that define which games a tournament or match plays.
type runFlags struct {
	fs              *flagSet
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
	report          *string              // tournament and match: the live HTML report (nil elsewhere)
	broker          *brokerFlags         // tournament and match: --broker (nil elsewhere)
	shard           *string              // tournament only: --shard i/N (nil elsewhere)
	kindOptions     func(*arena.Options) // for check: the kind's own options (Swiss rounds …), or nil
	liveDone        *report.Collector    // a resumed record's games, counted for --report's page (nil: none)
}

// configFlags name the flags that change the planned games: on --resume
// they must agree with the file (or be left out).
var configFlags = []string{"game", "agents", "games", "gauntlet", "swiss", "knockout", "bye", "extra-pairs", "seed", "openings", "shuffle-openings", "move-time", "move-margin", "tc", "max-plies", "adjudicate", "sprt", "model", "shard"}

// addRunFlags defines the flags of a run on fs and lists them in the
// groups Core, Openings, Limits and Output (Ratings kept between the last
// two for the command's rating flags). gamesHelp says what --games counts;
// its range is added.
func addRunFlags(fs *flagSet, defaultGames int, gamesHelp string) *runFlags {
	r := &runFlags{fs: fs}
	r.game = fs.String("game", "othello6", "the `GAME` to play, a game spec (see 'arena games')")
	fs.Var(&r.agents, "agents", "the agents, `SPEC…` one spec per argument (see 'arena agents')")
	r.games = fs.Int("games", defaultGames, gamesHelp+fmt.Sprintf("; even, 2 to %d", maxGames))
	r.seed = fs.Uint64("seed", 1, "seed of every random choice: openings, agents, bootstrap")
	r.concurrency = fs.Int("concurrency", min(runtime.NumCPU(), maxConcurrency), fmt.Sprintf("`K` games at once, 1 to %d (0 with --broker: remote workers only)", maxConcurrency))
	fs.group("Core", "game agents games seed concurrency")

	r.openings = fs.String("openings", "", "openings from `SRC`: random:K (K random plies, 0 to 1000), none or a FILE")
	r.shuffleOpenings = fs.Bool("shuffle-openings", false, "use the openings FILE in an order shuffled by the seed")
	fs.group("Openings", "openings shuffle-openings")

	r.moveTime = fs.Duration("move-time", 0, "wall-clock limit `D` per move, 1ms to 24h (default: the agent's, else the game's)")
	r.moveMargin = fs.Duration("move-margin", arena.DefaultMargin, "grace `D` beyond a move's limit or clock before a forfeit, 1ms to 1h")
	r.tc = fs.String("tc", "", "game clock `BASE[+INC]` of agents without tc=, e.g. 10s+1s; not with --move-time")
	r.maxPlies = fs.Int("max-plies", arena.DefaultMaxPlies, fmt.Sprintf("draw a game by adjudication after `N` plies, 0 to %d (0: no cap)", arena.MaxPlyCap))
	r.adjudicate = fs.String("adjudicate", "", fmt.Sprintf("end games the exact solver settles: `SPEC` is solve:empties=N[,time=D], N ≤ %d", arena.MaxAdjudicateEmpties))
	fs.group("Limits", "move-time move-margin tc max-plies adjudicate")

	fs.group("Ratings", "") // the command's rating flags, before the output
	r.out = fs.String("out", "", "record `FILE` (JSON Lines) to write; it must not exist yet")
	r.resume = fs.String("resume", "", "continue the record `FILE`: keep its games, play the rest")
	r.format = fs.String("format", "text", "output `FORMAT`: text, json, csv or markdown")
	r.interval = fs.Int("rating-interval", 0, fmt.Sprintf("standings on stderr every `N` games, -1 to %d (0: automatic, -1: never)", maxGames))
	r.noProgress = fs.Bool("no-progress", false, "no progress bar on stderr")
	fs.group("Output", "out resume format rating-interval no-progress")
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
			o.TimeControl, _ = agents.ParseTimeControl(*r.tc) // check reported a bad one
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
		o.Shard, _ = results.ParseShard(*r.shard) // the command reported a bad one
	}
}

// check validates the run flags of a tournament or match of the given kind
// with n agents (0 on a resume: the agents come from the file) before
// anything runs: the library's checks (arena.Options.Check,
// arena.CheckConcurrency), which name the options that these flags set,
// and this command line's own: the flags whose 0 or negative value means
// something else than the option's, --tc's text and --rating-interval.
func (r *runFlags) check(kind string, n int) error {
	if *r.moveMargin == 0 { // the option's 0 is the default margin
		return option.OutOfRange("MoveMargin", "0s", "1ms", spec.FormatDuration(arena.MaxMoveMargin), "")
	}
	// The flag's 0 is the option's negative (no cap), so the whole range
	// is said here, with what 0 means.
	if *r.maxPlies < 0 || *r.maxPlies > arena.MaxPlyCap {
		return option.OutOfRange("MaxPlies", *r.maxPlies, 0, arena.MaxPlyCap, " (0: no cap)")
	}
	if *r.tc != "" {
		if _, err := agents.ParseTimeControl(*r.tc); err != nil {
			return option.New("TimeControl", nil, "%v", err)
		}
	}
	if err := inRange("rating-interval", *r.interval, -1, maxGames, " (0: automatic, -1: never)"); err != nil {
		return err
	}
	if err := checkConcurrency(*r.concurrency, r.broker); err != nil {
		return err
	}
	var o arena.Options
	r.apply(&o, nil)
	o.Kind, o.Agents = kind, nil
	if r.kindOptions != nil {
		r.kindOptions(&o)
	}
	if n > 0 || *r.resume == "" {
		o.Agents = make([]string, n) // counted, not parsed: New parses them
	}
	return o.Check()
}

// open opens the session of the flags: a new record for --out, the
// existing one for --resume (whose configuration the flags must match if
// given), or none. extra applies the command's own flags (all, or for a
// resume only those in the set given). check, if not nil, is the
// command's own check of the run (a resumed file's kind and agents),
// made before the file is written to (see arena.SessionOptions.Check).
func open(rf *runFlags, extra func(o *arena.Options, only map[string]bool), check func(*arena.Tournament) error) (*arena.Session, error) {
	so := arena.SessionOptions{Out: *rf.out, Resume: *rf.resume, Concurrency: *rf.concurrency, Remote: rf.broker.remote(), Check: check}
	if so.Resume == "" {
		rf.apply(&so.Options, nil)
		extra(&so.Options, nil)
	} else if set := rf.setFlags(); len(set) > 0 {
		so.Edit = func(o *arena.Options) {
			rf.apply(o, set)
			extra(o, set)
		}
	}
	if rf.report != nil && *rf.report != "" && so.Resume != "" {
		// The live page counts the games as they come (livePage), a
		// resumed record's as the session reads them, the viewer's whole.
		so.KeepMoves = liveViewerGames
		so.OnDone = liveCounter(&rf.liveDone)
	}
	return arena.OpenSession(so)
}

// summarise says on stderr how many games a run of s played, how fast and
// where they are recorded, and how many stuck agents it left behind.
func summarise(stderr io.Writer, s *arena.Session, st arena.RunStats, elapsed time.Duration) {
	prefix := "arena " + runCommand(s.Tournament().Config.Kind) + ": "
	if s.Tournament().IsRace() {
		prefix = "arena race: "
	}
	if st.Played > 0 {
		fmt.Fprintf(stderr, "%splayed %s in %.1f s (%.1f games/s)", prefix, plural(st.Played, "game", "games"), elapsed.Seconds(), float64(st.Played)/elapsed.Seconds())
		if s.Path() != "" {
			fmt.Fprintf(stderr, "; records in %s", s.Path())
		}
		fmt.Fprintln(stderr)
	}
	if st.Abandoned == 1 {
		fmt.Fprintf(stderr, "%s1 agent goroutine was still stuck in a move when its game was forfeited\n", prefix)
	} else if st.Abandoned > 1 {
		fmt.Fprintf(stderr, "%s%d agent goroutines were still stuck in a move when their games were forfeited\n", prefix, st.Abandoned)
	}
}

// runCommand is the command that plays a run of the kind, for the prefix
// of its notes.
func runCommand(kind string) string {
	switch kind {
	case results.Match:
		return "match"
	case results.Sweep:
		return "tune sweep"
	}
	return "tournament"
}

// setupError is playRun's failure to set up the run's broker, before any
// game (the session is abandoned: a record file this run made is gone).
type setupError struct{ error }

func (e setupError) Unwrap() error { return e.error }

// playRun plays the games of s not yet recorded, locally or through rf's
// broker, with progress on stderr and Ctrl-C as an orderly stop. After
// each batch (recorded by s) it calls afterBatch (nil: nothing); every
// --rating-interval games (by default a quarter of a run of 400 games or
// more) it pauses the progress bar and calls interim with the number of
// games recorded, for the standings so far. It returns the run's
// statistics and how long it took; an error setting up the broker comes
// back as a setupError.
func playRun(s *arena.Session, rf *runFlags, stderr io.Writer, afterBatch func([]*results.GameRecord), interim func(n int)) (arena.RunStats, time.Duration, error) {
	planned := s.Tournament().PlannedGames() // the schedule's games, or a format's most
	interval := *rf.interval
	if interval == 0 && planned >= 400 {
		interval = max(planned/4, 1)
	}
	// The library's lines (Ctrl-C, a stuck agent, the broker) are the
	// command's: "arena tournament: took games 3 4".
	log := linelog.New(stderr, "arena "+rf.fs.name+": ")
	ctx, stop, release := interrupts(stderr, rf.fs.name)
	defer release()
	runner, closeHub, err := s.Connect(ctx, stop, log, rf.broker.open(log))
	if err != nil {
		return arena.RunStats{}, 0, setupError{err}
	}
	defer closeHub()
	prog := newProgress(stderr, rf.fs.name, planned-s.Done().Len(), *rf.noProgress)
	nextTable := s.Done().Len() + interval
	start := time.Now()
	st, runErr := s.Run(ctx, arena.RunOptions{
		Stop: stop, Log: log, Runner: runner, Status: prog.setStatus,
		ReuseGames: true, // the session copies what it keeps
		Sink: func(batch []*results.GameRecord) error {
			prog.add(len(batch))
			if afterBatch != nil {
				afterBatch(batch)
			}
			if n := s.Recorded(); interval > 0 && n >= nextTable && n < planned {
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
