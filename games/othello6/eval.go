package othello6

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
)

const (
	corners uint64 = 1<<0 | 1<<5 | 1<<30 | 1<<35
	// Weights of the evaluation documented in the package comment.
	cornerWeight   = 100
	xSquareWeight  = -50
	cSquareWeight  = -20
	mobilityWeight = 10
	lateEmpties    = 12
)

// xSquares[k] and cSquares[k] are the cells next to corner k (a1, f1, a6, f6).
var (
	cornerCells = [4]int{0, 5, 30, 35}
	xSquares    = [4]uint64{bit(7), bit(10), bit(25), bit(28)}
	cSquares    = [4]uint64{bit(1) | bit(6), bit(4) | bit(11), bit(24) | bit(31), bit(29) | bit(34)}
)

// Evaluate implements games.Evaluator; see the package comment for the terms.
func (s *State) Evaluate(p int) int {
	me, opp := s.discs[p], s.discs[1-p]
	discs := bits.OnesCount64(me) - bits.OnesCount64(opp)
	if s.over {
		switch {
		case discs > 0:
			return games.WinScore/2 + 1000*discs
		case discs < 0:
			return -games.WinScore/2 + 1000*discs
		}
		return 0
	}
	v := cornerWeight * (bits.OnesCount64(me&corners) - bits.OnesCount64(opp&corners))
	empty := ^(me | opp) & full
	for k, c := range cornerCells {
		if empty&bit(c) == 0 {
			continue
		}
		v += xSquareWeight * (bits.OnesCount64(me&xSquares[k]) - bits.OnesCount64(opp&xSquares[k]))
		v += cSquareWeight * (bits.OnesCount64(me&cSquares[k]) - bits.OnesCount64(opp&cSquares[k]))
	}
	v += mobilityWeight * (bits.OnesCount64(Moves(me, opp)) - bits.OnesCount64(Moves(opp, me)))
	if bits.OnesCount64(empty) <= lateEmpties {
		return v + 4*discs
	}
	return v + discs
}
