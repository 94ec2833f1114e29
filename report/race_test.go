package report

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/results"
)

// raceReference counts a race file's games independently of racePairs:
// each candidate's complete rounds in round order as pair points, fed
// stage by stage (pair n of every candidate, in turn) to a results.Race.
func raceReference(t *testing.T, f *results.File) (*results.Race, [][]float64) {
	t.Helper()
	k := len(f.Header.Config.Agents) - 1
	type seatPoints struct {
		index int
		pts   float64
	}
	byRound := make([]map[int][]seatPoints, k)
	for i := range byRound {
		byRound[i] = map[int][]seatPoints{}
	}
	for _, g := range f.Games {
		seat := 0
		if g.Players[0].Agent == 0 {
			seat = 1
		}
		c := g.Players[seat].Agent - 1
		byRound[c][g.Round] = append(byRound[c][g.Round], seatPoints{g.Index, g.Points(seat)})
	}
	pairs := make([][][2]float64, k)
	for i := range k {
		for r := 0; len(byRound[i][r]) == 2; r++ {
			p := byRound[i][r]
			slices.SortFunc(p, func(a, b seatPoints) int { return a.index - b.index })
			pairs[i] = append(pairs[i], [2]float64{p[0].pts, p[1].pts})
		}
	}
	race, err := results.NewRace(*f.Header.Config.SPRT, k)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; ; n++ {
		more := false
		for i := range k {
			if n < len(pairs[i]) {
				race.Add(i, pairs[i][n][0], pairs[i][n][1])
				more = true
			}
		}
		if !more {
			break
		}
	}
	// Each candidate's LLR after each of its counted pairs.
	llr := make([][]float64, k)
	for i, c := range race.Candidates {
		var p results.Penta
		for _, pp := range pairs[i][:c.Penta.Pairs()] {
			p.Add(pp[0], pp[1])
			llr[i] = append(llr[i], race.Test.LLR(p))
		}
	}
	return race, llr
}

// TestRacePage: a race's record gets a race section: the decision, each
// candidate's state and the stage it left at, as the race counted them
// (and as arena race printed when it made testdata/race.jsonl), the
// stated error rates, and each candidate's LLR line against the bounds.
func TestRacePage(t *testing.T) {
	f := readTestFile(t, "race.jsonl")
	ref, refLLR := raceReference(t, f)
	root, _, wr := writePage(t, Options{Rating: results.AnalysisOptions{Bootstrap: 0}, NoViewer: true}, f)
	if root.byID("match") != nil {
		t.Error("a race shown as a match")
	}
	rs := root.find(func(n *node) bool { return n.attr["class"] == "race" })
	if len(rs) != 1 {
		t.Fatalf("%d races on the page, want 1", len(rs))
	}
	sec := rs[0]
	// What arena race printed: "Winner: mcts:iters=400, after 71 pairs",
	// eliminated at 24, 15 and 8, the winner qualified at 18.
	if sec.attr["data-decision"] != "winner" || sec.attr["data-winner"] != "mcts:iters=400" || ref.Winner() != 2 {
		t.Errorf("decision %q winner %q (reference winner %d), want the winner mcts:iters=400", sec.attr["data-decision"], sec.attr["data-winner"], ref.Winner())
	}
	want := []struct {
		state string
		stage int
	}{{"eliminated", 24}, {"eliminated", 15}, {"qualified", 18}, {"eliminated", 8}}
	rows := sec.find(func(n *node) bool { return n.attr["data-candidate"] != "" })
	if len(rows) != len(want) {
		t.Fatalf("%d candidate rows, want %d", len(rows), len(want))
	}
	for i, row := range rows {
		c := ref.Candidates[i]
		if row.attr["data-state"] != want[i].state || row.attr["data-stage"] != strconv.Itoa(want[i].stage) ||
			c.State.String() != want[i].state || c.LeftAt != want[i].stage {
			t.Errorf("candidate %d: %s at %s (reference %s at %d), want %s at %d", i+1, row.attr["data-state"], row.attr["data-stage"], c.State, c.LeftAt, want[i].state, want[i].stage)
		}
		if llr := strconv.FormatFloat(c.LLR, 'f', 2, 64); row.attr["data-llr"] != llr {
			t.Errorf("candidate %d: LLR %s, want %s", i+1, row.attr["data-llr"], llr)
		}
	}
	text := sec.allText()
	for _, s := range []string{"Winner: mcts:iters=400", "71 game pairs (142 games)", "α = 0.05", "β = 0.05", "α/4 = 0.0125", "β/2 = 0.025", "-3.68 and 4.36", "more recorded but not counted"} {
		if !strings.Contains(text, s) {
			t.Errorf("the race section lacks %q", s)
		}
	}
	// The LLR plot: a line per candidate of its counted pairs (and the
	// origin), in its colour, and the two bounds.
	var svg *node
	for _, s := range sec.find(func(n *node) bool { return n.name == "svg" }) {
		if strings.HasPrefix(s.attr["data-plot"], "race-llr-") {
			svg = s
		}
	}
	if svg == nil || !slices.Contains(wr.Plots, svg.attr["data-plot"]) {
		t.Fatalf("no LLR plot in the race section (plots %q)", wr.Plots)
	}
	for i := range ref.Candidates {
		longest := 0
		for _, p := range svg.find(func(n *node) bool { return n.name == "path" }) {
			if strings.Contains(p.attr["style"], "stroke:"+hex(lineColours[i])) {
				longest = max(longest, points(p.attr["d"]))
			}
		}
		if want := len(refLLR[i]) + 1; longest != want {
			t.Errorf("candidate %d: LLR line of %d points, want %d", i+1, longest, want)
		}
	}
	bounds := 0
	for _, p := range svg.find(func(n *node) bool { return n.name == "path" }) {
		if strings.Contains(p.attr["style"], "stroke:"+hex(colBound)) {
			bounds++
		}
	}
	if bounds != 2 {
		t.Errorf("%d bound lines, want 2", bounds)
	}
}

