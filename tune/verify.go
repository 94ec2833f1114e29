package tune

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// DefaultVerifyGames is the most games a verification match plays when
// VerifyOptions.Games is 0.
const DefaultVerifyGames = 2000

// DefaultVerifySPRT is the verification test when VerifyOptions.SPRT is
// zero: is the tuned agent at least as strong as the start (elo0=0) or
// better by 5 Elo (elo1=5)?
var DefaultVerifySPRT = results.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}

// VerifyOptions configures a verification match: the tuned agent against
// the agent it started from, in colour-swapped pairs until the SPRT decides
// or Games run out.
type VerifyOptions struct {
	// Match holds the game, openings, limits and seed of the match; Verify
	// sets its Kind, Agents, GamesPerPair and SPRT.
	Match arena.Options
	Tuned string // agent spec: the tuned agent, whose results are counted
	Start string // agent spec: the agent before tuning
	// SPRT is the test; the zero value means DefaultVerifySPRT.
	SPRT results.SPRT
	// Games is the most games (even); 0 means DefaultVerifyGames.
	Games int
	// Out, if not empty, is a new record file for the match's games (a
	// file that exists is refused before any game).
	Out string
	// Run carries the workers (Concurrency), Runner, Stop, Sink and Log of
	// the match (see arena.RunOptions); the sink sees a batch once Out has
	// it. Verify sets Done: the match starts anew.
	Run arena.RunOptions
	// OnPairs, if not nil, is called as pairs complete (for progress).
	OnPairs func(*results.PairTracker)
}

// VerifyResult is the outcome of a verification match, from the tuned
// agent's view.
type VerifyResult struct {
	Tuned, Start string
	SPRT         results.SPRT
	// Decision is "H1 accepted" (the tuned agent is better), "H0 accepted"
	// (it is not) or "continue" (undecided when the games ran out or the
	// match was stopped).
	Decision string
	Complete bool // the test decided or every planned game was played
	LLR      float64
	LLRLower float64
	LLRUpper float64
	Penta    results.Penta
	WDL      results.WDL
	Estimate results.Estimate // Elo with its 95 % interval, LOS
}

// Verify plays the verification match. Its error is the arena's (a bad
// option, a failed sink, a cancelled context); a match stopped through
// Run.Stop returns what was counted with Complete false.
func Verify(ctx context.Context, o VerifyOptions) (VerifyResult, error) {
	test := o.SPRT
	if test == (results.SPRT{}) {
		test = DefaultVerifySPRT
	}
	if err := test.Check(); err != nil {
		return VerifyResult{}, fmt.Errorf("verification SPRT: %v", err)
	}
	if o.Games == 0 {
		o.Games = DefaultVerifyGames
	}
	m := o.Match
	m.Kind = results.Match
	m.Agents = []string{o.Tuned, o.Start}
	m.GamesPerPair = o.Games
	m.SPRT = &test
	s, err := session("verification match", arena.SessionOptions{Options: m, Out: o.Out}, o.Run.Concurrency, o.Run.Runner != nil)
	if err != nil {
		return VerifyResult{}, err
	}
	defer s.Close()
	tr, st, err := s.RunMatch(ctx, o.Run, o.OnPairs)
	if err != nil {
		return VerifyResult{}, err
	}
	r := VerifyResult{
		Tuned: o.Tuned, Start: o.Start, SPRT: test,
		Decision: tr.Decision.String(),
		Complete: tr.Decision != results.Continue || st.Complete,
		LLR:      tr.LLR, Penta: tr.Penta, WDL: tr.WDL,
		Estimate: tr.Penta.Estimate(0.95),
	}
	r.LLRLower, r.LLRUpper = test.Bounds()
	return r, nil
}

// Games is the number of games counted (complete pairs).
func (r VerifyResult) Games() int { return 2 * r.Penta.Pairs() }

// String is a one-line summary, e.g. "H1 accepted after 412 games:
// LLR 2.96 [-2.94, 2.94], Elo +35.2 (95 %: +4.1 to +66.3), W-D-L 180-52-180".
func (r VerifyResult) String() string {
	e := r.Estimate
	return fmt.Sprintf("%s after %d games: LLR %.2f [%.2f, %.2f], Elo %s (95 %%: %s to %s), LOS %.1f %%, W-D-L %s",
		r.Decision, r.Games(), r.LLR, r.LLRLower, r.LLRUpper,
		results.FormatElo(e.Elo), results.FormatElo(e.EloLow), results.FormatElo(e.EloHigh), 100*e.LOS, r.WDL)
}

// verifyJSON is the JSON form of VerifyResult: NaN and ±Inf (no games, or
// all won) become null.
type verifyJSON struct {
	Tuned    string        `json:"tuned"`
	Start    string        `json:"start"`
	SPRT     results.SPRT  `json:"sprt"`
	Decision string        `json:"decision"`
	Complete bool          `json:"complete"`
	Games    int           `json:"games"`
	Penta    results.Penta `json:"penta"`
	Wins     int           `json:"wins"`
	Draws    int           `json:"draws"`
	Losses   int           `json:"losses"`
	LLR      *float64      `json:"llr"`
	LLRLower float64       `json:"llr_lower"`
	LLRUpper float64       `json:"llr_upper"`
	Elo      *float64      `json:"elo"`
	EloLow   *float64      `json:"elo_low"`
	EloHigh  *float64      `json:"elo_high"`
	LOS      *float64      `json:"los"`
}

func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// MarshalJSON writes the result with snake_case keys; undefined numbers
// are null.
func (r VerifyResult) MarshalJSON() ([]byte, error) {
	e := r.Estimate
	return json.Marshal(verifyJSON{
		Tuned: r.Tuned, Start: r.Start, SPRT: r.SPRT, Decision: r.Decision, Complete: r.Complete,
		Games: r.Games(), Penta: r.Penta, Wins: r.WDL.Wins, Draws: r.WDL.Draws, Losses: r.WDL.Losses,
		LLR: finite(r.LLR), LLRLower: r.LLRLower, LLRUpper: r.LLRUpper,
		Elo: finite(e.Elo), EloLow: finite(e.EloLow), EloHigh: finite(e.EloHigh), LOS: finite(e.LOS),
	})
}
