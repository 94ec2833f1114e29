package arena

import (
	"errors"
	"math/bits"
	"slices"
	"strconv"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// boardResult draws a board's points (half-points of Agents[0] and
// Agents[1]) game by game: each game a win, draw or loss with equal odds.
func boardResult(r *rng.Rand, games int) [2]int {
	var p [2]int
	for g := 0; g < games; g++ {
		switch r.IntN(3) {
		case 0:
			p[0] += 2
		case 1:
			p[0]++
			p[1]++
		default:
			p[1] += 2
		}
	}
	return p
}

// swissStats is what a played Swiss tournament showed.
type swissStats struct {
	rounds     int // rounds paired
	stuck      bool
	maxDiff    int // largest |started − seconded| of any agent
	maxRun     int // longest run of one colour
	floatsHalf int // sum over boards of the score difference, half-points
}

// playSwiss pairs and plays rounds until s.Rounds or a round that cannot
// be paired, checking the hard rules after every round.
func playSwiss(t *testing.T, s *Swiss, r *rng.Rand) ([]SwissRound, swissStats) {
	t.Helper()
	var hist []SwissRound
	var st swissStats
	n := s.Agents
	met := map[[2]int]bool{}
	hadBye := make([]bool, n)
	score := make([]int, n)
	colours := make([][]int8, n)
	for round := 0; round < s.Rounds; round++ {
		boards, bye, err := s.Pair(hist)
		var np *NoPairingError
		if errors.As(err, &np) {
			if np.Round != round {
				t.Fatalf("NoPairingError for round %d in round %d", np.Round, round)
			}
			st.stuck = true
			return hist, st
		}
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]int, n)
		if (bye >= 0) != (n%2 == 1) {
			t.Fatalf("%d agents, round %d: bye %d", n, round, bye)
		}
		if bye >= 0 {
			seen[bye]++
			if hadBye[bye] {
				t.Fatalf("%d agents, round %d: a second bye for agent %d", n, round, bye)
			}
			hadBye[bye] = true
			score[bye] += s.byeHalf()
		}
		var pts [][2]int
		for _, b := range boards {
			a, c := b.Agents[0], b.Agents[1]
			seen[a]++
			seen[c]++
			key := [2]int{min(a, c), max(a, c)}
			if met[key] {
				t.Fatalf("%d agents, round %d: agents %d and %d meet again", n, round, a, c)
			}
			met[key] = true
			st.floatsHalf += abs(score[a] - score[c])
			p := boardResult(r, s.GamesPerBoard)
			pts = append(pts, p)
			colours[a] = append(colours[a], 1)
			colours[c] = append(colours[c], -1)
		}
		for a, k := range seen {
			if k != 1 {
				t.Fatalf("%d agents, round %d: agent %d is on %d boards or byes", n, round, a, k)
			}
		}
		for i, b := range boards {
			score[b.Agents[0]] += pts[i][0]
			score[b.Agents[1]] += pts[i][1]
		}
		hist = append(hist, SwissRound{Boards: boards, Bye: bye, Points: pts})
		st.rounds++
	}
	for _, cs := range colours {
		d, run := 0, 0
		for i, c := range cs {
			d += int(c)
			if i > 0 && cs[i-1] == c {
				run++
			} else {
				run = 1
			}
			st.maxRun = max(st.maxRun, run)
		}
		st.maxDiff = max(st.maxDiff, abs(d))
	}
	return hist, st
}

// pairable says by exhaustive search whether the agents of history can be
// paired once more (no rematch, no second bye): what a NoPairingError
// claims is impossible.
func pairable(n int, hist []SwissRound) bool {
	edge := make([][]bool, n)
	for i := range edge {
		edge[i] = make([]bool, n)
		for j := range edge[i] {
			edge[i][j] = i != j
		}
	}
	hadBye := make([]bool, n)
	for _, r := range hist {
		if r.Bye >= 0 {
			hadBye[r.Bye] = true
		}
		for _, b := range r.Boards {
			edge[b.Agents[0]][b.Agents[1]], edge[b.Agents[1]][b.Agents[0]] = false, false
		}
	}
	active := make([]bool, n)
	for bye := -1; bye < n; bye++ {
		if (bye >= 0) != (n%2 == 1) || bye >= 0 && hadBye[bye] {
			continue
		}
		for i := range active {
			active[i] = i != bye
		}
		if 2*bruteMatching(edge, active) == n-n%2 {
			return true
		}
	}
	return false
}

