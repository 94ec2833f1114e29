package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// syntheticHeader is the header of a round robin of players "p0"… with
// games games planned.
func syntheticHeader(players, games int, seed uint64) []byte {
	h := Header{Record: KindHeader, Version: FormatVersion, Created: "2026-01-01T00:00:00Z", Concurrency: 2, Config: Config{
		Kind: RoundRobin, Game: "othello6", GamesPerPair: 2, Seed: seed, Openings: "random:2", MaxPlies: 200, TotalGames: games}}
	for p := 0; p < players; p++ {
		h.Config.Agents = append(h.Config.Agents, AgentInfo{Name: fmt.Sprintf("p%d", p), Spec: fmt.Sprintf("random:name=p%d", p)})
	}
	line, err := MarshalLine(h)
	if err != nil {
		panic(err)
	}
	return line
}

// syntheticGame fills g with game i of a synthetic round robin: players
// drawn from the seed, results from their strength difference, plies of
// othello-like notation, some forfeits; odd is every kind of optional
// field (clocks, move statistics, a detail, a fen start, escapes).
func syntheticGame(g *GameRecord, i, players int, seed uint64, odd bool) {
	r := rng.New(rng.Derive(seed, uint64(i)))
	a := r.IntN(players)
	b := (a + 1 + r.IntN(players-1)) % players
	if i%2 == 1 { // games 2r and 2r+1 swap colours
		r2 := rng.New(rng.Derive(seed, uint64(i-1)))
		b = r2.IntN(players)
		a = (b + 1 + r2.IntN(players-1)) % players
	}
	*g = GameRecord{Record: KindGame, Index: i, Pair: i / 2, Round: 0, Game: "othello6", Seed: r.Uint64(),
		Termination: Normal, Forfeit: -1, DurationMS: float64(r.IntN(100000)) / 1000}
	g.Players[0] = Player{Agent: a, Name: fmt.Sprintf("p%d", a), Spec: fmt.Sprintf("random:name=p%d", a), Seed: r.Uint64(), Nodes: int64(r.IntN(1000))}
	g.Players[1] = Player{Agent: b, Name: fmt.Sprintf("p%d", b), Spec: fmt.Sprintf("random:name=p%d", b), Seed: r.Uint64(), Nodes: int64(r.IntN(1000))}
	plies := 20 + r.IntN(40)
	g.Moves = make([]string, plies)
	for k := range g.Moves {
		g.Moves[k] = string(rune('a'+r.IntN(6))) + string(rune('1'+r.IntN(6)))
	}
	g.Opening = g.Moves[:2]
	g.Plies = plies
	g.Players[0].Moves, g.Players[1].Moves = (plies-1)/2, (plies-2)/2
	g.Players[0].TimeMS, g.Players[1].TimeMS = float64(r.IntN(5000))/7, float64(r.IntN(5000))/7
	// a's chance of winning grows with a-b (a stronger by index)
	u := r.Float64()
	pa := 1 / (1 + math.Pow(10, -float64(a-b)*20/400))
	switch {
	case u < 0.2:
		g.Winner = -1
	case u < 0.2+0.8*pa:
		g.Winner = 0
	default:
		g.Winner = 1
	}
	if r.IntN(50) == 0 && g.Winner != -1 {
		g.Termination, g.Forfeit, g.Detail = Timeout, 1-g.Winner, "slow"
	}
	g.Result = map[int]string{0: "1-0", 1: "0-1", -1: "1/2-1/2"}[g.Winner]
	if !odd {
		return
	}
	switch i % 5 {
	case 0: // move statistics
		for k := 2; k < plies; k++ {
			g.MoveStats = append(g.MoveStats, MoveStat{Player: k % 2, MS: float64(k) / 3, Depth: k % 4, Nodes: int64(k * 10), Info: "pv x"})
		}
		g.Players[0].Moves, g.Players[1].Moves = (plies-2+1)/2, (plies-2)/2
		g.Trimmed = 7 // bytes cut from the info texts (GameRecord.Fit)
	case 1: // clocks for the first player only
		g.Players[0].TC = "10s+100ms"
		for k := 2; k < plies; k++ {
			g.Clocks = append(g.Clocks, [2]float64{10000 - float64(k), NoClock})
		}
	case 2: // a start position and a variant
		g.Moves[0] = "fen 8/8 w"
		g.Plies = plies - 1
		g.Variant = "big"
		g.Worker = "node7:4242"                // played by a broker worker
		g.TCScale, g.WorkerNPS = 2.5, 123456.5 // on a time control scaled to it
	case 3: // names and a detail that need escapes
		g.Players[0].Name += "é"
		g.Detail = "a \"quoted\" <detail>"
	}
}

