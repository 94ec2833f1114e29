package erdos

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// TestRandomGamesInvariants plays 10 000 seeded random games per rule set and
// checks every ply against the slow array rules: legal moves, units, owners,
// controllers and results, and the masks' bookkeeping. The game contract
// (undo, clones, hash, notation) is games/gamestest's conformance suite.
func TestRandomGamesInvariants(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	for _, rules := range bothRules {
		t.Run(rules.String(), func(t *testing.T) {
			r := rng.New(2026 + uint64(rules))
			var buf []games.Move
			var full, starved, draws, neutralFull int
			for g := 0; g < n; g++ {
				s := New(rules)
				slow := newSlow(rules == Algol)
				for !s.Terminal() {
					checkBookkeeping(t, s)
					buf = s.LegalMoves(buf[:0])
					checkMoveList(t, s, buf)
					m := buf[r.IntN(len(buf))]
					s.Play(m)

					i, l := Decode(m)
					slow.play(slowMove{i % Size, i / Size, l})
					compareSlow(t, s, &slow)
					if s.Ply() > MaxPlies {
						t.Fatalf("game %d exceeds %d plies", g, MaxPlies)
					}
				}
				checkBookkeeping(t, s)
				checkResult(t, s)
				if buf = s.LegalMoves(buf[:0]); len(buf) != 0 || s.NumLegal() != 0 {
					t.Fatalf("game %d: a finished game offers moves", g)
				}
				switch s.EndReason() {
				case ColumnCount:
					full++
					for f := 0; f < Size; f++ {
						if s.Controller(f) < 0 {
							neutralFull++
						}
					}
				case Starvation:
					starved++
				}
				if s.Outcome().Winner == games.Draw {
					draws++
				}
			}
			t.Logf("%d games: %d full boards (%d draws, %d neutral full columns), %d starvations", n, full, draws, neutralFull, starved)
			if rules == Standard && (draws != 0 || neutralFull != 0) {
				t.Errorf("standard rules: %d draws and %d neutral full columns, want none", draws, neutralFull)
			}
		})
	}
}

// checkBookkeeping checks the masks against each other and against the rules.
func checkBookkeeping(t *testing.T, s *State) {
	t.Helper()
	b := &s.b
	if int(b.ply) != bits.OnesCount32(b.occ) || int(b.side) != s.Ply()%2 || b.occ&^full != 0 {
		t.Fatalf("ply %d: %d units, side %d", s.Ply(), bits.OnesCount32(b.occ), b.side)
	}
	if b.own[0]&b.own[1] != 0 || (b.own[0]|b.own[1])&^b.occ != 0 || b.ctrl[0]&b.ctrl[1] != 0 {
		t.Fatalf("ply %d: overlapping owners or controllers", s.Ply())
	}
	var blocked [Size]uint32
	for i := 0; i < Cells; i++ {
		l := s.Level(i)
		if (l != 0) != (b.occ&(1<<i) != 0) {
			t.Fatalf("ply %d: %s level %d disagrees with the occupancy", s.Ply(), CellName(i), l)
		}
		if l != 0 {
			blocked[l-1] |= lines[i]
		}
	}
	if blocked != b.blocked {
		t.Fatalf("ply %d: blocked masks %v, recomputed %v", s.Ply(), b.blocked, blocked)
	}
	for f := 0; f < Size; f++ {
		col := fileA << f
		units := b.occ & col
		var levels [Size]int
		for r := range levels {
			levels[r] = s.Level(r*Size + f)
		}
		switch x := s.Controller(f); {
		case x >= 0:
			if b.own[x]&col != units || bits.OnesCount32(units) < 3 {
				t.Fatalf("ply %d: column %c of player %d holds units of other colours", s.Ply(), 'a'+f, x)
			}
		case (b.own[0]|b.own[1])&col != 0:
			t.Fatalf("ply %d: uncontrolled column %c holds coloured units", s.Ply(), 'a'+f)
		case !b.algol && (hasRun(levels, true, -1, nil) || hasRun(levels, false, -1, nil)):
			t.Fatalf("ply %d: uncontrolled column %c holds a chain\n%s", s.Ply(), 'a'+f, s)
		}
	}
}