// diracRounds is how many rounds can always be paired: while fewer have
// been played, every agent has not yet met at least half of those to be
// paired, so by Dirac's theorem they have a Hamiltonian cycle, hence a
// perfect matching.
func diracRounds(n int) int {
	if n%2 == 0 {
		return n / 2
	}
	return (n - 1) / 2
}

// TestSwissHardRules plays Swiss tournaments of 2 to 40 agents to the
// length of a round robin, with random results: no two agents meet twice,
// nobody gets a second bye, every agent is on one board or has the bye in
// every round (playSwiss checks these); a round is left unpaired only when
// no pairing exists (checked by exhaustive search up to 12 agents), and
// never within diracRounds.
func TestSwissHardRules(t *testing.T) {
	r := rng.New(11)
	stuck, earliest := 0, 0 // earliest: rounds between the last and the first not paired
	for n := 2; n <= 40; n++ {
		most := n - 1 + n%2
		for trial := 0; trial < 4; trial++ {
			s := &Swiss{Agents: n, Rounds: most, GamesPerBoard: 2, Seed: uint64(100*n + trial)}
			hist, st := playSwiss(t, s, r)
			if !st.stuck {
				continue
			}
			stuck++
			earliest = max(earliest, most-(st.rounds+1))
			if st.rounds < diracRounds(n) {
				t.Errorf("%d agents: round %d not paired, within the %d rounds that always pair", n, st.rounds+1, diracRounds(n))
			}
			if n <= 12 && pairable(n, hist) {
				t.Errorf("%d agents: round %d not paired, but a pairing exists", n, st.rounds+1)
			}
		}
	}
	if stuck == 0 {
		t.Error("no tournament ran out of pairings: the test no longer tests NoPairingError")
	}
	t.Logf("%d of %d tournaments of round-robin length ran out of pairings, the earliest %d round(s) before the last", stuck, 39*4, earliest)
}

// TestSwissColourBound: in Swiss tournaments of up to ⌈log₂ n⌉+2 rounds
// (and no more than diracRounds), no agent starts two boards more than it
// seconds or the reverse, nor starts or seconds three boards in a row,
// and every round pairs.
func TestSwissColourBound(t *testing.T) {
	r := rng.New(12)
	for n := 2; n <= 40; n++ {
		rounds := min(bits.Len(uint(n-1))+2, max(diracRounds(n), 1))
		for trial := 0; trial < 10; trial++ {
			s := &Swiss{Agents: n, Rounds: rounds, GamesPerBoard: 2, Seed: uint64(trial)}
			_, st := playSwiss(t, s, r)
			if st.stuck || st.maxDiff > 2 || st.maxRun > 2 {
				t.Errorf("%d agents, %d rounds, seed %d: stuck %v, colour difference %d, run %d", n, rounds, trial, st.stuck, st.maxDiff, st.maxRun)
			}
		}
	}
}

// initialColour is +1 when the higher-ranked agent of board 1 starts in
// round 1 under seed.
func initialColour(seed uint64) int8 {
	st, _ := (&Swiss{Agents: 2, Rounds: 1, GamesPerBoard: 2, Seed: seed}).state(nil)
	return st.initial
}

// seedWithInitial finds a seed whose initial colour is c.
func seedWithInitial(c int8) uint64 {
	for seed := uint64(0); ; seed++ {
		if initialColour(seed) == c {
			return seed
		}
	}
}

