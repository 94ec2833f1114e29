package option_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/option"
)

func flag(name string) string { return "--" + strings.ToLower(name) }

func TestText(t *testing.T) {
	cases := []struct {
		err       *option.Error
		lib, flag string
	}{
		{option.New("Games", 3, "use an even number"), "Games 3: use an even number", "--games 3: use an even number"},
		{option.New("TC", "1s", "cannot be used with {MoveTime} 2s"), "TC 1s: cannot be used with MoveTime 2s", "--tc 1s: cannot be used with --movetime 2s"},
		{option.New("Seed", nil, "missing"), "Seed: missing", "--seed: missing"},
		{option.New("Seed", "", "missing"), "Seed: missing", "--seed: missing"},
		{&option.Error{Name: "Out", Value: "x"}, "Out x", "--out x"},
		{option.New("Concurrency", 0, "{Concurrency} 0 is out of range: use 1 to 256, or 0 with {Broker}"), "Concurrency 0 is out of range: use 1 to 256, or 0 with Broker", "--concurrency 0 is out of range: use 1 to 256, or 0 with --broker"},
		{option.New("TC", "1s", "{MoveTime} first: not a whole message"), "TC 1s: MoveTime first: not a whole message", "--tc 1s: --movetime first: not a whole message"},
		{option.New("A", 1, "keep {braces with spaces} and { and {} and {B"), "A 1: keep {braces with spaces} and { and {} and {B", "--a 1: keep {braces with spaces} and { and {} and {B"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.lib {
			t.Errorf("Error() = %q, want %q", got, c.lib)
		}
		if got := c.err.Text(flag); got != c.flag {
			t.Errorf("Text(flag) = %q, want %q", got, c.flag)
		}
	}
}

func TestOutOfRange(t *testing.T) {
	err := option.OutOfRange("Check.Margin", "2m", "0s", "1m", " (how late a bestmove may come)")
	if got, want := err.Error(), "Check.Margin 2m is out of range: use 0s to 1m (how late a bestmove may come)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := err.Text(flag), "--check.margin 2m is out of range: use 0s to 1m (how late a bestmove may come)"; got != want {
		t.Errorf("Text(flag) = %q, want %q", got, want)
	}
}

func TestRender(t *testing.T) {
	a := option.New("Games", 3, "use {Games} 2 or more")
	b := option.New("Concurrency", 0, "use 1 to 256")
	err := fmt.Errorf("tournament: %w", errors.Join(a, fmt.Errorf("resume: %w", b)))
	want := "tournament: --games 3: use --games 2 or more\nresume: --concurrency 0: use 1 to 256"
	if got := option.Render(err, flag); got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
	if got := option.Render(err, nil); got != err.Error() {
		t.Errorf("Render(nil) = %q, want %q", got, err.Error())
	}
	plain := errors.New("no option here")
	if got := option.Render(plain, flag); got != plain.Error() {
		t.Errorf("Render(plain) = %q", got)
	}
	if got := option.Render(nil, flag); got != "" {
		t.Errorf("Render(nil error) = %q", got)
	}
	var oe *option.Error
	if !errors.As(err, &oe) || oe.Name != "Games" {
		t.Errorf("errors.As found %v", oe)
	}
}

func ExampleRender() {
	err := fmt.Errorf("tournament: %w", option.New("GamesPerPair", 3, "use an even number (games come in colour-swapped pairs), or raise {Concurrency}"))
	fmt.Println(err)
	flags := map[string]string{"GamesPerPair": "--games", "Concurrency": "--concurrency"}
	fmt.Println(option.Render(err, func(name string) string { return flags[name] }))
	// Output:
	// tournament: GamesPerPair 3: use an even number (games come in colour-swapped pairs), or raise Concurrency
	// tournament: --games 3: use an even number (games come in colour-swapped pairs), or raise --concurrency
}

// FuzzNames: Names never panics, and naming every option back in braces
// gives the text unchanged.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"", "{A}", "use {MoveTime} or {", "{}{ }{a b}{{x}}", "}{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got := option.Names(text, func(s string) string { return "{" + s + "}" }); got != text {
			t.Errorf("Names(%q) round trip = %q", text, got)
		}
		_ = option.Names(text, nil)
	})
}