// syntheticFile writes a record file of games games (odd: see
// syntheticGame) and returns its path.
func syntheticFile(t testing.TB, dir string, games, players int, seed uint64, odd bool) string {
	path := filepath.Join(dir, fmt.Sprintf("syn-%d-%d.jsonl", seed, games))
	buf := syntheticHeader(players, games, seed)
	var g GameRecord
	for i := 0; i < games; i++ {
		syntheticGame(&g, i, players, seed, odd)
		buf = AppendGame(buf, &g)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readBoth reports the same files read whole and merged (the old way) and
// counted (Tally), as JSON.
func readBoth(t *testing.T, o AnalysisOptions, paths ...string) (merged, tallied string) {
	t.Helper()
	var files []*File
	tally := NewTally()
	for _, p := range paths {
		f, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		tf, err := tally.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if tf.Torn != f.Torn || tf.Games != len(f.Games) || tf.Resumes != len(f.Resumes) || !reflect.DeepEqual(tf.Header, f.Header) {
			t.Errorf("%s: tally torn %t, %d games, %d resumes; read %t, %d, %d", p, tf.Torn, tf.Games, tf.Resumes, f.Torn, len(f.Games), len(f.Resumes))
		}
	}
	d, err := Merge(files...)
	if err != nil {
		t.Fatal(err)
	}
	report := func(r *Analysis, err error) string {
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if !reflect.DeepEqual(d.Summarize(), tally.Summary) {
		t.Errorf("summaries differ:\nmerged %+v\ntallied %+v", d.Summarize(), tally.Summary)
	}
	return report(Analyse(d, o)), report(tally.Analyse(o))
}

// TestTallyMatchesMerge: the report from counts read streaming is the
// report from the games read whole, to the byte of its JSON, on the
// repository's record files and on generated ones with every optional
// field, a torn last line and a resume record.
func TestTallyMatchesMerge(t *testing.T) {
	dir := t.TempDir()
	plain := syntheticFile(t, dir, 3000, 6, 1, false)
	odd := syntheticFile(t, dir, 3000, 6, 2, true)
	torn := filepath.Join(dir, "torn.jsonl")
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, `{"record":"resume","time":"x","concurrency":1,"done":3000}`+"\n"...)
	if err := os.WriteFile(torn, append(data, `{"record":"game","index":7,"pa`...), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		o     AnalysisOptions
		paths []string
	}{
		{"generated", AnalysisOptions{Bootstrap: 100, Seed: 3}, []string{plain}},
		{"every field", AnalysisOptions{Bootstrap: 100, Seed: 3, FirstMove: true}, []string{odd}},
		{"two files, torn", AnalysisOptions{Bootstrap: 50, Seed: 4, Draws: Davidson, Anchor: "p2", AnchorElo: 1000}, []string{odd, torn}},
		{"tournament", AnalysisOptions{Bootstrap: 200, Seed: 1}, []string{"../report/testdata/tournament.jsonl"}},
		{"match", AnalysisOptions{Bootstrap: 200, Seed: 1}, []string{"../report/testdata/match.jsonl"}},
		{"clocks", AnalysisOptions{Bootstrap: 200, Seed: 1, Prior: 1}, []string{"../report/testdata/clocks.jsonl"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			merged, tallied := readBoth(t, c.o, c.paths...)
			if merged != tallied {
				t.Errorf("merged:\n%s\ntallied:\n%s", merged, tallied)
			}
		})
	}
}

// TestTallyErrorsMatchRead: a broken file fails with Read's message, and
// files that Merge refuses are refused with its message.
func TestTallyErrorsMatchRead(t *testing.T) {
	g0 := testGame(0, "1-0", 0)
	for _, data := range []string{
		"", g0, testHeader + "\n{oops\n" + g0,
		strings.Replace(testHeader, `"version":1`, `"version":7`, 1),
		testHeader + "\n" + strings.Replace(g0, `"plies":2`, `"plies":"two"`, 1),
		testHeader + "\n" + strings.Replace(g0, `"plies":2`, `"plies":3`, 1),
		testHeader + "\n" + strings.Replace(g0, `"result":"1-0"`, `"result":"0-1"`, 1),
		testHeader + "\n" + g0 + testGame(1, "1-0", 0) + g0,
		testHeader + "\n" + testGame(9, "1-0", 0),
		testHeader + "\n" + `{"record":"note"}` + "\n",
		testHeader + "\n" + strings.Replace(g0, `"termination":"normal"`, `"termination":"resigned"`, 1),
		testHeader + "\n" + strings.Replace(g0, `"moves":["c2","b2"]`, `"moves":["c3","b2"]`, 1),
		testHeader + "\n" + strings.Replace(g0, `"name":"b"`, `"name":"a"`, 1),
	} {
		_, want := Read(strings.NewReader(data), "run.jsonl")
		_, err := NewTally().Read(strings.NewReader(data), "run.jsonl")
		if fmt.Sprint(err) != fmt.Sprint(want) || want == nil {
			t.Errorf("%q:\ntally: %v\nread:  %v", data, err, want)
		}
	}
	// Merge's refusals.
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	other := filepath.Join(dir, "other.jsonl")
	write := func(path, data string) {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(a, testHeader+"\n"+g0)
	write(b, testHeader+"\n"+testGame(1, "1-0", 0)+g0)
	write(other, strings.Replace(testHeader, `"othello6"`, `"erdos"`, 1)+"\n")
	for _, paths := range [][]string{{a, b}, {a, other}, {a, a}} {
		var files []*File
		tally := NewTally()
		for _, p := range paths {
			f, err := ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
			if _, err := tally.ReadFile(p); err != nil {
				t.Fatal(err)
			}
		}
		_, want := Merge(files...)
		_, err := tally.Analyse(AnalysisOptions{})
		if want == nil || fmt.Sprint(err) != fmt.Sprint(want) || fmt.Sprint(tally.Err()) != fmt.Sprint(want) {
			t.Errorf("%v: tally %v, merge %v", paths, err, want)
		}
	}
}

// FuzzTally: whatever the bytes, the streaming count accepts exactly what
// Read accepts, with Read's error, and counts what Summarize counts (the
// canonical-line scanner never disagrees with the full decoder).
func FuzzTally(f *testing.F) {
	var g GameRecord
	seeds := []string{testHeader + "\n" + testGame(0, "1-0", 0) + testGame(1, "1/2-1/2", -1)}
	// Shards: a game of the shard, then one outside it.
	seeds = append(seeds, shardHeader("2/2", 1)+"\n"+testGame(2, "1-0", 0)+testGame(1, "1-0", 0))
	for i := 0; i < 5; i++ {
		syntheticGame(&g, i, 2, 1, true)
		g.Players[0].Name, g.Players[1].Name = "a", "b"
		seeds = append(seeds, testHeader+"\n"+string(AppendGame(nil, &g)))
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, want := Read(bytes.NewReader(data), "fuzz.jsonl")
		tally := NewTally()
		tf, err := tally.Read(bytes.NewReader(data), "fuzz.jsonl")
		if fmt.Sprint(err) != fmt.Sprint(want) {
			t.Fatalf("tally: %v\nread:  %v", err, want)
		}
		if want != nil {
			return
		}
		d, err := Merge(file)
		if err != nil {
			t.Fatal(err)
		}
		if s := d.Summarize(); !reflect.DeepEqual(s, tally.Summary) || tf.Torn != file.Torn || tf.Games != len(file.Games) {
			t.Fatalf("summaries differ:\nread  %+v\ntally %+v", s, tally.Summary)
		}
	})
}

// gameStream generates a record file of games games on the fly (no disk):
// the games of syntheticGame without the optional fields.
type gameStream struct {
	games, players, next int
	seed                 uint64
	buf                  []byte
	g                    GameRecord
}

func newGameStream(games, players int, seed uint64) *gameStream {
	return &gameStream{games: games, players: players, seed: seed, buf: syntheticHeader(players, games, seed)}
}

func (s *gameStream) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.next == s.games {
			return 0, io.EOF
		}
		syntheticGame(&s.g, s.next, s.players, s.seed, false)
		s.buf = AppendGame(s.buf[:0], &s.g)
		s.next++
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

func (s *gameStream) Seek(int64, int) (int64, error) { return 0, errors.New("not seekable") }

// TestTallyMemoryIndependentOfGames: counting twice the games allocates
// no more (within a few KB of a game index set's pages), and the heap
// after counting holds as much: the memory is that of the players.
func TestTallyMemoryIndependentOfGames(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 150 000 generated games")
	}
	measure := func(games int) (alloc, heap uint64) {
		var before, after runtime.MemStats
		tally := NewTally()
		runtime.GC()
		runtime.ReadMemStats(&before)
		// The generator's own allocations (its Game's moves) are counted
		// too: genBytes measures them alone.
		if _, err := tally.Read(newGameStream(games, 20, 7), "gen.jsonl"); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		runtime.GC()
		var live runtime.MemStats
		runtime.ReadMemStats(&live)
		runtime.KeepAlive(tally)
		return after.TotalAlloc - before.TotalAlloc, live.HeapAlloc
	}
	genBytes := func(games int) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		io.Copy(io.Discard, newGameStream(games, 20, 7))
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	const n = 50_000
	a1, h1 := measure(n)
	a2, h2 := measure(2 * n)
	g1, g2 := genBytes(n), genBytes(2*n)
	own1, own2 := int64(a1)-int64(g1), int64(a2)-int64(g2)
	t.Logf("%d games: %d bytes allocated by the tally (%d by the generator), heap %d; %d games: %d (%d), heap %d", n, own1, g1, h1, 2*n, own2, g2, h2)
	// The only allocations that grow are the index set's pages: 512 bytes
	// per 4096 games, 6.25 KB more for 50 000 more games.
	if own2-own1 > 64<<10 {
		t.Errorf("counting %d more games allocated %d more bytes", n, own2-own1)
	}
	if int64(h2)-int64(h1) > 256<<10 {
		t.Errorf("the heap grew by %d bytes for %d more games", int64(h2)-int64(h1), n)
	}
}

// TestBinomial: the sampler's draws have the binomial's mean and variance,
// and for a small n its frequencies match the probabilities.
func TestBinomial(t *testing.T) {
	r := rng.New(1)
	for _, c := range []struct {
		n int
		p float64
	}{{1, 0.3}, {10, 0.5}, {100, 0.01}, {1000, 0.9}, {10_000_000, 1e-5}, {10_000_000, 0.4}} {
		const draws = 20000
		var sum, sum2 float64
		for i := 0; i < draws; i++ {
			x := float64(binomial(r, c.n, c.p))
			if x < 0 || x > float64(c.n) {
				t.Fatalf("Bin(%d, %v) drew %v", c.n, c.p, x)
			}
			sum, sum2 = sum+x, sum2+x*x
		}
		mean, variance := sum/draws, sum2/draws-(sum/draws)*(sum/draws)
		wantMean, wantVar := float64(c.n)*c.p, float64(c.n)*c.p*(1-c.p)
		// 5 standard errors of the mean; the variance within 5 %.
		if math.Abs(mean-wantMean) > 5*math.Sqrt(wantVar/draws) || math.Abs(variance/wantVar-1) > 0.05 {
			t.Errorf("Bin(%d, %v): mean %v variance %v, want %v and %v", c.n, c.p, mean, variance, wantMean, wantVar)
		}
	}
	// Bin(4, 0.25): probabilities 81, 108, 54, 12, 1 in 256.
	const draws = 256000
	var freq [5]int
	for i := 0; i < draws; i++ {
		freq[binomial(r, 4, 0.25)]++
	}
	for k, w := range []float64{81, 108, 54, 12, 1} {
		want := w / 256 * draws
		if math.Abs(float64(freq[k])-want) > 5*math.Sqrt(want) {
			t.Errorf("Bin(4, 0.25) drew %d %d times, want about %v", k, freq[k], want)
		}
	}
}

// TestResampleLikeGames: drawing the multinomial counts gives the
// resampled ratings the spread that drawing games one by one (the
// bootstrap before counts) gives: the standard deviation of the rating
// difference of two players over 3000 replicates agrees within 6 % (the
// Monte-Carlo error of each is about 1.3 %).
func TestResampleLikeGames(t *testing.T) {
	rs := append(games(0, 1, 30, 20, 10), games(1, 2, 25, 25, 10)...)
	rs = append(rs, games(2, 0, 10, 15, 35)...)
	cells, err := aggregate(3, rs)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(3, cells, FitOptions{Anchor: -1})
	// the games one by one, as cells
	var cellOf []int
	var outcome []int
	for i, c := range cells {
		for k, n := range []float64{c.w, c.d, c.l} {
			for j := 0; j < int(n); j++ {
				cellOf, outcome = append(cellOf, i), append(outcome, k)
			}
		}
	}
	const reps = 3000
	spread := func(byGames bool) (mean, sd float64) {
		r := rng.New(11)
		if byGames {
			r = rng.New(12)
		}
		sample := make([]cell, len(cells))
		var sum, sum2 float64
		for k := 0; k < reps; k++ {
			if byGames {
				for i, c := range cells {
					sample[i] = cell{a: c.a, b: c.b}
				}
				for range cellOf {
					g := r.IntN(len(cellOf))
					c := &sample[cellOf[g]]
					*[]*float64{&c.w, &c.d, &c.l}[outcome[g]]++
				}
			} else {
				resample(r, cells, len(rs), sample)
			}
			f, err := m.fitCells(sample)
			if err != nil {
				t.Fatal(err)
			}
			d := f.Elo[0] - f.Elo[1]
			sum, sum2 = sum+d, sum2+d*d
		}
		mean = sum / reps
		return mean, math.Sqrt(sum2/reps - mean*mean)
	}
	mc, sc := spread(false)
	mg, sg := spread(true)
	t.Logf("rating difference over %d resamples: counts %.2f ± %.2f, games %.2f ± %.2f", reps, mc, sc, mg, sg)
	if math.Abs(sc/sg-1) > 0.06 || math.Abs(mc-mg) > 4*sg/math.Sqrt(reps) {
		t.Errorf("counts %.2f ± %.2f, games %.2f ± %.2f", mc, sc, mg, sg)
	}
	// Each resample keeps the number of games.
	sample := make([]cell, len(cells))
	resample(rng.New(5), cells, len(rs), sample)
	total := 0.0
	for _, c := range sample {
		total += c.w + c.d + c.l
	}
	if total != float64(len(rs)) {
		t.Errorf("a resample of %d games has %v", len(rs), total)
	}
}

// TestScanTakesCanonicalLines: the lines arena writes take the shortcut
// (else the tests above would only compare the slow path with itself),
// except those with strings that need escapes.
func TestScanTakesCanonicalLines(t *testing.T) {
	var g GameRecord
	var s gameScanner
	var f gameFacts
	for i := 0; i < 50; i++ {
		syntheticGame(&g, i, 5, 9, i >= 25)
		line := bytes.TrimSpace(AppendGame(nil, &g))
		escapes := i >= 25 && i%5 == 3
		if ok := s.scan(line, &f); ok == escapes {
			t.Errorf("game %d (escapes %t): scanned %t: %s", i, escapes, ok, line)
		} else if ok && f != factsOf(&g) {
			t.Errorf("game %d: scanned %+v, want %+v", i, f, factsOf(&g))
		}
	}
	line := bytes.TrimSpace(AppendGame(nil, &g))
	if allocs := testing.AllocsPerRun(100, func() { s.scan(line, &f) }); allocs != 0 {
		t.Errorf("%v allocations a line", allocs)
	}
}

// TestTallyOnGame: with OnGame, every game counted is handed over whole,
// with its file's number, in the files' order, and the counts are those
// of the fast scan.
func TestTallyOnGame(t *testing.T) {
	dir := t.TempDir()
	a, b := syntheticFile(t, dir, 300, 4, 1, false), syntheticFile(t, dir, 200, 4, 2, true)
	plain := NewTally()
	seen := NewTally()
	var got []string
	seen.OnGame = func(file int, g *GameRecord) {
		got = append(got, fmt.Sprintf("%d:%d:%d", file, g.Index, len(g.Moves)))
	}
	var want []string
	for k, p := range []string{a, b} {
		if _, err := plain.ReadFile(p); err != nil {
			t.Fatal(err)
		}
		if _, err := seen.ReadFile(p); err != nil {
			t.Fatal(err)
		}
		f, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range f.Games {
			want = append(want, fmt.Sprintf("%d:%d:%d", k, g.Index, len(g.Moves)))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OnGame saw %d games, want %d (file:index:moves)", len(got), len(want))
	}
	if !reflect.DeepEqual(plain.Summary, seen.Summary) {
		t.Error("the counts with OnGame differ from the fast scan's")
	}
}
