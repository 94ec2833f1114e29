package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
)

// drawerGames returns the registered games whose positions draw themselves.
func drawerGames(t testing.TB) []string {
	t.Helper()
	names := games.WithPosition(func(b games.Base) bool { _, ok := b.(games.Drawer); return ok })
	if len(names) == 0 {
		t.Fatal("no registered game implements games.Drawer")
	}
	return names
}

// testPlayers are the agents of the generated games; filters pick among them.
var testPlayers = []string{"alpha", "beta", "gamma"}

// randomGame plays a game of spec with uniformly random moves chosen from
// seed (at most maxPlies plies; an unfinished game is adjudicated a draw)
// and returns it as the arena records it. Every third game carries clocks
// and move statistics.
func randomGame(t testing.TB, spec string, index int, seed uint64, maxPlies int) *results.GameRecord {
	t.Helper()
	v, err := games.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	r := rng.New(seed)
	a := testPlayers[index%len(testPlayers)]
	b := testPlayers[(index+1+index/len(testPlayers))%len(testPlayers)]
	if a == b {
		b = testPlayers[(index+1)%len(testPlayers)]
	}
	g := &results.GameRecord{
		Record: results.KindGame, Index: index, Game: v.Game.Name, Seed: seed,
		Players: [2]results.Player{{Agent: 0, Name: a, Spec: "random"}, {Agent: 1, Name: b, Spec: "random"}},
		Opening: []string{}, Moves: []string{}, Termination: results.Normal, Forfeit: -1,
	}
	if v.Spec.String() != v.Game.Name {
		g.Variant = strings.TrimPrefix(v.Spec.String(), v.Game.Name+":")
	}
	var base games.Base
	var buf, buf1 []games.Move
	switch s := v.New().(type) {
	case games.State:
		base = s
		for !s.Terminal() && len(g.Moves) < maxPlies {
			buf = s.LegalMoves(buf[:0])
			m := buf[r.IntN(len(buf))]
			g.Moves = append(g.Moves, s.FormatMove(m))
			s.Play(m)
		}
	case games.SimState:
		base = s
		for !s.Terminal() && len(g.Moves) < maxPlies {
			buf = s.LegalMovesFor(0, buf[:0])
			buf1 = s.LegalMovesFor(1, buf1[:0])
			m0, m1 := buf[r.IntN(len(buf))], buf1[r.IntN(len(buf1))]
			g.Moves = append(g.Moves, s.FormatMove(m0)+" | "+s.FormatMove(m1))
			s.PlayJoint(m0, m1)
		}
	}
	if base.Terminal() {
		o := base.Outcome()
		g.Winner, g.Result, g.Score = o.Winner, o.Result(), o.Score
	} else {
		g.Winner, g.Result, g.Termination = -1, "1/2-1/2", results.Adjudication
	}
	g.Plies = results.Plies(g.Moves)
	if index%3 == 0 {
		addStats(g, r)
	}
	return g
}

// addStats gives g clocks and move statistics, as a clocked run records.
func addStats(g *results.GameRecord, r *rng.Rand) {
	per := 1
	if len(g.Moves) > 0 && strings.Contains(g.Moves[0], " | ") {
		per = 2
	}
	left := [2]float64{10000, 10000}
	g.Players[0].TC, g.Players[1].TC = "10s", "10s"
	for i := range g.Moves {
		for k := range per {
			p := (i + k) % 2
			if per == 2 {
				p = k
			}
			ms := float64(r.IntN(int(left[p]/20*1000)+1)) / 1000 // never past the flag
			left[p] -= ms
			g.MoveStats = append(g.MoveStats, results.MoveStat{
				Player: p, MS: ms, Depth: 1 + r.IntN(9), Score: r.IntN(200) - 100,
				Nodes: int64(r.IntN(100000)), Info: fmt.Sprintf("pv %d", i),
			})
			g.Players[p].Moves++
		}
		g.Clocks = append(g.Clocks, left)
	}
}

