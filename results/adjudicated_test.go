package results

import (
	"bytes"
	"strings"
	"testing"
)

// TestAdjudicatedField: a solved adjudication's record field is written,
// read back (by Read, and by the scanner Tally uses without falling back),
// and checked: only "solved", only with the termination adjudication. A
// record without it (older files, ply-cap draws) reads as before.
func TestAdjudicatedField(t *testing.T) {
	g := &GameRecord{Record: KindGame, Game: "othello6", Moves: []string{"c2", "b2"}, Opening: []string{"c2"}, Result: "0-1", Winner: 1, Score: -4,
		Termination: Adjudication, Adjudicated: AdjudicatedSolved, Detail: "solved", Forfeit: -1, Plies: 2,
		Players: [2]Player{{Name: "a", Spec: "random"}, {Agent: 1, Name: "b", Spec: "random"}}}
	line := AppendGame(nil, g)
	if !bytes.Contains(line, []byte(`"detail":"solved","adjudicated":"solved","plies"`)) {
		t.Fatalf("the field is not written after detail: %s", line)
	}
	var s gameScanner
	var f gameFacts
	if !s.scan(bytes.TrimSpace(line), &f) || f != factsOf(g) {
		t.Errorf("the scanner refused or misread a solved adjudication: %s", line)
	}
	file, err := Read(strings.NewReader(testHeader+"\n"+string(line)), "run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := file.Games[0].Adjudicated; got != AdjudicatedSolved {
		t.Errorf("read back adjudicated %q", got)
	}
	for _, c := range []struct {
		name string
		edit func(*GameRecord)
		want string
	}{
		{"unknown reason", func(g *GameRecord) { g.Adjudicated = "resigned" }, `adjudicated "resigned"`},
		{"normal end", func(g *GameRecord) { g.Termination = Normal }, `termination "normal"`},
		{"forfeit", func(g *GameRecord) { g.Termination, g.Forfeit, g.Winner, g.Result = Timeout, 0, 1, "0-1" }, `termination "timeout"`},
	} {
		bad := *g
		c.edit(&bad)
		if err := bad.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check says %v, want %q", c.name, err, c.want)
		}
		data := testHeader + "\n" + string(AppendGame(nil, &bad))
		_, want := Read(strings.NewReader(data), "run.jsonl")
		_, err := NewTally().Read(strings.NewReader(data), "run.jsonl")
		if want == nil || err == nil || err.Error() != want.Error() {
			t.Errorf("%s: Read says %v, Tally %v; want the same refusal", c.name, want, err)
		}
	}
	plain := *g
	plain.Adjudicated, plain.Winner, plain.Result, plain.Score = "", -1, "1/2-1/2", 0
	if err := plain.Check(); err != nil {
		t.Errorf("a ply-cap adjudication without the field: %v", err)
	}
}
