package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
)

// The game viewer.
//
// The page holds the games' moves and, for games whose positions draw
// themselves (games.Drawer), every position as fragment numbers: the
// report keeps one dictionary of distinct SVG fragments (each as a shared
// skeleton and its numbers) and one list of distinct board layers, and a
// position is the list of its fragments' numbers, usually written as a
// change of the position before it. The page's script (viewer.js) rebuilds
// the picture exactly as games.WriteSVG writes it; the tests check that
// for every ply, in Go and in a real browser.

//go:embed viewer.js
var viewerJS string

// DefaultViewerGames is the number of games the viewer holds unless told
// otherwise (ViewerOptions.MaxGames): about 3 MB of Othello 6×6 games.
const DefaultViewerGames = 1000

// DefaultViewerBytes is the size at which the viewer stops taking games
// unless told otherwise (ViewerOptions.MaxBytes): the budget of a
// 1 000-game report. Games on generated maps weigh much more than games on
// a fixed board (about 50 kB a TryAngle Catch game on its own map against
// 3 kB an Othello 6×6 game), so the size, not the count, is what caps
// such a report.
const DefaultViewerBytes = 10_000_000

// ViewerOptions configures the game viewer.
type ViewerOptions struct {
	// MaxGames caps the games the viewer holds, the first ones in the
	// order given; the page says how many were left out. 0 means all.
	MaxGames int
	// MaxBytes stops the viewer taking further games once its data
	// (the games, boards and fragments, as JSON) passes this size; it
	// always holds at least one game. 0 means DefaultViewerBytes, a
	// negative value no limit.
	MaxBytes int
}

// viewerData is what the page's script reads (JSON in a script element).
// The short keys keep a thousand games small.
type viewerData struct {
	Boards []viewerBoard `json:"boards"` // distinct fixed layers
	// Frags are the distinct piece fragments, each written as its
	// skeleton's number and the numbers that fill it (see splitFragment):
	// a fragment's text is Skels[f[0]][0], f[1], Skels[f[0]][1], f[2], …
	// Fragments of many maps share few skeletons.
	Frags   [][]int      `json:"frags"`
	Skels   [][]string   `json:"skels"`
	Games   []viewerGame `json:"games"`
	Omitted int          `json:"omitted"` // games left out by MaxGames or MaxBytes
	// Limit says what left games out: "games" (MaxGames) or "bytes"
	// (MaxBytes); empty when nothing was left out. MaxBytes is the budget
	// in force, -1 for none.
	Limit    string `json:"limit,omitempty"`
	MaxBytes int    `json:"max_bytes"`
}

// viewerBoard is a fixed layer (games.Drawer.SVGBoard) with its size.
type viewerBoard struct {
	W   int    `json:"w"`
	H   int    `json:"h"`
	SVG string `json:"svg"`
}

// viewerGame is one game of the viewer.
type viewerGame struct {
	Index   int       `json:"i"` // the record's schedule index
	Spec    string    `json:"g"` // game spec
	Players [2]string `json:"p"` // first mover first
	Result  string    `json:"r"`
	Winner  int       `json:"w"`
	Term    string    `json:"t"` // termination
	Forfeit int       `json:"f"`
	Detail  string    `json:"d,omitempty"`
	Start   string    `json:"s,omitempty"` // start position as text, when the record has one
	Moves   []string  `json:"m"`           // the plies, in the game's notation
	// Board is the index of the game's fixed layer in viewerData.Boards,
	// -1 when the game draws no pictures.
	Board int `json:"b"`
	// Pos holds positions 0 (the start) to len(Moves), each encoded by
	// encodePosition against the one before; empty without pictures, and
	// shorter when the replay stopped (Note says why).
	Pos  [][]int `json:"x"`
	Note string  `json:"n,omitempty"`
	// Joint is 1 for a simultaneous game (a ply is a joint move "a | b",
	// two statistics per ply).
	Joint int `json:"j,omitempty"`
	// Opening is the number of opening plies: statistics and clocks
	// start after them.
	Opening int `json:"o,omitempty"`
	// Clocks are both players' time left in ms after each ply past the
	// opening (results.GameRecord.Clocks, to 0.1 ms; results.NoClock without).
	Clocks [][2]float64 `json:"c,omitempty"`
	// Stats are the moves' statistics (results.GameRecord.MoveStats) in the
	// order asked, each [player, ms, depth, score, nodes, info].
	Stats [][]any `json:"st,omitempty"`
	// Acc holds, by the index of each move scored against perfect play
	// (arena report --accuracy), [loss, value before, value after,
	// blunder 0/1, [[move, value or null, best 0/1], …]], from the
	// mover's view.
	Acc map[int][]any `json:"a,omitempty"`
}

