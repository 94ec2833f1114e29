package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

func TestWithKey(t *testing.T) {
	for _, tc := range []struct{ base, key, value, want string }{
		{"mcts:iters=2000", "c", "0.5", "mcts:iters=2000,c=0.5"},
		{"mcts:iters=2000,c=1.4", "c", "0.3", "mcts:iters=2000,c=0.3"},
		{"mcts:c=1.4,iters=2000", "c", "0.3", "mcts:c=0.3,iters=2000"},
		{"mcts", "iters", "640", "mcts:iters=640"},
		{"alphabeta:exact,depth=3", "exact", "false", "alphabeta:exact=false,depth=3"},
		{"alphabeta:depth=3,exact", "depth", "5", "alphabeta:depth=5,exact"},
	} {
		got, err := withKey(tc.base, tc.key, tc.value)
		if err != nil || got != tc.want {
			t.Errorf("withKey(%q, %q, %q) = %q, %v; want %q", tc.base, tc.key, tc.value, got, err, tc.want)
		}
	}
}

func TestNewSweepErrors(t *testing.T) {
	many := make([]string, MaxSweepValues+1)
	for i := range many {
		many[i] = fmt.Sprint(i + 1)
	}
	rnd := []string{"random"}
	for _, tc := range []struct {
		name, agent, param string
		values, against    []string
		want               string
	}{
		{"no param", "mcts", "", []string{"1", "2"}, rnd, "Param is missing"},
		{"param name", "mcts", "name", []string{"a", "b"}, rnd, "display name"},
		{"param with =", "mcts", "c=1", []string{"1", "2"}, rnd, "has no spaces"},
		{"one value", "mcts", "c", []string{"1"}, rnd, "lists 1 values; a sweep has 2 to 64"},
		{"too many values", "mcts:iters=10", "iters", many, rnd, "lists 65 values"},
		{"duplicate", "mcts", "c", []string{"1.0", "0.5", "1"}, rnd, "1.0 and 1 are the same value"},
		{"empty value", "mcts", "c", []string{"1", ""}, rnd, "empty value"},
		{"long value", "mcts", "c", []string{"1", strings.Repeat("9", 101)}, rnd, "a value of 101 characters"},
		{"long param", "mcts", strings.Repeat("k", 101), []string{"1", "2"}, rnd, "a key of 101 characters"},
		{"unknown key", "random", "iters", []string{"10", "20"}, rnd, "iters=10"},
		{"bad value", "mcts", "iters", []string{"10", "many"}, rnd, "iters=many"},
		{"unknown agent", "nosuchagent", "c", []string{"1", "2"}, rnd, "nosuchagent"},
		{"no opponents", "mcts", "c", []string{"1", "2"}, nil, "names 0 opponents"},
		{"bad opponent", "mcts", "c", []string{"1", "2"}, []string{"greedy:depth=2"}, `Against "greedy:depth=2": `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSweep(tc.agent, tc.param, tc.values, tc.against)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// A sweep's run plays exactly the value-against-opponent games, and gives
// every value the same seeds and openings against the same opponent.
func TestSweepSchedule(t *testing.T) {
	s, err := NewSweep("mcts:iters=20", "c", []string{"0.5", "1", "2"}, []string{"random", "greedy"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"mcts:iters=20,c=0.5", "mcts:iters=20,c=1", "mcts:iters=20,c=2", "random", "greedy"}; !slices.Equal(s.Agents(), want) {
		t.Fatalf("agents %q, want %q", s.Agents(), want)
	}
	tour, err := arena.New(s.Options(arena.Options{Game: "othello6", GamesPerPair: 4, Seed: 9}))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(tour); err != nil {
		t.Fatal(err)
	}
	if c := tour.Config; c.Kind != results.Sweep || c.Swept != 3 || c.TotalGames != s.Games(4) {
		t.Errorf("header: kind %s, swept %d, total %d; want sweep, 3, %d", c.Kind, c.Swept, c.TotalGames, s.Games(4))
	}
	if got, want := tour.Schedule.Len(), s.Games(4); got != want || want != 3*2*4 {
		t.Fatalf("%d fixtures, want %d", got, want)
	}
	type key struct{ opp, game int }
	type seeds struct {
		game, opp, value uint64
		first            bool // the value agent moves first
		opening          string
	}
	seen := map[key]seeds{}
	perValue := map[int]int{}
	indices := map[int]bool{}
	for i, f := range slices.Collect(tour.Schedule.All()) {
		if f.Index != i {
			t.Errorf("fixture %d has index %d", i, f.Index)
		}
		if indices[f.Index] {
			t.Errorf("index %d twice", f.Index)
		}
		indices[f.Index] = true
		v, o, vs := f.Seats[0], f.Seats[1], 0
		if v >= 3 {
			v, o, vs = o, v, 1
		}
		if v >= 3 || o < 3 {
			t.Fatalf("fixture %+v is not a value against an opponent", f)
		}
		perValue[v]++
		got := seeds{f.Seed, f.Agents[1-vs], f.Agents[vs], vs == 0, fmt.Sprint(tour.Opening(f.Round))}
		k := key{o, f.Game}
		if first, ok := seen[k]; !ok {
			seen[k] = got
		} else if got != first {
			t.Errorf("value %d against %d, game %d: %+v; another value had %+v", v, o, f.Game, got, first)
		}
	}
	if len(seen) != 2*4 || perValue[0] != 8 || perValue[1] != 8 || perValue[2] != 8 {
		t.Errorf("%d (opponent, game) keys, games per value %v", len(seen), perValue)
	}
	// Seeds differ between games, or the pairs would repeat one game.
	distinct := map[uint64]bool{}
	for _, s := range seen {
		distinct[s.game] = true
	}
	if len(distinct) != len(seen) {
		t.Errorf("%d distinct game seeds for %d games", len(distinct), len(seen))
	}
	// The header alone rebuilds the schedule (a resume, a broker worker).
	again, err := arena.New(arena.OptionsFrom(tour.Config))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(slices.Collect(again.Schedule.All()), slices.Collect(tour.Schedule.All())) {
		t.Error("the schedule rebuilt from the header differs")
	}
	// Another run's agents are refused, and so is an old sweep's file
	// (a round robin of the same agents), with a message that says why.
	other, _ := arena.New(arena.Options{Game: "othello6", GamesPerPair: 2, Agents: []string{"random", "greedy"}})
	if err := s.Check(other); err == nil || !strings.Contains(err.Error(), "the file records a round-robin of random, greedy, not a sweep (continue it as a tournament)") {
		t.Errorf("check of another run: %v", err)
	}
	old, _ := arena.New(arena.Options{Game: "othello6", GamesPerPair: 4, Seed: 9, Agents: s.Agents()})
	if err := s.Check(old); err == nil || !strings.Contains(err.Error(), "as a round robin") {
		t.Errorf("check of an old sweep's round robin: %v", err)
	}
}

// A parameter whose effect is known: mcts with 400 iterations a move is
// far stronger than with 4, against random on othello6.
func TestRunSweepStrongerValueRatesHigher(t *testing.T) {
	s, err := NewSweep("mcts:iters=100", "iters", []string{"4", "400"}, []string{"random"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := RunSweep(context.Background(), s, arena.Options{Game: "othello6", GamesPerPair: 20, Seed: 5},
		arena.RunOptions{Concurrency: 2}, results.AnalysisOptions{Bootstrap: 200, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r.Param != "iters" || len(r.Points) != 2 || r.Anchor != "random" || r.Games != 40 {
		t.Fatalf("result %+v", r)
	}
	weak, strong := r.Points[0], r.Points[1]
	if weak.Value != "4" || strong.Value != "400" || weak.Games != 20 || strong.Games != 20 {
		t.Fatalf("points %+v", r.Points)
	}
	if !(strong.Elo > weak.Elo) {
		t.Errorf("iters=400 rated %.1f, iters=4 %.1f: want the larger budget higher", strong.Elo, weak.Elo)
	}
	for _, p := range r.Points {
		if !(p.EloLow <= p.Elo && p.Elo <= p.EloHigh) {
			t.Errorf("point %+v: Elo outside its interval", p)
		}
	}
	t.Logf("iters=4: %.1f [%.1f, %.1f]; iters=400: %.1f [%.1f, %.1f]", weak.Elo, weak.EloLow, weak.EloHigh, strong.Elo, strong.EloLow, strong.EloHigh)
}

// Result reads the value agents' rows by name, in the order of the
// values, whatever the standings' order; without a bootstrap there are no
// bounds, and a value without games has no rating.
func TestSweepResult(t *testing.T) {
	s := &Sweep{Param: "c", Values: []string{"0.3", "1.0", "2"}, Specs: []string{"a", "b", "c"}, Against: []string{"o"}}
	names := []string{"mcts:c=0.3", "mcts:c=1.0", "mcts:c=2", "random"}
	rep := &results.Analysis{Games: 40, Level: 0.95, Bootstrap: 100, Anchor: "random", Players: []results.PlayerRow{
		{Name: "mcts:c=1.0", Elo: 50, EloLow: 10, EloHigh: 90, Games: 20},
		{Name: "random", Elo: 0, EloLow: -30, EloHigh: 30, Games: 40},
		{Name: "mcts:c=0.3", Elo: -20, EloLow: math.Inf(-1), EloHigh: 15, Games: 20},
	}}
	r, err := s.Result(rep, names)
	if err != nil {
		t.Fatal(err)
	}
	want := []Point{{"0.3", -20, math.Inf(-1), 15, 20}, {"1.0", 50, 10, 90, 20}}
	if r.Param != "c" || len(r.Points) != 3 || r.Points[0] != want[0] || r.Points[1] != want[1] || !math.IsNaN(r.Points[2].Elo) || r.Points[2].Games != 0 {
		t.Errorf("points %+v", r.Points)
	}
	rep.Bootstrap = 0
	r, _ = s.Result(rep, names)
	if p := r.Points[1]; p.Elo != 50 || !math.IsNaN(p.EloLow) || !math.IsNaN(p.EloHigh) {
		t.Errorf("without a bootstrap: %+v", p)
	}
	if _, err := s.Result(rep, names[:3]); err == nil {
		t.Error("too few names: want an error")
	}
}

// The JSON document is exactly DESIGN.md's: {"param","points":[{"value",
// "elo","elo_low","elo_high","games"}]}, values as written (strings),
// open bounds and missing ratings null.
func TestSweepJSON(t *testing.T) {
	r := SweepResult{Param: "iters", Anchor: "random", Level: 0.95, Points: []Point{
		{"500", -10.5, -40, 20, 30},
		{"1000", 300, 250, math.Inf(1), 30},
		{"2000", math.NaN(), math.NaN(), math.NaN(), 0},
	}}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc) != 2 || string(doc["param"]) != `"iters"` {
		t.Fatalf("document keys: %s", b.String())
	}
	var pts []map[string]any
	if err := json.Unmarshal(doc["points"], &pts); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"value": "500", "elo": -10.5, "elo_low": -40.0, "elo_high": 20.0, "games": 30.0},
		{"value": "1000", "elo": 300.0, "elo_low": 250.0, "elo_high": nil, "games": 30.0},
		{"value": "2000", "elo": nil, "elo_low": nil, "elo_high": nil, "games": 0.0},
	}
	if fmt.Sprint(pts) != fmt.Sprint(want) {
		t.Errorf("points\n%v\nwant\n%v", pts, want)
	}
}

func TestSweepTable(t *testing.T) {
	r := SweepResult{Param: "c", Anchor: "random", Level: 0.95, Games: 60, Points: []Point{
		{"0.5", 12.25, -20, 40, 30},
		{"1.4", 300, 250, math.Inf(1), 30},
	}}
	var b bytes.Buffer
	if err := r.WriteTable(&b, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Elo against c (60 games; random anchored at 0; 95 % intervals)", "0.5", "12.2", "32.2", "27.8", "1.4", "300.0", "50.0", "∞"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	r.WriteTable(&b, true)
	if !strings.Contains(b.String(), "| c ") && !strings.Contains(b.String(), "|  c ") {
		t.Errorf("markdown table:\n%s", b.String())
	}
}

// The value agents of a sweep of mcts's exploration constant.
func ExampleNewSweep() {
	s, err := NewSweep("mcts:iters=2000", "c", []string{"0.3", "0.7", "1.4"}, []string{"alphabeta:depth=2"})
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.Join(s.Agents(), "\n"))
	fmt.Println(s.Games(100), "games")
	// Output:
	// mcts:iters=2000,c=0.3
	// mcts:iters=2000,c=0.7
	// mcts:iters=2000,c=1.4
	// alphabeta:depth=2
	// 300 games
}