// TestSwissFirstRound: the top half against the bottom half in seed
// order, the boards' colours alternating from the seed's initial colour,
// the bye to the last seed.
func TestSwissFirstRound(t *testing.T) {
	w, b := seedWithInitial(1), seedWithInitial(-1)
	for _, tc := range []struct {
		n       int
		seeding []int
		seed    uint64
		boards  [][2]int
		bye     int
	}{
		{2, nil, w, [][2]int{{0, 1}}, -1},
		{2, nil, b, [][2]int{{1, 0}}, -1},
		{3, nil, w, [][2]int{{0, 1}}, 2},
		{4, nil, w, [][2]int{{0, 2}, {3, 1}}, -1},
		{4, nil, b, [][2]int{{2, 0}, {1, 3}}, -1},
		{5, nil, w, [][2]int{{0, 2}, {3, 1}}, 4},
		{8, nil, w, [][2]int{{0, 4}, {5, 1}, {2, 6}, {7, 3}}, -1},
		{8, []int{7, 6, 5, 4, 3, 2, 1, 0}, w, [][2]int{{7, 3}, {2, 6}, {5, 1}, {0, 4}}, -1},
		{7, []int{3, 1, 4, 0, 5, 2, 6}, b, [][2]int{{0, 3}, {1, 5}, {2, 4}}, 6},
	} {
		s := &Swiss{Agents: tc.n, Rounds: 1, GamesPerBoard: 2, Seed: tc.seed, Seeding: tc.seeding}
		boards, bye, err := s.Pair(nil)
		if err != nil {
			t.Fatal(err)
		}
		var got [][2]int
		for _, bd := range boards {
			got = append(got, bd.Agents)
		}
		if !slices.Equal(got, tc.boards) || bye != tc.bye {
			t.Errorf("%d agents, seeding %v, initial colour %d: boards %v bye %d, want %v bye %d", tc.n, tc.seeding, initialColour(tc.seed), got, bye, tc.boards, tc.bye)
		}
	}
}

// TestSwissByHand: later rounds worked by hand (seed with initial colour
// +1: round 1 of four agents is 0–2 and 3–1).
func TestSwissByHand(t *testing.T) {
	w := seedWithInitial(1)
	round1 := []Board{{[2]int{0, 2}}, {[2]int{3, 1}}}
	for _, tc := range []struct {
		name   string
		n      int
		hist   []SwissRound
		boards [][2]int
		bye    int
	}{{
		// 0 won its pair, 3–1 level: scores 0: 2, 1: 1, 3: 1, 2: 0. 0 is
		// alone in its group and floats down to the top of the next, 1;
		// 0 started and 1 seconded, so 1 starts; 3 and 2 (who meet for
		// the first time) alternate too.
		name:   "a floater",
		n:      4,
		hist:   []SwissRound{{Boards: round1, Bye: -1, Points: [][2]int{{4, 0}, {2, 2}}}},
		boards: [][2]int{{1, 0}, {2, 3}},
		bye:    -1,
	}, {
		// Both boards level: one group of four, 0 1 2 3 in seed order. The
		// Dutch order pairs 0–2 and 1–3 again, forbidden; 0–3 and 1–2
		// would leave two colour preferences unmet (0 and 3 started, 1 and
		// 2 seconded), 0–1 and 2–3 none: the exchange wins.
		name:   "rematch and colours",
		n:      4,
		hist:   []SwissRound{{Boards: round1, Bye: -1, Points: [][2]int{{2, 2}, {2, 2}}}},
		boards: [][2]int{{1, 0}, {2, 3}},
		bye:    -1,
	}, {
		// 0 and 1 won: the group {0, 1} meets (0 started, so 1 starts),
		// {2, 3} meets (3 started, so 2 starts).
		name:   "two score groups",
		n:      4,
		hist:   []SwissRound{{Boards: round1, Bye: -1, Points: [][2]int{{3, 1}, {1, 3}}}},
		boards: [][2]int{{1, 0}, {2, 3}},
		bye:    -1,
	}, {
		// Five agents: round 1 0–2, 3–1, bye 4, scored as a won board.
		// 2 and 3 won their pairs: the group {2, 3, 4} (2 points each) in
		// seed order, then {0, 1}. The bye goes to the lowest-ranked agent
		// without one: 1. S1 = [2], S2 = [3, 4]: 2–3 (2 seconded in round
		// 1 and 3 started, so 2 starts); 4 floats down to 0; 0 started and
		// 4 has no colour yet, so 4 starts.
		name:   "bye and floaters",
		n:      5,
		hist:   []SwissRound{{Boards: round1, Bye: 4, Points: [][2]int{{0, 4}, {4, 0}}}},
		boards: [][2]int{{2, 3}, {4, 0}},
		bye:    1,
	}} {
		s := &Swiss{Agents: tc.n, Rounds: 2, GamesPerBoard: 2, Seed: w}
		boards, bye, err := s.Pair(tc.hist)
		if err != nil {
			t.Fatal(err)
		}
		var got [][2]int
		for _, bd := range boards {
			got = append(got, bd.Agents)
		}
		if !slices.Equal(got, tc.boards) || bye != tc.bye {
			t.Errorf("%s: boards %v bye %d, want %v bye %d", tc.name, got, bye, tc.boards, tc.bye)
		}
	}
}

