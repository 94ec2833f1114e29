package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// Runner plays a run instead of the local workers (RunOptions.Runner): a
// coordinator of remote workers (package broker).
type Runner = func(ctx context.Context, t *Tournament, opts RunOptions) (RunStats, error)

// SessionOptions say which run a Session plays and where it is recorded.
type SessionOptions struct {
	// Options are the run's options (Options.Check, New). A resumed run
	// takes its options from the record instead (see Edit).
	Options Options
	// Out is the record file of a new run, which must not exist yet ("":
	// the games are recorded nowhere; the session keeps only their counts,
	// and the games KeepMoves and KeepTimes ask for).
	Out string
	// Resume is a record file to continue: the run is the one its header
	// describes, and the games it holds are not played again. Out, if
	// given, must be the same file.
	Resume string
	// Edit, on a resume, changes the recorded options to the caller's
	// (those a command line gave explicitly). The run's configuration must
	// then still be the record's, so that the games left to play are the
	// planned ones: the error lists what differs. nil rebuilds the run
	// from the header alone.
	Edit func(*Options)
	// Concurrency is the games played at once (RunOptions.Concurrency),
	// also written in the record: 1 to MaxConcurrency, or 0 when Remote.
	Concurrency int
	// Remote says that a Runner (a coordinator of remote workers) will
	// play the games: Concurrency may be 0, and with 0 the agents'
	// programs need not start on this machine.
	Remote bool
	// Check, if not nil, is the caller's own check of the run (a resumed
	// record's kind, an anchor among the agents' names …). It runs before
	// anything is written: a refused new run leaves no file, a refused
	// resume leaves the record as it was, torn last line included.
	Check func(*Tournament) error
	// KeepMoves is how many games Games keeps with their moves, opening,
	// move statistics and clocks (the first recorded: a live report's
	// viewer's; negative: all, for a caller that reads the positions, as
	// texel tuning does). The others are not kept unless KeepTimes: the
	// tables and ratings come from counts (Analyse), so that a run's
	// memory does not grow with its games. A resumed record's games are
	// read the same way: the first KeepMoves games whole, the others
	// without their moves, and none kept beyond these.
	KeepMoves int
	// KeepTimes also keeps every other game, without its moves but with
	// its time, depth and nodes per move (MoveStats without the engines'
	// info text), for a live report's plots.
	KeepTimes bool
	// OnDone, if not nil, is given each game a resumed record holds, as
	// the record is read (after the checks; t is the run's tournament),
	// for a caller that counts more of them than the session does (a
	// live report's page): the record is read once and its games are not
	// kept (Done). The game is the caller's; past the first KeepMoves
	// games, without its moves.
	OnDone func(t *Tournament, g *results.GameRecord)
}

// Session is one record-backed run of a tournament or match: OpenSession
// creates its record or reads and checks the one it continues (once), Run
// and RunMatch record every finished batch before the caller's sink sees
// it and count its games for the tables, and Abandon removes a record that
// the session created and recorded nothing in. Recorded, Games and Analyse
// may be called while a run goes on (from its sink, or a live report).
type Session struct {
	t           *Tournament
	path        string
	created     bool
	concurrency int
	keepMoves   int
	keepTimes   bool
	done        *Recorded      // recorded before this session (resume)
	header      results.Header // the record's (see Header)
	// resume is the record read by OpenSession, not yet written to: Start
	// appends to it once the run can start.
	resume *results.File
	writer *results.Writer

	mu       sync.Mutex
	recorded int                   // games recorded, old and new
	counts   *results.Counter      // what the tables need of them
	games    []*results.GameRecord // those kept (see SessionOptions.KeepMoves)
}