// checkMoveList checks that the legal moves are in range and as many as
// NumLegal says (distinctness and the rest are the conformance suite's).
func checkMoveList(t *testing.T, s *State, moves []games.Move) {
	t.Helper()
	if len(moves) == 0 || len(moves) != s.NumLegal() {
		t.Fatalf("ply %d: %d legal moves, NumLegal %d", s.Ply(), len(moves), s.NumLegal())
	}
	for _, m := range moves {
		if m >= NumMoves {
			t.Fatalf("ply %d: bad move %d", s.Ply(), m)
		}
	}
}

// checkResult checks that a finished game's result follows from its end.
func checkResult(t *testing.T, s *State) {
	t.Helper()
	o := s.Outcome()
	last := 1 - int(s.b.side) // the player who placed last
	switch s.EndReason() {
	case ColumnCount:
		if s.Ply() != Cells {
			t.Fatalf("column count after %d plies", s.Ply())
		}
		counted := s.b.ctrl
		if s.b.algol {
			counted = s.hist[Cells-1].ctrl // Q2: before the last placement
		}
		d := bits.OnesCount8(counted[0]) - bits.OnesCount8(counted[1])
		want := games.Draw
		if d > 0 {
			want = 0
		} else if d < 0 {
			want = 1
		}
		if o.Score != d || o.Winner != want || last != 0 {
			t.Fatalf("full board: outcome %+v, columns %d–%d counted, last placement by %d", o, bits.OnesCount8(counted[0]), bits.OnesCount8(counted[1]), last)
		}
	case Starvation:
		if s.Ply() >= Cells || s.b.anyLegal() || o.Winner != last || o.Score != 1-2*last {
			t.Fatalf("starvation after %d plies: outcome %+v, last placement by %d", s.Ply(), o, last)
		}
	default:
		t.Fatalf("finished game without an end reason")
	}
}

// equalStates compares positions and the live part of their histories.
func equalStates(a, b *State) bool {
	return a.b == b.b && slices.Equal(a.hist[:a.b.ply], b.hist[:b.b.ply])
}

// fillerGame plays a seeded game that tends to fill the board: each ply picks,
// among the moves that leave the opponent the most legal moves, one at random.
// Random games rarely fill the board (under 1%), so this reaches the column
// count, and the algol rules' Q1 and Q2, far more often.
func fillerGame(s *State, r *rng.Rand, ply func(m games.Move)) {
	var buf, best []games.Move
	for !s.Terminal() {
		buf = s.LegalMoves(buf[:0])
		best, most := best[:0], -1
		for _, m := range buf {
			s.Play(m)
			n := s.NumLegal()
			if s.Terminal() && s.EndReason() == ColumnCount {
				n = NumMoves // filling the board is best of all
			}
			s.Undo()
			switch {
			case n > most:
				best, most = append(best[:0], m), n
			case n == most:
				best = append(best, m)
			}
		}
		m := best[r.IntN(len(best))]
		s.Play(m)
		ply(m)
	}
}

// TestFillerGamesAgainstSlow cross-checks board-filling games with the slow
// rules, the same move sequence under both rule sets.
func TestFillerGamesAgainstSlow(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	r := rng.New(77)
	var full, differ, q2 int
	for g := 0; g < n; g++ {
		s, alg := New(Standard), New(Algol)
		slow, slowAlg := newSlow(false), newSlow(true)
		fillerGame(s, r, func(m games.Move) {
			i, l := Decode(m)
			alg.Play(m)
			slow.play(slowMove{i % Size, i / Size, l})
			slowAlg.play(slowMove{i % Size, i / Size, l})
			compareSlow(t, s, &slow)
			compareSlow(t, alg, &slowAlg)
		})
		checkBookkeeping(t, s)
		checkBookkeeping(t, alg)
		checkResult(t, s)
		checkResult(t, alg)
		if s.EndReason() == ColumnCount {
			full++
			if alg.hist[Cells-1].ctrl != alg.b.ctrl {
				q2++
			}
			// The stale count never reverses the current count's winner.
			c1, c2 := alg.Columns()
			if w := alg.Outcome().Winner; w == 0 && c2 > c1 || w == 1 && c1 > c2 {
				t.Fatalf("game %d: stale count gives player %d the win, current count %d–%d", g, w+1, c1, c2)
			}
		}
		if s.b.own != alg.b.own {
			differ++
		}
	}
	t.Logf("%d games: %d full boards, %d with colours differing under algol, %d with a capture by the last placement", n, full, differ, q2)
	if full < n/2 || differ == 0 || q2 == 0 {
		t.Errorf("the filler games do not exercise the full board and the algol quirks")
	}
}
