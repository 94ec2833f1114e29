package ugi_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/ugi"
)

// Reading an engine's lines: the command word, then its arguments.
func ExampleField() {
	line := "info depth 7 score cp 35 nodes 48213 nps 912000 pv b3 c2 d5"
	cmd, args := ugi.Field(line)
	var info ugi.Info
	if cmd == "info" && ugi.CheckInfo(args) == nil {
		info.Update(args)
	}
	fmt.Printf("%s: depth %d, score %d, %d nodes, %s\n", cmd, info.Depth, info.Score, info.Nodes, info.Text)
	// Output: info: depth 7, score 35, 48213 nodes, nps 912000 pv b3 c2 d5
}

// Writing the commands of a move, and reading them back as an engine does.
func ExampleGo() {
	pos := ugi.AppendPosition(nil, "", "b3", "c2")
	g := ugi.Go{Clock: true, Time: [2]time.Duration{9500 * time.Millisecond, 12 * time.Second}, Inc: [2]time.Duration{100 * time.Millisecond, 100 * time.Millisecond}}
	fmt.Println(string(pos))
	fmt.Println(g)

	_, args := ugi.Field(g.String())
	back, bad := ugi.ParseGo(args, ugi.GoBounds{MoveTime: time.Hour, Time: time.Hour, Inc: time.Minute, Depth: 100, Nodes: 1e9})
	fmt.Println(back.Time, back.Inc, bad)
	// Output:
	// position startpos moves b3 c2
	// go p1time 9500 p2time 12000 p1inc 100 p2inc 100
	// [9.5s 12s] [100ms 100ms] []
}

// The answers an engine owes to query in a position.
func ExampleAnswersOf() {
	v, _ := games.Lookup("othello6")
	s := v.New().(games.State)
	a := ugi.AnswersOf(s)
	for _, q := range ugi.Queries {
		r, _ := a.Answer(q)
		fmt.Println("query", q, "→ response", r)
	}
	// Output:
	// query gameover → response false
	// query p1turn → response true
	// query result → response none
}

// A client playing through an engine: one process for all its games.
func ExampleClient() {
	v, _ := games.Lookup("othello6")
	c := ugi.NewClient(ugi.Engine{Argv: []string{"python3", "examples/ugi-python/engine.py"}})
	defer c.Close()
	if err := c.NewGame(v); err != nil {
		fmt.Println(err)
		return
	}
	s := v.New().(games.State)
	m, err := c.Move(context.Background(), s, ugi.Go{MoveTime: 100 * time.Millisecond}, 500*time.Millisecond)
	if err != nil {
		fmt.Println(err) // an *ugi.Error: errors.Is(err, ugi.ErrTimeout), …
		return
	}
	fmt.Println(c.EngineName(), "plays", s.FormatMove(m), c.Info())
}

// Checking an engine before a long run.
func ExampleCheck() {
	res, err := ugi.Check(ugi.CheckOptions{
		Engine: ugi.Engine{Argv: []string{"./my-engine"}}, Game: "gravity", Positions: 10,
		MoveTime: 100 * time.Millisecond, Margin: 200 * time.Millisecond, Clock: time.Second,
		Handshake: ugi.DefaultCheckHandshake, Seed: 1, Out: os.Stdout,
	})
	if err != nil {
		fmt.Println(err) // an option out of range, as *option.Error
		return
	}
	fmt.Printf("%d of %d checks failed\n", res.Failed, res.Checks)
}
