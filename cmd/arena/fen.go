package main

import (
	"errors"
	"fmt"

	"github.com/boardgame-arena/arena/games"
)

// fenHelp is the usage of --fen, shared by perft, solve and analyse: the
// text form is the one replay prints as "position:".
const fenHelp = "start from `POSITION` (the game's text form, as replay prints it)"

// fenPosition reads --fen for variant v: nil when fen is empty.
func fenPosition(v games.Variant, fen string) (games.State, error) {
	if fen == "" {
		return nil, nil
	}
	s, err := games.ParsePosition(v, fen)
	if err != nil {
		return nil, fmt.Errorf("--fen: %w", err)
	}
	return s, nil
}

// errFenAndMoves is the error of a command given both --fen and --moves,
// which both say where to start.
func errFenAndMoves() error {
	return errors.New("give the position with --fen or --moves, not both (--moves plays from the start; to play moves from a position, write the position they reach, e.g. with 'arena replay --fen F --moves M')")
}

// sequentialStart is sequentialPosition with --fen: the position in fen when
// it is given, otherwise the start with moves played.
func sequentialStart(cmd, game, fen, moves string) (games.Variant, games.State, error) {
	if fen == "" {
		return sequentialPosition(cmd, game, moves)
	}
	if moves != "" {
		return games.Variant{}, nil, errFenAndMoves()
	}
	v, err := games.Lookup(game)
	if err != nil {
		return v, nil, err
	}
	s, err := fenPosition(v, fen)
	return v, s, err
}