// randomGames returns n games of spec, seeded from seed. A bare game name
// with a round key (TryAngle's map seed) gets a fresh value for every game
// pair, as a tournament sets it, so the games are on many maps.
func randomGames(t testing.TB, spec string, n int, seed uint64, maxPlies int) []*results.GameRecord {
	v, err := games.Lookup(spec)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*results.GameRecord, n)
	for i := range out {
		sp := spec
		if key := v.Game.RoundKey; key != "" && spec == v.Game.Name {
			sp = fmt.Sprintf("%s:%s=%d", spec, key, 1+rng.Derive(seed, uint64(i/2))>>1)
		}
		out[i] = randomGame(t, sp, i, rng.Derive(seed, uint64(i)), maxPlies)
		if err := out[i].Check(); err != nil {
			t.Fatalf("generated game %d of %s: %v", i, spec, err)
		}
	}
	return out
}

// writeTestPage writes a minimal HTML page around the viewer: the viewer
// used on its own, before or without the report around it.
func writeTestPage(t testing.TB, path string, gs []*results.GameRecord, opt ViewerOptions) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>game viewer</title></head><body>\n")
	if err := writeViewer(&b, gs, opt); err != nil {
		t.Fatal(err)
	}
	b.WriteString("</body></html>\n")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pageData reads the viewer's data back out of a page, as the script does.
func pageData(t testing.TB, page []byte) *viewerData {
	t.Helper()
	const open = `<script type="application/json" id="gv-data">`
	i := bytes.Index(page, []byte(open))
	if i < 0 {
		t.Fatal("no viewer data in the page")
	}
	rest := page[i+len(open):]
	j := bytes.Index(rest, []byte("</script>"))
	if j < 0 {
		t.Fatal("the viewer data does not end")
	}
	var d viewerData
	if err := json.Unmarshal(rest[:j], &d); err != nil {
		t.Fatalf("viewer data: %v", err)
	}
	return &d
}

// rebuildSVG rebuilds position ply of game gi from the data exactly as the
// page's script does.
func rebuildSVG(t testing.TB, d *viewerData, gi, ply int) string {
	t.Helper()
	g := d.Games[gi]
	var pos []int
	for k := 0; k <= ply; k++ {
		var err error
		if pos, err = decodePosition(pos, g.Pos[k]); err != nil {
			t.Fatalf("game %d ply %d: %v", gi, k, err)
		}
	}
	b := d.Boards[g.Board]
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif">`+"\n", b.W, b.H, b.W, b.H)
	s.WriteString(b.SVG)
	for _, id := range pos {
		if id < 0 || id >= len(d.Frags) {
			t.Fatalf("game %d ply %d: fragment %d of %d", gi, ply, id, len(d.Frags))
		}
		text, err := fragmentText(d.Skels, d.Frags[id])
		if err != nil {
			t.Fatalf("game %d ply %d: %v", gi, ply, err)
		}
		s.WriteString(text)
		s.WriteByte('\n')
	}
	s.WriteString("</svg>\n")
	return s.String()
}

