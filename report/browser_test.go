package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/boardgame-arena/arena/results"
)

// The real-browser tests open generated pages in headless Chromium (Debian's
// chromium package), driven by chromedp. They skip when no browser is
// installed, unless ARENA_REQUIRE_BROWSER is set (.ci/run sets it, so CI
// cannot skip them silently).

// requireBrowserEnv names the variable that turns a missing browser into a
// failure.
const requireBrowserEnv = "ARENA_REQUIRE_BROWSER"

// browserPath returns the Chromium binary, or skips (fails, when
// ARENA_REQUIRE_BROWSER is set) when there is none.
func browserPath(t *testing.T) string {
	t.Helper()
	names := []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := fmt.Sprintf("no browser for the real-browser test (looked for %s on PATH); install one with 'apt-get install -y chromium'", strings.Join(names, ", "))
	if os.Getenv(requireBrowserEnv) != "" {
		t.Fatalf("%s, or unset %s", msg, requireBrowserEnv)
	}
	t.Skipf("%s (set %s=1 to make this a failure)", msg, requireBrowserEnv)
	return ""
}

// browser is a headless Chromium with one tab, recording the page's console
// errors and uncaught exceptions.
type browser struct {
	t       *testing.T
	ctx     context.Context
	dataDir string // the browser's profile: its processes name it
	pids    []int  // the browser's process and its descendants, once started
	mu      sync.Mutex
	errs    []string
}

// newBrowser starts Chromium; everything it does ends within timeout, and
// the test's cleanup stops it and checks that none of its processes are
// left.
func newBrowser(t *testing.T, timeout time.Duration) *browser {
	exe := browserPath(t)
	b := &browser{t: t, dataDir: t.TempDir()}
	ctx, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(b.dataDir),
		chromedp.NoSandbox, // the tests may run as root, where Chromium's sandbox refuses to start
		chromedp.DisableGPU,
		chromedp.WindowSize(1200, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	b.ctx = bctx
	t.Cleanup(func() {
		// The processes started since (renderers of later pages) too.
		if len(b.pids) > 0 {
			for _, p := range descendants(b.pids[0]) {
				if !slices.Contains(b.pids, p) {
					b.pids = append(b.pids, p)
				}
			}
		}
		cancelBrowser()
		cancelAlloc()
		cancelTimeout()
		b.checkGone()
	})
	// Start the browser, and listen to the console from the first page on.
	if err := chromedp.Listen(bctx, b.listen); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	// Note the browser's processes, for the check that none outlives the
	// test; the check must see them while they run, or it could not fail.
	// It reads /proc, so it runs where there is one (Linux, as in CI).
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Logf("no /proc: the browser's processes are not checked")
		return b
	}
	if c := chromedp.FromContext(bctx); c.Browser != nil && c.Browser.Process() != nil {
		b.pids = descendants(c.Browser.Process().Pid)
	}
	if len(b.pids) < 2 || len(processesNaming(b.dataDir)) == 0 {
		t.Fatalf("cannot see the browser's processes (pids %v, %d naming its profile)", b.pids, len(processesNaming(b.dataDir)))
	}
	return b
}

// descendants returns pid and all its live descendants.
func descendants(pid int) []int {
	parent := map[int]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		stat, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 2 {
			continue
		}
		p, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		pp, _ := strconv.Atoi(fields[1])
		parent[p] = pp
	}
	out := []int{pid}
	for grew := true; grew; {
		grew = false
		for p, pp := range parent {
			if slices.Contains(out, pp) && !slices.Contains(out, p) {
				out = append(out, p)
				grew = true
			}
		}
	}
	return out
}

// alive reports whether pid is a running (not ended) process.
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	return err == nil && !zombie(stat)
}

