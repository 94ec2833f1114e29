package pyrga

import "github.com/boardgame-arena/arena/games"

// Evaluate implements games.Evaluator; see the package comment for the terms.
func (s *State) Evaluate(p int) int {
	if s.over {
		o := s.Outcome()
		switch {
		case o.Winner == games.Draw:
			return 0
		case o.Winner == p:
			return games.WinScore/2 + 1000*abs(o.Score)
		}
		return -games.WinScore/2 - 1000*abs(o.Score)
	}
	w := s.weights
	if w == nil {
		w = defaultWeights
	}
	w = w[:numWeights]
	t := tallies(&s.pieces)
	me, opp := t[p], t[1-p]
	v := w[wTower]*(me.Towers-opp.Towers) +
		w[wPair]*(me.Pairs-opp.Pairs) +
		w[wSingle]*(me.Singles-opp.Singles)
	mover := s.ply & 1
	if s.canCompleteOwn(mover) {
		bonus := w[wTempo]
		if t[mover].Towers == 2 {
			bonus = w[wThreat] // the mover can complete its third tower
		}
		if mover != p {
			bonus = -bonus
		}
		v += bonus
	}
	return v
}

// canCompleteOwn reports whether one of the legal moves of the player to
// move, mover, completes a tower that mover then controls: the cell lacks
// only the placed type and already holds one of mover's pieces.
func (s *State) canCompleteOwn(mover int) bool {
	pc := &s.pieces
	occS := pc[0][Square] | pc[1][Square]
	occT := pc[0][Triangle] | pc[1][Triangle]
	occC := pc[0][Cylinder] | pc[1][Cylinder]
	mine := &pc[mover]
	l := &s.legal
	legalT := l[1] | l[2] | l[3] | l[4]
	return l[0]&occT&occC&(mine[Triangle]|mine[Cylinder]) != 0 ||
		legalT&occS&occC&(mine[Square]|mine[Cylinder]) != 0 ||
		l[5]&occS&occT&(mine[Square]|mine[Triangle]) != 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
