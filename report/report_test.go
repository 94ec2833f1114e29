package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// node is an element of a parsed page.
type node struct {
	name     string
	attr     map[string]string
	children []*node
	text     string // the element's own character data
}

// rawText matches the elements whose content is not markup.
var rawText = regexp.MustCompile(`(?s)<(script|style)([^>]*)>.*?</(script|style)>`)

// parsePage parses the report as HTML: the contents of script and style
// elements are dropped (they are not markup), then the rest must nest
// properly, void elements aside. It fails the test when it does not.
func parsePage(t *testing.T, page string) *node {
	t.Helper()
	page = rawText.ReplaceAllString(page, "<$1$2></$3>")
	page = strings.Replace(page, "<!DOCTYPE html>", "", 1)
	dec := xml.NewDecoder(strings.NewReader(page))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	root := &node{name: "#root"}
	stack := []*node{root}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		top := stack[len(stack)-1]
		switch e := tok.(type) {
		case xml.StartElement:
			n := &node{name: e.Name.Local, attr: map[string]string{}}
			for _, a := range e.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			if top.name != e.Name.Local {
				t.Fatalf("</%s> closes <%s>", e.Name.Local, top.name)
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			top.text += string(e)
		}
	}
	if len(stack) != 1 {
		t.Fatalf("unclosed elements: %d", len(stack)-1)
	}
	seen := map[string]bool{}
	for _, n := range root.find(func(n *node) bool { return n.attr["id"] != "" }) {
		if seen[n.attr["id"]] {
			t.Errorf("id %q appears twice", n.attr["id"])
		}
		seen[n.attr["id"]] = true
	}
	return root
}

// find returns the elements under n (n included) for which ok holds.
func (n *node) find(ok func(*node) bool) []*node {
	var out []*node
	if ok(n) {
		out = append(out, n)
	}
	for _, c := range n.children {
		out = append(out, c.find(ok)...)
	}
	return out
}

func (n *node) byID(id string) *node {
	if f := n.find(func(m *node) bool { return m.attr["id"] == id }); len(f) == 1 {
		return f[0]
	}
	return nil
}

// allText is the text of n and everything in it.
func (n *node) allText() string {
	var b strings.Builder
	b.WriteString(n.text)
	for _, c := range n.children {
		b.WriteString(c.allText())
	}
	return b.String()
}