// listen records console errors and uncaught exceptions (it runs on the
// browser's reading goroutine: it only appends).
func (b *browser) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != "error" && ev.Type != "assert" {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if a.Value != nil {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		msg = "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg = fmt.Sprintf("uncaught exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, d.Text)
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level != "error" {
			return
		}
		msg = "browser log: " + ev.Entry.Text + " " + ev.Entry.URL
	default:
		return
	}
	b.mu.Lock()
	b.errs = append(b.errs, msg)
	b.mu.Unlock()
}

// checkErrors fails the test if the page reported any error so far.
func (b *browser) checkErrors() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errs {
		b.t.Errorf("the page reported: %s", e)
	}
	b.errs = nil
}

// probeListener makes the page log an error and throw an exception, and
// fails the test unless the listener saw both: the check that a page
// reported no errors must be able to fail.
func (b *browser) probeListener() {
	b.t.Helper()
	eval[bool](b, `console.error("probe-console"); setTimeout(function () { throw new Error("probe-exception"); }, 0); true`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		b.mu.Lock()
		joined := strings.Join(b.errs, "\n")
		b.mu.Unlock()
		if strings.Contains(joined, "probe-console") && strings.Contains(joined, "probe-exception") {
			break
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("the console listener missed the probe's error or exception; it saw: %q", joined)
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.mu.Lock()
	b.errs = nil
	b.mu.Unlock()
}

// checkGone waits a little for the browser's processes to end and fails
// the test if any of them is alive or any process still names its profile
// directory.
func (b *browser) checkGone() {
	deadline := time.Now().Add(10 * time.Second)
	var left []string
	for {
		left = processesNaming(b.dataDir)
		for _, p := range b.pids {
			if alive(p) {
				left = append(left, fmt.Sprintf("%d (started by the browser)", p))
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(left) > 0 {
		b.t.Errorf("browser processes left behind: %s", strings.Join(left, "; "))
	}
}

// processesNaming lists the live processes whose command line contains s.
func processesNaming(s string) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, d := range dirs {
		cmd, err := os.ReadFile(d)
		if err != nil || !bytes.Contains(cmd, []byte(s)) {
			continue
		}
		pid := filepath.Base(filepath.Dir(d))
		if stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat")); err == nil && zombie(stat) {
			continue // ended, waiting for its parent to reap it
		}
		name, _, _ := bytes.Cut(cmd, []byte{0})
		out = append(out, pid+" "+string(name))
	}
	return out
}

// zombie reports whether /proc/PID/stat says the process has ended.
func zombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// run runs actions, failing the test on an error.
func (b *browser) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression and decodes its JSON value.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// viewState is what the page shows: the current game and ply, the picture
// the viewer built and the elements the browser parsed from it, the marked
// move, and the statistics rows.
type viewState struct {
	Game     int    `json:"game"`
	Ply      int    `json:"ply"`
	SVG      string `json:"svg"`
	Elements int    `json:"elements"`
	Current  string `json:"current"`
	PlyText  string `json:"plyText"`
	StatRows int    `json:"statRows"`
	Options  []int  `json:"options"`
}

const viewStateJS = `(function () {
  var v = window.arenaViewer, cur = document.querySelector("#gv-moves li.gv-current");
  return {
    game: v.game(), ply: v.ply(), svg: v.game() < 0 ? "" : v.svg(v.game(), v.ply()),
    elements: document.querySelectorAll("#gv-board svg *").length,
    current: cur ? cur.textContent : "",
    plyText: document.getElementById("gv-ply").textContent,
    statRows: document.querySelectorAll("#gv-stats tr").length,
    options: Array.prototype.map.call(document.querySelectorAll("#gv-game option"), function (o) { return Number(o.value); })
  };
})()`

func (b *browser) state() viewState {
	b.t.Helper()
	return eval[viewState](b, viewStateJS)
}

// choose sets a select element's value as a user would and fires change.
func (b *browser) choose(id, value string) {
	b.t.Helper()
	b.run("choosing "+value+" in #"+id,
		chromedp.SetValue(chromedp.ID(id), value),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](`document.getElementById(`+strconv.Quote(id)+`).dispatchEvent(new Event("change"))`)(ctx, t)
			return err
		}),
	)
}

