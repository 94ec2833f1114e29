package tune

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseParams(t *testing.T) {
	ps, err := ParseParams(strings.NewReader(`
# mcts exploration
c, float, 1.4, 0.1, 3, 0.1, 0.002   # trailing comment
  eval.corner ,INT, 40, 0, 200, 5, 0.002

`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Param{
		{Name: "c", Start: 1.4, Min: 0.1, Max: 3, CEnd: 0.1, REnd: 0.002, Line: 3},
		{Name: "eval.corner", Int: true, Start: 40, Min: 0, Max: 200, CEnd: 5, REnd: 0.002, Line: 4},
	}
	if fmt.Sprint(ps) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", ps, want)
	}
	if got := ps[1].String(); got != "eval.corner, int, 40, 0, 200, 5, 0.002" {
		t.Errorf("String %q", got)
	}
}

func TestParseParamsErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "no parameters"},
		{"# only a comment\n\n", "no parameters"},
		{"c, float, 1, 0, 2, 0.1", "line 1: 6 fields"},
		{"\n\nc, float, 1, 0, 2, 0.1, 0.002, 9", "line 3: 8 fields"},
		{"c, double, 1, 0, 2, 0.1, 0.002", "type \"double\"; want int or float"},
		{"c, float, one, 0, 2, 0.1, 0.002", "start \"one\" is not a number"},
		{"c, float, NaN, 0, 2, 0.1, 0.002", "start \"NaN\""},
		{"c, float, 1, 0, 2e10, 0.1, 0.002", "max \"2e10\""},
		{"c, float, 1, 2, 0, 0.1, 0.002", "min 2 must be below max 0"},
		{"c, float, 3, 0, 2, 0.1, 0.002", "start 3 is outside"},
		{"c, float, 1, 0, 2, 0, 0.002", "c_end 0 must be positive"},
		{"c, float, 1, 0, 2, 0.1, -1", "r_end -1 must be positive"},
		{"d, int, 1.5, 0, 2, 0.1, 0.002", "integer start, min and max"},
		{", float, 1, 0, 2, 0.1, 0.002", "empty parameter name"},
		{"a b, float, 1, 0, 2, 0.1, 0.002", "no spaces"},
		{"name, float, 1, 0, 2, 0.1, 0.002", "cannot be tuned"},
		{"c, float, 1, 0, 2, 0.1, 0.002\nc, float, 1, 0, 2, 0.1, 0.002", "line 2: c is already tuned on line 1"},
		{strings.Repeat("x", maxLine+1), "longer than"},
		{manyParams(MaxParams + 1), fmt.Sprintf("line %d: more than %d parameters", MaxParams+1, MaxParams)},
	} {
		_, err := ParseParams(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.40q: error %v, want one with %q", tc.text, err, tc.want)
		}
	}
	if _, err := ParseParams(strings.NewReader(manyParams(MaxParams))); err != nil {
		t.Errorf("%d parameters: %v", MaxParams, err)
	}
}

func manyParams(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "p%d, int, 0, -5, 5, 1, 0.002\n", i)
	}
	return b.String()
}

func TestWithValues(t *testing.T) {
	ps := mustParams(t, "c, float, 1, 0, 3, 0.1, 0.002\neval.corner, int, 40, 0, 100, 5, 0.002")
	for _, tc := range []struct {
		base string
		vals []float64
		want string
	}{
		{"mcts:iters=200", []float64{1.25, 37}, "mcts:iters=200,c=1.25,eval.corner=37"},
		{"mcts:c=2,iters=200,name='my bot'", []float64{0.123456789, 3}, "mcts:c=0.123457,iters=200,name=my bot,eval.corner=3"},
	} {
		got, err := WithValues(tc.base, ps, tc.vals)
		if err != nil || got != tc.want {
			t.Errorf("WithValues(%q, %v) = %q, %v; want %q", tc.base, tc.vals, got, err, tc.want)
		}
	}
	if _, err := WithValues("", ps, []float64{1, 2}); err == nil {
		t.Error("an empty base spec was accepted")
	}
}

// FuzzParseParams: any input is parsed or refused without a panic; what
// is accepted passes Check and reads back the same from its String form.
func FuzzParseParams(f *testing.F) {
	f.Add("c, float, 1.4, 0.1, 3, 0.1, 0.002\n# x\neval.corner, int, 40, 0, 200, 5, 0.002")
	f.Add("x,int,1,0,2,1,1")
	f.Add("a, float, 1e9, -1e9, 1e9, 1e-300, 1e9")
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := ParseParams(strings.NewReader(text))
		if err != nil {
			return
		}
		var b strings.Builder
		for _, p := range ps {
			if err := p.Check(); err != nil {
				t.Fatalf("accepted %v: %v", p, err)
			}
			b.WriteString(p.String() + "\n")
		}
		again, err := ParseParams(strings.NewReader(b.String()))
		if err != nil || fmt.Sprint(again) != fmt.Sprint(ps) {
			t.Fatalf("%q read back as %v, %v; want %v", b.String(), again, err, ps)
		}
	})
}
