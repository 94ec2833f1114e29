package report

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/boardgame-arena/arena/results"
)

// TestBoxFromCounts: a box made from the counts of values has gonum's
// statistics of the values themselves, and the same outliers, each once.
func TestBoxFromCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(60)
		vs := make(plotter.Values, n)
		for i := range vs {
			// Microseconds with many repeats and a long tail.
			vs[i] = float64(rng.IntN(20)) / 1000
			if rng.IntN(8) == 0 {
				vs[i] = float64(rng.IntN(5000)) / 1000
			}
		}
		want, err := plotter.NewBoxPlot(vg.Points(30), 0, vs)
		if err != nil {
			t.Fatal(err)
		}
		var vc valueCounts
		for _, v := range vs {
			vc.add(v)
		}
		xs, ks := vc.sorted(0)
		got, _ := plotter.NewBoxPlot(vg.Points(30), 0, plotter.Values{xs[0]})
		setFiveStats(got, xs, ks)
		g, w := fiveStats(got), fiveStats(want)
		if g != w {
			t.Fatalf("trial %d, values %v: got %+v, want %+v", trial, vs, g, w)
		}
		var outWant []float64
		for _, i := range want.Outside {
			outWant = append(outWant, want.Values[i])
		}
		slices.Sort(outWant)
		outWant = slices.Compact(outWant)
		var outGot []float64
		for _, i := range got.Outside {
			outGot = append(outGot, got.Values[i])
		}
		if !slices.Equal(outGot, outWant) {
			t.Fatalf("trial %d: outliers %v, want %v", trial, outGot, outWant)
		}
	}
}

// fiveStats are a box's statistics.
func fiveStats(b *plotter.BoxPlot) [7]float64 {
	return [7]float64{b.Median, b.Quartile1, b.Quartile3, b.AdjLow, b.AdjHigh, b.Min, b.Max}
}

// TestCountHistogram: the game-length histogram from counts has the bins
// of the histogram of the lengths one by one: the same SVG.
func TestCountHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		var values []float64
		counts := map[int]int{}
		for range 1 + rng.IntN(3000) {
			v := 20 + rng.IntN(1+rng.IntN(60))
			values = append(values, float64(v))
			counts[v]++
		}
		want, err := histogram("l", "plies", values, binsFor(values))
		if err != nil {
			t.Fatal(err)
		}
		got, err := countHistogram("l", "plies", counts)
		if err != nil {
			t.Fatal(err)
		}
		r := &renderer{}
		sw, err := r.render("l", want, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		sg, err := r.render("l", got, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if sg != sw {
			t.Fatalf("the histogram of %d lengths from counts differs from the one of the lengths", len(values))
		}
	}
}

// TestValueCountsBounded: past maxDistinct values the counts keep four
// significant digits, so that times spread over decades stay bounded.
func TestValueCountsBounded(t *testing.T) {
	var vc valueCounts
	for i := range 4 * maxDistinct {
		vc.add(float64(i) / 1000)
	}
	if vc.n != 4*maxDistinct || len(vc.counts) > maxDistinct {
		t.Errorf("%d values in %d distinct counts; want all %d counted in at most %d", vc.n, len(vc.counts), 4*maxDistinct, maxDistinct)
	}
	if got := fourDigits(123.456); got != 123.5 {
		t.Errorf("fourDigits(123.456) = %v", got)
	}
}

// TestLLRTrace: every pair's LLR while few, every stride-th and the last
// past maxLLRPoints, never more than maxLLRPoints+1 points.
func TestLLRTrace(t *testing.T) {
	var tr llrTrace
	for i := 1; i <= 100; i++ {
		tr.add(float64(i))
	}
	if pts := tr.trace(); len(pts) != 100 || pts[99] != (llrPoint{100, 100}) {
		t.Fatalf("%d points, last %v; want 100, the last (100, 100)", len(pts), pts[len(pts)-1])
	}
	for i := 101; i <= 1_000_003; i++ {
		tr.add(float64(i))
	}
	pts := tr.trace()
	if len(pts) > maxLLRPoints+1 || pts[len(pts)-1] != (llrPoint{1_000_003, 1_000_003}) {
		t.Fatalf("%d points, last %v", len(pts), pts[len(pts)-1])
	}
	for i, p := range pts {
		if p.llr != float64(p.pair) || i > 0 && p.pair <= pts[i-1].pair {
			t.Fatalf("point %d: %v", i, p)
		}
	}
}

