// Command genpool writes a synthetic record file of a large pool, for the
// large-pool measurements of arena rate (benchmarks/README.md, issue #34):
// a round robin (every two players meet once) or a Swiss-like pool (each
// round pairs the players at random, two games with colours swapped per
// pairing). True ratings are normal with a spread of 200 Elo; a game is a
// draw with probability 0.2, else won by the half model's odds. Every value
// flows from -seed, so a file is reproducible.
//
// With -names and -score it writes instead a round robin of named players
// with given expected scores, for pools Elo cannot describe (the
// rock–paper–scissors example of docs/ratings.md): -score lists A>B=S, A's
// expected score against B (B's is 1−S; pairs not listed are even), a name
// written COPY=ORIG plays exactly as ORIG (also against ORIG: even), and a
// game has no draws. -games is the games per pairing, colours alternating.
// With -exact a pairing's wins are exactly its expected score times its
// games (rounded), in an order shuffled from -seed, so that a copy is an
// exact copy; else each game is drawn on its own.
//
//	go run ./benchmarks/genpool -players 1000 -out rr1000.jsonl
//	go run ./benchmarks/genpool -players 10000 -rounds 20 -out swiss10k.jsonl
//	go run ./benchmarks/genpool -names rock,paper,scissors,rock2=rock -score "paper>rock=0.62,scissors>paper=0.62,rock>scissors=0.62" -games 200 -exact -out rps.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

