package gamestest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// CheckDrawer plays seeded random games of v (the options Games, Seed and
// MaxPlies apply) and checks the pictures of every position it passes
// through against the games.Drawer contract: every position is a Drawer;
// SVGSize and SVGBoard are those of the start position; SVGBoard is a
// sequence of well-formed elements; every fragment of SVGPieces is one
// well-formed element on its own; SVGPieces appends to dst and draws the
// same fragments again, in a clone, and when the position is reached back
// by undoing the rest of the game; and games.WriteSVG writes a well-formed
// document whose root is an SVG svg element. It returns the first breach
// as a *Violation, or nil.
func CheckDrawer(v games.Variant, opts ...Option) (err error) {
	r := newRunner(v, opts)
	defer func() {
		if p := recover(); p != nil {
			err = r.fail("panic: %v", p)
		}
	}()
	start := v.New()
	r.shown = games.Clone(start)
	d, ok := start.(games.Drawer)
	if !ok {
		return r.fail("%T does not draw itself (games.Drawer)", start)
	}
	width, height := d.SVGSize()
	if width <= 0 || height <= 0 {
		return r.fail("SVGSize is %d×%d", width, height)
	}
	board := d.SVGBoard(nil)
	if err := wellFormed("<g>" + string(board) + "</g>"); err != nil {
		return r.fail("SVGBoard is not a sequence of well-formed elements: %v", err)
	}
	for g := range r.cfg.games {
		r.game, r.seed, r.moves = g, rng.Derive(r.cfg.seed, uint64(g)), r.moves[:0]
		rand := rng.New(r.seed)
		b := v.New()
		var drawn [][]string
		for {
			pieces, err := r.checkPicture(b, width, height, board)
			if err != nil {
				return err
			}
			drawn = append(drawn, pieces)
			if b.Terminal() || len(r.moves) >= r.cfg.maxPlies {
				break
			}
			var snap snapshot
			snap.toMove = b.ToMove()
			for p := range 2 {
				snap.legal[p] = games.LegalMovesFor(b, p, nil)
			}
			m := choose(snap, rand)
			games.PlayFor(b, 0, m[0], m[1])
			r.moves = append(r.moves, m)
		}
		for i := len(drawn) - 1; i > 0; i-- {
			b.Undo()
			r.moves = r.moves[:i-1]
			if got := b.(games.Drawer).SVGPieces(nil); !slices.Equal(got, drawn[i-1]) {
				return r.fail("reached again by undo, the position draws %s", fragmentDiff(got, drawn[i-1]))
			}
		}
	}
	return nil
}

// checkPicture checks the picture of one position and returns its pieces.
func (r *runner) checkPicture(b games.Base, width, height int, board []byte) ([]string, error) {
	d, ok := b.(games.Drawer)
	if !ok {
		return nil, r.fail("%T does not draw itself (games.Drawer), though the start position does", b)
	}
	if w, h := d.SVGSize(); w != width || h != height {
		return nil, r.fail("SVGSize %d×%d, the start position's %d×%d", w, h, width, height)
	}
	if got := d.SVGBoard([]byte("x")); string(got[1:]) != string(board) || got[0] != 'x' {
		return nil, r.fail("SVGBoard differs from the start position's (or does not append to dst)")
	}
	pieces := d.SVGPieces(nil)
	if len(pieces) == 0 {
		return nil, r.fail("SVGPieces draws nothing (not even a caption)")
	}
	for _, p := range pieces {
		if err := wellFormed(p); err != nil {
			return nil, r.fail("fragment %q is not one well-formed element: %v", p, err)
		}
	}
	if again := d.SVGPieces([]string{"x"}); len(again) == 0 || again[0] != "x" || !slices.Equal(again[1:], pieces) {
		return nil, r.fail("SVGPieces drawn again (after a prefix) %s", fragmentDiff(again, pieces))
	}
	if c, ok := games.Clone(b).(games.Drawer); !ok || !slices.Equal(c.SVGPieces(nil), pieces) {
		return nil, r.fail("a clone draws other pieces")
	}
	var doc bytes.Buffer
	if err := games.WriteSVG(&doc, d); err != nil {
		return nil, r.fail("WriteSVG: %v", err)
	}
	if err := svgDocument(doc.Bytes()); err != nil {
		return nil, r.fail("WriteSVG: %v", err)
	}
	return pieces, nil
}

// fragmentDiff describes how two fragment lists differ.
func fragmentDiff(got, want []string) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d fragments, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("fragment %d %q, want %q", i, got[i], want[i])
		}
	}
	return "the same fragments"
}

// wellFormed reports whether s is exactly one well-formed XML element,
// with nothing but white space around it.
func wellFormed(s string) error {
	dec := xml.NewDecoder(strings.NewReader(s))
	roots, depth := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return fmt.Errorf("text %q outside the element", t)
			}
		case xml.ProcInst, xml.Directive:
			return fmt.Errorf("unexpected %T", t)
		}
	}
	if roots != 1 || depth != 0 {
		return fmt.Errorf("%d root elements, want 1", roots)
	}
	return nil
}

// svgDocument reports whether doc is a well-formed document whose root is
// an svg element in the SVG namespace.
func svgDocument(doc []byte) error {
	if err := wellFormed(string(doc)); err != nil {
		return err
	}
	dec := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if e, ok := tok.(xml.StartElement); ok {
			if e.Name.Local != "svg" || e.Name.Space != "http://www.w3.org/2000/svg" {
				return fmt.Errorf("root element %s %s, want svg in the SVG namespace", e.Name.Space, e.Name.Local)
			}
			return nil
		}
	}
}

// SVGCount parses an SVG document (or fragment) and counts its elements: by
// local name ("circle"), by each class ("." + class, e.g. ".disc") and by
// the whole class attribute when it has several (".disc x"), so that a
// game's tests can check what a picture holds.
func SVGCount(svg []byte) (map[string]int, error) {
	counts := map[string]int{}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return counts, nil
		}
		if err != nil {
			return nil, err
		}
		e, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		counts[e.Name.Local]++
		for _, a := range e.Attr {
			if a.Name.Local != "class" {
				continue
			}
			classes := strings.Fields(a.Value)
			for _, c := range classes {
				counts["."+c]++
			}
			if len(classes) > 1 {
				counts["."+strings.Join(classes, " ")]++
			}
		}
	}
}
