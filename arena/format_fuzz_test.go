package arena

import (
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// seedingFrom is a random order of n agents drawn from seed.
func seedingFrom(seed uint64, n int) []int {
	r := rng.New(seed)
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// FuzzSwissPairing plays Swiss tournaments of any size, length, games per
// board, bye score and seeding with random results: the hard rules hold
// in every round (playSwiss), a round is refused only beyond diracRounds,
// and the standings add up (every game's point and the byes' points).
func FuzzSwissPairing(f *testing.F) {
	f.Add(uint64(1), uint8(7), uint8(5), uint8(0), uint8(0), false)
	f.Add(uint64(2), uint8(38), uint8(40), uint8(1), uint8(1), true)
	f.Add(uint64(3), uint8(3), uint8(2), uint8(2), uint8(2), true)
	f.Fuzz(func(t *testing.T, seed uint64, n, rounds, games, bye uint8, seeded bool) {
		s := &Swiss{Agents: 2 + int(n)%39, GamesPerBoard: 2 + 2*(int(games)%3), Seed: seed, Bye: ByeScore(bye % 3)}
		s.Rounds = 1 + int(rounds)%(s.Agents-1+s.Agents%2)
		if seeded {
			s.Seeding = seedingFrom(seed, s.Agents)
		}
		hist, st := playSwiss(t, s, rng.New(seed))
		if st.stuck && st.rounds < diracRounds(s.Agents) {
			t.Fatalf("round %d of %d agents not paired", st.rounds+1, s.Agents)
		}
		standings, err := s.Standings(hist)
		if err != nil {
			t.Fatal(err)
		}
		var points float64
		boards := 0
		for _, line := range standings {
			points += line.Score
			boards += line.Starts + line.Seconds
		}
		want := 0.0
		for _, r := range hist {
			want += float64(len(r.Boards) * s.GamesPerBoard)
			if r.Bye >= 0 {
				want += float64(s.byeHalf()) / 2
			}
			boards -= 2 * len(r.Boards)
		}
		if points != want || boards != 0 {
			t.Fatalf("standings hold %v points (want %v), boards off by %d", points, want, boards)
		}
	})
}

// FuzzKnockout plays knockouts of any size, match length and tie-break cap
// with random results through Plan: a stable plan, seeds and seats as
// documented, one winner, nobody beaten twice.
func FuzzKnockout(f *testing.F) {
	f.Add(uint64(1), uint8(5), uint8(0), uint8(1), false)
	f.Add(uint64(2), uint8(30), uint8(1), uint8(0), true)
	f.Fuzz(func(t *testing.T, seed uint64, n, games, extra uint8, seeded bool) {
		k := &Knockout{Agents: 2 + int(n)%40, GamesPerMatch: 2 + 2*(int(games)%3), ExtraPairs: int(extra) % 4, Seed: seed}
		if seeded {
			k.Seeding = seedingFrom(seed, k.Agents)
		}
		finished := runFormat(t, k, randomWinner, rng.New(seed))
		checkGames(t, seed, planned(t, k, finished))
		matches, err := k.Matches(finished)
		if err != nil {
			t.Fatal(err)
		}
		lost := make([]int, k.Agents)
		for _, m := range matches {
			if m.Winner < 0 {
				t.Fatalf("match %+v undecided at the end", m)
			}
			for _, a := range m.Agents {
				if a >= 0 && a != m.Winner {
					lost[a]++
				}
			}
		}
		unbeaten := 0
		for _, l := range lost {
			if l == 0 {
				unbeaten++
			} else if l > 1 {
				t.Fatalf("an agent lost %d matches", l)
			}
		}
		if unbeaten != 1 {
			t.Fatalf("%d agents unbeaten", unbeaten)
		}
	})
}
