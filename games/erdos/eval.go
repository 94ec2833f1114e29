package erdos

import (
	"math/bits"

	"github.com/boardgame-arena/arena/games"
)

// resultWeight scales the final score of a finished game; the heuristic
// weights are in weights.go.
const resultWeight = 1000

// Evaluate implements games.Evaluator; see the package comment for the terms.
func (s *State) Evaluate(p int) int {
	b := &s.b
	if b.reason != NotOver {
		d := int(b.score)
		if p == 1 {
			d = -d
		}
		switch {
		case int(b.winner) == p:
			return games.WinScore/2 + resultWeight*abs(d)
		case b.winner == games.Draw:
			return 0
		}
		return -games.WinScore/2 - resultWeight*abs(d)
	}
	w := s.weights
	if w == nil {
		w = defaultWeights
	}
	w = w[:numWeights]
	v := w[wColumn] * (bits.OnesCount8(b.ctrl[p]) - bits.OnesCount8(b.ctrl[1-p]))
	threats := b.threats()
	return v + w[wThreat]*(bits.OnesCount8(threats[p])-bits.OnesCount8(threats[1-p]))
}

// threats returns, per player, the uncontrolled files that player would
// capture with some legal placement if it were their turn.
func (b *board) threats() (t [2]uint8) {
	open := ^(b.ctrl[0] | b.ctrl[1]) & (1<<Size - 1)
	for l := 0; l < Size; l++ {
		for m := b.legal(l); m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			f, r := i%Size, i/Size
			fb := uint8(1) << f
			if open&fb == 0 || (t[0]&t[1])&fb != 0 {
				continue
			}
			saved := b.code[f]
			b.code[f] += uint16(l+1) * pow6[r]
			for p := 0; p < 2; p++ {
				if b.captor(f, r, p) == p {
					t[p] |= fb
				}
			}
			b.code[f] = saved
		}
	}
	return t
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