// writeViewer writes the game viewer, an HTML fragment (a section with its
// style, data and script), for the games gs.
func writeViewer(w io.Writer, gs []*results.GameRecord, opt ViewerOptions) error {
	d, err := buildViewer(gs, opt)
	if err != nil {
		return err
	}
	return writeViewerData(w, d)
}

// writeViewerData writes the viewer of data d.
func writeViewerData(w io.Writer, d *viewerData) error {
	data, err := marshalScriptJSON(d)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(viewerHTML)
	b.WriteString(`<script type="application/json" id="gv-data">`)
	b.Write(data)
	b.WriteString("</script>\n<script>\n")
	b.WriteString(viewerJS)
	b.WriteString("</script>\n</section>\n")
	_, err = w.Write(b.Bytes())
	return err
}

// marshalScriptJSON encodes v as JSON that is safe inside a script element:
// "</" and "<!--" cannot end or confuse it. Escaping only those keeps the
// SVG markup readable and small (json.Marshal would write every < as six
// bytes).
func marshalScriptJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := bytes.ReplaceAll(b.Bytes(), []byte("</"), []byte(`<\/`))
	out = bytes.ReplaceAll(out, []byte("<!--"), []byte(`\u003c!--`))
	return bytes.TrimRight(out, "\n"), nil
}

// viewerBuilder collects the dictionaries while games are offered, one at
// a time in the order recorded: it replays the games it takes and only
// counts the others, so its memory is bounded by its limits, not by the
// games offered.
type viewerBuilder struct {
	d        viewerData
	boards   map[string]int
	frags    map[string]int
	skels    map[string]int
	variants map[string]variantOrErr
	pieces   []string         // reused buffer for SVGPieces
	ids      []int            // reused buffer: the current position's fragment ids
	acc      *accuracyFigures // scores the games taken, if not nil

	maxGames, maxBytes int
	offered, size      int
	overGames, overB   int // games left out by maxGames, by maxBytes
}

type variantOrErr struct {
	v   games.Variant
	err error
}

func newViewerBuilder(opt ViewerOptions) (*viewerBuilder, error) {
	if opt.MaxGames < 0 {
		return nil, fmt.Errorf("viewer: MaxGames %d is negative (0 means all games)", opt.MaxGames)
	}
	b := &viewerBuilder{
		d:        viewerData{Boards: []viewerBoard{}, Frags: [][]int{}, Skels: [][]string{}, Games: []viewerGame{}},
		boards:   map[string]int{},
		frags:    map[string]int{},
		skels:    map[string]int{},
		variants: map[string]variantOrErr{},
		maxGames: opt.MaxGames,
		maxBytes: opt.MaxBytes,
	}
	switch {
	case b.maxBytes == 0:
		b.maxBytes = DefaultViewerBytes
	case b.maxBytes < 0:
		b.maxBytes = -1
	}
	b.d.MaxBytes = b.maxBytes
	return b, nil
}

// offer adds g unless a limit leaves it out: the first maxGames games are
// taken until their data passes maxBytes (the first always).
func (b *viewerBuilder) offer(g *results.GameRecord) (taken bool) {
	b.offered++
	switch {
	case b.maxGames > 0 && b.offered > b.maxGames:
		b.overGames++
	case b.maxBytes > 0 && len(b.d.Games) > 0 && b.size > b.maxBytes:
		b.overB++
	default:
		b.size += b.add(g)
		return true
	}
	return false
}

// data is the viewer of the games offered so far. It shares the
// builder's slices, which later offers only append to.
func (b *viewerBuilder) data() *viewerData {
	d := b.d
	d.Boards, d.Frags, d.Skels, d.Games = slices.Clip(d.Boards), slices.Clip(d.Frags), slices.Clip(d.Skels), slices.Clip(d.Games)
	d.Omitted, d.Limit = b.overGames+b.overB, ""
	switch {
	case b.overB > 0:
		d.Limit = "bytes"
	case b.overGames > 0:
		d.Limit = "games"
	}
	return &d
}

func buildViewer(gs []*results.GameRecord, opt ViewerOptions) (*viewerData, error) {
	b, err := newViewerBuilder(opt)
	if err != nil {
		return nil, err
	}
	for _, g := range gs {
		b.offer(g)
	}
	return b.data(), nil
}

// variant resolves a game spec once per report (a map file is read once).
func (b *viewerBuilder) variant(spec string) (games.Variant, error) {
	if ve, ok := b.variants[spec]; ok {
		return ve.v, ve.err
	}
	v, err := games.Lookup(spec)
	b.variants[spec] = variantOrErr{v, err}
	return v, err
}

