package arena

import (
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

func TestBracketOrder(t *testing.T) {
	for p, want := range map[int][]int{
		1:  {0},
		2:  {0, 1},
		4:  {0, 3, 1, 2},
		8:  {0, 7, 3, 4, 1, 6, 2, 5},
		16: {0, 15, 7, 8, 3, 12, 4, 11, 1, 14, 6, 9, 2, 13, 5, 10},
	} {
		if got := bracketOrder(p); !slices.Equal(got, want) {
			t.Errorf("bracket of %d: %v, want %v", p, got, want)
		}
	}
}

// TestKnockoutBrackets plays knockouts of 2 to 17 agents, with random
// results and with the favourite (lower index) always winning: every
// agent but the winner loses exactly one match, the byes go to the top
// seeds, a bracket of P slots has log₂ P rounds, and with favourites
// winning the seeds meet as a seeded bracket says (1 against P in the
// first round, the first two seeds in the final, the first four in the
// semi-finals).
func TestKnockoutBrackets(t *testing.T) {
	for n := 2; n <= 17; n++ {
		p, rounds := 1, 0
		for p < n {
			p, rounds = 2*p, rounds+1
		}
		for _, extra := range []int{0, 2} {
			for name, outcome := range map[string]func(FormatGame) int{"random": randomWinner, "favourite": favourite} {
				k := &Knockout{Agents: n, GamesPerMatch: 2, ExtraPairs: extra, Seed: uint64(n)}
				if k.Check(); k.Rounds() != rounds {
					t.Fatalf("%d agents: %d rounds, want %d", n, k.Rounds(), rounds)
				}
				finished := runFormat(t, k, outcome, rng.New(uint64(n)))
				checkGames(t, k.Seed, planned(t, k, finished))
				matches, err := k.Matches(finished)
				if err != nil {
					t.Fatal(err)
				}
				losses := make([]int, n)
				byes := 0
				played := 0
				for _, m := range matches {
					if m.Winner < 0 {
						t.Fatalf("%d agents, %s: match %+v undecided at the end", n, name, m)
					}
					if m.Agents[1] == -1 {
						byes++
						if m.Round != 0 || m.Agents[0] >= p-n {
							t.Errorf("%d agents: a bye for agent %d in round %d (want the top %d seeds in round 1)", n, m.Agents[0], m.Round, p-n)
						}
						if m.Games != 0 {
							t.Errorf("a bye with %d games", m.Games)
						}
						continue
					}
					played++
					if m.Games < 2 || m.Games > 2+2*extra || m.Games%2 != 0 {
						t.Errorf("match %+v: %d games", m, m.Games)
					}
					if m.Agents[0] > m.Agents[1] {
						t.Errorf("match %+v: the lower seed first", m)
					}
					for _, a := range m.Agents {
						if a != m.Winner {
							losses[a]++
						}
					}
					if name == "favourite" {
						if m.Winner != m.Agents[0] {
							t.Errorf("%d agents: %+v: the favourite lost", n, m)
						}
						// Seeds s and t meet in round r when s, t < P/2^r and s+t = P/2^r - 1.
						size := p >> m.Round
						if m.Agents[0]+m.Agents[1] != size-1 {
							t.Errorf("%d agents: seeds %d and %d meet in round %d of a bracket of %d", n, m.Agents[0], m.Agents[1], m.Round, p)
						}
					}
				}
				if byes != p-n || played != n-1 {
					t.Errorf("%d agents: %d byes and %d matches, want %d and %d", n, byes, played, p-n, n-1)
				}
				winners := 0
				for a, l := range losses {
					switch l {
					case 0:
						winners++
					case 1:
					default:
						t.Errorf("agent %d lost %d times", a, l)
					}
				}
				if winners != 1 {
					t.Errorf("%d agents: %d unbeaten", n, winners)
				}
				st, err := k.Standings(finished)
				if err != nil {
					t.Fatal(err)
				}
				places := map[int]int{}
				for _, s := range st {
					places[s.Place]++
				}
				for r := 0; r < rounds; r++ {
					place := 1<<(rounds-1-r) + 1
					// Losers of round r: its matches minus its byes.
					want := p >> (r + 1)
					if r == 0 {
						want -= p - n
					}
					if places[place] != want {
						t.Errorf("%d agents: %d agents placed %d, want %d (%v)", n, places[place], place, want, st)
					}
				}
				if places[1] != 1 || st[0].Agent != matches[len(matches)-1].Winner {
					t.Errorf("%d agents: standings %v", n, st)
				}
			}
		}
	}
}

// TestKnockoutTieBreaks walks a two-agent match through each way a level
// match is settled, game by game.
func TestKnockoutTieBreaks(t *testing.T) {
	const seed = 9
	// win: the seat that wins game g (-1 a draw). Pair k is started by
	// agent k%2: games 0 and 3 have agent 0 in seat 0, games 1 and 2 agent 1.
	win := func(g, seat int) FormatResult {
		b := Board{Agents: [2]int{0, 1}}
		return FormatResult{Round: 0, Board: 0, Game: g, Seats: b.seats(g), Winner: seat}
	}
	lot := int(rng.Derive(seed, streamKnockoutLot, 0, 0) & 1)
	for _, tc := range []struct {
		name     string
		extra    int
		finished []FormatResult
		next     []int // games planned next
		winner   int   // -1: undecided
		byLot    bool
	}{
		{"nothing played", 2, nil, []int{0, 1}, -1, false},
		{"one of two games", 2, []FormatResult{win(1, 0)}, []int{0}, -1, false},
		{"won outright", 2, []FormatResult{win(0, 0), win(1, -1)}, nil, 0, false},
		{"level: one extra pair", 2, []FormatResult{win(0, 0), win(1, 0)}, []int{2, 3}, -1, false},
		{"the extra pair decides", 2, []FormatResult{win(0, 0), win(1, 0), win(2, -1), win(3, 1)}, nil, 1, false},
		{"level again: a second extra pair", 2, []FormatResult{win(0, -1), win(1, -1), win(2, 1), win(3, 1)}, []int{4, 5}, -1, false},
		{"level after every extra pair: lots", 2, []FormatResult{win(0, -1), win(1, -1), win(2, 1), win(3, 1), win(4, -1), win(5, -1)}, nil, lot, true},
		{"no extra pairs: lots at once", 0, []FormatResult{win(0, 0), win(1, 0)}, nil, lot, true},
	} {
		k := &Knockout{Agents: 2, GamesPerMatch: 2, ExtraPairs: tc.extra, Seed: seed}
		games, done, err := k.Plan(tc.finished)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var next []int
		for _, g := range games {
			next = append(next, g.Game)
		}
		if !slices.Equal(next, tc.next) || done != (tc.winner >= 0) {
			t.Errorf("%s: next games %v (done %v), want %v", tc.name, next, done, tc.next)
		}
		m, _ := k.Matches(tc.finished)
		if m[0].Winner != tc.winner || m[0].ByLot != tc.byLot {
			t.Errorf("%s: %+v, want winner %d by lot %v", tc.name, m[0], tc.winner, tc.byLot)
		}
		// Past the decision, any other game is refused.
		if tc.winner >= 0 {
			extra := win(len(tc.finished), 0)
			if _, _, err := k.Plan(append(slices.Clone(tc.finished), extra)); err == nil || !strings.Contains(err.Error(), "not a planned game") {
				t.Errorf("%s: a game after the decision: %v", tc.name, err)
			}
		}
	}
	// The lots differ between matches and seeds: over 64 seeds both agents win some.
	wins := [2]int{}
	for s := uint64(0); s < 64; s++ {
		k := &Knockout{Agents: 2, GamesPerMatch: 2, Seed: s}
		m, _ := k.Matches([]FormatResult{win(0, 0), win(1, 0)})
		wins[m[0].Winner]++
	}
	if wins[0] == 0 || wins[1] == 0 {
		t.Errorf("lots over 64 seeds: %v", wins)
	}
}

// TestKnockoutPipelines: a match of round 2 is planned as soon as both
// its feeders are decided, while other matches of round 1 still run.
func TestKnockoutPipelines(t *testing.T) {
	k := &Knockout{Agents: 8, GamesPerMatch: 2, Seed: 1}
	b0 := Board{Agents: [2]int{0, 7}}
	b1 := Board{Agents: [2]int{3, 4}}
	finished := []FormatResult{
		{Round: 0, Board: 0, Game: 0, Seats: b0.seats(0), Winner: 0},
		{Round: 0, Board: 0, Game: 1, Seats: b0.seats(1), Winner: 1},
		{Round: 0, Board: 1, Game: 0, Seats: b1.seats(0), Winner: 1},
		{Round: 0, Board: 1, Game: 1, Seats: b1.seats(1), Winner: 0},
	}
	games, _, err := k.Plan(finished)
	if err != nil {
		t.Fatal(err)
	}
	var semi []FormatGame
	for _, g := range games {
		if g.Round == 1 {
			semi = append(semi, g)
		}
	}
	// 0 won both games; 4 won both against 3: the semi-final 0–4.
	if len(semi) != 2 || semi[0].Seats != [2]int{0, 4} || semi[0].Board != 0 {
		t.Errorf("semi-final games %+v", semi)
	}
	if len(games) != 2+4 {
		t.Errorf("%d games planned, want the semi-final's 2 and round 1's other 4", len(games))
	}
	// Index and opening of the semi-final: after round 1's 4 matches of 2 games.
	if semi[0].Index != 4*2 || semi[0].Opening != 1 {
		t.Errorf("semi-final index %d opening %d", semi[0].Index, semi[0].Opening)
	}
}

// TestKnockoutStandings: places while running and at the end.
func TestKnockoutStandings(t *testing.T) {
	k := &Knockout{Agents: 5, GamesPerMatch: 2, Seed: 3}
	finished := runFormat(t, k, favourite, rng.New(1))
	st, err := k.Standings(finished)
	if err != nil {
		t.Fatal(err)
	}
	// Five agents in a bracket of 8: 0, 1 and 2 have byes, 3 beats 4;
	// semi-finals 0–3 and 1–2, final 0–1.
	want := []KnockoutStanding{{0, 1, -1}, {1, 2, 2}, {2, 3, 1}, {3, 3, 1}, {4, 5, 0}}
	if !slices.Equal(st, want) {
		t.Errorf("standings %v, want %v", st, want)
	}
	// Before any game: 0, 1 and 2 are in the semi-finals, 3 and 4 play.
	st, _ = k.Standings(nil)
	want = []KnockoutStanding{{0, 3, 1}, {1, 3, 1}, {2, 3, 1}, {3, 5, 0}, {4, 5, 0}}
	if !slices.Equal(st, want) {
		t.Errorf("standings before any game %v, want %v", st, want)
	}
	// Seeding by another order: agent 4 as the top seed gets a bye.
	k = &Knockout{Agents: 5, GamesPerMatch: 2, Seeding: []int{4, 3, 2, 1, 0}}
	m, _ := k.Matches(nil)
	if m[0].Agents != [2]int{4, -1} || m[1].Agents != [2]int{1, 0} {
		t.Errorf("seeded by 4 3 2 1 0: first matches %+v %+v", m[0], m[1])
	}
}
