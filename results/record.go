package results

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// FormatVersion is the version of the record format this package writes.
// Readers accept files of this version or older and reject newer ones.
const FormatVersion = 1

// Record kinds: the "record" field of every line.
const (
	KindHeader = "header" // first line: the configuration
	KindGame   = "game"   // one finished game
	KindResume = "resume" // a note that the run was resumed here
)

// Tournament kinds (Config.Kind).
const (
	RoundRobin = "round-robin"
	Gauntlet   = "gauntlet"
	Match      = "match"
	// Sweep is arena tune sweep's schedule: the first Config.Swept agents
	// (one parameter's values) each play every other agent (the
	// opponents), never each other, with the seeds of (opponent, game) so
	// that every value meets each opponent in the same games.
	Sweep = "sweep"
	// Swiss and Knockout are the formats whose pairings depend on the
	// results (arena.Swiss, arena.Knockout): GamesPerPair is the games of
	// a board (a knockout match's before its tie-breaks), and the games'
	// indices are the format's (arena.FormatGame.Index).
	Swiss    = "swiss"
	Knockout = "knockout"
)

// Termination reasons (GameRecord.Termination).
const (
	// Normal: the game reached its end by the rules.
	Normal = "normal"
	// Timeout: a player overran the per-move wall clock (limit plus margin).
	Timeout = "timeout"
	// Crash: a player panicked or changed the position it was shown.
	Crash = "crash"
	// Error: a player returned an error (from Move or NewGame).
	Error = "error"
	// Illegal: a player returned an illegal move, output that is no move
	// at all, or a move that loses by the game's rules (a TryAngle Catch
	// unknown command: the game's own result stands, Detail says why).
	Illegal = "illegal_move"
	// Adjudication: the game was ended by the arena: at the ply cap,
	// scored as a draw (Adjudicated empty), or settled by the game's exact
	// solver (Adjudicated AdjudicatedSolved).
	Adjudication = "adjudication"
)

// AdjudicatedSolved is GameRecord.Adjudicated of a game ended by solver
// adjudication (Config.Adjudicate): its result is the end of perfect
// play from its last position.
const AdjudicatedSolved = "solved"

// Terminations lists every termination reason, normal first.
var Terminations = []string{Normal, Timeout, Crash, Error, Illegal, Adjudication}

// BothForfeit is GameRecord.Forfeit when both players of a simultaneous game
// failed on the same turn; the game is then a draw.
const BothForfeit = 2

// AgentInfo names one participant of a tournament.
type AgentInfo struct {
	Name string `json:"name"` // display name, unique within the tournament
	Spec string `json:"spec"` // agent spec as given, e.g. "mcts:iters=2000"
}

// Config is everything that decides which games a run plays and how. Two
// runs with equal Configs play the same games, so a resumed run compares
// them.
type Config struct {
	Kind         string      `json:"kind"`                  // RoundRobin, Gauntlet, Match, Sweep, Swiss or Knockout
	Game         string      `json:"game"`                  // canonical game spec, e.g. "erdos:algol"
	GameDigest   string      `json:"game_sha256,omitempty"` // SHA-256 of a map file the spec names (games.Variant.Digest)
	Agents       []AgentInfo `json:"agents"`                // in the order given
	GamesPerPair int         `json:"games_per_pair"`        // games per pairing (even); for a match, the cap
	Seed         uint64      `json:"seed"`
	// Openings is "random:K" or "file:PATH"; OpeningsDigest is the SHA-256
	// of the opening lines actually used, so that an edited file is noticed.
	Openings        string `json:"openings"`
	OpeningsDigest  string `json:"openings_sha256,omitempty"`
	ShuffleOpenings bool   `json:"shuffle_openings,omitempty"`
	// MoveTimeMS is the per-move limit for every agent; 0 means automatic
	// (each agent's time= budget, else the game's default, else the cap).
	MoveTimeMS   float64 `json:"move_time_ms"`
	MoveMarginMS float64 `json:"move_margin_ms"`
	MaxPlies     int     `json:"max_plies"`
	SPRT         *SPRT   `json:"sprt,omitempty"` // matches only
	// TimeControl is the run's clock, BASE[+INC] as agents.ParseTimeControl
	// reads it (e.g. "10s+100ms"), for every agent whose spec has no tc= key
	// of its own; empty for none.
	TimeControl string `json:"tc,omitempty"`
	// Adjudicate is the run's solver adjudication, as arena.ParseAdjudicate
	// writes it (e.g. "solve:empties=10,time=1s"); empty for none.
	Adjudicate string `json:"adjudicate,omitempty"`
	TotalGames int    `json:"total_games"` // planned games; a knockout's game numbers, not all played
	// Shard, when set, is the slice of the schedule this file plays
	// (--shard i/N); TotalGames still counts the whole run's games, and
	// game indices are the whole run's.
	Shard *Shard `json:"shard,omitempty"`
	// Swept is, for a Sweep, how many of the agents (the first) are the
	// swept values; 0 for the other kinds.
	Swept int `json:"swept,omitempty"`
	// Rounds is a Swiss tournament's number of rounds; Bye what its bye
	// earns ("win", "draw" or "loss"); ExtraPairs a knockout's tie-break
	// game pairs at most. The seeding of both is the agents' order.
	Rounds     int    `json:"rounds,omitempty"`
	Bye        string `json:"bye,omitempty"`
	ExtraPairs int    `json:"extra_pairs,omitempty"`
}

