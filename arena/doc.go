// Package arena plays games between agents: single games (Play, PlayGame),
// round-robin and gauntlet tournaments and SPRT matches (Tournament), on a
// pool of workers, with per-move limits, forfeits and resumable records.
//
// # Schedule
//
// A round robin pairs every two agents, a gauntlet the first agent with each
// other one, a match two agents. Each pairing plays an even number of games
// as colour-swapped pairs: games 2r and 2r+1 of a pairing start from the same
// opening r with the agents' seats exchanged. The schedule interleaves the
// pairings round by round (see Schedule), so partial results stay balanced.
// Every seed is derived from the tournament seed and the game's place
// (pairing, game within the pairing), never from the order in which games
// run, so a game is reproducible from (seed, pairing, game index) whatever
// the concurrency, and a resumed run plays exactly the games an uninterrupted
// run would have played. A Schedule holds no list of games: each fixture is
// computed from its position (Schedule.At), so a run of a million games
// plans it in the memory of its pairings, and the workers take the
// fixtures one by one, skipping those already recorded (a bitset, GameSet).
//
// Options.Shard restricts a tournament to a static slice of that schedule
// for batch schedulers (the command line's --shard i/N): whole colour-swapped
// game pairs, numbered pairing by pairing and dealt to the N shards in turn
// (see results.Shard), so each shard has about 1/N of every pairing. The
// shards' records keep the whole schedule's indices and seeds, so together
// they hold exactly the unsharded run's games (results.Merge pools them
// back).
//
// # Openings
//
// Opening r is shared by every pairing. "random:K" plays K uniformly random
// plies drawn from (seed, r) — by default the game's own number
// (games.Entry.OpeningPlies), else DefaultOpeningPlies — and draws again if they would end the
// game. A file gives one opening per line (moves separated by spaces; for a
// simultaneous game joint plies "a | b" separated by commas), used in order
// and cycled, or in an order shuffled by the seed. A line "fen TEXT" is a
// position in a sequential game's text format (games.ParsePosition): its
// games start there, and their records keep the line as the first ply of
// Opening and Moves.
//
// # Agents, limits and forfeits
//
// Each worker owns its agent instances. Before every game an agent that
// implements agents.Seeder is reseeded with the game's agent seed; any other
// agent is closed (io.Closer) and built afresh, so that every game is
// reproducible whichever worker plays it. Agents implementing
// agents.GameStarter hear about every new game; agents.Reporter supplies the
// node counts and the per-move statistics in the records.
//
// An agent thinks on the live game state (no copy): it may play and undo
// moves but must leave it as it found it; the referee checks the position's
// hash and ply count after each answer. After a normal end the state is
// taken back to the start with Undo and reused for the worker's next game of
// the same variant (only if it then has the start position's hash again).
// A move's time runs from the call to the answer. It is read from the
// precise monotonic clock, except for a player whose previous move in the
// game took under 50 µs (random, greedy, any agent answering at once): its
// next move is timed with a coarse clock read by one atomic load, which a
// ticker advances every millisecond (and any referee at the end of a game
// when the ticker is late). Coarse readings are right on average — a move is
// charged a whole tick when a tick falls inside it, else nothing — so such a
// player's time_ms is an unbiased total and its max_move_ms is good to a
// millisecond; a slow answer puts the player back on the precise clock.
// Reading the precise clock (about 20 ns here) would otherwise cost more than
// the rest of the referee's work on a move. The context passed to Move carries
// the move's deadline (start + limit; with a coarse start, up to a tick
// early, never late) and is cancelled by a hard stop; it is valid only
// during the call. An agent that gives up with an error wrapping
// context.DeadlineExceeded loses on time. Limits come from Options.MoveTime, or, in automatic
// mode, from the agent's own budget (agents.Budgeter: time=, turn=),
// the game's limits (games.Entry.MoveTime), or DefaultMoveCap. A move that takes longer than its limit plus the margin
// forfeits the game, as do a panic (crash), a returned error (error), a move
// that is not legal (illegal_move) and changing the position (crash); the
// record says which and why. Both players failing on the same turn of a
// simultaneous game is a draw. A game reaching the ply cap (Options.MaxPlies) is
// adjudicated a draw.
//
// # Clocks
//
// A seat with Limits.Clock (Options.TimeControl for every agent
// without its own tc= key, which overrides it) plays on a Fischer clock:
// it starts each game with the base; a move's limit is the time left, so
// the move context's deadline is the move's start plus the time left and
// the watchdog gives up at the time left plus the margin plus a tick; the
// move's time is taken off and the increment added after it. A move that
// takes longer than the time left plus the margin loses on time (its flag
// fell: the detail gives the time used and what was on the clock); one
// within the margin leaves the clock at 0 plus the increment. NewGame is
// not charged to the clock (as in cutechess): it keeps the limits the seat
// would have without one. Moves on a clock are always timed with the
// precise clock. The move context answers agents.ClockKey with the
// referee's own agents.Clock, rewritten before each move (no allocation):
// both players' time left before the move and their increments. The two
// players of a simultaneous game think one after the other, each on its
// own clock. Options.TimeControl and MoveTime together are refused.
//
// Records then carry each clocked player's time control (Player.TC) and
// both players' time left after every ply the agents played (Game.Clocks);
// Game.MoveStats, one entry per move asked for with its time and the
// agent's statistics, is kept when a clock is in force or an agent is an
// agents.Reporter. Both lists are cut from blocks the referee allocates
// for many games, never reused, so a sink may keep them; games of other
// agents carry neither and cost nothing more.
//
// # Stuck agents
//
// The referee calls agents on the worker's own goroutine, which keeps a
// fast agent's move cheap. A watchdog goroutine scans the workers every
// quarter margin (at most 50 ms) for moves past their limit plus margin
// (plus a tick of the coarse clock). Each move costs the worker one
// compare-and-swap before the call, which publishes the move (with a
// snapshot of the game so far) and settles the previous one; the game's end
// costs another. Whichever of the worker and the watchdog swaps first owns
// the game, and the worker writes the record only after that.
// When it finds one, it takes the game over: records it as a timeout
// forfeit, and starts a replacement worker with fresh agent instances, so
// the tournament goes on. The stuck goroutine is left running — Go cannot
// stop it — with its context cancelled at the deadline; when its agent
// finally returns, the answer is discarded, its agent instances are closed
// and the goroutine exits. An agent that never returns keeps its goroutine
// (and whatever CPU it burns) until the process ends; external agents should
// watch the context so that their process is killed instead.
//
// # Records
//
// The worker that finishes a game hands it to the sink itself (no hand-off
// to another goroutine); games that finish while a batch is being written
// queue up and the writing worker writes them next, in one write (group
// commit). A worker whose two agents both answer in under 50 µs holds up to
// 16 finished games back, for at most a millisecond, and hands them over
// together: otherwise the workers would take turns at the delivery lock
// after every microsecond game. Games of slower agents go at once, and a
// worker hands over what it holds before a game whose agents are not known
// to be fast, when it stops, and (through the watchdog) when it hangs.
// Workers claim fixtures eight at a time while more than 512 remain, one
// at a time after that, so that they finish together; the fixtures of a
// worker the watchdog abandons go to its replacement.
//
// RunOptions.ReuseGames (set by the arena command) lets the arena reuse the
// memory of games the sink has returned from, so a run allocates nothing
// per game; the sink must then copy what it keeps.
//
// results.Writer writes each batch with a single write call, so a
// killed process leaves at most a torn last line, which results.Read
// ignores and results.Append cuts off. Nothing is fsynced: records survive
// a killed process, not a power cut.
//
// # Sessions
//
// A Session is one record-backed run, the way the tournament, match and
// tune commands play: OpenSession checks the options (Options.Check:
// errors are *option.Error values naming the field, which a command line
// shows as its flag) and creates the record file, or reads the record it
// continues once — its header rebuilds the tournament (its agents keep
// the names it records, see Options.Names), a caller's own
// options must agree with it, and the games recorded must be the
// schedule's — before anything is written. Run and RunMatch record every
// finished batch (one write) before the caller's sink sees it and keep the
// games, without their moves, for the tables (Games, Dataset). Connect
// opens what plays the run (a broker's coordinator) once the record's path
// is known, and Abandon removes a record that the session made and
// recorded nothing in, so that a run that could not start leaves no file.
//
// # Stopping
//
// Closing RunOptions.Stop (the CLI's first Ctrl-C) starts no new game and
// lets the running ones finish and be recorded. Cancelling the context (the
// second Ctrl-C) returns at once: running games are dropped, and every game
// already handed to the sink stays written. Interrupts turns the signals on
// a channel into these two stops; UntilStop ends a wait that is not a game
// (opening a broker) at the first.
package arena
