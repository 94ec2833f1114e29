package tune

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/option"
)

// flag is a command line's rendering of an option name, as cmd/arena's:
// PairsPer is --pairs-per.
func flag(name string) string {
	var b strings.Builder
	for i, c := range name {
		if c >= 'A' && c <= 'Z' && i > 0 && name[i-1] >= 'a' && name[i-1] <= 'z' {
			b.WriteByte('-')
		}
		b.WriteString(strings.ToLower(string(c)))
	}
	return "--" + b.String()
}

// TestErrorsNameOptions: the library's errors name the options a Go
// caller set, and a command line that renders them as its flags gets the
// messages it printed when the library named the flags itself.
func TestErrorsNameOptions(t *testing.T) {
	ps := mustParams(t, "x, float, 0, -1, 1, 0.1, 0.01")
	ok := SPSAConfig{Game: "othello6", Agent: "synthetic", Params: ps, Iterations: 10, PairsPer: 2}
	spsa := func(edit func(*SPSAConfig)) error {
		c := ok
		edit(&c)
		_, err := NewSPSA(c)
		return err
	}
	sweep := func(agent, param string, values, against []string) error {
		_, err := NewSweep(agent, param, values, against)
		return err
	}
	two, rnd := []string{"1", "2"}, []string{"random"}
	for _, tc := range []struct {
		err      error
		names    []string // the options named, outermost first
		rendered string
	}{
		{spsa(func(c *SPSAConfig) { c.Iterations = 0 }), []string{"Iterations"}, "--iterations 0: use 1 to 1000000"},
		{spsa(func(c *SPSAConfig) { c.PairsPer = 0 }), []string{"PairsPer"}, "--pairs-per 0: use 1 to 10000 game pairs per iteration"},
		{spsa(func(c *SPSAConfig) { c.Gamma = 11 }), []string{"Alpha", "Gamma"}, "--alpha 0.602 and --gamma 11: use exponents in (0, 10] (defaults 0.602 and 0.101)"},
		{spsa(func(c *SPSAConfig) { c.Params = nil }), []string{"Params"}, "--params: no parameters to tune: give a parameter file"},
		{sweep("mcts", "", two, rnd), []string{"Param"}, "--param is missing: name the agent spec key to sweep, e.g. c or iters"},
		{sweep("mcts", "c d", two, rnd), []string{"Param"}, `--param "c d": an agent spec key has no spaces`},
		{sweep("mcts", "name", two, rnd), []string{"Param"}, "--param name: the display name does not change how an agent plays"},
		{sweep("mcts", "c", []string{"1"}, rnd), []string{"Values"}, "--values lists 1 values; a sweep has 2 to 64 (split a longer sweep into several)"},
		{sweep("mcts", "c", []string{"1", ""}, rnd), []string{"Values"}, "--values has an empty value"},
		{sweep("mcts", "c", []string{"1.0", "1"}, rnd), []string{"Values"}, "--values: 1.0 and 1 are the same value; give each value once"},
		{sweep("mcts:{Values}=1,{Values}=2", "c", two, rnd), []string{"Agent"}, `--agent: option "{Values}" given twice`},
		{sweep("mcts", "c", two, nil), []string{"Against"}, "--against names 0 opponents; a sweep has 1 to 16"},
		{sweep("mcts", "c", two, []string{"{Param}"}), []string{"Against"}, `--against "{Param}": `},
	} {
		if got := optionNames(tc.err); strings.Join(got, " ") != strings.Join(tc.names, " ") {
			t.Errorf("%v: options %q, want %q", tc.err, got, tc.names)
		}
		if r := option.Render(tc.err, flag); !strings.Contains(r, tc.rendered) {
			t.Errorf("rendered %q, want it to hold %q", r, tc.rendered)
		}
	}
}

// optionNames lists the options named in err's tree, outermost first.
func optionNames(err error) []string {
	if e, ok := err.(*option.Error); ok {
		return []string{e.Name}
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return optionNames(u.Unwrap())
	case interface{ Unwrap() []error }:
		var out []string
		for _, e := range u.Unwrap() {
			out = append(out, optionNames(e)...)
		}
		return out
	}
	return nil
}