// add replays g and appends it to the viewer, and returns about how many
// bytes of JSON that adds: the game's own, and its new boards and
// fragments. A game that cannot be replayed (an unknown game, a move that
// is not legal) is still listed with its moves, and its note says what went
// wrong.
func (b *viewerBuilder) add(g *results.GameRecord) (size int) {
	vg := viewerGame{
		Index:   g.Index,
		Spec:    g.GameSpec(),
		Players: [2]string{g.Players[0].Name, g.Players[1].Name},
		Result:  g.Result,
		Winner:  g.Winner,
		Term:    g.Termination,
		Forfeit: g.Forfeit,
		Detail:  g.Detail,
		Moves:   slices.Clone(g.Moves), // a live run reuses its records
		Board:   -1,
		Pos:     [][]int{},
	}
	if vg.Moves == nil {
		vg.Moves = []string{}
	}
	if len(g.Moves) > 0 && strings.HasPrefix(g.Moves[0], results.PositionPrefix) {
		vg.Start = strings.TrimPrefix(g.Moves[0], results.PositionPrefix)
		vg.Moves = g.Moves[1:]
	}
	vg.Opening = results.Plies(g.Opening)
	for _, c := range g.Clocks {
		vg.Clocks = append(vg.Clocks, [2]float64{round1(c[0]), round1(c[1])})
	}
	for _, m := range g.MoveStats {
		vg.Stats = append(vg.Stats, []any{m.Player, round1(m.MS), m.Depth, m.Score, m.Nodes, m.Info})
	}
	if b.acc != nil {
		vg.Acc = b.acc.score(g, true)
	}
	boards, frags, skels := len(b.d.Boards), len(b.d.Frags), len(b.d.Skels)
	defer func() {
		b.d.Games = append(b.d.Games, vg)
		size = jsonSize(vg) + jsonSize(b.d.Frags[frags:]) + jsonSize(b.d.Skels[skels:])
		for _, bd := range b.d.Boards[boards:] {
			size += len(bd.SVG) + 32
		}
	}()
	v, err := b.variant(vg.Spec)
	if err != nil {
		vg.Note = "no board: " + err.Error()
		return
	}
	var pos replayer
	if vg.Start != "" {
		s, err := games.ParsePosition(v, vg.Start)
		if err != nil {
			vg.Note = "no board: the start position: " + err.Error()
			return
		}
		pos = &seqReplayer{s: s}
	} else {
		switch s := v.New().(type) {
		case games.State:
			pos = &seqReplayer{s: s}
		case games.SimState:
			pos = &simReplayer{s: s}
			vg.Joint = 1
		default:
			vg.Note = "no board: " + vg.Spec + " is neither sequential nor simultaneous"
			return
		}
	}
	dr, ok := pos.base().(games.Drawer)
	if !ok {
		vg.Note = "no board: " + v.Game.Name + " draws no pictures"
		return
	}
	vg.Board = b.board(dr)
	var prev []int
	b.ids = b.position(dr, b.ids[:0])
	vg.Pos = append(vg.Pos, encodePosition(nil, b.ids))
	prev = append(prev, b.ids...)
	for i, mv := range vg.Moves {
		if err := pos.play(mv); err != nil {
			vg.Note = fmt.Sprintf("the board stops before ply %d: %v", i+1, err)
			return
		}
		b.ids = b.position(dr, b.ids[:0])
		vg.Pos = append(vg.Pos, encodePosition(prev, b.ids))
		prev = append(prev[:0], b.ids...)
	}
	return 0 // set by the deferred function
}

// jsonSize returns the length of v in JSON (0 if it has none).
func jsonSize(v any) int {
	data, _ := json.Marshal(v)
	return len(data)
}

// round1 rounds a time in ms to 0.1 ms, which is all a reader looks at and
// keeps the page small; NoClock stays as it is.
func round1(ms float64) float64 { return math.Round(ms*10) / 10 }

// board returns the index of d's fixed layer, adding it when new.
func (b *viewerBuilder) board(d games.Drawer) int {
	w, h := d.SVGSize()
	svg := string(d.SVGBoard(nil))
	key := fmt.Sprintf("%d %d %s", w, h, svg)
	if i, ok := b.boards[key]; ok {
		return i
	}
	b.boards[key] = len(b.d.Boards)
	b.d.Boards = append(b.d.Boards, viewerBoard{W: w, H: h, SVG: svg})
	return len(b.d.Boards) - 1
}