// Header is the first line of a record file.
type Header struct {
	Record      string `json:"record"` // KindHeader
	Version     int    `json:"version"`
	Created     string `json:"created"`     // RFC 3339
	Concurrency int    `json:"concurrency"` // workers of the first run (not part of Config)
	Config      Config `json:"config"`
}

// Resume is written when a run continues an existing file.
type Resume struct {
	Record      string `json:"record"` // KindResume
	Time        string `json:"time"`
	Concurrency int    `json:"concurrency"`
	Done        int    `json:"done"` // games already recorded
}

// Player is one side of a recorded game.
type Player struct {
	Agent     int     `json:"agent"` // index in Config.Agents
	Name      string  `json:"name"`
	Spec      string  `json:"spec"`
	Seed      uint64  `json:"seed"`        // the agent's seed for this game
	Moves     int     `json:"moves"`       // moves it was asked for and answered
	TimeMS    float64 `json:"time_ms"`     // total thinking time, NewGame included (a clock does not charge it)
	MaxMoveMS float64 `json:"max_move_ms"` // slowest move
	Nodes     int64   `json:"nodes"`       // total reported by agents.Reporter, else 0
	// TC is the player's time control in this game (BASE[+INC]), empty
	// when it played without a clock.
	TC string `json:"tc,omitempty"`
}

// GameRecord is one finished game.
type GameRecord struct {
	Record  string    `json:"record"` // KindGame
	Index   int       `json:"index"`  // position in the planned schedule
	Pair    int       `json:"pair"`   // pairing number
	Round   int       `json:"round"`  // game pair within the pairing; games 2r and 2r+1 share an opening
	Game    string    `json:"game"`   // game name
	Variant string    `json:"variant,omitempty"`
	Seed    uint64    `json:"seed"`
	Players [2]Player `json:"players"` // first mover first
	Opening []string  `json:"opening"` // the opening plies (also the start of Moves)
	Moves   []string  `json:"moves"`   // every ply from the start, in the game's notation
	Result  string    `json:"result"`  // "1-0", "0-1" or "1/2-1/2" from the first player's view
	Winner  int       `json:"winner"`  // 0, 1, or -1 for a draw
	Score   int       `json:"score"`   // the game's own margin from the first player's view
	// Termination is one of Terminations; Forfeit names the player who lost
	// by forfeit (0 or 1, BothForfeit, or -1 when nobody did); Detail says why.
	Termination string `json:"termination"`
	Forfeit     int    `json:"forfeit"`
	Detail      string `json:"detail,omitempty"`
	// Trimmed counts the bytes cut from the info texts of MoveStats and
	// from Detail so that the record fits MaxGameBytes (see Fit); each
	// cut text ends in TrimMark. Zero (left out) when nothing was cut.
	Trimmed int `json:"trimmed,omitempty"`
	// Adjudicated says why an adjudicated game was ended early:
	// AdjudicatedSolved, or empty for the ply cap (and in records older
	// than solver adjudication).
	Adjudicated string  `json:"adjudicated,omitempty"`
	Plies       int     `json:"plies"`
	DurationMS  float64 `json:"duration_ms"`
	// Clocks, when a clock was in force for either player, holds both
	// players' time left (ms, to the µs) after each ply the agents played
	// (not the opening's; a simultaneous game's joint ply is one entry):
	// Clocks[i] follows Moves[len(Opening)+i]. A player without a clock
	// shows NoClock.
	Clocks [][2]float64 `json:"clocks_ms,omitempty"`
	// MoveStats has one entry per move an agent was asked for and
	// answered, in the order they were asked (a simultaneous game's turn:
	// first player, then second), including a last move that forfeited
	// the game: so each player has Players[p].Moves entries. It is kept
	// when a clock was in force or either agent reports statistics
	// (agents.Reporter); games between other agents leave it out.
	MoveStats []MoveStat `json:"move_stats,omitempty"`
	// Worker names the broker worker that played the game (its
	// broker.WorkerOptions.Name; arena worker's default is HOST:PID), as the
	// coordinator received its result, so that a forfeit can be traced to a
	// machine; empty for a game played by the process that wrote the record. It is the
	// worker's own word (see the README's trust model).
	Worker string `json:"worker,omitempty"`
	// TCScale is the factor the worker's time limits were multiplied by
	// (the run's clock, its increment and --move-time; see docs/distributed.md):
	// the reference speed over WorkerNPS, so that a slower machine gets
	// more time. Absent (0) in a game played at the run's limits unscaled.
	TCScale float64 `json:"tc_scale,omitempty"`
	// WorkerNPS is the speed the worker measured on its benchmark (nodes
	// per second), with TCScale; the worker's own word, as Worker.
	WorkerNPS float64 `json:"worker_nps,omitempty"`
}