// TestMatchPairsAnyOrder: a match's games in any order count the pairs
// that the games sorted by round do (results.PairTracker), with the same
// LLR after each pair, and hold no more than the games in flight.
func TestMatchPairsAnyOrder(t *testing.T) {
	test := &results.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: results.Logistic}
	rng := rand.New(rand.NewPCG(5, 6))
	var games []*results.GameRecord
	for i := range 400 {
		g := &results.GameRecord{Index: i, Round: i / 2, Winner: rng.IntN(3) - 1}
		g.Players[0].Agent, g.Players[1].Agent = i%2, 1-i%2
		games = append(games, g)
	}
	sorted := results.NewPairTracker(test, 0)
	var want []float64
	for _, g := range games {
		if sorted.Add(g) > 0 {
			want = append(want, sorted.LLR)
		}
	}
	// Shuffled within windows of 16 games, as a run's workers finish.
	shuffled := slices.Clone(games)
	for lo := 0; lo < len(shuffled); lo += 16 {
		w := shuffled[lo:min(lo+16, len(shuffled))]
		rng.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
	}
	m := newMatchPairs(test)
	most := 0
	for _, g := range shuffled {
		m.add(g)
		most = max(most, len(m.waiting))
	}
	if m.tr.Penta != sorted.Penta || m.tr.Decision != sorted.Decision || m.tr.LLR != sorted.LLR {
		t.Fatalf("counted %v %v LLR %v, want %v %v %v", m.tr.Penta, m.tr.Decision, m.tr.LLR, sorted.Penta, sorted.Decision, sorted.LLR)
	}
	var got []float64
	for _, p := range m.llr.trace() {
		got = append(got, p.llr)
	}
	if !slices.Equal(got, want) {
		t.Errorf("LLR after each pair %v, want %v", got, want)
	}
	if most > 16 {
		t.Errorf("%d rounds waiting at once; want at most the 16 games in flight", most)
	}
}

// TestStreamedPageIsWrittenPage: a page made in one pass over the files
// (results.Tally feeding a Collector, as arena report does) is the page
// Write makes of the same files read whole and merged.
func TestStreamedPageIsWrittenPage(t *testing.T) {
	for _, files := range [][]string{{"testdata/tournament.jsonl"}, {"testdata/match.jsonl"}, {"testdata/clocks.jsonl"}, {"testdata/tournament.jsonl", "testdata/match.jsonl"}, {"testdata/race.jsonl"}} {
		opt := Options{Rating: results.AnalysisOptions{Bootstrap: 100, Seed: 3}, Viewer: ViewerOptions{MaxGames: 7}}
		var read []*results.File
		for _, name := range files {
			f, err := results.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			read = append(read, f)
		}
		d, err := results.Merge(read...)
		if err != nil {
			t.Logf("%v: %v (not pooled)", files, err)
			continue
		}
		var want bytes.Buffer
		if _, err := Write(&want, d, opt); err != nil {
			t.Fatal(err)
		}

		c, err := NewCollector(opt.Viewer, false)
		if err != nil {
			t.Fatal(err)
		}
		tally := results.NewTally()
		c.Follow(tally)
		for _, name := range files {
			if _, err := tally.ReadFile(name); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := tally.Analyse(opt.Rating)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if _, err := WriteSource(&got, TallySource(tally, rep, c), opt); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%v: the streamed page (%d bytes) differs from the written one (%d bytes)", files, got.Len(), want.Len())
		}
	}
}

// TestCollectorWhileCounting: a page may be written while games are
// still added (a live run); run with -race.
func TestCollectorWhileCounting(t *testing.T) {
	f, err := results.ReadFile("testdata/match.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCollector(ViewerOptions{MaxGames: 5}, false)
	if err != nil {
		t.Fatal(err)
	}
	c.StartFile(0, &f.Header)
	c.Add(0, &f.Games[0])
	d, err := results.Merge(f)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := results.Analyse(d, results.AnalysisOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 1; i < len(f.Games); i++ {
			c.Add(0, &f.Games[i])
		}
	}()
	src := Source{Game: f.Header.Config.Game, Files: []FileHead{{Path: f.Path, Header: f.Header}}, Analysis: rep, Games: c}
	for range 3 {
		if _, err := WriteSource(io.Discard, src, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	<-done
	if c.Games() != len(f.Games) {
		t.Errorf("%d games counted, want %d", c.Games(), len(f.Games))
	}
}