func main() {
	players := flag.Int("players", 1000, "players in the pool")
	rounds := flag.Int("rounds", 0, "Swiss-like rounds (each player meets about that many); 0 for a round robin")
	seed := flag.Uint64("seed", 1, "seed of the ratings and the results")
	out := flag.String("out", "", "record file to write")
	names := flag.String("names", "", "players by name, comma-separated (COPY=ORIG for a copy); with -score")
	score := flag.String("score", "", "expected scores A>B=S, comma-separated; with -names")
	games := flag.Int("games", 2, "games per pairing (even) of a -names round robin")
	exact := flag.Bool("exact", false, "-names: exactly the expected wins per pairing, shuffled")
	flag.Parse()
	var p *pool
	if *names != "" {
		var err error
		if p, err = parsePool(*names, *score); err != nil {
			log.Fatal(err)
		}
		if *games < 2 || *games%2 != 0 {
			log.Fatal("give an even -games from 2")
		}
	}
	if *out == "" || p == nil && *players < 2 {
		log.Fatal("give -out FILE and -players of 2 or more")
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	if p != nil {
		err = writePool(f, p, *games, *exact, *seed)
	} else {
		err = write(f, *players, *rounds, *seed)
	}
	if err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// pairings lists the games' seats: every pair once for a round robin, or
// per round a random perfect matching with both colours.
func pairings(r *rng.Rand, players, rounds int) [][2]int {
	var games [][2]int
	if rounds == 0 {
		for a := 0; a < players; a++ {
			for b := a + 1; b < players; b++ {
				if (a+b)%2 == 0 { // alternate who moves first
					games = append(games, [2]int{a, b})
				} else {
					games = append(games, [2]int{b, a})
				}
			}
		}
		return games
	}
	perm := make([]int, players)
	for i := range perm {
		perm[i] = i
	}
	for range rounds {
		for i := len(perm) - 1; i > 0; i-- {
			j := r.IntN(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		for k := 0; k+1 < len(perm); k += 2 {
			a, b := perm[k], perm[k+1]
			games = append(games, [2]int{a, b}, [2]int{b, a})
		}
	}
	return games
}

// pool is a set of named players with given expected scores.
type pool struct {
	names []string
	score [][]float64 // score[a][b]: a's expected score against b
}

// parsePool reads -names and -score.
func parsePool(names, scores string) (*pool, error) {
	p := &pool{}
	orig := map[string]string{} // a copy's original
	for _, n := range strings.Split(names, ",") {
		n, o, isCopy := strings.Cut(strings.TrimSpace(n), "=")
		if n == "" || slices.Contains(p.names, n) {
			return nil, fmt.Errorf("-names: empty or repeated name %q", n)
		}
		p.names = append(p.names, n)
		if isCopy {
			orig[n] = o
		}
	}
	if len(p.names) < 2 {
		return nil, fmt.Errorf("-names: give 2 players or more")
	}
	index := func(n string) int { return slices.Index(p.names, n) }
	base := func(i int) int { // the player a copy plays as
		if o, ok := orig[p.names[i]]; ok {
			return index(o)
		}
		return i
	}
	for n, o := range orig {
		if j := index(o); j < 0 || orig[o] != "" {
			return nil, fmt.Errorf("-names: %s copies %q, not a player or itself a copy", n, o)
		}
	}
	given := make([][]float64, len(p.names))
	for i := range given {
		given[i] = make([]float64, len(p.names))
		for j := range given[i] {
			given[i][j] = 0.5
		}
	}
	for _, e := range strings.Split(scores, ",") {
		if strings.TrimSpace(e) == "" {
			continue
		}
		ab, v, ok1 := strings.Cut(strings.TrimSpace(e), "=")
		a, b, ok2 := strings.Cut(ab, ">")
		s, err := strconv.ParseFloat(v, 64)
		i, j := index(a), index(b)
		if !ok1 || !ok2 || err != nil || i < 0 || j < 0 || i == j || base(i) != i || base(j) != j || !(s >= 0 && s <= 1) {
			return nil, fmt.Errorf("-score: %q is not A>B=S with A and B two players that are not copies and S in [0, 1]", e)
		}
		given[i][j], given[j][i] = s, 1-s
	}
	p.score = make([][]float64, len(p.names))
	for i := range p.score {
		p.score[i] = make([]float64, len(p.names))
		for j := range p.score[i] {
			p.score[i][j] = given[base(i)][base(j)]
		}
	}
	return p, nil
}

// writePool writes a round robin of p, games per pairing, colours
// alternating within a pairing, no draws; exact for exactly the expected
// wins.
func writePool(f *os.File, p *pool, games int, exact bool, seed uint64) error {
	r := rng.New(seed)
	n := len(p.names)
	bw := bufio.NewWriter(f)
	h := results.Header{Record: results.KindHeader, Version: results.FormatVersion, Created: "2026-11-29T00:00:00Z", Concurrency: 1,
		Config: results.Config{Kind: results.RoundRobin, Game: "othello6", GamesPerPair: games, Seed: seed, MaxPlies: 200, TotalGames: n * (n - 1) / 2 * games}}
	for _, name := range p.names {
		h.Config.Agents = append(h.Config.Agents, results.AgentInfo{Name: name, Spec: "random:name=" + name})
	}
	line, err := results.MarshalLine(h)
	if err != nil {
		return err
	}
	bw.Write(line)
	moves := []string{"c4", "e3", "f6", "e6"}
	var buf []byte
	index, pair := 0, 0
	aWins := make([]bool, games) // with exact: whether a wins game k
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if exact {
				w := int(math.Round(p.score[a][b] * float64(games)))
				for k := range aWins {
					aWins[k] = k < w
				}
				for k := len(aWins) - 1; k > 0; k-- {
					j := r.IntN(k + 1)
					aWins[k], aWins[j] = aWins[j], aWins[k]
				}
			}
			for k := range games {
				s := [2]int{a, b}
				if k%2 == 1 {
					s = [2]int{b, a}
				}
				g := results.GameRecord{Record: results.KindGame, Index: index, Pair: pair, Round: k / 2, Game: "othello6", Seed: r.Uint64(),
					Moves: moves, Plies: len(moves), Termination: results.Normal, Forfeit: -1, DurationMS: 1}
				for i, pl := range s {
					g.Players[i] = results.Player{Agent: pl, Name: p.names[pl], Spec: h.Config.Agents[pl].Spec, Moves: 2}
				}
				first := r.Float64() < p.score[s[0]][s[1]]
				if exact {
					first = aWins[k] == (s[0] == a)
				}
				if first {
					g.Winner, g.Result = 0, "1-0"
				} else {
					g.Winner, g.Result = 1, "0-1"
				}
				buf = results.AppendGame(buf[:0], &g)
				if _, err := bw.Write(buf); err != nil {
					return err
				}
				index++
			}
			pair++
		}
	}
	return bw.Flush()
}

func write(f *os.File, players, rounds int, seed uint64) error {
	r := rng.New(seed)
	elo := make([]float64, players)
	for i := range elo {
		elo[i] = 200 * normal(r)
	}
	games := pairings(r, players, rounds)
	per := 1
	if rounds > 0 {
		per = 2
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	h := results.Header{Record: results.KindHeader, Version: results.FormatVersion, Created: "2026-11-29T00:00:00Z", Concurrency: 1,
		Config: results.Config{Kind: results.RoundRobin, Game: "othello6", GamesPerPair: per, Seed: seed, MaxPlies: 200, TotalGames: len(games)}}
	for p := 0; p < players; p++ {
		h.Config.Agents = append(h.Config.Agents, results.AgentInfo{Name: fmt.Sprintf("p%d", p), Spec: fmt.Sprintf("random:name=p%d", p)})
	}
	line, err := results.MarshalLine(h)
	if err != nil {
		return err
	}
	bw.Write(line)
	moves := []string{"c4", "e3", "f6", "e6"}
	var buf []byte
	for i, s := range games {
		g := results.GameRecord{Record: results.KindGame, Index: i, Pair: i / per, Game: "othello6", Seed: r.Uint64(),
			Moves: moves, Plies: len(moves), Termination: results.Normal, Forfeit: -1, DurationMS: 1}
		for k, p := range s {
			g.Players[k] = results.Player{Agent: p, Name: h.Config.Agents[p].Name, Spec: h.Config.Agents[p].Spec, Moves: 2}
		}
		u, pa := r.Float64(), 1/(1+math.Pow(10, (elo[s[1]]-elo[s[0]])/400))
		switch {
		case u < 0.2:
			g.Winner, g.Result = -1, "1/2-1/2"
		case u < 0.2+0.8*pa:
			g.Winner, g.Result = 0, "1-0"
		default:
			g.Winner, g.Result = 1, "0-1"
		}
		buf = results.AppendGame(buf[:0], &g)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// normal draws a standard normal deviate (Box–Muller).
func normal(r *rng.Rand) float64 {
	return math.Sqrt(-2*math.Log(1-r.Float64())) * math.Cos(2*math.Pi*r.Float64())
}
