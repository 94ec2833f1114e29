package arena

import (
	"fmt"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/rng"
)

// Format is a tournament whose games depend on earlier results: a Swiss
// tournament (Swiss) or a knockout (Knockout). It is a pure function of
// the games finished so far, so a resumed run rebuilds its state from the
// recorded games, and two runs with the same seed and the same results
// play the same games whatever the order in which the games finished.
type Format interface {
	// Plan returns, given every finished game (in any order), the games
	// that are planned and not finished (the runner starts those not
	// already running), and done when the tournament is over. An empty
	// list with done false means: wait for the games in flight. A result
	// that is not a planned game, or a game reported twice, is an error.
	Plan(finished []FormatResult) (games []FormatGame, done bool, err error)
}

// Board is one meeting of a round: two agents who play a number of
// colour-swapped game pairs. Agents[0] starts: it moves first in the
// first game of pair 0; pair k is started by Agents[k%2] (the starter of
// a pair moves first in its first game, second in its second).
type Board struct {
	Agents [2]int
}

// seats are the agents of game g of the board, first mover first.
func (b Board) seats(g int) [2]int {
	starter := (g / 2) % 2
	if g%2 == 1 {
		starter = 1 - starter
	}
	return [2]int{b.Agents[starter], b.Agents[1-starter]}
}

// FormatGame is one planned game of a Format.
type FormatGame struct {
	Round int // the tournament's round (0-based)
	Board int // board within the round
	Game  int // game within the board: pair Game/2
	// Index is the game's number in the run: a function of (Round, Board,
	// Game) alone, unique, not necessarily dense (a knockout leaves
	// numbers of its unplayed tie-break games unused).
	Index int
	Seats [2]int // agent indices, Seats[0] moves first
	// Opening is the opening's number (Book.Opening): games 2k and 2k+1
	// of a board share one, and every board of a round plays the same
	// openings.
	Opening int
	Seed    uint64    // rng.Derive(seed, streamFormatGame, Round, Board, Game)
	Agents  [2]uint64 // the seats' agent seeds: (streamFormatAgent, Round, Board, Game, seat)
}

// FormatResult is a finished game, as its record tells it.
type FormatResult struct {
	Round, Board, Game int
	Seats              [2]int // agent indices, first mover first
	Winner             int    // the winning seat, 0 or 1, or -1 for a draw
}

// Streams of the formats, apart from the fixed schedule's (openings.go).
const (
	streamFormatGame  = 16 // game seed: (16, round, board, game)
	streamFormatAgent = 17 // agent seed: (17, round, board, game, seat)
	streamSwissColour = 18 // the Swiss initial colour: (18)
	streamKnockoutLot = 19 // a knockout's drawing of lots: (19, round, match)
)

func formatGame(seed uint64, round, board, game, index, opening int, b Board) FormatGame {
	f := FormatGame{Round: round, Board: board, Game: game, Index: index, Seats: b.seats(game), Opening: opening}
	f.Seed = rng.Derive(seed, streamFormatGame, uint64(round), uint64(board), uint64(game))
	for seat := 0; seat < 2; seat++ {
		f.Agents[seat] = rng.Derive(seed, streamFormatAgent, uint64(round), uint64(board), uint64(game), uint64(seat))
	}
	return f
}

type formatKey struct{ round, board, game int }

// boardPoints is what the finished games of one board gave its agents, in
// half-points (a win 2, a draw 1), and how many of its games finished.
type boardPoints struct {
	half  [2]int
	games int
}

// resultIndex files finished games by key, checking each against the
// board it claims (seats) and that none is reported twice.
type resultIndex map[formatKey]FormatResult

func indexResults(finished []FormatResult) (resultIndex, error) {
	idx := make(resultIndex, len(finished))
	for _, r := range finished {
		k := formatKey{r.Round, r.Board, r.Game}
		if _, dup := idx[k]; dup {
			return nil, fmt.Errorf("game %d of board %d of round %d is reported twice", r.Game, r.Board, r.Round)
		}
		if r.Winner < -1 || r.Winner > 1 {
			return nil, fmt.Errorf("game %d of board %d of round %d: winner %d (want 0, 1 or -1)", r.Game, r.Board, r.Round, r.Winner)
		}
		idx[k] = r
	}
	return idx, nil
}

// points adds up games [from, to) of a board, checking that each finished
// one was played by the board's agents in the planned seats, and takes them
// out of the index (what is left at the end was never planned).
func (idx resultIndex) points(round, board int, b Board, from, to int) (boardPoints, error) {
	var p boardPoints
	for g := from; g < to; g++ {
		k := formatKey{round, board, g}
		r, ok := idx[k]
		if !ok {
			continue
		}
		delete(idx, k)
		if r.Seats != b.seats(g) {
			return p, fmt.Errorf("game %d of board %d of round %d was played by agents %v, planned %v", g, board, round, r.Seats, b.seats(g))
		}
		p.games++
		switch r.Winner {
		case -1:
			p.half[0]++
			p.half[1]++
		default:
			winner := r.Seats[r.Winner]
			if winner == b.Agents[0] {
				p.half[0] += 2
			} else {
				p.half[1] += 2
			}
		}
	}
	return p, nil
}

// unplanned reports a result left in the index: a game no plan holds.
func (idx resultIndex) unplanned() error {
	for k := range idx {
		return fmt.Errorf("game %d of board %d of round %d is not a planned game", k.game, k.board, k.round)
	}
	return nil
}

// checkGamesPerBoard checks an even number of games, at least 2.
func checkGamesPerBoard(name string, n int) error {
	if n < 2 || n%2 != 0 {
		return option.New(name, n, "use an even number, at least 2 (games come in colour-swapped pairs)")
	}
	return nil
}

// checkSeeding checks an order of n agents (nil: agent order) and returns
// it, seed k's agent at k.
func checkSeeding(seeding []int, n int) ([]int, error) {
	if seeding == nil {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	if len(seeding) != n {
		return nil, option.New("Seeding", len(seeding), "{Seeding} lists %d agents, want all %d", len(seeding), n)
	}
	seen := make([]bool, n)
	for _, a := range seeding {
		if a < 0 || a >= n || seen[a] {
			return nil, option.New("Seeding", fmt.Sprint(seeding), "want an order of agents 0 to %d, each once", n-1)
		}
		seen[a] = true
	}
	return append([]int(nil), seeding...), nil
}
