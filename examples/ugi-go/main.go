// Command ugi-go is a small UGI engine written against this module's
// public packages: it plays every sequential game one ply deep (the move
// after which the game's own evaluation is best for it, the first on a
// tie). The engine is an agents.Agent; the protocol is the ugi/server
// package's, as CounterGo's cmd/counter sits over its pkg/uci. Run it with
//
//	go build -o ugi-go ./examples/ugi-go
//	arena tournament --game gravity --agents "ugi:cmd=./ugi-go,movetime=100ms" random
//
// The game is othello6 until the GUI sets the UGI_Game option to another
// game spec (e.g. erdos:algol).
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/ugi/server"
)

func main() {
	err := server.Serve(server.Config{Game: "othello6", Player: &onePly{}, Name: "ugi-go one-ply", Author: "boardgame-arena example"}, os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ugi-go:", err)
		os.Exit(1)
	}
}

// onePly plays the move whose position evaluates best for the player to
// move. Without an evaluation every move scores 0 and the first legal move
// is played.
type onePly struct{ stats agents.Stats }

func (*onePly) Name() string { return "one-ply" }

// LastStats implements agents.Reporter: the server sends it as an info
// line.
func (a *onePly) LastStats() agents.Stats { return a.stats }

func (a *onePly) Move(_ context.Context, b games.Base, p int) (games.Move, error) {
	s := b.(games.State)
	legal := s.LegalMoves(nil)
	best, bestScore := legal[0], 0
	for i, m := range legal {
		sc := 0
		s.Play(m)
		if e, ok := s.(games.Evaluator); ok {
			sc = e.Evaluate(p)
		}
		s.Undo()
		if i == 0 || sc > bestScore {
			best, bestScore = m, sc
		}
	}
	a.stats = agents.Stats{Depth: 1, Score: bestScore, Nodes: int64(len(legal))}
	return best, nil
}