func readTestFile(t *testing.T, name string) *results.File {
	t.Helper()
	f, err := results.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// writePage writes the report of files and parses it.
func writePage(t *testing.T, opt Options, files ...*results.File) (*node, string, Written) {
	t.Helper()
	d, err := results.Merge(files...)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	wr, err := Write(&buf, d, opt)
	if err != nil {
		t.Fatal(err)
	}
	return parsePage(t, buf.String()), buf.String(), wr
}

func TestTournamentPage(t *testing.T) {
	f := readTestFile(t, "tournament.jsonl")
	// One game becomes a time forfeit of its loser, so the page must name it.
	var forfeiter string
	for i := range f.Games {
		g := &f.Games[i]
		if g.Winner == 1 {
			g.Termination, g.Forfeit, g.Detail = results.Timeout, 0, "took 12 ms (limit 10 ms)"
			forfeiter = g.Players[0].Name
			break
		}
	}
	if forfeiter == "" {
		t.Fatal("the test file has no game the second player won")
	}
	// The command line that plays a record again is the caller's (arena
	// report gives arena's): the page shows it with its note.
	command := func(c results.Config) string {
		return fmt.Sprintf("replay --seed %d %s <%s>", c.Seed, c.Game, c.Agents[0].Spec)
	}
	opt := Options{Rating: results.AnalysisOptions{Bootstrap: 50, Seed: 1}, Command: command, CommandNote: "add <code>--keep</code>"}
	root, html, wr := writePage(t, opt, f)

	for _, id := range []string{"standings", "matrix", "colours", "terminations", "lengths", "search", "config", "viewer"} {
		if root.byID(id) == nil {
			t.Errorf("no section %q", id)
		}
	}
	if root.byID("match") != nil {
		t.Error("a tournament's page has a match section")
	}
	// Every plot is inline SVG, in the order Write lists them.
	var plots []string
	for _, s := range root.find(func(n *node) bool { return n.name == "svg" && n.attr["data-plot"] != "" }) {
		plots = append(plots, s.attr["data-plot"])
	}
	for _, want := range []string{"ratings", "score-matrix", "los-matrix", "colours", "terminations", "game-length", "time-per-move", "move-times"} {
		if !slices.Contains(plots, want) {
			t.Errorf("no plot %q (plots: %q)", want, plots)
		}
	}
	if !slices.Equal(plots, wr.Plots) {
		t.Errorf("the page's plots %q are not the plots Write lists %q", plots, wr.Plots)
	}
	if strings.Contains(html, "http://") && !strings.Contains(html, `xmlns="http://www.w3.org/2000/svg"`) || regexp.MustCompile(`(src|href)="https?:`).MatchString(html) {
		t.Error("the page refers to a network resource")
	}

	// Standings: each player's games and W-D-L, counted here from the file.
	type wdl struct{ w, d, l int }
	want := map[string]*wdl{}
	for _, g := range f.Games {
		for p := range 2 {
			n := g.Players[p].Name
			if want[n] == nil {
				want[n] = &wdl{}
			}
			switch g.Points(p) {
			case 1:
				want[n].w++
			case 0.5:
				want[n].d++
			default:
				want[n].l++
			}
		}
	}
	rows := root.byID("standings-table").find(func(n *node) bool { return n.name == "tr" && n.attr["data-player"] != "" })
	if len(rows) != len(want) {
		t.Fatalf("%d standings rows, want %d", len(rows), len(want))
	}
	prev := 1e300
	for _, r := range rows {
		w := want[r.attr["data-player"]]
		if w == nil {
			t.Errorf("unknown player %q in the standings", r.attr["data-player"])
			continue
		}
		got := fmt.Sprintf("%s-%s-%s", r.attr["data-wins"], r.attr["data-draws"], r.attr["data-losses"])
		if exp := fmt.Sprintf("%d-%d-%d", w.w, w.d, w.l); got != exp {
			t.Errorf("%s: W-D-L %s, want %s", r.attr["data-player"], got, exp)
		}
		elo, err := strconv.ParseFloat(r.attr["data-elo"], 64)
		if err != nil {
			t.Errorf("%s: data-elo %q", r.attr["data-player"], r.attr["data-elo"])
		}
		if elo > prev {
			t.Errorf("standings not in rating order: %v after %v", elo, prev)
		}
		prev = elo
	}

	// Terminations: the forfeit is counted and its player named.
	var timeout *node
	for _, r := range root.byID("termination-table").find(func(n *node) bool { return n.name == "tr" }) {
		if r.attr["data-reason"] == results.Timeout {
			timeout = r
		}
	}
	if timeout == nil {
		t.Fatal("no timeout row in the terminations")
	}
	if timeout.attr["data-games"] != "1" || !strings.Contains(timeout.allText(), forfeiter+" 1") {
		t.Errorf("timeout row %q (games %s), want 1 game forfeited by %s", timeout.allText(), timeout.attr["data-games"], forfeiter)
	}
	if !strings.Contains(root.byID("forfeit-table").allText(), "took 12 ms") {
		t.Error("the forfeited game's detail is not listed")
	}

	// The number of games and the command that plays them again.
	if g := root.byID("games"); g == nil || g.attr["data-games"] != strconv.Itoa(len(f.Games)) {
		t.Errorf("games shown: %v, want %d", g, len(f.Games))
	}
	cmd := root.byID("config").find(func(n *node) bool { return n.name == "code" && n.attr["class"] == "cmd" })
	if len(cmd) != 1 || cmd[0].allText() != command(f.Header.Config) || !strings.Contains(cmd[0].allText(), "<") {
		t.Fatalf("command on the page: %v, want %q", cmd, command(f.Header.Config))
	}
	if !strings.Contains(html, "(same seed, same openings; add <code>--keep</code>):</p>") {
		t.Error("the command's note is not on the page")
	}
	// Without a Command, the configuration stands alone.
	opt.Command, opt.NoViewer = nil, true
	if root, html, _ := writePage(t, opt, f); root.byID("config") == nil || strings.Contains(html, "Reproduce") || strings.Contains(html, `class="cmd"`) {
		t.Error("a command section without a Command")
	}
}

func TestMatchPage(t *testing.T) {
	f := readTestFile(t, "match.jsonl")
	root, _, wr := writePage(t, Options{Rating: results.AnalysisOptions{Bootstrap: 0}, NoViewer: true}, f)
	if root.byID("match") == nil {
		t.Fatal("no match section")
	}
	ms := root.find(func(n *node) bool { return n.attr["class"] == "match" })
	if len(ms) != 1 {
		t.Fatalf("%d matches on the page, want 1", len(ms))
	}
	m := ms[0]
	if root.byID("viewer") != nil {
		t.Error("a viewer despite NoViewer")
	}
	// Pentanomial counts over the complete rounds, counted here: the file's
	// last round is incomplete (it finished after the decision).
	first := f.Header.Config.Agents[0].Name
	byRound := map[int][]float64{}
	for _, g := range f.Games {
		p := 0
		if g.Players[1].Name == first {
			p = 1
		}
		byRound[g.Round] = append(byRound[g.Round], g.Points(p))
	}
	var penta [5]int
	pairs := 0
	for r := 0; len(byRound[r]) == 2; r++ {
		penta[int(2*(byRound[r][0]+byRound[r][1]))]++
		pairs++
	}
	if pairs == 0 || 2*pairs == len(f.Games) {
		t.Fatalf("the test file should end with an incomplete round: %d pairs, %d games", pairs, len(f.Games))
	}
	rows := m.find(func(n *node) bool { return n.attr["data-penta"] != "" })
	if want := fmt.Sprintf("%d,%d,%d,%d,%d", penta[0], penta[1], penta[2], penta[3], penta[4]); len(rows) != 1 || rows[0].attr["data-penta"] != want {
		t.Errorf("pentanomial on the page %v, want %s", rows, want)
	}
	text := m.allText()
	for _, s := range []string{"Elo (95 %)", "nElo (95 %)", "LOS", "LLR", "H1 accepted", fmt.Sprintf("%d game pairs", pairs), "1 more recorded but not counted"} {
		if !strings.Contains(text, s) {
			t.Errorf("the match section lacks %q", s)
		}
	}
	// The LLR plot: one point per counted pair (and the origin).
	var svg *node
	for _, s := range m.find(func(n *node) bool { return n.name == "svg" }) {
		if strings.HasPrefix(s.attr["data-plot"], "llr-") {
			svg = s
		}
	}
	if svg == nil || !slices.Contains(wr.Plots, svg.attr["data-plot"]) {
		t.Fatalf("no LLR plot in the match section (plots %q)", wr.Plots)
	}
	longest := 0
	for _, p := range svg.find(func(n *node) bool { return n.name == "path" }) {
		if strings.Contains(p.attr["style"], "stroke:"+hex(colFirst)) {
			longest = max(longest, points(p.attr["d"]))
		}
	}
	if longest != pairs+1 {
		t.Errorf("LLR line of %d points, want %d", longest, pairs+1)
	}
	// Without a bootstrap there is no LOS matrix.
	if slices.Contains(wr.Plots, "los-matrix") {
		t.Error("an LOS heat map without bootstrap resamples")
	}
}

func TestWritePNGs(t *testing.T) {
	dir := t.TempDir()
	f := readTestFile(t, "match.jsonl")
	_, _, wr := writePage(t, Options{PNGDir: dir, NoViewer: true}, f)
	if len(wr.PNGs) != len(wr.Plots) {
		t.Fatalf("%d PNGs for %d plots", len(wr.PNGs), len(wr.Plots))
	}
	for i, p := range wr.Plots {
		if wr.PNGs[i] != filepath.Join(dir, p+".png") {
			t.Errorf("PNG %q for plot %q", wr.PNGs[i], p)
		}
		if st, err := os.Stat(wr.PNGs[i]); err != nil || st.Size() == 0 {
			t.Errorf("PNG %s: %v", wr.PNGs[i], err)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	f := readTestFile(t, "match.jsonl")
	d, err := results.Merge(f)
	if err != nil {
		t.Fatal(err)
	}
	empty := *f
	empty.Games = nil
	e, err := results.Merge(&empty)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		d    *results.Dataset
		opt  Options
		want string
	}{
		{"no games", e, Options{}, "no games"},
		{"missing png dir", d, Options{PNGDir: filepath.Join(t.TempDir(), "nope")}, "not an existing directory"},
		{"unknown anchor", d, Options{Rating: results.AnalysisOptions{Anchor: "nobody"}}, "no such player"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Write(io.Discard, tc.d, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestMergedPage: a tournament and a match of the same game make one page:
// standings over both files' players and games, the match's own section,
// and each file's configuration.
func TestMergedPage(t *testing.T) {
	tour, match := readTestFile(t, "tournament.jsonl"), readTestFile(t, "match.jsonl")
	command := func(c results.Config) string { return fmt.Sprintf("play %s seed %d", c.Kind, c.Seed) }
	root, _, _ := writePage(t, Options{Rating: results.AnalysisOptions{Bootstrap: 20, Seed: 1}, NoViewer: true, Command: command}, tour, match)
	players := map[string]bool{}
	for _, f := range []*results.File{tour, match} {
		for _, g := range f.Games {
			players[g.Players[0].Name], players[g.Players[1].Name] = true, true
		}
	}
	rows := root.byID("standings-table").find(func(n *node) bool { return n.name == "tr" && n.attr["data-player"] != "" })
	games := 0
	for _, r := range rows {
		if !players[r.attr["data-player"]] {
			t.Errorf("unexpected player %q", r.attr["data-player"])
		}
		n, _ := strconv.Atoi(r.attr["data-games"])
		games += n
	}
	if len(rows) != len(players) || games != 2*(len(tour.Games)+len(match.Games)) {
		t.Errorf("%d players with %d player-games, want %d players and %d", len(rows), games, len(players), 2*(len(tour.Games)+len(match.Games)))
	}
	if len(root.find(func(n *node) bool { return n.attr["class"] == "match" })) != 1 {
		t.Error("want one match section, for the match file")
	}
	if cmds := root.byID("config").find(func(n *node) bool { return n.attr["class"] == "cmd" }); len(cmds) != 2 ||
		cmds[0].allText() != command(tour.Header.Config) || cmds[1].allText() != command(match.Header.Config) {
		t.Errorf("commands %v, want one per file", cmds)
	}
}

// TestWriteIsDeterministic: the same records and options give the same
// page, byte for byte (no map order, clock or unseeded randomness leaks in).
func TestWriteIsDeterministic(t *testing.T) {
	f := readTestFile(t, "tournament.jsonl")
	losers := map[string]bool{}
	for i := range f.Games {
		// Crashes of several players, so that their naming order matters.
		if g := &f.Games[i]; g.Winner >= 0 && len(losers) < 3 {
			g.Termination, g.Forfeit = results.Crash, 1-g.Winner
			losers[g.Players[g.Forfeit].Name] = true
		}
	}
	if len(losers) < 2 {
		t.Fatalf("crashes of %d players, want several", len(losers))
	}
	var pages [3]string
	for k := range pages {
		d, err := results.Merge(f)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := Write(&buf, d, Options{Rating: results.AnalysisOptions{Bootstrap: 30, Seed: 4}}); err != nil {
			t.Fatal(err)
		}
		pages[k] = buf.String()
	}
	if pages[0] != pages[1] || pages[1] != pages[2] {
		t.Error("three writes of the same report differ")
	}
}

// TestClockPlot: records with clock times (a run with --tc) get the plot
// of the time left, one line per player; records without get none.
func TestClockPlot(t *testing.T) {
	f := readTestFile(t, "clocks.jsonl")
	if len(f.Games) == 0 || len(f.Games[0].Clocks) == 0 {
		t.Fatal("the test file has no clock times")
	}
	root, _, wr := writePage(t, Options{NoViewer: true}, f)
	if !slices.Contains(wr.Plots, "clocks") {
		t.Fatalf("no clock plot among %q", wr.Plots)
	}
	svg := root.find(func(n *node) bool { return n.attr["data-plot"] == "clocks" })
	if len(svg) != 1 {
		t.Fatal("the clock plot is not on the page")
	}
	for k := range f.Header.Config.Agents {
		c := lineColours[k]
		if n := len(svg[0].find(func(n *node) bool { return strings.Contains(n.attr["style"], "stroke:"+hex(c)) })); n != 2 {
			t.Errorf("player %d: %d strokes in its colour, want its line and its legend swatch", k, n)
		}
	}
	_, _, wr = writePage(t, Options{NoViewer: true}, readTestFile(t, "match.jsonl"))
	if slices.Contains(wr.Plots, "clocks") {
		t.Error("a clock plot for records without clocks")
	}
}

// TestPageEarlyInARun: a live page after the first game lists every agent
// of the header, those without games last, and draws every plot.
func TestPageEarlyInARun(t *testing.T) {
	f := readTestFile(t, "tournament.jsonl")
	f.Games = f.Games[:1]
	root, _, wr := writePage(t, Options{Rating: results.AnalysisOptions{Bootstrap: 20, Seed: 1}}, f)
	rows := root.byID("standings-table").find(func(n *node) bool { return n.name == "tr" && n.attr["data-player"] != "" })
	if len(rows) != len(f.Header.Config.Agents) {
		t.Fatalf("%d standings rows, want all %d agents", len(rows), len(f.Header.Config.Agents))
	}
	for _, r := range rows[2:] {
		if r.attr["data-games"] != "0" {
			t.Errorf("%s with %s games ranked after the two who played", r.attr["data-player"], r.attr["data-games"])
		}
	}
	if len(wr.Plots) < 7 {
		t.Errorf("plots %q", wr.Plots)
	}
}

// TestWriteFileKeepsOldPage: a report that fails leaves the page it would
// have replaced as it was, and no temporary file.
func TestWriteFileKeepsOldPage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.html")
	if err := os.WriteFile(path, []byte("old page"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := results.NewDataset("othello6", []string{"a", "b"}, nil)
	if _, _, err := WriteFile(path, empty, Options{}); err == nil {
		t.Fatal("no error for a report without games")
	}
	if data, _ := os.ReadFile(path); string(data) != "old page" {
		t.Errorf("the old page became %q", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
	// A report that succeeds replaces it whole, readable by all.
	d, err := results.Merge(readTestFile(t, "match.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	wr, size, err := WriteFile(path, d, Options{NoViewer: true})
	st, serr := os.Stat(path)
	if err != nil || serr != nil || st.Size() != size || st.Mode().Perm() != 0o644 || len(wr.Plots) == 0 {
		t.Errorf("WriteFile: %v, %v; size %d, mode %v, %d plots", err, serr, size, st.Mode(), len(wr.Plots))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}

// TestWriteFileNamesThePage: a page that cannot be written is named in the
// error, not the temporary file behind it.
func TestWriteFileNamesThePage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "r.html")
	_, _, err := WriteFile(path, nil, Options{})
	if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.Contains(err.Error(), "cannot write r.html in "+filepath.Dir(path)) {
		t.Errorf("error %v: want the page and its directory named", err)
	}
}

// TestPNGDirErrors: the PNG directory is refused by its option's name.
func TestPNGDirErrors(t *testing.T) {
	d, err := results.Merge(readTestFile(t, "match.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "nope")
	_, err = Write(io.Discard, d, Options{PNGDir: missing, NoViewer: true})
	var oe *option.Error
	if !errors.As(err, &oe) || oe.Name != "PNGDir" || err.Error() != "PNGDir "+missing+": not an existing directory (create it first)" {
		t.Errorf("missing PNG directory: %v", err)
	}
	// A directory that cannot take a file: the writing error names it too.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	r := &renderer{pngDir: filepath.Join(file)}
	p, _ := llrPlot([]float64{0, 1}, -2, 2)
	_, err = r.render("x", p, 0, 0)
	if !errors.As(err, &oe) || oe.Name != "PNGDir" || !strings.HasPrefix(option.Render(err, func(string) string { return "--png" }), "--png: open "+file) {
		t.Errorf("unwritable PNG: %v", err)
	}
}

// TestTooManyPlayers checks that a report of more players than
// MaxPlayers is refused before it lays out players² cells (the ratings
// take up to results.MaxPlayers, 100 000; before, 4 096 bounded both).
func TestTooManyPlayers(t *testing.T) {
	rep := &results.Analysis{Players: make([]results.PlayerRow, MaxPlayers+1)}
	_, err := build(&Source{Analysis: rep}, nil, Options{}, &renderer{})
	if err == nil || !strings.Contains(err.Error(), "report.MaxPlayers") {
		t.Fatalf("a report of %d players: %v, want refused", MaxPlayers+1, err)
	}
}
