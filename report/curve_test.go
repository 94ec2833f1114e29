package report

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// verticalStrokes counts the paths stroked in colFirst that are a single
// vertical segment: the interval bars (their caps are horizontal).
func verticalStrokes(t *testing.T, paths []svgPath) int {
	t.Helper()
	n := 0
	for _, p := range paths {
		if !strings.Contains(p.style, "stroke:"+hex(colFirst)) {
			continue
		}
		f := strings.FieldsFunc(p.d, func(r rune) bool { return r == 'M' || r == 'L' || r == ' ' || r == ',' })
		if len(f) != 4 {
			continue
		}
		x0, err0 := strconv.ParseFloat(f[0], 64)
		x1, err1 := strconv.ParseFloat(f[2], 64)
		if err0 == nil && err1 == nil && x0 == x1 {
			n++
		}
	}
	return n
}

// A sweep's figure is one well-formed SVG with one point and one vertical
// interval bar per value, the values as the x axis's labels, numeric or
// categorical.
func TestWriteCurveSVG(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name           string
		values         []string
		elo, low, high []float64
		points         int
	}{
		{"numeric", []string{"0.3", "0.5", "0.7", "1.0", "1.4"}, []float64{-40, 10, 25, 20, -5}, []float64{-80, -30, -15, -20, -45}, []float64{0, 50, 65, 60, 35}, 5},
		{"budget on a log axis", []string{"250", "500", "1000", "2000"}, []float64{-100, 0, 80, 150}, []float64{-140, -40, 40, 110}, []float64{-60, 40, 120, 190}, 4},
		{"open bounds", []string{"10", "400"}, []float64{-300, 300}, []float64{-inf, 200}, []float64{-200, inf}, 2},
		{"categorical", []string{"fast", "slow", "none"}, []float64{5, -5, 0}, []float64{-20, -30, -25}, []float64{30, 20, 25}, 3},
		{"a value without games", []string{"1", "2", "3"}, []float64{5, math.NaN(), 0}, []float64{-20, math.NaN(), -25}, []float64{30, math.NaN(), 25}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteCurveSVG(&b, "c", tc.values, tc.elo, tc.low, tc.high, 0.95); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(b.String(), "<?xml") {
				t.Error("a standalone SVG starts with its XML declaration")
			}
			paths, texts := parseSVG(t, b.String())
			if got := count(paths, "fill", colFirst); got != tc.points {
				t.Errorf("%d points, want %d", got, tc.points)
			}
			if got := verticalStrokes(t, paths); got != tc.points {
				t.Errorf("%d interval bars, want %d", got, tc.points)
			}
			// An open bound ends in an arrowhead, a closed one in a cap.
			open := 0
			for i := range tc.elo {
				if !math.IsNaN(tc.elo[i]) {
					for _, b := range []float64{tc.low[i], tc.high[i]} {
						if math.IsInf(b, 0) {
							open++
						}
					}
				}
			}
			if caps, arrows := strokeShapes(t, paths, true); caps != 2*tc.points-open || arrows != open {
				t.Errorf("%d caps and %d arrowheads, want %d and %d", caps, arrows, 2*tc.points-open, open)
			}
			for _, v := range tc.values {
				if !containsText(texts, v) {
					t.Errorf("no x label %q among %q", v, texts)
				}
			}
		})
	}
}

func TestWriteCurveSVGErrors(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCurveSVG(&b, "c", nil, nil, nil, nil, 0.95); err == nil {
		t.Error("no values: want an error")
	}
	if err := WriteCurveSVG(&b, "c", []string{"1", "2"}, []float64{1}, []float64{0, 0}, []float64{2, 2}, 0.95); err == nil {
		t.Error("fewer ratings than values: want an error")
	}
}

// numericValues decides the axis: numbers on a numeric one, anything
// else (or a non-finite number) makes the values categories.
func TestNumericValues(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []float64
		ok   bool
	}{
		{[]string{"0.3", "1e3", "-2"}, []float64{0.3, 1000, -2}, true},
		{[]string{"1", "two"}, []float64{0, 0}, false},
		{[]string{"1", "Inf"}, []float64{0, 0}, false},
		{[]string{"NaN"}, []float64{0}, false},
	} {
		got, ok := numericValues(tc.in)
		if ok != tc.ok || len(got) != len(tc.want) {
			t.Errorf("numericValues(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("numericValues(%q)[%d] = %v, want %v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
}

// An Elo-against-iters curve from a sweep's points, written to a file.
func ExampleWriteCurveSVG() {
	var svg bytes.Buffer
	values := []string{"250", "500", "1000", "2000"}
	elo := []float64{-120, -40, 35, 90}
	low := []float64{-170, -85, -5, 45}
	high := []float64{-75, 0, 75, 140}
	if err := WriteCurveSVG(&svg, "iters", values, elo, low, high, 0.95); err != nil {
		panic(err)
	}
	fmt.Println(strings.Contains(svg.String(), "Elo against iters"))
	// Output: true
}