// Bounds of GameRecord.TCScale: a worker further from the reference
// speed than MaxTCScale times, either way, does not play a scaled run.
const (
	MinTCScale = 1.0 / MaxTCScale
	MaxTCScale = 20
)

// MaxWorkerName bounds GameRecord.Worker (the coordinator cuts longer names).
const MaxWorkerName = 100

// maxNPS bounds GameRecord.WorkerNPS, far above any machine.
const maxNPS = 1e15

// NoClock stands in GameRecord.Clocks for the time of a player who had no clock.
const NoClock = -1

// MoveStat is what a record keeps of one move: who chose it, how long it
// took, and what the agent reported of its search (zero when it reports
// nothing: Depth, Score and Nodes of agents.Stats; Info is free-form, for
// an engine the rest of its last info line, e.g. "nps 1200000 pv c4 e3").
type MoveStat struct {
	Player int     `json:"player"` // 0 first mover, 1 second
	MS     float64 `json:"ms"`     // thinking time, ms to the µs
	Depth  int     `json:"depth,omitempty"`
	Score  int     `json:"score,omitempty"` // from the mover's view
	Nodes  int64   `json:"nodes,omitempty"`
	Info   string  `json:"info,omitempty"`
}

// Points returns what the game was worth to seat p (0 first, 1 second).
func (g *GameRecord) Points(p int) float64 {
	switch g.Winner {
	case -1:
		return 0.5
	case p:
		return 1
	}
	return 0
}

// GameSpec returns the canonical game spec, e.g. "erdos:algol".
func (g *GameRecord) GameSpec() string {
	if g.Variant == "" {
		return g.Game
	}
	return g.Game + ":" + g.Variant
}

