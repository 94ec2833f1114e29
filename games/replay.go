package games

import (
	"fmt"
	"strings"
)

// ReplayPly is one ply of a replayed game: the legal moves before it and the
// move played, in the game's notation (Legal sorted).
type ReplayPly struct {
	Legal []string `json:"legal"`
	Move  string   `json:"move"`
}

// ReplayFinal describes the position after the last move.
type ReplayFinal struct {
	ToMove   int      `json:"to_move"` // 0, 1, or -1 when the game is over
	Legal    []string `json:"legal"`
	Terminal bool     `json:"terminal"`
	Result   string   `json:"result"` // "1-0", "0-1", "1/2-1/2", or "*" while unfinished
	Score    int      `json:"score"`  // Outcome.Score once over, else 0
	Board    string   `json:"board"`
	// Position is the position as text (PositionWriter), for games that
	// have a text format.
	Position string `json:"position,omitempty"`
}

// Transcript is a checked game: every ply and the final position.
type Transcript struct {
	Game  string      `json:"game"`
	Plies []ReplayPly `json:"plies"`
	Final ReplayFinal `json:"final"`
}

// IllegalMoveError reports the first move of a replay that is not legal.
type IllegalMoveError struct {
	Ply   int      // 1-based
	Move  string   // the text given
	Legal []string // the legal alternatives, sorted
	Err   error    // a parse error, if the text is not a move at all
}

func (e *IllegalMoveError) Error() string {
	what := "illegal move"
	if e.Err != nil {
		what = "unreadable move"
	}
	if len(e.Legal) == 0 {
		return fmt.Sprintf("ply %d: %s %q: the game is already over", e.Ply, what, e.Move)
	}
	return fmt.Sprintf("ply %d: %s %q (legal: %s)", e.Ply, what, e.Move, strings.Join(e.Legal, " "))
}

// Replay plays moves (in the game's notation) from s, checking each, and
// returns the transcript. s is left at the final position. On an illegal or
// unreadable move it returns the transcript so far and an *IllegalMoveError.
func Replay(game string, s State, moves []string) (Transcript, error) {
	t := Transcript{Game: game, Plies: []ReplayPly{}}
	var buf []Move
	for i, text := range moves {
		buf = s.LegalMoves(buf[:0])
		legal := MoveStrings(s, buf)
		m, err := s.ParseMove(text)
		if err != nil || !containsMove(buf, m) {
			t.Final = Final(s)
			return t, &IllegalMoveError{Ply: i + 1, Move: text, Legal: legal, Err: err}
		}
		t.Plies = append(t.Plies, ReplayPly{Legal: legal, Move: s.FormatMove(m)})
		s.Play(m)
	}
	t.Final = Final(s)
	return t, nil
}

// Final describes the position s.
func Final(s State) ReplayFinal {
	f := ReplayFinal{
		ToMove:   s.ToMove(),
		Legal:    MoveStrings(s, s.LegalMoves(nil)),
		Terminal: s.Terminal(),
		Result:   "*",
		Board:    s.String(),
	}
	if w, ok := s.(PositionWriter); ok {
		f.Position = w.Position()
	}
	if f.Terminal {
		o := s.Outcome()
		f.Result, f.Score = o.Result(), o.Score
	}
	return f
}

func containsMove(moves []Move, m Move) bool {
	for _, l := range moves {
		if l == m {
			return true
		}
	}
	return false
}
