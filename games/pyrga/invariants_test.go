package pyrga

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// sameLive reports whether a and b hold the same position and history (the
// history slots beyond Ply are scratch space and may differ).
func sameLive(a, b *State) bool {
	return a.position == b.position && a.ply == b.ply && a.bga == b.bga && equalHist(a, b)
}

func equalHist(a, b *State) bool {
	for i := range a.ply {
		if a.hist[i] != b.hist[i] || a.moves[i] != b.moves[i] {
			return false
		}
	}
	return true
}

// moveSet collects moves as a 256-bit set.
type moveSet [4]uint64

func (m *moveSet) add(x int) bool {
	if m[x>>6]&(1<<(x&63)) != 0 {
		return false
	}
	m[x>>6] |= 1 << (x & 63)
	return true
}

// checkAgainstSlow fails unless s and g offer the same legal moves and agree
// on whether the game is over.
func checkAgainstSlow(t *testing.T, s *State, g *slowGame, legal []games.Move) {
	t.Helper()
	var fast, slow moveSet
	for _, m := range legal {
		fast.add(int(m))
	}
	for _, m := range g.legal() {
		slow.add(m.encode())
	}
	if fast != slow || s.Terminal() != g.over {
		t.Fatalf("ply %d: fast and slow disagree: fast %s (over %v), slow %v (over %v)\n%s",
			s.Ply(), games.FormatMoves(s, legal), s.Terminal(), g.legal(), g.over, s)
	}
}

// randomPrefix plays up to plies random moves on both implementations in
// lockstep, checking that they agree, and returns both.
func randomPrefix(t *testing.T, bga bool, seed uint64, plies int) (*State, slowGame) {
	t.Helper()
	r := rng.New(seed)
	s, g := newVariant(bga), newSlow(bga)
	var buf [games.MaxMoves]games.Move
	for range plies {
		legal := s.LegalMoves(buf[:0])
		checkAgainstSlow(t, s, &g, legal)
		if len(legal) == 0 {
			break
		}
		m := legal[r.IntN(len(legal))]
		slowM, ok := g.find(FormatMove(m))
		if !ok {
			t.Fatalf("slow has no move %s", FormatMove(m))
		}
		s.Play(m)
		g.play(slowM)
	}
	return s, g
}

// endReason classifies how a finished game ended.
type endReason int

const (
	wonByMover endReason = iota
	wonCarelessly
	tieBreakTowers
	tieBreakPairs
	tieBreakSingles
	drawn
	numReasons
)

var reasonNames = [numReasons]string{"three towers (mover)", "three towers (opponent's completion)",
	"tie-break on towers", "tie-break on pairs", "tie-break on singles", "draw"}

// checkFinished checks a finished game's result against the rules and the
// slow implementation and returns how it ended.
func checkFinished(t *testing.T, s *State, g *slowGame) endReason {
	t.Helper()
	if !s.Terminal() || s.ToMove() != games.None || len(s.LegalMoves(nil)) != 0 {
		t.Fatalf("finished game still offers moves")
	}
	if s.Ply() > MaxPlies {
		t.Fatalf("game lasted %d plies, bound %d", s.Ply(), MaxPlies)
	}
	o, tl := s.Outcome(), s.Tallies()
	if o.Winner != g.winner() {
		t.Fatalf("winner %d, slow implementation says %d\n%s", o.Winner, g.winner(), s)
	}
	if slowT := [2][3]int{g.counts(0), g.counts(1)}; slowT != [2][3]int{
		{tl[0].Towers, tl[0].Pairs, tl[0].Singles}, {tl[1].Towers, tl[1].Pairs, tl[1].Singles}} {
		t.Fatalf("tallies %+v, slow %v", tl, slowT)
	}
	if (o.Winner == games.Draw) != (o.Score == 0) || (o.Winner == 0) != (o.Score > 0) {
		t.Fatalf("score %d does not match winner %d", o.Score, o.Winner)
	}
	mover := (s.Ply() - 1) & 1
	switch {
	case tl[0].Towers >= 3 || tl[1].Towers >= 3:
		if tl[0].Towers >= 3 && tl[1].Towers >= 3 {
			t.Fatalf("both players have three towers")
		}
		if tl[o.Winner].Towers < 3 || o.Score != tl[0].Towers-tl[1].Towers {
			t.Fatalf("three-tower win misreported: %+v, tallies %+v", o, tl)
		}
		if o.Winner == mover {
			return wonByMover
		}
		return wonCarelessly
	case o.Winner == games.Draw:
		if tl[0] != tl[1] {
			t.Fatalf("draw with tallies %+v", tl)
		}
		return drawn
	case tl[0].Towers != tl[1].Towers:
		if o.Score != tl[0].Towers-tl[1].Towers {
			t.Fatalf("score %d, tower difference %d", o.Score, tl[0].Towers-tl[1].Towers)
		}
		return tieBreakTowers
	case tl[0].Pairs != tl[1].Pairs:
		if o.Score != tl[0].Pairs-tl[1].Pairs {
			t.Fatalf("score %d, pair difference %d", o.Score, tl[0].Pairs-tl[1].Pairs)
		}
		return tieBreakPairs
	}
	if o.Score != tl[0].Singles-tl[1].Singles {
		t.Fatalf("score %d, singles difference %d", o.Score, tl[0].Singles-tl[1].Singles)
	}
	return tieBreakSingles
}

