// Package arena runs games between agents: single games, and (later)
// tournaments and matches built from them.
package arena

import (
	"context"
	"fmt"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
)

// Ply is one move of a game as it was played.
type Ply struct {
	Player int        // who moved (0 or 1); for simultaneous games see Moves
	Move   games.Move // the move (sequential games)
	Text   string     // the move in the game's notation
	Moves  [2]games.Move
}

// GameResult is the end of a played game.
type GameResult struct {
	Outcome games.Outcome
	Plies   int
	Moves   []string // every move in the game's notation (joint moves as "a | b")
}

// PlayGame plays one game of v between two agents (agents[0] moves first)
// and returns its result. onMove, when not nil, is called after every move
// with the new state. An agent error or illegal move ends the game with an
// error naming the agent.
func PlayGame(ctx context.Context, v games.Variant, players [2]agents.Agent, onMove func(s games.Base, last string)) (GameResult, error) {
	b := v.New()
	for p, a := range players {
		if gs, ok := a.(agents.GameStarter); ok {
			if err := gs.NewGame(v, p); err != nil {
				return GameResult{}, fmt.Errorf("%s: %w", a.Name(), err)
			}
		}
	}
	var res GameResult
	for !b.Terminal() {
		var text string
		switch s := b.(type) {
		case games.State:
			p := s.ToMove()
			m, err := players[p].Move(ctx, s.Clone(), p)
			if err != nil {
				return res, fmt.Errorf("%s: %w", players[p].Name(), err)
			}
			if !games.IsLegal(s, m) {
				return res, fmt.Errorf("%s: illegal move %s", players[p].Name(), s.FormatMove(m))
			}
			text = s.FormatMove(m)
			s.Play(m)
		case games.SimState:
			var ms [2]games.Move
			for p := range players {
				m, err := players[p].Move(ctx, s.Clone(), p)
				if err != nil {
					return res, fmt.Errorf("%s: %w", players[p].Name(), err)
				}
				ms[p] = m
			}
			text = s.FormatMove(ms[0]) + " | " + s.FormatMove(ms[1])
			s.PlayJoint(ms[0], ms[1])
		default:
			return res, fmt.Errorf("game %s: state %T is neither sequential nor simultaneous", v, b)
		}
		res.Moves = append(res.Moves, text)
		if onMove != nil {
			onMove(b, text)
		}
	}
	res.Outcome = b.Outcome()
	res.Plies = b.Ply()
	return res, nil
}