// Check reports the first inconsistency in a game record.
func (g *GameRecord) Check() error {
	if g.Record != KindGame {
		return fmt.Errorf("record %q is not a game", g.Record)
	}
	if g.Game == "" {
		return fmt.Errorf("missing game")
	}
	if g.Index < 0 {
		return fmt.Errorf("negative index %d", g.Index)
	}
	for p, pl := range g.Players {
		if pl.Name == "" {
			return fmt.Errorf("player %d has no name", p)
		}
	}
	if g.Players[0].Name == g.Players[1].Name {
		return fmt.Errorf("both players are named %q", g.Players[0].Name)
	}
	want := map[int]string{0: "1-0", 1: "0-1", -1: "1/2-1/2"}[g.Winner]
	if want == "" {
		return fmt.Errorf("winner %d is not 0, 1 or -1", g.Winner)
	}
	if g.Result != want {
		return fmt.Errorf("result %q does not match winner %d", g.Result, g.Winner)
	}
	if !slices.Contains(Terminations, g.Termination) {
		return fmt.Errorf("unknown termination %q (known: %s)", g.Termination, strings.Join(Terminations, ", "))
	}
	if g.Forfeit < -1 || g.Forfeit > BothForfeit {
		return fmt.Errorf("forfeit %d is not -1, 0, 1 or 2", g.Forfeit)
	}
	forfeitReason := g.Termination != Normal && g.Termination != Adjudication
	if forfeitReason != (g.Forfeit != -1) {
		return fmt.Errorf("termination %q with forfeit %d", g.Termination, g.Forfeit)
	}
	if g.Adjudicated != "" && (g.Adjudicated != AdjudicatedSolved || g.Termination != Adjudication) {
		return fmt.Errorf("adjudicated %q with termination %q (want %q with %q, or nothing)", g.Adjudicated, g.Termination, AdjudicatedSolved, Adjudication)
	}
	if g.Forfeit == 0 || g.Forfeit == 1 {
		if g.Winner != 1-g.Forfeit {
			return fmt.Errorf("player %d forfeited but the winner is %d", g.Forfeit, g.Winner)
		}
	}
	if g.Plies != Plies(g.Moves) {
		return fmt.Errorf("plies %d but %d moves", g.Plies, Plies(g.Moves))
	}
	if g.Trimmed < 0 {
		return fmt.Errorf("trimmed %d is negative", g.Trimmed)
	}
	if len(g.Worker) > MaxWorkerName {
		return fmt.Errorf("worker name of %d bytes; at most %d", len(g.Worker), MaxWorkerName)
	}
	if g.TCScale != 0 && !(g.TCScale >= MinTCScale && g.TCScale <= MaxTCScale) || !(g.WorkerNPS >= 0 && g.WorkerNPS <= maxNPS) {
		return fmt.Errorf("time-control scale %v and worker speed %v: want a scale of %v to %v (or none) and a speed of 0 to %v", g.TCScale, g.WorkerNPS, MinTCScale, float64(MaxTCScale), float64(maxNPS))
	}
	if len(g.Opening) > len(g.Moves) || !slices.Equal(g.Opening, g.Moves[:len(g.Opening)]) {
		return fmt.Errorf("the moves do not start with the opening")
	}
	return g.checkTimes()
}

// checkTimes checks Clocks and MoveStats against the moves and players.
func (g *GameRecord) checkTimes() error {
	if len(g.Clocks) > 0 {
		if n := g.Plies - Plies(g.Opening); len(g.Clocks) != n {
			return fmt.Errorf("%d clock entries for the %d plies after the opening", len(g.Clocks), n)
		}
		if g.Players[0].TC == "" && g.Players[1].TC == "" {
			return fmt.Errorf("clock times but neither player has a time control")
		}
		for i, c := range g.Clocks {
			for p, v := range c {
				switch {
				case g.Players[p].TC == "" && v != NoClock:
					return fmt.Errorf("clock entry %d: player %d has no time control but %v ms left (want %d)", i, p, v, NoClock)
				case g.Players[p].TC != "" && !(v >= 0 && v <= maxClockMS):
					return fmt.Errorf("clock entry %d: player %d has %v ms left (want 0 to %v)", i, p, v, float64(maxClockMS))
				}
			}
		}
	}
	if len(g.MoveStats) == 0 {
		return nil
	}
	var count [2]int
	for i, m := range g.MoveStats {
		switch {
		case m.Player != 0 && m.Player != 1:
			return fmt.Errorf("move stat %d: player %d is not 0 or 1", i, m.Player)
		case !(m.MS >= 0 && m.MS <= maxClockMS):
			return fmt.Errorf("move stat %d: time %v ms is not 0 to %v", i, m.MS, float64(maxClockMS))
		case m.Depth < 0 || m.Nodes < 0:
			return fmt.Errorf("move stat %d: negative depth %d or nodes %d", i, m.Depth, m.Nodes)
		}
		count[m.Player]++
	}
	for p, n := range count {
		if n != g.Players[p].Moves {
			return fmt.Errorf("%d move stats of player %d, who made %d moves", n, p, g.Players[p].Moves)
		}
	}
	return nil
}