// position appends the fragment numbers of d's pieces to ids, adding new
// fragments to the dictionary.
func (b *viewerBuilder) position(d games.Drawer, ids []int) []int {
	b.pieces = d.SVGPieces(b.pieces[:0])
	for _, p := range b.pieces {
		id, ok := b.frags[p]
		if !ok {
			id = len(b.d.Frags)
			b.frags[p] = id
			b.d.Frags = append(b.d.Frags, b.splitFragment(p))
		}
		ids = append(ids, id)
	}
	return ids
}

// splitFragment writes fragment text as its skeleton's number (adding the
// skeleton when new) followed by the numbers cut out of the text. A
// skeleton is the text with its numbers cut out, as the pieces between
// them: the triangles, paths and houses of a thousand TryAngle maps differ
// only in their coordinates. Only digit runs that print back the same
// (no leading zero, at most nine digits) are cut out.
func (b *viewerBuilder) splitFragment(text string) []int {
	var parts []string
	out := []int{0}
	start, i := 0, 0
	for i < len(text) {
		if !isDigit(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		if run := text[i:j]; j-i <= 9 && (run == "0" || run[0] != '0') {
			n, _ := strconv.Atoi(run)
			parts = append(parts, text[start:i])
			out = append(out, n)
			start = j
		}
		i = j
	}
	parts = append(parts, text[start:])
	var key strings.Builder
	for _, p := range parts {
		key.WriteString(strconv.Itoa(len(p)))
		key.WriteByte(':')
		key.WriteString(p)
	}
	id, ok := b.skels[key.String()]
	if !ok {
		id = len(b.d.Skels)
		b.skels[key.String()] = id
		b.d.Skels = append(b.d.Skels, parts)
	}
	out[0] = id
	return out
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// fragmentText rebuilds a fragment's text from its skeleton and numbers;
// it is the Go twin of the page script's.
func fragmentText(skels [][]string, f []int) (string, error) {
	if len(f) == 0 || f[0] < 0 || f[0] >= len(skels) || len(skels[f[0]]) != len(f) {
		return "", fmt.Errorf("malformed fragment %v", f)
	}
	parts := skels[f[0]]
	var s strings.Builder
	s.WriteString(parts[0])
	for k, n := range f[1:] {
		s.WriteString(strconv.Itoa(n))
		s.WriteString(parts[k+1])
	}
	return s.String(), nil
}

// replayer plays a record's moves on a sequential or simultaneous game.
type replayer interface {
	base() games.Base
	play(move string) error
}

type seqReplayer struct {
	s     games.State
	legal []games.Move
}

func (r *seqReplayer) base() games.Base { return r.s }

func (r *seqReplayer) play(text string) error {
	m, err := r.s.ParseMove(text)
	if err != nil {
		return fmt.Errorf("unreadable move %q: %v", text, err)
	}
	r.legal = r.s.LegalMoves(r.legal[:0])
	for _, l := range r.legal {
		if l == m {
			r.s.Play(m)
			return nil
		}
	}
	return fmt.Errorf("illegal move %q", text)
}

type simReplayer struct {
	s     games.SimState
	legal []games.Move
}

func (r *simReplayer) base() games.Base { return r.s }

// play plays a joint move "a | b" (the records' notation).
func (r *simReplayer) play(text string) error {
	a, b, ok := strings.Cut(text, " | ")
	if !ok {
		return fmt.Errorf("%q is not a joint move \"a | b\"", text)
	}
	if r.s.Terminal() {
		return fmt.Errorf("the game is already over")
	}
	var ms [2]games.Move
	for p, t := range [2]string{a, b} {
		m, err := r.s.ParseMove(t)
		if err != nil {
			return fmt.Errorf("player %d's move %q is unreadable: %v", p, t, err)
		}
		if !r.valid(p, m) {
			return fmt.Errorf("player %d's move %q is not valid", p, t)
		}
		ms[p] = m
	}
	r.s.PlayJoint(ms[0], ms[1])
	return nil
}

// valid reports whether m is a move p may play: listed, or accepted by the
// game's validator (a referee accepts those too).
func (r *simReplayer) valid(p int, m games.Move) bool {
	if v, ok := r.s.(games.MoveValidator); ok && v.ValidMove(p, m) {
		return true
	}
	r.legal = r.s.LegalMovesFor(p, r.legal[:0])
	for _, l := range r.legal {
		if l == m {
			return true
		}
	}
	return false
}

// Positions are encoded as integer lists. A full list is -1 followed by the
// fragment numbers. A change is R, then R ascending indices of the previous
// list to remove, then pairs (index, fragment): the fragments to insert,
// by ascending index in the new list. encodePosition writes whichever is
// shorter; decodePosition (and the page's script) reverse it.

// encodePosition encodes cur against prev (nil for a first position).
func encodePosition(prev, cur []int) []int {
	full := make([]int, 0, len(cur)+1)
	full = append(full, -1)
	full = append(full, cur...)
	if prev == nil {
		return full
	}
	// Keep the longest run of cur that appears in prev in order, matched
	// greedily: fragments are nearly always distinct within a position,
	// so this finds the common part of two positions.
	at := make(map[int][]int, len(prev))
	for i, f := range prev {
		at[f] = append(at[f], i)
	}
	kept := make([]bool, len(prev))
	var inserts []int
	last := -1
	for j, f := range cur {
		idx := at[f]
		for len(idx) > 0 && idx[0] <= last {
			idx = idx[1:]
		}
		if len(idx) == 0 {
			at[f] = idx
			inserts = append(inserts, j, f)
			continue
		}
		kept[idx[0]] = true
		last = idx[0]
		at[f] = idx[1:]
	}
	delta := []int{0}
	for i, k := range kept {
		if !k {
			delta = append(delta, i)
		}
	}
	delta[0] = len(delta) - 1
	delta = append(delta, inserts...)
	if len(delta) < len(full) {
		return delta
	}
	return full
}

// decodePosition rebuilds a position from its encoding and the position
// before it; it is the Go twin of the page script's decode.
func decodePosition(prev, enc []int) ([]int, error) {
	if len(enc) == 0 {
		return nil, fmt.Errorf("empty position encoding")
	}
	if enc[0] == -1 {
		return append([]int(nil), enc[1:]...), nil
	}
	n := enc[0]
	if n < 0 || 1+n > len(enc) || (len(enc)-1-n)%2 != 0 {
		return nil, fmt.Errorf("malformed position encoding %v", enc)
	}
	remove := map[int]bool{}
	for _, i := range enc[1 : 1+n] {
		remove[i] = true
	}
	var out []int
	for i, f := range prev {
		if !remove[i] {
			out = append(out, f)
		}
	}
	for k := 1 + n; k < len(enc); k += 2 {
		i, f := enc[k], enc[k+1]
		if i < 0 || i > len(out) {
			return nil, fmt.Errorf("insert at %d outside a list of %d", i, len(out))
		}
		out = append(out, 0)
		copy(out[i+1:], out[i:])
		out[i] = f
	}
	return out, nil
}

// viewerHTML is the viewer's markup and style; the script fills it in.
const viewerHTML = `<section id="viewer" class="gv">
<style>
.gv-filters{display:flex;flex-wrap:wrap;gap:.5em 1.2em;align-items:center;margin:.5em 0}
.gv-filters select{max-width:28em}
.gv-main{display:flex;flex-wrap:wrap;gap:1.2em;align-items:flex-start}
#gv-board svg{max-width:min(90vw,560px);height:auto;border:1px solid #ccc;background:#fff}
.gv-side{min-width:16em;max-width:42em}
.gv-buttons button{font-size:1.1em;min-width:2.4em}
#gv-moves{position:relative;max-height:24em;overflow:auto;padding-left:3em;margin:.5em 0;font-family:monospace}
#gv-moves li{cursor:pointer;white-space:pre-wrap;word-break:break-all}
#gv-moves li.gv-current{background:#ffe27a;font-weight:bold}
#gv-stats table{border-collapse:collapse;font-size:.9em}
#gv-stats td,#gv-stats th{padding:.1em .5em;text-align:left}
#gv-stats td:not(:last-child){white-space:nowrap}
.gv-note{color:#8a4b00}
</style>
<h2>Games</h2>
<div class="gv-filters">
<label>Player <select id="gv-player"><option value="">any</option></select></label>
<label>Result <select id="gv-result"><option value="">any</option><option value="1-0">first player won</option><option value="0-1">second player won</option><option value="draw">draw</option><option value="forfeit">forfeit</option></select></label>
<label>Game <select id="gv-game"></select></label>
<span id="gv-count"></span>
</div>
<p class="gv-note" id="gv-omitted" hidden></p>
<div class="gv-main">
<div id="gv-board"></div>
<div class="gv-side">
<div class="gv-buttons"><button type="button" id="gv-first" title="start (Home)">|◀</button> <button type="button" id="gv-prev" title="back (←)">◀</button> <button type="button" id="gv-next" title="forward (→)">▶</button> <button type="button" id="gv-last" title="end (End)">▶|</button></div>
<p id="gv-ply"></p>
<p class="gv-note" id="gv-note" hidden></p>
<div id="gv-stats"></div>
<ol id="gv-moves"></ol>
</div>
</div>
`
