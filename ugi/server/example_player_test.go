package server_test

import (
	"context"
	"os"
	"strings"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/ugi/server"
)

// firstMove is an agent written in Go: it plays the first legal move.
type firstMove struct{}

func (firstMove) Name() string { return "first-move" }

func (firstMove) Move(_ context.Context, b games.Base, p int) (games.Move, error) {
	return games.LegalMovesFor(b, p, nil)[0], nil
}

// Serving an agent of one's own, not one from a spec (Config.Player), as
// examples/ugi-go does over stdin and stdout.
func Example_player() {
	commands := strings.NewReader("ugi\nisready\nuginewgame\nposition startpos moves c2\ngo movetime 100\nquit\n")
	err := server.Serve(server.Config{Game: "othello6", Player: firstMove{}, Name: "first-move", Author: "a Go program"}, commands, os.Stdout)
	if err != nil {
		panic(err)
	}
	// Output:
	// id name first-move
	// id author a Go program
	// option name UGI_Game type string default othello6
	// ugiok
	// readyok
	// bestmove b2
}
