package arena

import (
	"fmt"
	"slices"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
)

// CheckGame checks a finished game that someone else says they played for
// this tournament (a remote worker, package broker) before it is recorded:
// its index must be in the schedule and its pairing, round, seeds, players
// and opening those the schedule gives that index; its moves must replay
// legally from the opening with the game's rules; and its result must be
// the final position's when the game ended normally, a draw at the ply cap
// when adjudicated at the cap, and what solving the final position again
// gives when adjudicated as solved (Options.Adjudicate "solve"). A forfeit (time, crash, illegal move) cannot be
// re-checked beyond the legality of the moves before it. Times and move
// statistics are not checked.
func (t *Tournament) CheckGame(g *results.GameRecord) error {
	if g == nil {
		return fmt.Errorf("no game")
	}
	pos, ok := t.FixturePos(g.Index)
	if !ok {
		return fmt.Errorf("game index %d is not in the schedule", g.Index)
	}
	if err := g.Check(); err != nil {
		return fmt.Errorf("game %d: %v", g.Index, err)
	}
	f := t.Schedule.At(pos)
	if g.Pair != f.Pair || g.Round != f.Round || g.Seed != f.Seed {
		return fmt.Errorf("game %d: pair %d, round %d, seed %d; the schedule says pair %d, round %d, seed %d", g.Index, g.Pair, g.Round, g.Seed, f.Pair, f.Round, f.Seed)
	}
	for p := range 2 {
		pl, idx := g.Players[p], f.Seats[p]
		info := t.Config.Agents[idx]
		if pl.Agent != idx || pl.Name != info.Name || pl.Spec != info.Spec || pl.Seed != f.Agents[p] {
			return fmt.Errorf("game %d: player %d is %q (agent %d, seed %d); the schedule says %q (agent %d, seed %d)", g.Index, p, pl.Name, pl.Agent, pl.Seed, info.Name, idx, f.Agents[p])
		}
	}
	setup := t.setup
	setup.Opening = t.Opening(f.Round)
	if v := setup.Opening.Variant; v != nil {
		setup.Variant, setup.name, setup.variant, setup.key = *v, "", "", ""
	}
	name, variant := setup.names()
	if g.Game != name || g.Variant != variant {
		return fmt.Errorf("game %d: game %q variant %q; the schedule says %q variant %q", g.Index, g.Game, g.Variant, name, variant)
	}
	open := setup.Opening.texts()
	if !slices.Equal(g.Opening, open) || len(g.Moves) < len(open) || !slices.Equal(g.Moves[:len(open)], open) {
		return fmt.Errorf("game %d: the opening is not the schedule's %q", g.Index, strings.Join(open, " "))
	}
	if g.Plies != results.Plies(g.Moves) {
		return fmt.Errorf("game %d: %d plies recorded for %d moves", g.Index, g.Plies, results.Plies(g.Moves))
	}
	var b games.Base
	if s := setup.Opening.State(); s != nil {
		b = s
	} else {
		b = setup.Variant.New()
	}
	if _, err := setup.Opening.apply(b, nil); err != nil {
		return fmt.Errorf("game %d: opening: %v", g.Index, err)
	}
	for i, text := range g.Moves[len(open):] {
		if b.Terminal() {
			return fmt.Errorf("game %d: move %d %q after the end of the game", g.Index, len(open)+i+1, text)
		}
		ply, err := parsePly(b, text)
		if err != nil {
			return fmt.Errorf("game %d: move %d: %v", g.Index, len(open)+i+1, err)
		}
		games.PlayPly(b, ply)
	}
	if err := checkIllegalClaim(g, b); err != nil {
		return err
	}
	switch g.Termination {
	case results.Normal:
		if !b.Terminal() {
			return fmt.Errorf("game %d: recorded as ended normally, but the final position is not a finished game", g.Index)
		}
		if o := b.Outcome(); o.Winner != g.Winner || o.Score != g.Score || o.Result() != g.Result {
			return fmt.Errorf("game %d: recorded %s (score %d), the final position gives %s (score %d)", g.Index, g.Result, g.Score, o.Result(), o.Score)
		}
	case results.Adjudication:
		if g.Adjudicated == results.AdjudicatedSolved {
			return checkSolved(g, t.setup.Solve, b)
		}
		if b.Terminal() || t.setup.MaxPlies == 0 || b.Ply() != t.setup.MaxPlies || g.Winner != games.Draw {
			return fmt.Errorf("game %d: adjudicated, but the game is not a draw at the ply cap %d", g.Index, t.setup.MaxPlies)
		}
	}
	return nil
}

// parsePly reads one recorded ply: a move of a sequential game, or a joint
// move "a | b" of a simultaneous one, each legal in b as the referee
// judges legality (see legalFor).
func parsePly(b games.Base, text string) ([2]games.Move, error) {
	var ply [2]games.Move
	if s, ok := b.(games.State); ok {
		m, err := s.ParseMove(text)
		if err != nil {
			return ply, fmt.Errorf("unreadable move %q: %v", text, err)
		}
		if !legalFor(b, s.ToMove(), m) {
			return ply, fmt.Errorf("illegal move %q", text)
		}
		ply[0] = m
		return ply, nil
	}
	a, c, ok := strings.Cut(text, "|")
	if !ok {
		return ply, fmt.Errorf("%q is not a joint move \"a | b\"", text)
	}
	for p, part := range []string{a, c} {
		m, err := b.ParseMove(strings.TrimSpace(part))
		if err != nil {
			return ply, fmt.Errorf("player %d: %v", p, err)
		}
		if !legalFor(b, p, m) {
			return ply, fmt.Errorf("illegal move %q for player %d", strings.TrimSpace(part), p)
		}
		ply[p] = m
	}
	return ply, nil
}

// legalFor is the referee's test of a move (referee.ask): the game's own
// check, else the listed moves, else the game's validator of moves it does
// not list.
func legalFor(b games.Base, p int, m games.Move) bool {
	if c, ok := b.(games.LegalChecker); ok && c.Legal(m) {
		return true
	}
	if contains(games.LegalMovesFor(b, p, nil), m) {
		return true
	}
	v, ok := b.(games.MoveValidator)
	return ok && v.ValidMove(p, m)
}

// FixturePos returns the position in t.Schedule of the game with the given
// index (Fixture.Index, the record's index), and whether it is planned.
func (t *Tournament) FixturePos(index int) (int, bool) { return t.Schedule.Pos(index) }
