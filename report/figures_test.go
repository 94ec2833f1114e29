package report

import (
	"bytes"
	"encoding/xml"
	"math"
	"strings"
	"testing"
)

// A standalone figure is one well-formed SVG document with a line per
// series that has values.
func TestWriteLinesSVG(t *testing.T) {
	var b bytes.Buffer
	ys := [][]float64{{1, 2, 3, 2}, {0, 0.5, math.NaN(), 1}, {math.NaN(), math.NaN()}}
	if err := WriteLinesSVG(&b, "paths", "iteration", "θ/c", []string{"a", "b", "none"}, ys); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	root := ""
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed XML: %v", err)
			}
			break
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	if !strings.Contains(b.String(), "paths") {
		t.Error("the title is missing")
	}
}