// checkCounters checks stocks and piece masks against the ply count.
func checkCounters(t *testing.T, s *State) {
	t.Helper()
	var placed [2]int
	for p := range 2 {
		for k := range 3 {
			if st := s.Stock(p, k); st < 0 || st > PiecesPerType {
				t.Fatalf("stock of player %d type %d is %d", p, k, st)
			}
			placed[p] += PiecesPerType - s.Stock(p, k)
		}
	}
	if placed[0] != (s.Ply()+1)/2 || placed[1] != s.Ply()/2 {
		t.Fatalf("ply %d with %v pieces placed", s.Ply(), placed)
	}
	for k := range 3 {
		if s.Pieces(0, k)&s.Pieces(1, k) != 0 {
			t.Fatalf("two pieces of type %d share a cell", k)
		}
	}
}

// TestRandomGames plays ≥10 000 seeded random games per variant and checks,
// after every ply, the legal moves against the slow implementation's and
// the counters' consistency. Finished games are checked against the rules,
// and the fast playout with the same seed must reach the same end. The game
// contract (undo, clones, hash, notation) is games/gamestest's conformance
// suite.
func TestRandomGames(t *testing.T) {
	games_ := 10000
	if testing.Short() {
		games_ = 2000
	}
	for _, bga := range []bool{false, true} {
		t.Run(variantName(bga), func(t *testing.T) {
			var reasons [numReasons]int
			var buf [games.MaxMoves]games.Move
			for seed := range uint64(games_) {
				r := rng.New(seed)
				s, g := newVariant(bga), newSlow(bga)
				for !s.Terminal() {
					if s.Ply() >= MaxPlies {
						t.Fatalf("seed %d: game not over after %d plies", seed, s.Ply())
					}
					if s.ToMove() != s.Ply()&1 {
						t.Fatalf("seed %d: ToMove %d at ply %d", seed, s.ToMove(), s.Ply())
					}
					checkCounters(t, s)
					legal := s.LegalMoves(buf[:0])
					checkAgainstSlow(t, s, &g, legal)
					if len(legal) > 80 {
						t.Fatalf("%d legal moves", len(legal))
					}
					m := legal[r.IntN(len(legal))]
					s.Play(m)
					slowM, ok := g.find(FormatMove(m))
					if !ok {
						t.Fatalf("slow has no move %s", FormatMove(m))
					}
					g.play(slowM)
				}
				checkCounters(t, s)
				checkAgainstSlow(t, s, &g, nil)
				reasons[checkFinished(t, s, &g)]++
				// The fast playout draws the same moves from the same seed.
				start := newVariant(bga)
				if o := start.RandomPlayout(rng.New(seed)); o != s.Outcome() {
					t.Fatalf("seed %d: RandomPlayout %+v, game %+v", seed, o, s.Outcome())
				}
			}
			for i, n := range reasons {
				t.Logf("%-38s %5d", reasonNames[i], n)
				if n == 0 && !testing.Short() {
					t.Errorf("no game ended by %s", reasonNames[i])
				}
			}
		})
	}
}