// svgElements counts the elements of an SVG document below its root, as
// a browser's DOM holds them.
func svgElements(t *testing.T, svg string) int {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	n := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the picture is not well-formed XML: %v", err)
		}
		if _, ok := tok.(xml.StartElement); ok {
			n++
		}
	}
	return n - 1
}

// browserGames are the games of the browser test: two of every game that
// draws itself (the first with statistics), and three more Othello games
// for the filters, in a fixed order.
func browserGames(t *testing.T) []*results.GameRecord {
	var gs []*results.GameRecord
	for _, name := range drawerGames(t) {
		for _, g := range randomGames(t, name, 2, 17, 300) {
			g.Index = len(gs)
			gs = append(gs, g)
		}
	}
	for i, g := range randomGames(t, "othello6", 4, 23, 300)[1:] {
		g.Index = len(gs)
		g.Players[0].Name, g.Players[1].Name = testPlayers[(i+1)%3], testPlayers[(i+2)%3]
		gs = append(gs, g)
	}
	// One forfeit: the second player timed out at its first move.
	f := gs[len(gs)-1]
	f.Moves, f.Plies, f.Winner, f.Result, f.Score = f.Moves[:1], 1, 0, "1-0", 0
	f.Termination, f.Forfeit, f.Detail = results.Timeout, 1, "no move within 100 ms"
	f.MoveStats, f.Clocks = nil, nil
	for _, g := range gs {
		if err := g.Check(); err != nil {
			t.Fatalf("game %d: %v", g.Index, err)
		}
	}
	return gs
}

