package games

import (
	"fmt"
	"strings"
)

// SimTurn is one turn of a replayed simultaneous game.
type SimTurn struct {
	Turn  int       `json:"turn"`  // 1-based
	Moves [2]string `json:"moves"` // each player's move, as given
	// State is the position after the turn: the game's JSON view
	// (Viewer), else its text.
	State any `json:"state"`
	// Board is the position after the turn as text (String).
	Board string `json:"-"`
}

// SimTranscript is a checked simultaneous game: the start and every turn.
type SimTranscript struct {
	Game    string    `json:"game"`
	Initial any       `json:"initial"` // the start, as SimTurn.State
	Board   string    `json:"-"`       // the start as text
	Turns   []SimTurn `json:"turns"`
	Result  string    `json:"result"` // "1-0", "0-1", "1/2-1/2", or "*" while unfinished
	Score   int       `json:"score"`  // Outcome.Score once over, else 0
}

// SplitTurns reads one turn per line, "player 0's move | player 1's move"
// (the records' notation for joint moves). Blank lines and lines starting
// with '#' are skipped.
func SplitTurns(text string) ([][2]string, error) {
	var turns [][2]string
	for i, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		a, b, ok := strings.Cut(line, " | ")
		if !ok {
			return nil, fmt.Errorf("line %d: want \"player 0's command line | player 1's command line\", got %q", i+1, line)
		}
		turns = append(turns, [2]string{strings.TrimSpace(a), strings.TrimSpace(b)})
	}
	return turns, nil
}

// ReplaySim plays turns (each player's move in the game's notation) from
// s, checking each, and returns the transcript; s is left at the final
// position. before, if not nil, is called before each turn is played (its
// moves checked), with the turn's number and s at the position before it.
// On a move that is not valid, or a turn after the end, it returns the
// transcript so far and an error that says which.
func ReplaySim(game string, s SimState, turns [][2]string, before func(turn int)) (SimTranscript, error) {
	t := SimTranscript{Game: game, Initial: simView(s), Board: s.String(), Turns: []SimTurn{}, Result: "*"}
	for i, turn := range turns {
		if s.Terminal() {
			return t, fmt.Errorf("turn %d: the game is already over (%s)", i+1, s.Outcome().Result())
		}
		var ms [2]Move
		for p, text := range turn {
			m, err := s.ParseMove(text)
			if err != nil || !validFor(s, p, m) {
				return t, fmt.Errorf("turn %d: player %d's move %q is not valid here (%v)", i+1, p, text, err)
			}
			ms[p] = m
		}
		if before != nil {
			before(i + 1)
		}
		s.PlayJoint(ms[0], ms[1])
		t.Turns = append(t.Turns, SimTurn{Turn: i + 1, Moves: turn, State: simView(s), Board: s.String()})
	}
	if s.Terminal() {
		o := s.Outcome()
		t.Result, t.Score = o.Result(), o.Score
	}
	return t, nil
}

// simView is the JSON view of a position: the game's own when it has one.
func simView(s SimState) any {
	if v, ok := s.(Viewer); ok {
		return v.JSONView()
	}
	return s.String()
}

// validFor reports whether m is a move player p may make in s.
func validFor(s SimState, p int, m Move) bool {
	if v, ok := s.(MoveValidator); ok {
		return v.ValidMove(p, m)
	}
	return containsMove(s.LegalMovesFor(p, nil), m)
}
