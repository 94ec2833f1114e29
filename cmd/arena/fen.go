package main

import (
	"errors"
	"fmt"

	"github.com/boardgame-arena/arena/games"
)

// fenHelp is the usage of --fen, shared by replay, perft, solve and analyse.
const fenHelp = "start from this position, in the game's text format (see README, Games; replay prints it as \"position:\"), instead of the start"

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
