package arena

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// verboseInfo is the info text of t-verbose's every move: what an engine
// printing a 0.9 MB info string before each move leaves in the record.
var verboseInfo = "string " + strings.Repeat("x", 900_000)

func init() {
	agents.Register(&agents.Kind{Name: "t-verbose", Help: "test agent: t-max reporting a 0.9 MB info text with every move",
		New: func(s spec.Spec, seed uint64) (agents.Agent, error) {
			return &verboseAgent{maxAgent{name: agents.DisplayName(s)}}, nil
		}})
}

type verboseAgent struct{ maxAgent }

func (a *verboseAgent) LastStats() agents.Stats { return agents.Stats{Depth: 1, Info: verboseInfo} }

// TestVerboseRecord: games of two agents that report a 0.9 MB info text
// with every move (about 27 MB of info per othello6 game) are recorded
// with their info texts cut to fit results.MaxGameBytes, so that the
// record file reads back. Before, the games were written whole, in lines
// longer than results.MaxLineBytes, and the file could not be read.
func TestVerboseRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verbose.jsonl")
	s, err := OpenSession(SessionOptions{Options: Options{Game: "othello6", Agents: []string{"t-verbose:name=a", "t-verbose:name=b"}, GamesPerPair: 2, Seed: 1}, Out: path, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := s.Run(context.Background(), RunOptions{}); err != nil || !st.Complete {
		t.Fatalf("run: %v, %+v", err, st)
	}
	f, err := results.ReadFile(path)
	if err != nil {
		t.Fatalf("the record does not read back: %v", err)
	}
	if len(f.Games) != 2 {
		t.Fatalf("%d games in the record, want 2", len(f.Games))
	}
	for _, g := range f.Games {
		if n := len(results.AppendGame(nil, &g)); n > results.MaxGameBytes || g.Trimmed < 16<<20 || !strings.HasSuffix(g.MoveStats[0].Info, results.TrimMark) {
			t.Errorf("game %d: a line of %d bytes, %d bytes trimmed; want the info texts cut to fit %d bytes", g.Index, n, g.Trimmed, results.MaxGameBytes)
		}
	}
}
