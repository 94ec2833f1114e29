package arena

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// TestResumeKeepsNames: a resumed run names its agents as its record
// does, even where the specs would now name them otherwise (a record of
// an older arena names an engine by its whole spec): the games it adds
// carry the record's names, with or without the caller's options.
func TestResumeKeepsNames(t *testing.T) {
	for _, edit := range []func(*Options){nil, func(o *Options) { o.Seed, o.Agents = 3, slices.Clone(sessionOptions.Agents) }} {
		path, data, _ := cutRecord(t)
		header, rest, _ := strings.Cut(string(data), "\n")
		// The header and the games recorded name greedy "old greedy".
		renamed := strings.ReplaceAll(header+"\n"+rest, `"name":"greedy"`, `"name":"old greedy"`)
		if renamed == string(data) {
			t.Fatal("no agent named greedy in the record")
		}
		if err := os.WriteFile(path, []byte(renamed), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := OpenSession(SessionOptions{Resume: path, Edit: edit, Concurrency: 1})
		if err != nil {
			t.Fatalf("resume: %v", err)
		}
		want := []string{"random", "old greedy", "t-max"}
		if got := s.Tournament().Names(); !slices.Equal(got, want) {
			t.Errorf("resumed names %q, want %q", got, want)
		}
		st, err := s.Run(context.Background(), RunOptions{})
		s.Close()
		if err != nil || !st.Complete || st.Played != 6 {
			t.Fatalf("resumed run: %+v, %v", st, err)
		}
		f, err := results.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range f.Games {
			for _, p := range g.Players {
				if p.Name != want[p.Agent] {
					t.Errorf("game %d: agent %d recorded as %q, want %q", g.Index, p.Agent, p.Name, want[p.Agent])
				}
			}
		}
	}
}

// TestRebuildKeepsNames: a run rebuilt from its configuration (a broker
// worker, a resumed session) has the configuration's names, which New
// checks: one each, none empty, no two alike.
func TestRebuildKeepsNames(t *testing.T) {
	o := sessionOptions
	o.Agents = []string{"ugi:cmd=python3 a/engine.py", "ugi:cmd=python3 b/engine.py", "greedy"}
	tour, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tour.Names(), []string{"engine.py", "engine.py#2", "greedy"}; !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	c := tour.Config
	c.Agents = slices.Clone(c.Agents)
	c.Agents[0].Name = "ugi:cmd=python3 a/engine.py"
	again, err := New(OptionsFrom(c))
	if err != nil {
		t.Fatal(err)
	}
	if diff := c.Diff(again.Config); len(diff) > 0 {
		t.Errorf("the rebuilt run differs: %q", diff)
	}
	for _, bad := range [][]string{{"a", "b"}, {"a", "", "c"}, {"a", "b", "a"}} {
		o := OptionsFrom(c)
		o.Names = bad
		if _, err := New(o); err == nil || !strings.Contains(err.Error(), "Names") {
			t.Errorf("names %q: %v", bad, err)
		}
	}
}

// TestResumeRefusesNamesAlike: a header that gives two agents one name
// (which no arena writes) is refused as a damaged header.
func TestResumeRefusesNamesAlike(t *testing.T) {
	path, data, _ := cutRecord(t)
	header, rest, _ := strings.Cut(string(data), "\n")
	header = strings.Replace(header, `"name":"t-max"`, `"name":"random"`, 1)
	if err := os.WriteFile(path, []byte(header+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := OpenSession(SessionOptions{Resume: path, Concurrency: 1})
	if err == nil || !strings.Contains(err.Error(), `header: agent 2 is named "random", empty or another agent's name`) {
		t.Errorf("resume: %v", err)
	}
}
