package broker_test

import (
	"context"
	"fmt"
	"os"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/broker"
	_ "github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/results"
)

// A tournament played through an embedded broker: one local worker here;
// arena worker processes on other machines would join at the address
// Ready receives. The sink gets the checked results.
func ExampleRunner() {
	t, err := arena.New(arena.Options{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: 4, Seed: 1})
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "broker-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	recorded := 0
	st, err := t.Run(context.Background(), arena.RunOptions{
		Concurrency: 1,
		Sink:        func(b []*results.GameRecord) error { recorded += len(b); return nil },
		Runner: broker.Runner(broker.Options{
			Broker: "embedded",
			Server: broker.ServerOptions{Listen: "127.0.0.1:0", StoreDir: dir},
		}),
	})
	fmt.Println(recorded, st.Complete, err)
	// Output: 4 true <nil>
}
