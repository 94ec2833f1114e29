package tryangle

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestWriteSVG(t *testing.T) {
	s := New(Generate(6))
	randomGame(t, s, 4, nil)
	for s.Ply() > 40 {
		s.Undo()
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, s); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	d := xml.NewDecoder(&buf)
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			counts[e.Name.Local]++
			depth++
			if depth == 1 && (e.Name.Local != "svg" || e.Name.Space != "http://www.w3.org/2000/svg") {
				t.Fatalf("root element %v", e.Name)
			}
		case xml.EndElement:
			depth--
		}
	}
	if counts["svg"] != 1 || depth != 0 {
		t.Fatalf("document structure: %v", counts)
	}
	if counts["polygon"] != len(s.Triangles()) || counts["line"] != len(s.Paths()) ||
		counts["circle"] != s.Houses() || counts["text"] != 2*s.Houses()+1 || counts["tspan"] != 3*s.Houses() {
		t.Errorf("elements %v for %d triangles, %d paths, %d houses", counts, len(s.Triangles()), len(s.Paths()), s.Houses())
	}
	// owned triangles are shaded in their owner's colour
	owned := 0
	for _, tr := range s.Triangles() {
		if tr.Owner >= 0 {
			owned++
		}
	}
	var again bytes.Buffer
	WriteSVG(&again, s)
	if got := strings.Count(again.String(), `fill-opacity="0.45"`); got != owned || owned == 0 {
		t.Errorf("%d shaded triangles, %d owned", got, owned)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteSVGReportsErrors(t *testing.T) {
	if err := WriteSVG(failWriter{}, New(Generate(6))); err == nil {
		t.Error("write error lost")
	}
}