// replaySVGs replays a recorded game independently of the viewer's own
// replay and returns games.WriteSVG's picture of every position, the start
// first: a sequential game's position after n plies is what games.Replay
// (arena replay's checker) leaves from the start, a simultaneous game's is
// the joint moves played in turn.
func replaySVGs(t testing.TB, g *results.GameRecord) []string {
	t.Helper()
	v, err := games.Lookup(g.GameSpec())
	if err != nil {
		t.Fatal(err)
	}
	picture := func(d games.Base) string {
		var b bytes.Buffer
		if err := games.WriteSVG(&b, d.(games.Drawer)); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	moves, fen := g.Moves, ""
	if len(moves) > 0 && strings.HasPrefix(moves[0], results.PositionPrefix) {
		fen, moves = strings.TrimPrefix(moves[0], results.PositionPrefix), moves[1:]
	}
	var out []string
	if _, ok := v.New().(games.State); ok {
		for n := 0; n <= len(moves); n++ {
			s := v.New().(games.State)
			if fen != "" {
				if s, err = games.ParsePosition(v, fen); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := games.Replay(v.String(), s, moves[:n]); err != nil {
				t.Fatal(err)
			}
			out = append(out, picture(s))
		}
		return out
	}
	s := v.New().(games.SimState)
	out = append(out, picture(s))
	for _, m := range moves {
		a, b, ok := strings.Cut(m, " | ")
		if !ok {
			t.Fatalf("%q is not a joint move", m)
		}
		m0, err0 := s.ParseMove(a)
		m1, err1 := s.ParseMove(b)
		if err0 != nil || err1 != nil {
			t.Fatalf("%q: %v %v", m, err0, err1)
		}
		s.PlayJoint(m0, m1)
		out = append(out, picture(s))
	}
	return out
}

// viewerPage builds the viewer for gs and reads its data back from the
// HTML, as a browser would get it.
func viewerPage(t testing.TB, gs []*results.GameRecord, opt ViewerOptions) ([]byte, *viewerData) {
	t.Helper()
	var b bytes.Buffer
	if err := writeViewer(&b, gs, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), pageData(t, b.Bytes())
}

// TestViewerRebuildsEveryPly checks, for every game that draws itself, that
// the fragment dictionary and the encoded positions rebuild exactly what
// games.WriteSVG writes, at every ply of several random games (through the
// page's JSON).
func TestViewerRebuildsEveryPly(t *testing.T) {
	for _, name := range drawerGames(t) {
		t.Run(name, func(t *testing.T) {
			gs := randomGames(t, name, 6, 7, 400)
			_, d := viewerPage(t, gs, ViewerOptions{})
			if len(d.Games) != len(gs) {
				t.Fatalf("%d games in the viewer, want %d", len(d.Games), len(gs))
			}
			plies := 0
			for gi, g := range gs {
				vg := d.Games[gi]
				if vg.Note != "" {
					t.Fatalf("game %d: note %q", gi, vg.Note)
				}
				if !slices.Equal(vg.Moves, g.Moves) {
					t.Fatalf("game %d: moves %v, want %v", gi, vg.Moves, g.Moves)
				}
				want := replaySVGs(t, g)
				if len(vg.Pos) != len(want) {
					t.Fatalf("game %d: %d positions, want %d", gi, len(vg.Pos), len(want))
				}
				for ply, w := range want {
					if got := rebuildSVG(t, d, gi, ply); got != w {
						t.Fatalf("game %d ply %d: rebuilt picture differs from games.WriteSVG\ngot:  %q\nwant: %q", gi, ply, got, w)
					}
					plies++
				}
			}
			t.Logf("%s: %d positions rebuilt exactly; %d boards, %d fragments", name, plies, len(d.Boards), len(d.Frags))
		})
	}
}

func TestEncodePositionRoundTrip(t *testing.T) {
	cases := []struct {
		name       string
		prev, cur  []int
		wantChange bool // the change is shorter than the full list
	}{
		{"first position", nil, []int{3, 1, 2}, false},
		{"empty to empty", []int{}, []int{}, false},
		{"same", []int{1, 2, 3, 4, 5}, []int{1, 2, 3, 4, 5}, true},
		{"one added", []int{1, 2, 3, 4, 5, 6}, []int{1, 2, 9, 3, 4, 5, 6}, true},
		{"one removed", []int{1, 2, 3, 4, 5, 6}, []int{1, 2, 4, 5, 6}, true},
		{"flip: moved between groups", []int{1, 2, 3, 10, 11, 12, 13}, []int{1, 2, 3, 8, 10, 12, 13, 20}, true},
		{"all new", []int{1, 2, 3}, []int{4, 5, 6}, false},
		{"reversed", []int{1, 2, 3, 4}, []int{4, 3, 2, 1}, false},
		{"duplicates", []int{7, 7, 1, 7}, []int{7, 1, 7, 7, 7}, false},
		{"to empty", []int{1, 2}, []int{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			enc := encodePosition(c.prev, c.cur)
			got, err := decodePosition(c.prev, enc)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.cur) && !(len(got) == 0 && len(c.cur) == 0) {
				t.Fatalf("decode(encode) = %v, want %v (encoding %v)", got, c.cur, enc)
			}
			if change := enc[0] != -1; change != c.wantChange {
				t.Errorf("encoding %v: change %t, want %t", enc, change, c.wantChange)
			}
			if len(enc) > len(c.cur)+1 {
				t.Errorf("encoding %v is longer than the full list", enc)
			}
		})
	}
	// Random edits of random lists, duplicates included.
	r := rng.New(11)
	for i := range 2000 {
		prev := make([]int, r.IntN(30))
		for k := range prev {
			prev[k] = r.IntN(40)
		}
		cur := slices.Clone(prev)
		for range r.IntN(6) {
			switch {
			case len(cur) > 0 && r.IntN(2) == 0:
				k := r.IntN(len(cur))
				cur = slices.Delete(cur, k, k+1)
			default:
				cur = slices.Insert(cur, r.IntN(len(cur)+1), r.IntN(40))
			}
		}
		got, err := decodePosition(prev, encodePosition(prev, cur))
		if err != nil || !slices.Equal(got, cur) && len(got)+len(cur) > 0 {
			t.Fatalf("case %d: prev %v cur %v: decoded %v, %v", i, prev, cur, got, err)
		}
	}
}

func TestDecodePositionRejectsMalformed(t *testing.T) {
	for _, enc := range [][]int{{}, {3, 0}, {0, 1}, {0, 5, 1}, {-2}} {
		if got, err := decodePosition([]int{1, 2}, enc); err == nil {
			t.Errorf("decode %v: %v, want an error", enc, got)
		}
	}
}

// TestViewerRecordsOutsideTheRules checks that games the viewer cannot draw
// are still listed with their moves and a note saying why: an unknown game,
// an illegal move (the board stops before it), and that a game begun from a
// position ("fen …") starts there.
func TestViewerRecordsOutsideTheRules(t *testing.T) {
	good := randomGame(t, "othello6", 1, 5, 400)
	unknown := *good
	unknown.Game = "nosuchgame"
	illegal := *good
	illegal.Moves = slices.Clone(good.Moves)
	illegal.Moves[5] = illegal.Moves[0] // a square already taken
	fen := randomGame(t, "othello6", 2, 6, 400)
	mid := replayPosition(t, fen, 10)
	fen.Moves = append([]string{results.PositionPrefix + mid}, fen.Moves[10:]...)
	fen.Opening = fen.Moves[:1]
	fen.Plies = results.Plies(fen.Moves)
	fen.MoveStats, fen.Clocks = nil, nil

	_, d := viewerPage(t, []*results.GameRecord{good, &unknown, &illegal, fen}, ViewerOptions{})
	if n := d.Games[0].Note; n != "" {
		t.Errorf("good game: note %q", n)
	}
	if g := d.Games[1]; g.Board != -1 || len(g.Pos) != 0 || !strings.Contains(g.Note, `unknown game "nosuchgame"`) || len(g.Moves) != len(good.Moves) {
		t.Errorf("unknown game: board %d, %d positions, note %q, %d moves", g.Board, len(g.Pos), g.Note, len(g.Moves))
	}
	if g := d.Games[2]; len(g.Pos) != 6 || !strings.Contains(g.Note, "before ply 6: illegal move") {
		t.Errorf("illegal move: %d positions (want 6: start and 5 plies), note %q", len(g.Pos), g.Note)
	}
	g := d.Games[3]
	if g.Start != mid || len(g.Moves) != len(fen.Moves)-1 || g.Opening != 0 || g.Note != "" {
		t.Fatalf("fen game: start %q, %d moves, opening %d, note %q", g.Start, len(g.Moves), g.Opening, g.Note)
	}
	want := replaySVGs(t, fen)
	for ply := range want {
		if got := rebuildSVG(t, d, 3, ply); got != want[ply] {
			t.Fatalf("fen game ply %d: rebuilt picture differs", ply)
		}
	}
}

// replayPosition returns the text position of g after n plies.
func replayPosition(t testing.TB, g *results.GameRecord, n int) string {
	t.Helper()
	v, err := games.Lookup(g.GameSpec())
	if err != nil {
		t.Fatal(err)
	}
	s := v.New().(games.State)
	for _, m := range g.Moves[:n] {
		mv, err := s.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(mv)
	}
	return s.(games.PositionWriter).Position()
}

func TestViewerCapAndStats(t *testing.T) {
	gs := randomGames(t, "othello6", 7, 3, 400)
	page, d := viewerPage(t, gs, ViewerOptions{MaxGames: 4})
	if len(d.Games) != 4 || d.Omitted != 3 {
		t.Errorf("cap 4 of 7: %d games, %d omitted", len(d.Games), d.Omitted)
	}
	if !bytes.Contains(page, []byte(`id="gv-omitted"`)) {
		t.Error("the page has no place for the note on omitted games")
	}
	g0 := d.Games[0] // index 0 has statistics
	if len(g0.Stats) != len(gs[0].MoveStats) || len(g0.Clocks) != len(gs[0].Clocks) {
		t.Fatalf("stats %d of %d, clocks %d of %d", len(g0.Stats), len(gs[0].MoveStats), len(g0.Clocks), len(gs[0].Clocks))
	}
	st, want := g0.Stats[3], gs[0].MoveStats[3]
	if int(st[0].(float64)) != want.Player || st[1].(float64) != round1(want.MS) || int(st[2].(float64)) != want.Depth ||
		int(st[3].(float64)) != want.Score || int64(st[4].(float64)) != want.Nodes || st[5].(string) != want.Info {
		t.Errorf("stat 3 = %v, want %+v", st, want)
	}
	if d.Games[1].Stats != nil || d.Games[1].Clocks != nil {
		t.Error("a game without statistics shows some")
	}
	if _, err := buildViewer(gs, ViewerOptions{MaxGames: -1}); err == nil || !strings.Contains(err.Error(), "0 means all") {
		t.Errorf("negative cap: %v", err)
	}
}

// TestViewerDataCannotEndTheScript checks that text from a record (names,
// details) cannot close the data's script element.
func TestViewerDataCannotEndTheScript(t *testing.T) {
	g := randomGame(t, "othello6", 1, 9, 400)
	g.Players[0].Name = "</script><script>alert(1)</script><!--"
	g.Detail = "</SCRIPT>"
	page, d := viewerPage(t, []*results.GameRecord{g}, ViewerOptions{})
	if n := bytes.Count(bytes.ToLower(page), []byte("</script")); n != 2 {
		t.Errorf("%d script ends in the viewer, want 2 (data and script)", n)
	}
	if d.Games[0].Players[0] != g.Players[0].Name || d.Games[0].Detail != g.Detail {
		t.Errorf("names or detail changed: %q %q", d.Games[0].Players[0], d.Games[0].Detail)
	}
}

// TestViewerSize measures the viewer's weight: 1 000 random Othello 6×6
// games must stay well under the 10 MB; it logs the figures for
// every game that draws itself (benchmarks/README.md quotes them).
func TestViewerSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 1 000-game viewers")
	}
	// Enough TryAngle games (each on its own map) to pass the budget.
	n := map[string]int{"othello6": 1000, "tryangle": 300}
	for _, name := range drawerGames(t) {
		if _, ok := n[name]; !ok {
			n[name] = 200
		}
	}
	for _, name := range drawerGames(t) {
		gs := randomGames(t, name, n[name], 21, 400)
		start := time.Now()
		page, d := viewerPage(t, gs, ViewerOptions{MaxBytes: -1})
		took := time.Since(start)
		plies := 0
		for _, g := range gs {
			plies += len(g.Moves)
		}
		per := float64(len(page)) / float64(len(gs))
		t.Logf("%-9s %5d games, %6d plies: %8d bytes (%.1f kB a game, %.0f B a ply; %d boards, %d fragments, %d skeletons) in %v; 1 000 games ≈ %.1f MB",
			name, len(gs), plies, len(page), per/1000, float64(len(page))/float64(plies), len(d.Boards), len(d.Frags), len(d.Skels), took.Round(time.Millisecond), per*1000/1e6)
		if name == "othello6" && len(page) > 10e6 {
			t.Errorf("1 000 othello6 games weigh %d bytes, over 10 MB", len(page))
		}
		// The default budget keeps every viewer near 10 MB: all the
		// games when they fit, else the first ones and a note.
		whole := len(page)
		page, d = viewerPage(t, gs, ViewerOptions{})
		if len(page) > DefaultViewerBytes+DefaultViewerBytes/10 {
			t.Errorf("%s: the default viewer weighs %d bytes", name, len(page))
		}
		// All the games when they clearly fit, not all when they clearly
		// do not (the budget counts the data, not the page's markup).
		fits, over := whole < DefaultViewerBytes, whole > DefaultViewerBytes*11/10
		if fits && d.Omitted != 0 || over && d.Omitted == 0 || d.Omitted+len(d.Games) != len(gs) || (d.Omitted > 0) != (d.Limit == "bytes") {
			t.Errorf("%s: default budget: %d games held, %d omitted (limit %q); all weigh %d bytes", name, len(d.Games), d.Omitted, d.Limit, whole)
		}
		if d.Omitted > 0 {
			t.Logf("%-9s default budget: the first %d games, %d bytes", name, len(d.Games), len(page))
		}
	}
}

