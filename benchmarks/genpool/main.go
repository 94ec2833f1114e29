// Command genpool writes a synthetic record file of a large pool, for the
// large-pool measurements of arena rate (benchmarks/README.md, issue #34):
// a round robin (every two players meet once) or a Swiss-like pool (each
// round pairs the players at random, two games with colours swapped per
// pairing). True ratings are normal with a spread of 200 Elo; a game is a
// draw with probability 0.2, else won by the half model's odds. Every value
// flows from -seed, so a file is reproducible.
//
//	go run ./benchmarks/genpool -players 1000 -out rr1000.jsonl
//	go run ./benchmarks/genpool -players 10000 -rounds 20 -out swiss10k.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math"
	"os"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

func main() {
	players := flag.Int("players", 1000, "players in the pool")
	rounds := flag.Int("rounds", 0, "Swiss-like rounds (each player meets about that many); 0 for a round robin")
	seed := flag.Uint64("seed", 1, "seed of the ratings and the results")
	out := flag.String("out", "", "record file to write")
	flag.Parse()
	if *out == "" || *players < 2 {
		log.Fatal("give -out FILE and -players of 2 or more")
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	if err := write(f, *players, *rounds, *seed); err != nil {
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
