package results

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/option"
)

// TestAnalysisOptionsCheck: the rating options out of range are refused
// with an *option.Error naming the option; Analyse refuses them too.
func TestAnalysisOptionsCheck(t *testing.T) {
	d := NewDataset("othello6", []string{"a", "b"}, nil)
	for _, tc := range []struct {
		o      AnalysisOptions
		name   string
		prefix string // of the error text
	}{
		{AnalysisOptions{Bootstrap: 1_000_000_000}, "Bootstrap", "Bootstrap 1000000000: want 0 to 1000000 resamples"},
		{AnalysisOptions{Bootstrap: -1}, "Bootstrap", "Bootstrap -1: want 0 to 1000000"},
		{AnalysisOptions{Prior: math.NaN()}, "Prior", "Prior NaN: want a number of virtual draws from 0 to 1000000"},
		{AnalysisOptions{Prior: math.Inf(1)}, "Prior", "Prior +Inf: want a number of virtual draws"},
		{AnalysisOptions{Prior: -1}, "Prior", "Prior -1: want"},
		{AnalysisOptions{Anchor: "a", AnchorElo: math.Inf(-1)}, "AnchorElo", "AnchorElo -Inf: the rating must be a finite number between -1e+06 and 1e+06"},
		{AnalysisOptions{Anchor: "c"}, "Anchor", "Anchor c: no such player (players: a, b)"},
	} {
		err := tc.o.Check()
		if tc.name == "Anchor" {
			err = CheckAnchor(tc.o.Anchor, d.Players)
		}
		var oe *option.Error
		if !errors.As(err, &oe) || oe.Name != tc.name || !strings.HasPrefix(err.Error(), tc.prefix) {
			t.Errorf("%+v: %v, want an error of %s starting %q", tc.o, err, tc.name, tc.prefix)
		}
		if _, err := Analyse(d, tc.o); err == nil || !strings.HasPrefix(err.Error(), tc.prefix) {
			t.Errorf("Analyse with %+v: %v, want %q", tc.o, err, tc.prefix)
		}
	}
	if err := (AnalysisOptions{Bootstrap: MaxBootstrap, Prior: MaxPrior, Anchor: "a", AnchorElo: -MaxAnchorElo}).Check(); err != nil {
		t.Errorf("the limits themselves: %v", err)
	}
	if err := (AnalysisOptions{AnchorElo: math.NaN()}).Check(); err != nil {
		t.Errorf("an AnchorElo without an Anchor is unused: %v", err)
	}
}

func TestParseDrawsAndAnchor(t *testing.T) {
	for text, want := range map[string]DrawModel{"half": HalfWin, "davidson": Davidson} {
		if m, err := ParseDraws(text); err != nil || m != want {
			t.Errorf("ParseDraws(%q) = %v, %v", text, m, err)
		}
	}
	_, err := ParseDraws("third")
	if got := option.Render(err, func(string) string { return "--draws" }); got != `unknown --draws "third" (valid: half, davidson)` {
		t.Errorf("ParseDraws(third): %q", got)
	}
	if name, elo, err := ParseAnchor("random=-250.5"); name != "random" || elo != -250.5 || err != nil {
		t.Errorf("ParseAnchor = %q, %v, %v", name, elo, err)
	}
	for text, want := range map[string]string{
		"random":       `Anchor "random": want NAME=RATING, e.g. random=0`,
		"=5":           `Anchor "=5": want NAME=RATING`,
		"random=x":     `Anchor "random=x": want NAME=RATING`,
		"random=NaN":   `Anchor "random=NaN": the rating must be a finite number between -1e+06 and 1e+06`,
		"random=-Inf":  `Anchor "random=-Inf": the rating must be a finite number`,
		"random=1e6":   "",
		"random=1.1e6": "the rating must be a finite number",
	} {
		_, _, err := ParseAnchor(text)
		var oe *option.Error
		switch {
		case want == "" && err != nil:
			t.Errorf("ParseAnchor(%q): %v", text, err)
		case want != "" && (!errors.As(err, &oe) || oe.Name != "Anchor" || !strings.Contains(err.Error(), want)):
			t.Errorf("ParseAnchor(%q): %v, want %q", text, err, want)
		}
	}
}