func TestViewerByteBudget(t *testing.T) {
	gs := randomGames(t, "othello6", 30, 4, 400)
	_, all := viewerPage(t, gs, ViewerOptions{MaxBytes: -1})
	sizes := make([]int, len(gs))
	for i := range gs {
		page, _ := viewerPage(t, gs[:i+1], ViewerOptions{MaxBytes: -1})
		sizes[i] = len(page)
	}
	budget := sizes[9] // what ten games weigh with the markup
	page, d := viewerPage(t, gs, ViewerOptions{MaxBytes: budget - len(viewerHTML) - len(viewerJS)})
	if len(all.Games) != 30 || d.Limit != "bytes" || d.Omitted == 0 || d.Omitted+len(d.Games) != 30 {
		t.Fatalf("budget of about 10 games: %d held, %d omitted, limit %q", len(d.Games), d.Omitted, d.Limit)
	}
	// The budget is passed by at most one game.
	if len(d.Games) < 9 || len(d.Games) > 12 {
		t.Errorf("budget of about 10 games holds %d (page %d bytes, ten games %d)", len(d.Games), len(page), budget)
	}
	if all.MaxBytes != -1 || d.MaxBytes != budget-len(viewerHTML)-len(viewerJS) {
		t.Errorf("budget in the data: %d without one, %d with one", all.MaxBytes, d.MaxBytes)
	}
	if _, d := viewerPage(t, gs[:2], ViewerOptions{}); d.MaxBytes != DefaultViewerBytes {
		t.Errorf("default budget in the data: %d", d.MaxBytes)
	}
	if _, d := viewerPage(t, gs, ViewerOptions{MaxBytes: 1}); len(d.Games) != 1 || d.Omitted != 29 {
		t.Errorf("a tiny budget holds %d games (want at least one), %d omitted", len(d.Games), d.Omitted)
	}
	if _, d := viewerPage(t, gs, ViewerOptions{MaxGames: 5, MaxBytes: 1}); len(d.Games) != 1 || d.Omitted != 29 || d.Limit != "bytes" {
		t.Errorf("cap and budget: %d games, %d omitted, limit %q", len(d.Games), d.Omitted, d.Limit)
	}
}