// leastDifference is the least total score difference of any pairing of
// round len(hist) without a rematch, with the given bye.
func leastDifference(n int, hist []SwissRound, bye int, score []int) int {
	met := map[[2]int]bool{}
	for _, r := range hist {
		for _, b := range r.Boards {
			met[[2]int{b.Agents[0], b.Agents[1]}] = true
			met[[2]int{b.Agents[1], b.Agents[0]}] = true
		}
	}
	used := make([]bool, n)
	if bye >= 0 {
		used[bye] = true
	}
	best := 1 << 30
	var rec func(cost int)
	rec = func(cost int) {
		if cost >= best {
			return
		}
		p := -1
		for i := range used {
			if !used[i] {
				p = i
				break
			}
		}
		if p < 0 {
			best = cost
			return
		}
		used[p] = true
		for q := range used {
			if !used[q] && !met[[2]int{p, q}] {
				used[q] = true
				rec(cost + abs(score[p]-score[q]))
				used[q] = false
			}
		}
		used[p] = false
	}
	rec(0)
	return best
}

// TestSwissScoreDifference compares each round's total score difference
// with the least possible (exhaustive search, the same bye) in Swiss
// tournaments of 4 to 12 agents, random results: the look-ahead keeps it
// at the least in all but a few rounds (14 of 990 when written; 82 by the
// greedy choice alone).
func TestSwissScoreDifference(t *testing.T) {
	r := rng.New(5)
	worse, rounds, extra := 0, 0, 0
	for n := 4; n <= 12; n++ {
		for trial := 0; trial < 30; trial++ {
			s := &Swiss{Agents: n, Rounds: min(5, diracRounds(n)), GamesPerBoard: 2, Seed: uint64(trial)}
			var hist []SwissRound
			score := make([]int, n)
			for round := 0; round < s.Rounds; round++ {
				boards, bye, err := s.Pair(hist)
				if err != nil {
					t.Fatal(err)
				}
				got := 0
				for _, b := range boards {
					got += abs(score[b.Agents[0]] - score[b.Agents[1]])
				}
				if best := leastDifference(n, hist, bye, score); got > best {
					worse++
					extra += got - best
				}
				rounds++
				var pts [][2]int
				for _, b := range boards {
					p := boardResult(r, 2)
					pts = append(pts, p)
					score[b.Agents[0]] += p[0]
					score[b.Agents[1]] += p[1]
				}
				if bye >= 0 {
					score[bye] += s.byeHalf()
				}
				hist = append(hist, SwissRound{Boards: boards, Bye: bye, Points: pts})
			}
		}
	}
	t.Logf("%d of %d rounds with more score difference than the best pairing (%d half-points in all)", worse, rounds, extra)
	if worse > 20 {
		t.Errorf("%d of %d rounds with more score difference than the best pairing, want at most 20", worse, rounds)
	}
}

// BenchmarkSwissPair pairs round 5 after four rounds of random results
// (the memo bypassed: the pairing itself).
func BenchmarkSwissPair(b *testing.B) {
	for _, n := range []int{16, 64, 256} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := &Swiss{Agents: n, Rounds: 5, GamesPerBoard: 2, Seed: 1}
			r := rng.New(1)
			var hist []SwissRound
			for len(hist) < 4 {
				boards, bye, err := s.Pair(hist)
				if err != nil {
					b.Fatal(err)
				}
				var pts [][2]int
				for range boards {
					pts = append(pts, boardResult(r, 2))
				}
				hist = append(hist, SwissRound{Boards: boards, Bye: bye, Points: pts})
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := s.pair(hist); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
