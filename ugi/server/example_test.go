package server_test

import (
	"os"
	"strings"

	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/ugi/server"
)

// Serving an agent as a UGI engine: here on a script of commands, as
// arena engine does on stdin and stdout.
func ExampleServe() {
	commands := strings.NewReader("ugi\nisready\nsetoption name UGI_Game value gravity\nposition startpos moves TA\nquery p1turn\nquery result\nquit\n")
	err := server.Serve(server.Config{Game: "othello6", Agent: "mcts:iters=500", Seed: 1}, commands, os.Stdout)
	if err != nil {
		panic(err)
	}
	// Output:
	// id name arena mcts:iters=500
	// id author boardgame-arena
	// option name UGI_Game type string default othello6
	// ugiok
	// readyok
	// response false
	// response none
}
