package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
)

// simTurn is one turn of a simultaneous replay in JSON.
type simTurn struct {
	Turn  int       `json:"turn"`
	Moves [2]string `json:"moves"`
	State any       `json:"state"`
}

// simTranscript is the --format json output of a simultaneous replay.
type simTranscript struct {
	Game    string    `json:"game"`
	Initial any       `json:"initial"`
	Turns   []simTurn `json:"turns"`
	Result  string    `json:"result"` // "*" while unfinished
	Score   int       `json:"score"`
}

// splitTurns reads one turn per line, "player 0's line | player 1's line"
// (the records' notation for joint moves). Blank lines and lines starting
// with '#' are skipped.
func splitTurns(text string) ([][2]string, error) {
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

// viewOf returns the JSON view of a position: the game's own when it has one.
func viewOf(s games.SimState) any {
	if t, ok := s.(games.Viewer); ok {
		return t.JSONView()
	}
	return s.String()
}

// validFor reports whether m is a move player p may make in s.
func validFor(s games.SimState, p int, m games.Move) bool {
	if v, ok := s.(games.MoveValidator); ok {
		return v.ValidMove(p, m)
	}
	for _, l := range s.LegalMovesFor(p, nil) {
		if l == m {
			return true
		}
	}
	return false
}

// replaySim replays the turns of a simultaneous game. Formats: text (the
// position after every turn), json (simTranscript), cg (the CodinGame input
// each player receives before every turn, and before the next one).
func replaySim(v games.Variant, s games.SimState, turns [][2]string, format string, stdout io.Writer) error {
	tr := simTranscript{Game: v.String(), Initial: viewOf(s), Turns: []simTurn{}, Result: "*"}
	cg, isCG := s.(agents.CGGame)
	if format == "cg" && !isCG {
		return errNoCG(v)
	}
	var buf []byte
	writeInputs := func() {
		for p := 0; p < 2; p++ {
			buf = cg.AppendInput(buf[:0], p, cg.Ply() == 0)
			fmt.Fprintf(stdout, "=== turn %d, input of player %d\n%s", cg.Ply()+1, p, buf)
		}
	}
	if format == "text" {
		fmt.Fprintf(stdout, "%s\n", s)
	}
	for i, turn := range turns {
		if s.Terminal() {
			return fmt.Errorf("turn %d: the game is already over (%s)", i+1, s.Outcome().Result())
		}
		var ms [2]games.Move
		for p, text := range turn {
			m, err := s.ParseMove(text)
			if err != nil || !validFor(s, p, m) {
				return fmt.Errorf("turn %d: player %d's move %q is not valid here (%v)", i+1, p, text, err)
			}
			ms[p] = m
		}
		if format == "cg" {
			writeInputs()
		}
		s.PlayJoint(ms[0], ms[1])
		switch format {
		case "text":
			fmt.Fprintf(stdout, "\nturn %d: %s | %s\n%s\n", i+1, turn[0], turn[1], s)
		case "json":
			tr.Turns = append(tr.Turns, simTurn{Turn: i + 1, Moves: turn, State: viewOf(s)})
		}
	}
	if s.Terminal() {
		o := s.Outcome()
		tr.Result, tr.Score = o.Result(), o.Score
	} else if format == "cg" {
		writeInputs()
	}
	switch format {
	case "json":
		return json.NewEncoder(stdout).Encode(tr)
	case "text":
		fmt.Fprintf(stdout, "\nresult: %s", tr.Result)
		if tr.Result != "*" {
			fmt.Fprintf(stdout, " (score %+d)", tr.Score)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

// errNoCG says that v's game has no CodinGame input (agents.CGGame) and
// which games have one.
func errNoCG(v games.Variant) error {
	return fmt.Errorf("--format cg: %s has no CodinGame input (games with one: %s)", v,
		strings.Join(games.WithPosition(func(b games.Base) bool { _, ok := b.(agents.CGGame); return ok }), ", "))
}