// TestViewerInBrowser opens a page with the viewer in headless Chromium and
// checks: no console errors, the board is drawn, the next button and the
// right arrow step the game and change the drawn pieces, the marked move is
// the one just played, the page's picture of every ply stepped to is the
// replay's (games.WriteSVG) and the browser's DOM holds all its elements,
// statistics appear for a game with them, and the filters show exactly the
// matching games. It writes a screenshot (kept in ARENA_SCREENSHOTS when
// set).
func TestViewerInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	b := newBrowser(t, 2*time.Minute)
	gs := browserGames(t)
	want := make([][]string, len(gs)) // the replay's picture of every ply
	for i, g := range gs {
		want[i] = replaySVGs(t, g)
	}
	page := filepath.Join(t.TempDir(), "viewer.html")
	writeTestPage(t, page, gs, ViewerOptions{})
	b.run("opening the page", chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("#gv-board svg")))
	b.checkErrors()
	b.probeListener()

	// The page's picture at (game, ply) is the replay's, and the browser
	// parsed every element of it.
	check := func(s viewState, game, ply int) {
		t.Helper()
		if s.Game != game || s.Ply != ply {
			t.Fatalf("the page shows game %d ply %d, want game %d ply %d", s.Game, s.Ply, game, ply)
		}
		if s.SVG != want[game][ply] {
			t.Fatalf("game %d ply %d: the page's picture differs from the replay's\npage:   %q\nreplay: %q", game, ply, s.SVG, want[game][ply])
		}
		if n := svgElements(t, want[game][ply]); s.Elements != n {
			t.Fatalf("game %d ply %d: the board holds %d elements, the picture has %d", game, ply, s.Elements, n)
		}
		wantCurrent := ""
		if ply > 0 {
			wantCurrent = gs[game].Moves[ply-1]
		}
		if s.Current != wantCurrent {
			t.Fatalf("game %d ply %d: marked move %q, want %q", game, ply, s.Current, wantCurrent)
		}
	}
	s := b.state()
	check(s, 0, 0)
	if len(s.Options) != len(gs) {
		t.Fatalf("the game list has %d games, want %d", len(s.Options), len(gs))
	}
	b.run("clicking next", chromedp.Click(chromedp.ID("gv-next")))
	s1 := b.state()
	check(s1, 0, 1)
	b.run("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight))
	s2 := b.state()
	check(s2, 0, 2)
	if s1.SVG == s.SVG || s2.SVG == s1.SVG {
		t.Error("stepping did not change the drawn pieces")
	}
	// Ply 2 was the second move: its statistics row and the clocks after it.
	if s2.StatRows != 2 {
		t.Errorf("game 0 has move statistics, the page shows %d table rows (want a header and one move)", s2.StatRows)
	}
	ms, clocks := gs[0].MoveStats[1], gs[0].Clocks[1]
	row := eval[string](b, `document.querySelectorAll("#gv-stats tr")[1].textContent`)
	for _, w := range []string{gs[0].Players[ms.Player].Name, strconv.Itoa(ms.Depth), strconv.FormatInt(ms.Nodes, 10), ms.Info} {
		if !strings.Contains(row, w) {
			t.Errorf("the statistics row %q lacks %q (%+v)", row, w, ms)
		}
	}
	clockText := eval[string](b, `document.querySelector("#gv-stats p").textContent`)
	if want := fmt.Sprintf("%s %.2f s", gs[0].Players[0].Name, clocks[0]/1000); !strings.Contains(clockText, want) {
		t.Errorf("the clocks line %q lacks %q", clockText, want)
	}
	b.run("pressing the left arrow", chromedp.KeyEvent(kb.ArrowLeft))
	check(b.state(), 0, 1)
	// The arrow keys step the game also while the game list has the focus
	// (and do not pick another game there).
	b.run("focusing the game list", chromedp.Focus(chromedp.ID("gv-game")))
	b.run("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight))
	check(b.state(), 0, 2)
	b.run("leaving the game list", chromedp.Blur(chromedp.ID("gv-game")))

	// Every game: pick it, step forward with the arrow key a few plies,
	// then jump to the end.
	for gi, g := range gs {
		b.choose("gv-game", strconv.Itoa(gi))
		check(b.state(), gi, 0)
		n := min(7, len(g.Moves))
		for range n {
			b.run("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight))
		}
		check(b.state(), gi, n)
		b.run("pressing End", chromedp.KeyEvent(kb.End))
		s := b.state()
		check(s, gi, len(g.Moves))
		// The last move is scrolled into the list's view.
		if len(g.Moves) > 0 {
			inView := eval[bool](b, `(function () {
  var l = document.getElementById("gv-moves"), li = l.querySelector("li.gv-current");
  var a = l.getBoundingClientRect(), r = li.getBoundingClientRect();
  return r.top >= a.top - 1 && r.bottom <= a.bottom + 1;
})()`)
			if !inView {
				t.Errorf("game %d: the last move is not in the move list's view", gi)
			}
		}
		if !strings.Contains(s.PlyText, g.Result) {
			t.Errorf("game %d: the ply line %q does not give the result %s", gi, s.PlyText, g.Result)
		}
	}
	b.run("clicking start", chromedp.Click(chromedp.ID("gv-first")))
	check(b.state(), len(gs)-1, 0)
	// Home, End and the last button, and a click on a move, in game 2.
	b.choose("gv-game", "2")
	b.run("clicking the last button", chromedp.Click(chromedp.ID("gv-last")))
	check(b.state(), 2, len(gs[2].Moves))
	b.run("pressing Home", chromedp.KeyEvent(kb.Home))
	check(b.state(), 2, 0)
	b.run("clicking the fifth move", chromedp.Click(chromedp.CSS("#gv-moves li:nth-child(5)")))
	check(b.state(), 2, 5)
	b.run("clicking back", chromedp.Click(chromedp.ID("gv-prev")))
	check(b.state(), 2, 4)

	// Filters: the game list holds exactly the matching games.
	filterCases := []struct {
		player, result string
		match          func(g *results.GameRecord) bool
	}{
		{"beta", "", func(g *results.GameRecord) bool { return g.Players[0].Name == "beta" || g.Players[1].Name == "beta" }},
		{"beta", "draw", func(g *results.GameRecord) bool {
			return (g.Players[0].Name == "beta" || g.Players[1].Name == "beta") && g.Winner == -1
		}},
		{"", "1-0", func(g *results.GameRecord) bool { return g.Result == "1-0" }},
		{"", "0-1", func(g *results.GameRecord) bool { return g.Result == "0-1" }},
		{"", "forfeit", func(g *results.GameRecord) bool { return g.Forfeit != -1 }},
		{"", "", func(g *results.GameRecord) bool { return true }},
	}
	for _, c := range filterCases {
		b.choose("gv-player", c.player)
		b.choose("gv-result", c.result)
		var wantIdx []int
		for i, g := range gs {
			if c.match(g) {
				wantIdx = append(wantIdx, i)
			}
		}
		s := b.state()
		if !slices.Equal(s.Options, wantIdx) {
			t.Errorf("filter player %q result %q: games %v, want %v", c.player, c.result, s.Options, wantIdx)
		}
		if len(wantIdx) > 0 && !slices.Contains(wantIdx, s.Game) {
			t.Errorf("filter player %q result %q: shows game %d, not among %v", c.player, c.result, s.Game, wantIdx)
		}
		if len(wantIdx) == 0 && s.Game != -1 {
			t.Errorf("filter player %q result %q: no game matches, but game %d is shown", c.player, c.result, s.Game)
		}
	}
	b.choose("gv-result", "forfeit")
	if s := b.state(); !strings.Contains(s.PlyText, "timeout") || !strings.Contains(s.PlyText, "no move within 100 ms") {
		t.Errorf("the forfeit's ply line %q does not say how it ended", s.PlyText)
	}
	b.choose("gv-result", "")

	// A reload (a live report refreshes itself) comes back to the same
	// filters, game and ply.
	b.choose("gv-player", "gamma")
	var gammaGame int
	if s := b.state(); len(s.Options) < 2 {
		t.Fatalf("gamma plays %d games", len(s.Options))
	} else {
		gammaGame = s.Options[1]
	}
	b.choose("gv-game", strconv.Itoa(gammaGame))
	for range 3 {
		b.run("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight))
	}
	b.run("reloading", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#gv-board svg")))
	check(b.state(), gammaGame, 3)
	if p := eval[string](b, `document.getElementById("gv-player").value`); p != "gamma" {
		t.Errorf("after the reload the player filter is %q, want gamma", p)
	}
	b.choose("gv-player", "")

	b.screenshot(chromedp.Screenshot(chromedp.ID("viewer")), "viewer.png")
	b.checkErrors()
}

// screenshotsEnv names a directory that keeps the tests' screenshots.
const screenshotsEnv = "ARENA_SCREENSHOTS"

// screenshot takes a screenshot, checks it is a PNG, and writes it as name
// in ARENA_SCREENSHOTS (when set) or the test's temporary directory.
func (b *browser) screenshot(take chromedp.Action[[]byte], name string) {
	b.t.Helper()
	shot, err := chromedp.Run(b.ctx, take)
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	if _, err := png.Decode(bytes.NewReader(shot)); err != nil {
		b.t.Fatalf("screenshot %s is not a PNG: %v", name, err)
	}
	dir := os.Getenv(screenshotsEnv)
	if dir == "" {
		dir = b.t.TempDir()
	}
	out := filepath.Join(dir, name)
	if err := os.WriteFile(out, shot, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s (%d bytes)", out, len(shot))
}

// TestReportInBrowser opens whole reports (Write, as 'arena report' writes
// them) in headless Chromium: the tournament and match records of the
// package's testdata (real arena runs) and a report of random games of every
// game that draws itself. Each page must load without console errors and
// show its standings, plots and viewer; stepping the viewer forward with
// the arrow key must show the replay's picture at that ply, in the page's
// data and in the DOM.
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	b := newBrowser(t, 3*time.Minute)
	type reportCase struct {
		name string
		d    *results.Dataset
	}
	var cases []reportCase
	for _, file := range []string{"tournament.jsonl", "match.jsonl"} {
		f, err := results.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		d, err := results.Merge(f)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, reportCase{file, d})
	}
	for _, name := range drawerGames(t) {
		gs := randomGames(t, name, 6, 29, 300)
		cases = append(cases, reportCase{name, results.NewDataset(name, testPlayers, gs)})
	}
	for ci, c := range cases {
		page := filepath.Join(t.TempDir(), "report.html")
		var buf bytes.Buffer
		opt := Options{Rating: results.AnalysisOptions{Bootstrap: 20, Seed: 1}}
		if ci == 0 {
			opt.Rating.MetaGame = &results.MetaGameOptions{} // and the meta-game's section
		}
		if _, err := Write(&buf, c.d, opt); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		b.run(c.name+": opening the report", chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("#gv-board svg")))
		rows := eval[int](b, `document.querySelectorAll("#standings-table tbody tr").length`)
		if rows != len(c.d.Players) {
			t.Errorf("%s: %d standings rows, want %d", c.name, rows, len(c.d.Players))
		}
		plots := eval[int](b, `Array.prototype.filter.call(document.querySelectorAll("svg"), function (s) { return !s.closest("#viewer"); }).length`)
		if plots < 3 || eval[int](b, `document.querySelectorAll("#standings svg").length`) < 1 {
			t.Errorf("%s: %d plots outside the viewer (want at least 3, a rating plot among them)", c.name, plots)
		}
		if ci == 0 {
			if n := eval[int](b, `document.querySelectorAll("#metagame svg.plot").length`); n < 2 {
				t.Errorf("%s: %d meta-game plots, want at least 2 (Nash, α-Rank)", c.name, n)
			}
		}
		// The longest game, stepped forward ten plies with the arrow key.
		gi := 0
		for i, g := range c.d.Games {
			if len(g.Moves) > len(c.d.Games[gi].Moves) {
				gi = i
			}
		}
		g := c.d.Games[gi]
		want := replaySVGs(t, g)
		b.choose("gv-game", strconv.Itoa(gi))
		n := min(10, len(want)-1)
		for range n {
			b.run("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight))
		}
		s := b.state()
		if s.Game != gi || s.Ply != n {
			t.Fatalf("%s: the viewer shows game %d ply %d, want game %d ply %d", c.name, s.Game, s.Ply, gi, n)
		}
		if s.SVG != want[n] {
			t.Errorf("%s: game %d ply %d: the page's picture differs from the replay's", c.name, gi, n)
		}
		if e := svgElements(t, want[n]); s.Elements != e {
			t.Errorf("%s: game %d ply %d: the board holds %d elements, the replay's picture %d", c.name, gi, n, s.Elements, e)
		}
		if s.Current != g.Moves[n-1] {
			t.Errorf("%s: marked move %q, want %q", c.name, s.Current, g.Moves[n-1])
		}
		if ci == 0 {
			// The top of a real tournament's report, and its viewer.
			b.run("scrolling to the top", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := chromedp.Evaluate[bool](`window.scrollTo(0, 0); true`)(ctx, t)
				return err
			}))
			b.screenshot(chromedp.CaptureScreenshot(), "report.png")
			// A game with move statistics, twelve plies in.
			si := slices.IndexFunc(c.d.Games, func(g *results.GameRecord) bool { return len(g.MoveStats) > 0 && len(g.Moves) > 12 })
			if si < 0 {
				t.Fatalf("%s has no game with move statistics", c.name)
			}
			b.choose("gv-game", strconv.Itoa(si))
			for range 12 {
				b.run("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight))
			}
			if s := b.state(); s.Game != si || s.Ply != 12 || s.SVG != replaySVGs(t, c.d.Games[si])[12] || s.StatRows < 2 {
				t.Errorf("%s: game %d ply 12: shows game %d ply %d with %d statistics rows, or another picture", c.name, si, s.Game, s.Ply, s.StatRows)
			}
			b.screenshot(chromedp.Screenshot(chromedp.ID("viewer")), "report-viewer.png")
		}
		b.checkErrors()
	}
}

// TestBrowserMissing runs the browser test in a child process whose PATH
// holds no browser: it must skip and say how to install one, and fail
// instead when ARENA_REQUIRE_BROWSER is set (as .ci/run sets it).
func TestBrowserMissing(t *testing.T) {
	if os.Getenv("ARENA_BROWSER_MISSING_CHILD") != "" {
		t.Skip("inside the child")
	}
	empty := t.TempDir()
	for _, c := range []struct {
		require  string
		wantFail bool
		want     string
	}{
		{"", false, "--- SKIP: TestViewerInBrowser"},
		{"1", true, "--- FAIL: TestViewerInBrowser"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestViewerInBrowser$", "-test.v")
		cmd.Env = []string{"PATH=" + empty, "ARENA_BROWSER_MISSING_CHILD=1", "HOME=" + empty}
		if c.require != "" {
			cmd.Env = append(cmd.Env, requireBrowserEnv+"="+c.require)
		}
		out, err := cmd.CombinedOutput()
		cancel()
		if failed := err != nil; failed != c.wantFail {
			t.Errorf("%s=%q: exit error %v, want failure %t\n%s", requireBrowserEnv, c.require, err, c.wantFail, out)
		}
		for _, w := range []string{c.want, "no browser for the real-browser test", "apt-get install -y chromium"} {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s=%q: output lacks %q:\n%s", requireBrowserEnv, c.require, w, out)
			}
		}
	}
}

// TestViewerBrokenRecordsInBrowser: a game the viewer cannot draw (an
// unknown game) lists its moves and says why it has no board; a game with
// an illegal move shows the last position it reached past that ply, and
// the note says where the board stopped; neither raises an error.
func TestViewerBrokenRecordsInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	b := newBrowser(t, time.Minute)
	good := randomGame(t, "othello6", 1, 5, 400)
	unknown := *good
	unknown.Game = "nosuchgame"
	illegal := *good
	illegal.Moves = slices.Clone(good.Moves)
	illegal.Moves[5] = illegal.Moves[0] // a square already taken
	page := filepath.Join(t.TempDir(), "viewer.html")
	writeTestPage(t, page, []*results.GameRecord{&unknown, &illegal}, ViewerOptions{})
	b.run("opening the page", chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.ID("gv-ply")))
	note := func() string {
		return eval[string](b, `document.getElementById("gv-note").hidden ? "" : document.getElementById("gv-note").textContent`)
	}
	b.run("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight))
	if s := b.state(); s.Game != 0 || s.Ply != 1 || s.SVG != "" || s.Elements != 0 || s.Current != unknown.Moves[0] {
		t.Errorf("unknown game: game %d ply %d, picture %q, %d elements, marked %q", s.Game, s.Ply, s.SVG, s.Elements, s.Current)
	}
	if n := note(); !strings.Contains(n, `unknown game "nosuchgame"`) {
		t.Errorf("unknown game: note %q", n)
	}
	want := replaySVGs(t, good)
	b.choose("gv-game", "1")
	for range 8 {
		b.run("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight))
	}
	if s := b.state(); s.Game != 1 || s.Ply != 8 || s.SVG != want[5] || s.Current != illegal.Moves[7] {
		t.Errorf("illegal move: game %d ply %d, marked %q; the picture is the last reached (ply 5): %t", s.Game, s.Ply, s.Current, s.SVG == want[5])
	}
	if n := note(); !strings.Contains(n, "stops before ply 6") {
		t.Errorf("illegal move: note %q", n)
	}
	b.checkErrors()
}
