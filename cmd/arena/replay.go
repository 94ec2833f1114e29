package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/readfile"
)

func init() {
	register(command{"replay", groupSolve, "check a move list and show the legal moves at every ply", runReplay})
}

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", "[--game SPEC] [--fen POSITION] [--moves \"M…\" | --file FILE] [--format text|json|cg]", stderr)
	game := fs.String("game", "othello6", "game `SPEC` (see arena games)")
	moves := fs.String("moves", "", "the `MOVES`, space-separated; simultaneous games: one turn \"a | b\" per line")
	file := fs.String("file", "", "read the moves from `FILE` (- for stdin; # starts a comment; at most 16 MiB)")
	fen := fs.String("fen", "", "play the moves from `POSITION` (the game's text form), not the start")
	format := fs.String("format", "text", "output `FORMAT`: text, json or cg (the CodinGame input before each turn)")
	fs.group("Core", "game moves file")
	fs.group("Position", "fen")
	fs.group("Output", "format")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format, "text", "json", "cg"); err != nil {
		return err
	}
	v, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	text := *moves
	if *file != "" {
		if *moves != "" {
			return errors.New("give the moves with --moves or --file, not both")
		}
		if text, err = readFile(*file); err != nil {
			return err
		}
	}
	start, err := fenPosition(v, *fen)
	if err != nil {
		return err
	}
	if sim, ok := v.New().(games.SimState); ok {
		return replaySim(v, sim, text, *format, stdout)
	}
	if *format == "cg" {
		return errNoCG(v)
	}
	s := start
	if s == nil {
		s = v.New().(games.State)
	}
	list := moveFields(text)
	t, replayErr := games.Replay(v.String(), s, list)
	if replayErr != nil {
		return replayErr
	}
	if *format == "json" {
		return json.NewEncoder(stdout).Encode(t)
	}
	for i, p := range t.Plies {
		fmt.Fprintf(stdout, "%3d. %-8s legal (%d): %s\n", i+1, p.Move, len(p.Legal), strings.Join(p.Legal, " "))
	}
	f := t.Final
	fmt.Fprintf(stdout, "\n%s\n", f.Board)
	toMove := fmt.Sprint(f.ToMove)
	if f.ToMove == games.None {
		toMove = "nobody (game over)"
	}
	if w, ok := s.(games.PositionWriter); ok {
		fmt.Fprintf(stdout, "position: %s\n", w.Position())
	}
	fmt.Fprintf(stdout, "to move: %s\nlegal (%d): %s\nterminal: %t\nresult: %s", toMove, len(f.Legal), strings.Join(f.Legal, " "), f.Terminal, f.Result)
	if f.Terminal {
		fmt.Fprintf(stdout, " (score %+d)", f.Score)
	}
	fmt.Fprintln(stdout)
	return nil
}

// maxMovesFile bounds a --file of moves (a game of a few hundred moves is a
// few kilobytes).
const maxMovesFile = 16 * readfile.MiB

// readFile reads a --file of moves, or stdin for "-", refusing one larger
// than maxMovesFile.
func readFile(name string) (string, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = readfile.From(os.Stdin, name, "--file", "a moves file", maxMovesFile)
	} else {
		data, err = readfile.Read(name, "--file", "a moves file", maxMovesFile)
	}
	return string(data), err
}

// moveFields splits whitespace-separated moves, ignoring '#' comments.
func moveFields(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		out = append(out, strings.Fields(line)...)
	}
	return out
}

// replaySim replays the turns of a simultaneous game (games.ReplaySim).
// Formats: text (the position after every turn), json
// (games.SimTranscript), cg (the CodinGame input each player receives
// before every turn, and before the next one).
func replaySim(v games.Variant, s games.SimState, text, format string, stdout io.Writer) error {
	turns, err := games.SplitTurns(text)
	if err != nil {
		return err
	}
	cg, isCG := s.(agents.CGGame)
	if format == "cg" && !isCG {
		return errNoCG(v)
	}
	var buf []byte
	writeInputs := func(int) {
		for p := 0; p < 2; p++ {
			buf = cg.AppendInput(buf[:0], p, cg.Ply() == 0)
			fmt.Fprintf(stdout, "=== turn %d, input of player %d\n%s", cg.Ply()+1, p, buf)
		}
	}
	var before func(int)
	if format == "cg" {
		before = writeInputs
	}
	t, err := games.ReplaySim(v.String(), s, turns, before)
	switch {
	case format == "json" && err == nil:
		return json.NewEncoder(stdout).Encode(t)
	case format == "cg" && err == nil && !s.Terminal():
		writeInputs(0)
	case format == "text":
		fmt.Fprintf(stdout, "%s\n", t.Board)
		for _, turn := range t.Turns {
			fmt.Fprintf(stdout, "\nturn %d: %s | %s\n%s\n", turn.Turn, turn.Moves[0], turn.Moves[1], turn.Board)
		}
		if err == nil {
			fmt.Fprintf(stdout, "\nresult: %s", t.Result)
			if t.Result != "*" {
				fmt.Fprintf(stdout, " (score %+d)", t.Score)
			}
			fmt.Fprintln(stdout)
		}
	}
	return err
}

// errNoCG says that v's game has no CodinGame input (agents.CGGame) and
// which games have one.
func errNoCG(v games.Variant) error {
	return fmt.Errorf("--format cg: %s has no CodinGame input (games with one: %s)", v,
		strings.Join(games.WithPosition(func(b games.Base) bool { _, ok := b.(agents.CGGame); return ok }), ", "))
}