// maxClockMS bounds the times of a record: a year in milliseconds, far
// beyond any clock or move (and finite, which JSON needs).
const maxClockMS = 365 * 24 * 3600e3

// MarshalLine encodes a record as one line of JSON ending in a newline.
func MarshalLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Diff lists the fields in which two configurations differ, as
// "field: a ≠ b" strings; it is empty when they are equal.
func (c Config) Diff(other Config) []string {
	var out []string
	add := func(field string, a, b any) {
		out = append(out, fmt.Sprintf("%s: %v (file) ≠ %v (now)", field, a, b))
	}
	if c.Kind != other.Kind {
		add("kind", c.Kind, other.Kind)
	}
	if c.Game != other.Game {
		add("game", c.Game, other.Game)
	}
	if c.GameDigest != other.GameDigest {
		add("content of the game's map file (sha256; restore the file the run began with)", short(c.GameDigest), short(other.GameDigest))
	}
	if !slices.Equal(c.Agents, other.Agents) {
		add("agents", agentList(c.Agents), agentList(other.Agents))
	}
	if c.GamesPerPair != other.GamesPerPair {
		add("games", c.GamesPerPair, other.GamesPerPair)
	}
	if c.Seed != other.Seed {
		add("seed", c.Seed, other.Seed)
	}
	if c.Openings != other.Openings {
		add("openings", c.Openings, other.Openings)
	}
	if c.OpeningsDigest != other.OpeningsDigest {
		add("openings content (sha256)", short(c.OpeningsDigest), short(other.OpeningsDigest))
	}
	if c.ShuffleOpenings != other.ShuffleOpenings {
		add("shuffle-openings", c.ShuffleOpenings, other.ShuffleOpenings)
	}
	if c.MoveTimeMS != other.MoveTimeMS {
		add("move-time (ms)", c.MoveTimeMS, other.MoveTimeMS)
	}
	if c.MoveMarginMS != other.MoveMarginMS {
		add("move-margin (ms)", c.MoveMarginMS, other.MoveMarginMS)
	}
	if c.MaxPlies != other.MaxPlies {
		add("max-plies", c.MaxPlies, other.MaxPlies)
	}
	switch {
	case (c.SPRT == nil) != (other.SPRT == nil):
		add("sprt", c.SPRT, other.SPRT)
	case c.SPRT != nil && *c.SPRT != *other.SPRT:
		add("sprt", c.SPRT.String(), other.SPRT.String())
	}
	if c.TimeControl != other.TimeControl {
		add("tc", orNone(c.TimeControl), orNone(other.TimeControl))
	}
	if c.Adjudicate != other.Adjudicate {
		add("adjudicate", orNone(c.Adjudicate), orNone(other.Adjudicate))
	}
	if c.TotalGames != other.TotalGames {
		add("total games", c.TotalGames, other.TotalGames)
	}
	if c.Shard.String() != other.Shard.String() {
		add("shard", orNone(c.Shard.String()), orNone(other.Shard.String()))
	}
	if c.Swept != other.Swept {
		add("swept values", c.Swept, other.Swept)
	}
	if c.Rounds != other.Rounds {
		add("rounds", c.Rounds, other.Rounds)
	}
	if c.Bye != other.Bye {
		add("bye", orNone(c.Bye), orNone(other.Bye))
	}
	if c.ExtraPairs != other.ExtraPairs {
		add("extra pairs", c.ExtraPairs, other.ExtraPairs)
	}
	return out
}

func agentList(a []AgentInfo) string {
	var parts []string
	for _, x := range a {
		if x.Name == x.Spec {
			parts = append(parts, x.Spec)
		} else {
			parts = append(parts, x.Name+"="+x.Spec)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func short(digest string) string {
	if len(digest) > 12 {
		return digest[:12]
	}
	if digest == "" {
		return "none"
	}
	return digest
}

// PositionPrefix starts a record's first move when the game began from a
// position given as text in the game's format (an openings line "fen …")
// rather than from the variant's start. That entry is the start, not a ply.
const PositionPrefix = "fen "

// Plies returns the number of plies in a record's moves: all of them but a
// leading start position (PositionPrefix).
func Plies(moves []string) int {
	if len(moves) > 0 && strings.HasPrefix(moves[0], PositionPrefix) {
		return len(moves) - 1
	}
	return len(moves)
}