// OpenSession checks the options, builds the tournament and creates its
// record (Out), or reads the record to continue (Resume) and rebuilds its
// tournament, checking that the games recorded are the schedule's. Then
// the caller's Check runs, and, if this process plays games (Concurrency
// > 0), the agents' programs must start here (Tournament.CheckPrograms).
// Errors name the options (*option.Error). A resumed record is not
// written to before Start.
func OpenSession(o SessionOptions) (*Session, error) {
	if err := CheckConcurrency(o.Concurrency, o.Remote); err != nil {
		return nil, err
	}
	s := &Session{concurrency: o.Concurrency, keepMoves: o.KeepMoves, keepTimes: o.KeepTimes}
	if o.Resume != "" {
		if o.Out != "" && o.Out != o.Resume {
			return nil, option.New("Resume", nil, "{Resume} continues its own file; leave out {Out}")
		}
		// Only the games kept whole need their moves (see KeepMoves). The
		// record is read once, its games counted one by one and not kept.
		whole := o.KeepMoves
		if whole < 0 {
			whole = -1
		}
		s.path = o.Resume
		file, err := results.ReadFileEach(o.Resume, whole, func(h *results.Header) error {
			var err error
			if s.t, err = resumed(o.Resume, h, o.Edit); err != nil {
				return err
			}
			s.done = newRecorded(s.t, o.Resume)
			s.counts = results.NewCounter(s.t.Config.Game, s.t.Names())
			return nil
		}, func(g *results.GameRecord) error {
			if err := s.t.checkRecorded(o.Resume, g); err != nil {
				return err
			}
			s.done.add(g)
			s.counts.Add(g)
			if s.keeps() != keepNone {
				s.games = append(s.games, g)
			}
			s.recorded++
			if o.OnDone != nil {
				o.OnDone(s.t, g)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if err := s.t.checkFormatDone(o.Resume, s.done); err != nil {
			return nil, err
		}
		if err := s.check(o); err != nil {
			return nil, err
		}
		s.resume, s.header = file, file.Header
		return s, nil
	}
	t, err := New(o.Options)
	if err != nil {
		return nil, err
	}
	s.t = t
	s.counts = results.NewCounter(t.Config.Game, t.Names())
	if err := s.check(o); err != nil {
		return nil, err
	}
	s.header = t.header(o.Concurrency)
	if o.Out != "" {
		if s.writer, err = results.Create(o.Out, s.header); errors.Is(err, fs.ErrExist) {
			return nil, existsError{fmt.Errorf("%w already exists: continue it with %w, or choose another file", option.New("Out", o.Out, ""), option.New("Resume", o.Out, ""))}
		} else if err != nil {
			return nil, err
		}
		s.path, s.created = o.Out, true
	}
	return s, nil
}

// check is OpenSession's checks of the run before any write: the
// caller's, then that the agents' programs start here if it plays.
func (s *Session) check(o SessionOptions) error {
	if o.Check != nil {
		if err := o.Check(s.t); err != nil {
			return err
		}
	}
	if o.Concurrency > 0 {
		return s.t.CheckPrograms()
	}
	return nil
}

// Tournament is the session's tournament.
func (s *Session) Tournament() *Tournament { return s.t }

// Path is the record file, "" for a run recorded nowhere.
func (s *Session) Path() string { return s.path }

// Header is the record's header: a resumed record's as read (its creation
// time, its first run's concurrency), else the one written (or that would
// be, for a run recorded nowhere).
func (s *Session) Header() results.Header { return s.header }

// Done is what the session keeps of the games a resumed record held before
// it (nil for a new run): which games, and a match's or race's counts of
// them, not the games (SessionOptions.OnDone sees them as they are read,
// Games holds those KeepMoves asks for, Recorded.Each reads them again).
func (s *Session) Done() *Recorded { return s.done }

// Start appends to a resumed record, once the run can start: a torn last
// line (a run killed while writing it) is cut off, which log is told, and
// the resume noted (results.Append). A new run's record was made by
// OpenSession. Run and RunMatch start the session if the caller has not.
func (s *Session) Start(log io.Writer) error {
	if s.resume == nil {
		return nil
	}
	w, err := results.Append(s.resume, s.concurrency)
	if err != nil {
		return err
	}
	if s.resume.Torn && log != nil {
		fmt.Fprintf(log, "%s: cut off a torn last line (the run was killed while writing it)\n", s.path)
	}
	s.writer, s.resume = w, nil
	return nil
}

// Connect opens what plays the run with open — a coordinator of remote
// workers, which may keep its state next to the record (path, "" for
// none) — and then starts the session (Start, telling log). open's
// context also ends when stop is closed (a first Ctrl-C): waiting for a
// broker is not a game to finish. If open or Start fails, the session is
// abandoned (Abandon) and the error returned; else the caller closes what
// open returned once the run is over.
func (s *Session) Connect(ctx context.Context, stop <-chan struct{}, log io.Writer, open func(ctx context.Context, path string) (Runner, func(), error)) (Runner, func(), error) {
	octx, cancel := UntilStop(ctx, stop)
	runner, closer, err := open(octx, s.path)
	cancel()
	if err != nil {
		s.Abandon()
		return nil, nil, err
	}
	if closer == nil {
		closer = func() {}
	}
	if err := s.Start(log); err != nil {
		closer()
		s.Abandon()
		return nil, nil, err
	}
	return runner, closer, nil
}

// Run plays the tournament's games not yet recorded (Tournament.Run, or
// Tournament.RunFormat for a Swiss tournament or a knockout): the
// session sets opts.Concurrency and opts.Done, and records every batch
// (one write) before opts.Sink, if not nil, sees it.
func (s *Session) Run(ctx context.Context, opts RunOptions) (RunStats, error) {
	if err := s.prepare(&opts); err != nil {
		return RunStats{Planned: s.t.Schedule.Len(), Skipped: s.done.Len()}, err
	}
	if s.t.format != nil {
		_, st, err := s.t.RunFormat(ctx, opts)
		return st, err
	}
	return s.t.Run(ctx, opts)
}

// RunMatch is Run for a match (Tournament.RunMatch): it plays until the
// match's SPRT decides or its games run out.
func (s *Session) RunMatch(ctx context.Context, opts RunOptions, onPairs func(*results.PairTracker)) (*results.PairTracker, RunStats, error) {
	if err := s.prepare(&opts); err != nil {
		return results.NewPairTracker(s.t.Config.SPRT, 0), RunStats{Planned: s.t.Schedule.Len(), Skipped: s.done.Len()}, err
	}
	return s.t.RunMatch(ctx, opts, onPairs)
}

// RunRace is Run for a race (Tournament.RunRace): it plays until the
// race is decided or its games run out.
func (s *Session) RunRace(ctx context.Context, opts RunOptions, onStage func(*results.Race)) (*results.Race, RunStats, error) {
	if err := s.prepare(&opts); err != nil {
		return nil, RunStats{Planned: s.t.Schedule.Len(), Skipped: s.done.Len()}, err
	}
	return s.t.RunRace(ctx, opts, onStage)
}

// prepare starts the session and makes opts record into it.
func (s *Session) prepare(opts *RunOptions) error {
	if err := s.Start(opts.Log); err != nil {
		return err
	}
	opts.Concurrency, opts.Done = s.concurrency, s.done
	sink := opts.Sink
	opts.Sink = func(batch []*results.GameRecord) error {
		if err := s.Record(batch); err != nil {
			return err
		}
		if sink != nil {
			return sink(batch)
		}
		return nil
	}
	return nil
}

// Record writes a batch to the record (one write), counts its games and
// keeps those asked for (see SessionOptions.KeepMoves): the sink of Run,
// for a caller that runs the tournament itself. It copies what it keeps,
// so the batch may be reused (RunOptions.ReuseGames).
func (s *Session) Record(batch []*results.GameRecord) error {
	if s.writer != nil {
		if err := s.writer.WriteGames(batch...); err != nil {
			return fmt.Errorf("writing %s: %w", s.path, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range batch {
		s.counts.Add(g)
		s.recorded++
		keep := s.keeps()
		if keep == keepNone {
			continue
		}
		c := *g
		if keep == keepWhole {
			c.Moves, c.Opening = slices.Clone(g.Moves), slices.Clone(g.Opening)
			c.MoveStats, c.Clocks = slices.Clone(g.MoveStats), slices.Clone(g.Clocks)
		} else {
			// An engine's info lines would otherwise stay for the whole run.
			c.Moves, c.Opening, c.Clocks = nil, nil, nil
			c.MoveStats = plotStats(g.MoveStats)
		}
		s.games = append(s.games, &c)
	}
	return nil
}

// What the session keeps of the next game (see SessionOptions.KeepMoves).
const (
	keepNone  = iota // its counts only
	keepTimes        // without its moves, with its times per move
	keepWhole        // all of it
)

// keeps says what the session keeps of the next game recorded; s.mu is
// held, or the session not yet shared.
func (s *Session) keeps() int {
	switch {
	case s.keepMoves < 0 || len(s.games) < s.keepMoves:
		return keepWhole
	case s.keepTimes:
		return keepTimes
	}
	return keepNone
}

// plotStats copies what a report's plots read of a game's move
// statistics: not the engines' info text, which can be long.
func plotStats(ms []results.MoveStat) []results.MoveStat {
	if len(ms) == 0 {
		return nil
	}
	out := make([]results.MoveStat, len(ms))
	for i, m := range ms {
		m.Info = ""
		out[i] = m
	}
	return out
}

// Recorded is the number of games recorded, before and during this
// session.
func (s *Session) Recorded() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recorded
}

// Games are the games kept so far (see SessionOptions.KeepMoves), in the
// order recorded; the caller must not change them.
func (s *Session) Games() []*results.GameRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.games)
}

// Analyse rates the games recorded so far: the report results.Analyse
// gives on a Dataset of them, from their counts.
func (s *Session) Analyse(o results.AnalysisOptions) (*results.Analysis, error) {
	s.mu.Lock()
	c := s.counts.Snapshot()
	s.mu.Unlock()
	return c.Analyse(o)
}

// Close closes the record file.
func (s *Session) Close() error {
	if s.writer == nil {
		return nil
	}
	err := s.writer.Close()
	s.writer = nil
	return err
}

// Abandon closes the record file and removes it if this session created
// it and recorded nothing in it: a run that could not start (its broker,
// say) leaves no file that would refuse the same run again ("exists:
// continue it"). A resumed record has not been written to before Start.
func (s *Session) Abandon() {
	s.Close()
	if s.created && s.Recorded() == 0 {
		os.Remove(s.path)
		s.created = false
	}
}

// UntilStop is ctx, also ended (with the cause "interrupted") when stop
// is closed: for a wait that is not a game to finish, such as opening a
// broker or joining one, which a first Ctrl-C ends. cancel releases it.
func UntilStop(ctx context.Context, stop <-chan struct{}) (_ context.Context, cancel context.CancelFunc) {
	c, cancelCause := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-stop:
			cancelCause(errors.New("interrupted"))
		case <-c.Done():
		}
	}()
	return c, func() { cancelCause(nil) }
}

// Interrupts turns the first signal on sig (a Ctrl-C) into a soft stop:
// stop is closed, so no new game starts and the running ones finish and
// are recorded; and the second into a hard one: ctx, derived from parent,
// is cancelled, so games in progress are dropped (those recorded are
// safe). Each is said on log. release ends the watch and ctx; the caller
// that subscribed sig to the process's signals (signal.Notify) undoes that
// itself.
func Interrupts(parent context.Context, sig <-chan os.Signal, log io.Writer) (ctx context.Context, stop <-chan struct{}, release func()) {
	ctx, cancel := context.WithCancel(parent)
	if log == nil {
		log = io.Discard
	}
	soft := make(chan struct{})
	quit := make(chan struct{})
	go func() {
		for n := 1; ; n++ {
			select {
			case <-sig:
				if n == 1 {
					fmt.Fprintln(log, "\nstopping: no new games; the running ones will finish and be recorded (Ctrl-C again to stop at once)")
					close(soft)
					continue
				}
				fmt.Fprintln(log, "\nstopping now; games in progress are dropped, recorded ones are safe")
				cancel()
				return
			case <-quit:
				return
			}
		}
	}()
	var once sync.Once
	return ctx, soft, func() {
		once.Do(func() {
			close(quit)
			cancel()
		})
	}
}

// existsError is OpenSession's refusal of an Out that exists, in its
// options' names; it is errors.Is fs.ErrExist, so that a caller that does
// not continue records (a verification match) can say so instead.
type existsError struct{ error }

func (e existsError) Unwrap() error        { return e.error }
func (e existsError) Is(target error) bool { return target == fs.ErrExist }
