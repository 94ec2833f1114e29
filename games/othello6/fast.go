package othello6

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/bitsel"
	"github.com/boardgame-arena/arena/rng"
)

// PerftBulk counts the leaves at depth plies below s on bare bitboards,
// counting the last ply's moves by population count instead of playing them.
func (s *State) PerftBulk(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if s.over {
		return 0
	}
	p := s.side
	return perftBulk(s.discs[p], s.discs[1-p], s.moves, depth)
}

// perftBulk counts leaves for the player owning me, whose legal placements are moves.
func perftBulk(me, opp, moves uint64, depth int) uint64 {
	if moves == 0 {
		oppMoves := Moves(opp, me)
		if oppMoves == 0 {
			return 0 // game over before the full depth
		}
		if depth == 1 {
			return 1 // the pass
		}
		return perftBulk(opp, me, oppMoves, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	var n uint64
	for m := moves; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		f := Flips(i, me, opp) | bit(i)
		nMe, nOpp := me|f, opp&^f
		n += perftBulk(nOpp, nMe, Moves(nOpp, nMe), depth-1)
	}
	return n
}

// RandomPlayout plays uniformly random legal moves from s to the end of the
// game on bare bitboards (s itself is not changed) and returns the outcome.
func (s *State) RandomPlayout(r *rng.Rand) games.Outcome {
	if s.over {
		return s.Outcome()
	}
	me, opp, moves := s.discs[s.side], s.discs[1-s.side], s.moves
	side := s.side
	for {
		if moves == 0 {
			moves = Moves(opp, me)
			if moves == 0 {
				break
			}
			me, opp, side = opp, me, 1-side // pass
			continue
		}
		// Pick the k-th set bit of moves.
		i := bitsel.Select(moves, r.IntN(bits.OnesCount64(moves)))
		f := Flips(i, me, opp) | bit(i)
		me, opp = opp&^f, me|f
		side = 1 - side
		moves = Moves(me, opp)
	}
	var d [2]uint64
	d[side], d[1-side] = me, opp
	return outcome(d[0], d[1])
}

func outcome(first, second uint64) games.Outcome {
	return games.MarginOutcome(bits.OnesCount64(first) - bits.OnesCount64(second))
}
