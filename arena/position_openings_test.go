package arena

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/othello6"
)

// afterC2B2 is the othello6 position after c2 (X) and b2 (O), written by hand
// in the game's format: ranks 1→6, then the side to move.
const afterC2B2 = "....../.OX.../..OX../..XO../....../...... x"

// TestPositionOpenings: an openings line "fen TEXT" starts its games from
// that position; the record keeps the line as its first ply.
func TestPositionOpenings(t *testing.T) {
	v, err := games.Lookup("othello6")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "open.txt")
	os.WriteFile(path, []byte("fen "+afterC2B2+"  # two plies in\nc2 b2\n"), 0o644)
	book, err := NewBook(v, path, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	o := book.Opening(0)
	if o.Position != afterC2B2 || strings.Join(o.Texts, "|") != "fen "+afterC2B2 {
		t.Fatalf("position opening: position %q, texts %q", o.Position, o.Texts)
	}
	// Two games from the opening do not share a state.
	a, b := o.State(), o.State()
	a.Play(a.LegalMoves(nil)[0])
	if b.Ply() != 0 || b.(games.PositionWriter).Position() != afterC2B2 {
		t.Fatalf("playing on one copy of the opening's position changed another")
	}
	if book.Opening(1).State() != nil {
		t.Fatalf("an opening of plies has a position")
	}

	tour := mustNew(t, Options{Game: "othello6", Agents: []string{"random", "greedy"}, GamesPerPair: 4, Seed: 2, Openings: path})
	got, st := collect(t, tour, RunOptions{Concurrency: 2})
	if len(got) != 4 || !st.Complete {
		t.Fatalf("%d games, stats %+v", len(got), st)
	}
	for _, g := range got {
		start := v.New().(games.State)
		moves := g.Moves
		if g.Round%2 == 0 {
			if len(g.Opening) != 1 || g.Moves[0] != "fen "+afterC2B2 {
				t.Fatalf("game %d: opening %q, moves %q", g.Index, g.Opening, g.Moves)
			}
			start, _ = games.ParsePosition(v, afterC2B2)
			moves = moves[1:]
		}
		// A start position is not a ply; every move after it is.
		if g.Plies != len(moves) || g.Check() != nil {
			t.Errorf("game %d: plies %d for %d moves played (%v)", g.Index, g.Plies, len(moves), g.Check())
		}
		// The moves after the position replay from it to the recorded end.
		if _, err := games.Replay("othello6", start, moves); err != nil || !start.Terminal() || start.Outcome().Result() != g.Result {
			t.Errorf("game %d (%s): replaying %q: %v, end %v", g.Index, g.Result, moves, err, start.Outcome())
		}
	}
}

func TestPositionOpeningErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "open.txt")
	for _, tc := range []struct{ game, line, want string }{
		{"othello6", "fen ....../...... x", "open.txt:1: othello6: bad position"},
		{"othello6", "fen", "open.txt:1: othello6: empty position"},
		{"othello6", "fen XXXXXX/XXXXXX/XXXXXX/XXXXXX/XXXXXX/XXXXX. o", "open.txt:1: the position is a finished game"},
		{"t-sum", "fen 1 2", "open.txt:1: t-sum has no position format"},
	} {
		v, err := games.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, []byte(tc.line+"\n"), 0o644)
		if _, err := NewBook(v, path, 1, false); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s line %q: %v, want an error containing %q", tc.game, tc.line, err, tc.want)
		}
	}
}