// TestWriteTestPage checks the standalone page around the viewer.
func TestWriteTestPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "viewer.html")
	writeTestPage(t, path, randomGames(t, "othello6", 2, 1, 400), ViewerOptions{})
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", `id="viewer"`, `id="gv-board"`, "window.arenaViewer"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %s", want)
		}
	}
	if d := pageData(t, page); len(d.Games) != 2 {
		t.Errorf("%d games", len(d.Games))
	}
}

func TestFragmentSkeletons(t *testing.T) {
	b := &viewerBuilder{skels: map[string]int{}}
	cases := []struct {
		text string
		nums int // numbers cut out
	}{
		{`<circle cx="120" cy="45" r="9" fill="#3b6ea8"/>`, 6},
		{`<circle cx="77" cy="1045" r="9" fill="#3b6ea8"/>`, 6}, // the same skeleton
		{`<text x="0">007 · 1234567890 · 0.35 · −4</text>`, 4},  // 007 and the 10-digit run stay text
		{`no numbers at all`, 0},
		{`42`, 1},
		{``, 0},
		{`é0ü00`, 1},
	}
	for _, c := range cases {
		f := b.splitFragment(c.text)
		if got, err := fragmentText(b.d.Skels, f); err != nil || got != c.text {
			t.Errorf("%q: rebuilt %q, %v (encoding %v)", c.text, got, err, f)
		}
		if len(f)-1 != c.nums {
			t.Errorf("%q: %d numbers cut out, want %d (encoding %v)", c.text, len(f)-1, c.nums, f)
		}
	}
	if len(b.d.Skels) != len(cases)-1 {
		t.Errorf("%d skeletons for %d fragments of which two share one", len(b.d.Skels), len(cases))
	}
	for _, f := range [][]int{{}, {99}, {0}, {0, 1, 2, 3, 4, 5, 6, 7}} {
		if _, err := fragmentText(b.d.Skels, f); err == nil {
			t.Errorf("fragment %v: no error", f)
		}
	}
}
