package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/search/accuracy"
)

// accuracyPage writes the page of random othello6 games whose first 22
// plies are their opening (so the rest solve at once), scored against
// perfect play, and returns it with the games.
func accuracyPage(t *testing.T) ([]byte, []*results.GameRecord, Written) {
	t.Helper()
	gs := randomGames(t, "othello6", 6, 35, 300)
	for i, g := range gs {
		g.Opening = append([]string{}, g.Moves[:22]...)
		g.Players[0].Name, g.Players[1].Name = testPlayers[i%3], testPlayers[(i+1)%3]
	}
	d := results.NewDataset("othello6", nil, gs)
	rep, err := results.Analyse(d, results.AnalysisOptions{Bootstrap: 10})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCollector(ViewerOptions{MaxGames: 4}, false) // two games scored without the viewer
	if err != nil {
		t.Fatal(err)
	}
	c.ScoreAccuracy(accuracy.Options{Budget: time.Minute, Nodes: 5_000_000, Bootstrap: 50, Seed: 1})
	for _, g := range gs {
		c.Add(-1, g)
	}
	var page bytes.Buffer
	wr, err := WriteSource(&page, Source{Game: "othello6", Analysis: rep, Games: c}, Options{Rating: results.AnalysisOptions{Bootstrap: 10}})
	if err != nil {
		t.Fatal(err)
	}
	return page.Bytes(), gs, wr
}

// TestAccuracySection: the section's table counts every agent move of
// every game, its plot is drawn, the worst moves link into the viewer,
// and the viewer's games carry every legal move's value, the best marked,
// the move played worth the value after it.
func TestAccuracySection(t *testing.T) {
	page, gs, wr := accuracyPage(t)
	s := string(page)
	if !strings.Contains(s, `<section id="accuracy">`) || !strings.Contains(s, `href="#accuracy"`) {
		t.Fatal("no accuracy section")
	}
	found := false
	for _, p := range wr.Plots {
		found = found || p == "accuracy"
	}
	if !found {
		t.Errorf("no accuracy plot in %v", wr.Plots)
	}
	moves := 0
	for _, g := range gs {
		moves += len(g.Moves) - len(g.Opening)
	}
	var sum int
	for _, name := range testPlayers {
		var m, a, u int
		if _, err := fmt.Sscanf(after(s, `<tr data-player="`+name+`"><td class="name">`+name+`</td><td>`, "accuracy-table"), "%d</td><td>%d</td><td>%d", &m, &a, &u); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sum += m
		if a+u != m || a == 0 {
			t.Errorf("%s: %d moves, %d analysed, %d unknown", name, m, a, u)
		}
	}
	if sum != moves {
		t.Errorf("the table counts %d moves, the games have %d", sum, moves)
	}
	if !strings.Contains(s, `<a href="#game-`) {
		t.Error("no link into the viewer")
	}
	d := pageData(t, page)
	scored := 0
	for _, g := range d.Games {
		for ply, a := range g.Acc {
			scored++
			loss, before, afterV, moves := jsonInt(a[0]), jsonInt(a[1]), jsonInt(a[2]), a[4].([]any)
			if loss != before-afterV {
				t.Fatalf("game %d ply %d: loss %d, before %d, after %d", g.Index, ply, loss, before, afterV)
			}
			best, played := -1000, false
			for _, mv := range moves {
				m := mv.([]any)
				v := jsonInt(m[1])
				best = max(best, v)
				if m[0] == g.Moves[ply] {
					played = true
					if v != afterV {
						t.Fatalf("game %d ply %d: the move played is worth %d, after %d", g.Index, ply, v, afterV)
					}
				}
				if (jsonInt(m[2]) == 1) != (v == before) {
					t.Fatalf("game %d ply %d: %v marked wrong (position %d)", g.Index, ply, m, before)
				}
			}
			if best != before || !played {
				t.Fatalf("game %d ply %d: best %d, position %d, played listed %v", g.Index, ply, best, before, played)
			}
		}
	}
	if scored == 0 || len(d.Games) != 4 {
		t.Fatalf("%d viewer games, %d plies scored", len(d.Games), scored)
	}
}

// jsonInt is a number of the page's data as read back (a float64).
func jsonInt(v any) int {
	f, ok := v.(float64)
	if !ok {
		return -1 << 20
	}
	return int(f)
}

// after returns s from the first prefix after marker, past the prefix.
func after(s, prefix, marker string) string {
	s = s[strings.Index(s, marker):]
	i := strings.Index(s, prefix)
	if i < 0 {
		return ""
	}
	return s[i+len(prefix):]
}

// TestAccuracyInBrowser: a worst move's link opens its game at the ply
// before it, and the viewer lists the value of every legal move there.
func TestAccuracyInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	b := newBrowser(t, 2*time.Minute)
	page, gs, _ := accuracyPage(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	d := pageData(t, page)
	// A scored ply of the last viewer game, linked by hand as the worst
	// moves link.
	g := d.Games[len(d.Games)-1]
	ply := -1
	for p := range g.Acc {
		ply = max(ply, p)
	}
	if ply < 0 {
		t.Fatal("no scored ply")
	}
	b.run("opening the page", chromedp.Navigate(fmt.Sprintf("file://%s#game-%d-ply-%d", path, g.Index, ply)),
		chromedp.WaitVisible(chromedp.CSS("#gv-board svg")))
	b.checkErrors()
	game := eval[int](b, "window.arenaViewer.game()")
	at := eval[int](b, "window.arenaViewer.ply()")
	rows := eval[int](b, `document.querySelectorAll("#gv-stats table.gv-values tr").length`)
	played := eval[string](b, `(document.querySelector("#gv-stats table.gv-values tr.gv-current td") || {}).textContent || ""`)
	if d.Games[game].Index != g.Index || at != ply {
		t.Fatalf("the link shows game %d ply %d, want game %d ply %d", d.Games[game].Index, at, g.Index, ply)
	}
	if want := len(g.Acc[ply][4].([]any)) + 1; rows != want {
		t.Errorf("%d rows of values, want %d", rows, want)
	}
	if played != gs[g.Index].Moves[ply] {
		t.Errorf("the played move marked is %q, want %q", played, gs[g.Index].Moves[ply])
	}
}