// TestRacePairsAnyOrder: a race's games in any order give the race that
// its games counted pair by pair in round order give, with each
// candidate's LLR after each of its pairs, and hold no more than the
// games in flight; an undecided race says so.
func TestRacePairsAnyOrder(t *testing.T) {
	test := results.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}
	win := []float64{0.5, 0.62, 0.3} // each candidate's chance to win a game
	rng := rand.New(rand.NewPCG(7, 8))
	var games []*results.GameRecord
	for r := range 300 {
		for c := range win {
			for s := range 2 {
				g := &results.GameRecord{Index: len(games), Round: r, Winner: -1}
				g.Players[s].Agent, g.Players[1-s].Agent = c+1, 0
				if u := rng.Float64(); u < win[c] {
					g.Winner = s
				} else if u < win[c]+0.2 {
					g.Winner = 1 - s
				}
				games = append(games, g)
			}
		}
	}
	f := &results.File{Header: results.Header{Config: results.Config{Kind: results.Gauntlet, SPRT: &test,
		Agents: []results.AgentInfo{{Name: "base"}, {Name: "a"}, {Name: "b"}, {Name: "c"}}}}, Games: derefs(games)}
	ref, refLLR := raceReference(t, f)
	if !ref.Decided() {
		t.Fatalf("the reference race is undecided: %s", ref.Status(nil))
	}
	shuffled := slices.Clone(games)
	for lo := 0; lo < len(shuffled); lo += 16 {
		w := shuffled[lo:min(lo+16, len(shuffled))]
		rng.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
	}
	rp := newRacePairs(test, 3)
	most := 0
	undecided := ""
	for _, g := range shuffled {
		rp.add(g)
		n := 0
		for _, w := range rp.waiting {
			for _, gs := range w {
				n += len(gs)
			}
		}
		most = max(most, n)
		if undecided == "" && rp.race.Stage > 0 && !rp.race.Decided() {
			s, err := raceOf("r.jsonl", f.Header.Config, rp.clone(), &renderer{}, "race-llr-1")
			if err != nil {
				t.Fatal(err)
			}
			undecided = s.Decision
		}
	}
	if undecided != "undecided" {
		t.Errorf("a race under way shows %q, want undecided", undecided)
	}
	if got, want := rp.race.Status(nil), ref.Status(nil); got != want {
		t.Fatalf("counted %s, want %s", got, want)
	}
	for i := range refLLR {
		var got []float64
		for _, p := range rp.llr[i].trace() {
			got = append(got, p.llr)
		}
		if !slices.Equal(got, refLLR[i]) {
			t.Errorf("candidate %d: LLR after each pair %v, want %v", i+1, got, refLLR[i])
		}
	}
	if most > 16 {
		t.Errorf("%d games waiting at once; want at most the 16 in flight", most)
	}
}

func derefs(gs []*results.GameRecord) []results.GameRecord {
	out := make([]results.GameRecord, len(gs))
	for i, g := range gs {
		out[i] = *g
	}
	return out
}
