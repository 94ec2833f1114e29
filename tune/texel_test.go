package tune

import (
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/spec"
)

// linear is a synthetic position whose evaluation is linear in its
// features: Σ w_i·f_i for the side to move, the negation for the other.
type linear struct {
	f    []int
	w    []int
	side int
}

var linearWeights = []games.Weight{
	{Name: "a", Default: 20, Min: -100, Max: 100},
	{Name: "b", Default: -10, Min: -100, Max: 100},
	{Name: "c", Default: 30, Min: -100, Max: 100},
}

func (l *linear) Weights() []games.Weight { return linearWeights }
func (l *linear) UseWeights(w []int) []int {
	prev := l.w
	l.w = w
	return prev
}
func (l *linear) ToMove() int { return l.side }
func (l *linear) Evaluate(p int) int {
	v := 0
	for i, f := range l.f {
		v += l.w[i] * f
	}
	if p != l.side {
		return -v
	}
	return v
}

// linearSamples draws n positions with features in [-5, 5] and labels from the
// logistic model with weights truth and scale k: a win with probability
// σ(K·e), else a loss.
func linearSamples(n int, truth []int, k float64, seed uint64) []Sample {
	r := rng.New(seed)
	out := make([]Sample, n)
	for i := range out {
		l := &linear{f: make([]int, len(truth)), side: r.IntN(2)}
		for j := range l.f {
			l.f[j] = r.IntN(11) - 5
		}
		l.w = truth
		res := 0.0
		if r.Float64() < Sigmoid(k, float64(l.Evaluate(l.side))) {
			res = 1
		}
		out[i] = Sample{Pos: l, Result: res}
	}
	return out
}

func TestSigmoid(t *testing.T) {
	for _, c := range []struct{ k, e, want float64 }{
		{1, 0, 0.5},
		{1, 400, 1 / 1.1},   // 10^-1
		{1, -400, 1 / 11.0}, // 10^1
		{0.5, 800, 1 / 1.1}, // K·e = 400
		{2, -200, 1 / 11.0}, // K·e = −400
		{1, 800, 1 / 1.01},  // 10^-2
		{1.5, 0, 0.5},
	} {
		if got := Sigmoid(c.k, c.e); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("Sigmoid(%g, %g) = %.17g, want %.17g", c.k, c.e, got, c.want)
		}
	}
}

// The error by hand: e = 0 won (0.5² = 0.25), e = 400 lost
// ((1/1.1)² = 0.826446…), e = −400 drawn ((0.5 − 1/11)² = 0.167355…).
func TestMSEByHand(t *testing.T) {
	one := []int{1}
	mk := func(f int, r float64) Sample { return Sample{Pos: &linear{f: []int{f}}, Result: r} }
	s := []Sample{mk(0, 1), mk(400, 0), mk(-400, 0.5)}
	want := (0.25 + 1/1.21 + (0.5-1/11.0)*(0.5-1/11.0)) / 3
	if got := NewErrors(s).MSE(one, 1); math.Abs(got-want) > 1e-15 {
		t.Errorf("MSE = %.17g, want %.17g", got, want)
	}
	// Weight 2 doubles the evaluations: e = 800 lost gives (1/1.01)².
	want2 := (0.25 + 1/1.0201 + (0.5-1/101.0)*(0.5-1/101.0)) / 3
	if got := NewErrors(s).MSE([]int{2}, 1); math.Abs(got-want2) > 1e-15 {
		t.Errorf("MSE with weight 2 = %.17g, want %.17g", got, want2)
	}
	if got := NewErrors(nil).MSE(one, 1); !math.IsNaN(got) {
		t.Errorf("MSE of no samples = %g, want NaN", got)
	}
}

// The error is summed in fixed chunks: one CPU or two give the same bits.
func TestMSEDeterministic(t *testing.T) {
	s := linearSamples(5*chunk+17, []int{40, -25, 10}, 1, 1)
	w := []int{33, -7, 12}
	e := NewErrors(s)
	two := e.MSE(w, 1.3)
	old := runtime.GOMAXPROCS(1)
	one := e.MSE(w, 1.3)
	runtime.GOMAXPROCS(old)
	if one != two {
		t.Errorf("MSE on one CPU %.17g, on %d %.17g", one, old, two)
	}
}

// FitK recovers the K of the model the labels were drawn from.
func TestFitKRecoversK(t *testing.T) {
	truth := []int{40, -25, 10}
	for _, k := range []float64{0.6, 1.7} {
		s := linearSamples(40000, truth, k, 7)
		got, mse, err := FitK(NewErrors(s), truth)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-k)/k > 0.05 {
			t.Errorf("K = %.4f, want %.2f within 5 %%", got, k)
		}
		// The fitted K is the minimum: its neighbours do no better.
		e := NewErrors(s)
		for _, f := range []float64{0.99, 1.01} {
			if v := e.MSE(truth, got*f); v < mse {
				t.Errorf("K·%g has error %.8f < %.8f at the fitted K", f, v, mse)
			}
		}
	}
}

// Texel with K known recovers the weights of the model the labels came
// from, starting from other weights (the defaults 20, −10, 30).
func TestTexelRecoversWeights(t *testing.T) {
	truth := []int{40, -25, 10}
	p := &Positions{Weights: linearWeights, Train: linearSamples(30000, truth, 1, 3), Test: linearSamples(3000, truth, 1, 4)}
	fit, err := Texel(p, nil, FitOptions{K: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tuned %v in %d evaluations (%s), MSE %.5f → %.5f, held out %.5f → %.5f",
		fit.Tuned, fit.Evaluations, fit.NelderMeadStatus, fit.MSEStart, fit.MSE, fit.HeldOutStart, fit.HeldOut)
	// The standard error of each weight is about 1 with 30 000 positions
	// (Fisher information of the logistic model); allow 4.
	for i, w := range fit.Tuned {
		if math.Abs(float64(w-truth[i])) > 4 {
			t.Errorf("weight %s = %d, want %d ± 4", linearWeights[i].Name, w, truth[i])
		}
	}
	if trueMSE := NewErrors(p.Train).MSE(truth, 1); fit.MSE > trueMSE+1e-12 {
		t.Errorf("the fit's error %.8f is above the true weights' %.8f", fit.MSE, trueMSE)
	}
	if !(fit.HeldOut < fit.HeldOutStart) {
		t.Errorf("held-out error %.5f → %.5f did not fall", fit.HeldOutStart, fit.HeldOut)
	}
	if fit.K != 1 || !equalInts(fit.Start, []int{20, -10, 30}) {
		t.Errorf("K %g and start %v, want 1 and the defaults", fit.K, fit.Start)
	}
}

// With K fitted as well, only K·w is determined: it matches the model's.
func TestTexelFitsKThenWeights(t *testing.T) {
	truth := []int{40, -25, 10}
	p := &Positions{Weights: linearWeights, Train: linearSamples(30000, truth, 1, 5)}
	fit, err := Texel(p, nil, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range fit.Tuned {
		if got := fit.K * float64(w); math.Abs(got-float64(truth[i])) > 4 {
			t.Errorf("K·%s = %.1f, want %d ± 4 (K %.3f, weights %v)", linearWeights[i].Name, got, truth[i], fit.K, fit.Tuned)
		}
	}
	if !math.IsNaN(fit.HeldOut) || !math.IsNaN(fit.HeldOutStart) {
		t.Errorf("held-out errors %g, %g without held-out positions, want NaN", fit.HeldOutStart, fit.HeldOut)
	}
}

// Weights stay within their ranges even when the model's lie outside.
func TestTexelKeepsRanges(t *testing.T) {
	p := &Positions{Weights: linearWeights, Train: linearSamples(5000, []int{150, -25, 10}, 1, 6)}
	fit, err := Texel(p, nil, FitOptions{K: 1, Evaluations: 600})
	if err != nil {
		t.Fatal(err)
	}
	if fit.Tuned[0] != 100 {
		t.Errorf("weight a = %d, want its maximum 100 (the model has 150)", fit.Tuned[0])
	}
}

func TestTexelBadInput(t *testing.T) {
	p := &Positions{Weights: linearWeights, Train: linearSamples(100, []int{1, 2, 3}, 1, 1)}
	for _, c := range []struct {
		start []int
		o     FitOptions
		want  string
	}{
		{[]int{1, 2}, FitOptions{}, "2 start weights for 3"},
		{[]int{1, 2, 300}, FitOptions{}, "eval.c=300 is outside"},
		{nil, FitOptions{Evaluations: -1}, "Evaluations -1"},
		{nil, FitOptions{Evaluations: MaxEvaluations + 1}, "use 1 to"},
		{nil, FitOptions{K: -1}, "want a positive scale"},
		{nil, FitOptions{K: math.NaN()}, "want a positive scale"},
	} {
		_, err := Texel(p, c.start, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Texel(%v, %+v): error %v, want one with %q", c.start, c.o, err, c.want)
		}
	}
}

var (
	recordsOnce sync.Once
	records     []results.GameRecord
)

// othelloRecords plays 40 games of greedy against random on othello6.
func othelloRecords(t testing.TB) []results.GameRecord {
	t.Helper()
	recordsOnce.Do(func() {
		records = play(t, arena.Options{Game: "othello6", Agents: []string{"greedy", "random"}, GamesPerPair: 40, Seed: 9})
	})
	if len(records) != 40 {
		t.Fatalf("%d othello6 records, want 40", len(records))
	}
	return records
}

// play plays the tournament of o and returns its games in schedule order.
func play(t testing.TB, o arena.Options) []results.GameRecord {
	t.Helper()
	tour, err := arena.New(o)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var recs []results.GameRecord
	_, err = tour.Run(context.Background(), arena.RunOptions{Concurrency: 2, Sink: func(b []*results.GameRecord) error {
		mu.Lock()
		defer mu.Unlock()
		for _, g := range b {
			recs = append(recs, *g)
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(recs, func(a, b results.GameRecord) int { return a.Index - b.Index })
	return recs
}

// Every position past the skipped plies of every game is sampled, labelled
// with the game's result for the side to move: checked against a replay of
// each game with the rules.
func TestSamplePositionsOthello(t *testing.T) {
	recs := othelloRecords(t)
	v, err := games.Lookup("othello6")
	if err != nil {
		t.Fatal(err)
	}
	const skip = 4
	var want int
	var wantPoints float64
	for _, g := range recs {
		s := v.New().(games.State)
		for i, text := range g.Moves {
			if i >= skip {
				want++
				switch g.Winner {
				case s.ToMove():
					wantPoints++
				case games.Draw:
					wantPoints += 0.5
				}
			}
			m, err := games.ParseLegal(s, text)
			if err != nil {
				t.Fatal(err)
			}
			s.Play(m)
		}
		if !s.Terminal() {
			t.Fatalf("game %d did not end", g.Index)
		}
	}
	p, err := SamplePositions(v, recs, SampleOptions{SkipPlies: skip, Max: MaxPositions, HeldOut: -1})
	if err != nil {
		t.Fatal(err)
	}
	var points float64
	for _, s := range p.Train {
		points += s.Result
	}
	if p.Eligible != want || len(p.Train) != want || len(p.Test) != 0 || points != wantPoints {
		t.Errorf("eligible %d, sampled %d+%d, points %g; want %d, %d+0, %g", p.Eligible, len(p.Train), len(p.Test), points, want, want, wantPoints)
	}
	if p.Games != 40 || p.HeldOutGames != 0 || p.Skipped != 0 || p.Quiet {
		t.Errorf("games %d, held out %d, skipped %d, quiet %v; want 40, 0, 0, false", p.Games, p.HeldOutGames, p.Skipped, p.Quiet)
	}

	// A cap keeps that many, the same ones for the same seed; 10 % of the
	// games (4) are held out by default; a forfeit is skipped.
	forfeit := recs[0]
	forfeit.Termination, forfeit.Index = results.Timeout, 1000
	capped := append(append([]results.GameRecord(nil), recs...), forfeit)
	a, err := SamplePositions(v, capped, SampleOptions{SkipPlies: -1, Max: 500, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SamplePositions(v, capped, SampleOptions{SkipPlies: -1, Max: 500, Seed: 3})
	if len(a.Train)+len(a.Test) != 500 || a.Games != 36 || a.HeldOutGames != 4 || a.Skipped != 1 || a.SkipPlies != arena.DefaultOpeningPlies {
		t.Errorf("capped: %d+%d positions, %d+%d games, %d skipped, skip %d plies; want 500, 36+4, 1, %d",
			len(a.Train), len(a.Test), a.Games, a.HeldOutGames, a.Skipped, a.SkipPlies, arena.DefaultOpeningPlies)
	}
	if len(a.Test) == 0 || len(a.Test) > 150 {
		t.Errorf("%d held-out positions of 500 for 4 games of 40", len(a.Test))
	}
	for i := range a.Train {
		if a.Train[i].Pos.(games.State).Hash() != b.Train[i].Pos.(games.State).Hash() || a.Train[i].Result != b.Train[i].Result {
			t.Fatalf("sample %d differs between two runs with the same seed", i)
		}
	}
}

// A small real fit: othello6's weights on greedy-versus-random games. The
// error falls, and stays within the ranges.
func TestTexelOthelloLowersError(t *testing.T) {
	recs := othelloRecords(t)
	v, _ := games.Lookup("othello6")
	p, err := SamplePositions(v, recs, SampleOptions{SkipPlies: -1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	fit, err := Texel(p, nil, FitOptions{Evaluations: 300, Polish: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d+%d positions, K %.3f, MSE %.5f → %.5f, held out %.5f → %.5f, %d evaluations",
		len(p.Train), len(p.Test), fit.K, fit.MSEStart, fit.MSE, fit.HeldOutStart, fit.HeldOut, fit.Evaluations)
	if !(fit.MSE < fit.MSEStart) {
		t.Errorf("MSE %.6f → %.6f did not fall", fit.MSEStart, fit.MSE)
	}
	for i, w := range fit.Tuned {
		if d := p.Weights[i]; w < d.Min || w > d.Max {
			t.Errorf("%s = %d outside %d to %d", d.Name, w, d.Min, d.Max)
		}
	}
}

func TestSamplePositionsErrors(t *testing.T) {
	recs := othelloRecords(t)
	v, _ := games.Lookup("othello6")
	bad := recs[0]
	bad.Moves = append(append([]string(nil), bad.Moves[:3]...), "a1")
	other := recs[0]
	other.Game = "erdos"
	forfeit := recs[0]
	forfeit.Termination = results.Crash
	for _, c := range []struct {
		recs []results.GameRecord
		o    SampleOptions
		want string
	}{
		{[]results.GameRecord{bad}, SampleOptions{}, "ply 4: illegal move"},
		{[]results.GameRecord{other}, SampleOptions{}, "a game of erdos, not othello6"},
		{[]results.GameRecord{forfeit}, SampleOptions{}, "no game in the records ended by the rules"},
		{nil, SampleOptions{}, "no game in the records"},
		{recs[:1], SampleOptions{Max: -1}, "Max -1: use 1 to"},
		{recs[:1], SampleOptions{Max: MaxPositions + 1}, "use 1 to"},
		{recs[:1], SampleOptions{HeldOut: 0.6}, "held-out share"},
		{recs[:1], SampleOptions{SkipPlies: 100}, "no position to fit"},
	} {
		_, err := SamplePositions(v, c.recs, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one with %q", c.o, err, c.want)
		}
	}
	tv, err := games.Lookup("tryangle")
	if err == nil {
		if _, err := SamplePositions(tv, nil, SampleOptions{}); err == nil || !strings.Contains(err.Error(), "simultaneous") {
			t.Errorf("tryangle: error %v, want one about a simultaneous game", err)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A game that starts from a position as text ("fen …", an openings line)
// is replayed from there: its plies count from that position.
func TestSamplePositionsFenStart(t *testing.T) {
	g := othelloRecords(t)[0]
	v, _ := games.Lookup("othello6")
	s := v.New().(games.State)
	const from = 6
	for _, text := range g.Moves[:from] {
		m, err := games.ParseLegal(s, text)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(m)
	}
	g.Moves = append([]string{results.PositionPrefix + s.(games.PositionWriter).Position()}, g.Moves[from:]...)
	g.Opening = g.Moves[:1]
	p, err := SamplePositions(v, []results.GameRecord{g}, SampleOptions{SkipPlies: 3, Max: MaxPositions, HeldOut: -1})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(g.Moves) - 1 - 3; p.Eligible != want || len(p.Train) != want {
		t.Errorf("%d eligible, %d sampled; want %d (plies after the fen start, less 3)", p.Eligible, len(p.Train), want)
	}
	g.Moves[0] = results.PositionPrefix + "nonsense"
	if _, err := SamplePositions(v, []results.GameRecord{g}, SampleOptions{}); err == nil || !strings.Contains(err.Error(), "start position") {
		t.Errorf("bad fen start: error %v", err)
	}
}

// quietOthello is othello6 with a notion of quiet positions (even plies),
// to test that only quiet positions are sampled.
type quietOthello struct{ games.State }

func (q *quietOthello) Quiet() bool              { return q.Ply()%2 == 0 }
func (q *quietOthello) Clone() games.State       { return &quietOthello{q.State.Clone()} }
func (q *quietOthello) Evaluate(p int) int       { return q.State.(games.Evaluator).Evaluate(p) }
func (q *quietOthello) Weights() []games.Weight  { return q.State.(games.Weighted).Weights() }
func (q *quietOthello) UseWeights(w []int) []int { return q.State.(games.Weighted).UseWeights(w) }

// unweightedOthello is othello6 whose evaluation has no weights.
type unweightedOthello struct{ games.State }

func (q *unweightedOthello) Clone() games.State { return &unweightedOthello{q.State.Clone()} }
func (q *unweightedOthello) Evaluate(p int) int { return q.State.(games.Evaluator).Evaluate(p) }

func init() {
	wrap := func(name string, f func(games.State) games.State) {
		games.Register(&games.Entry{Name: name, Title: name, New: func(s spec.Spec) (games.Base, error) {
			if err := s.Check(); err != nil {
				return nil, err
			}
			v, err := games.Lookup("othello6")
			if err != nil {
				return nil, err
			}
			return f(v.New().(games.State)), nil
		}})
	}
	wrap("texeltest-quiet", func(s games.State) games.State { return &quietOthello{s} })
	wrap("texeltest-unweighted", func(s games.State) games.State { return &unweightedOthello{s} })
}

func TestSamplePositionsQuiet(t *testing.T) {
	recs := slices.Clone(othelloRecords(t))
	want := 0
	for i := range recs {
		recs[i].Game = "texeltest-quiet"
		for ply := 2; ply < len(recs[i].Moves); ply += 2 {
			want++ // even plies from the third on: quiet and not terminal
		}
	}
	v, err := games.Lookup("texeltest-quiet")
	if err != nil {
		t.Fatal(err)
	}
	p, err := SamplePositions(v, recs, SampleOptions{SkipPlies: 2, Max: MaxPositions, HeldOut: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Quiet || p.Eligible != want || len(p.Train) != want {
		t.Errorf("quiet %v, %d eligible, %d sampled; want true, %d", p.Quiet, p.Eligible, len(p.Train), want)
	}
	for _, s := range p.Train {
		if s.Pos.(games.State).Ply()%2 != 0 {
			t.Fatalf("a position at odd ply %d was sampled", s.Pos.(games.State).Ply())
		}
	}
	u, _ := games.Lookup("texeltest-unweighted")
	for i := range recs {
		recs[i].Game = "texeltest-unweighted"
	}
	if _, err := SamplePositions(u, recs, SampleOptions{}); err == nil || !strings.Contains(err.Error(), "no named weights to tune (games with weights: ") {
		t.Errorf("a game without weights: error %v", err)
	}
}

// A closed Stop ends the fit at once with the start weights (the best
// seen), and says so.
func TestTexelStop(t *testing.T) {
	p := &Positions{Weights: linearWeights, Train: linearSamples(2000, []int{40, -25, 10}, 1, 8)}
	stop := make(chan struct{})
	close(stop)
	fit, err := Texel(p, nil, FitOptions{K: 1, Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	if !fit.Stopped || fit.Evaluations != 0 || !equalInts(fit.Tuned, fit.Start) || fit.MSE != fit.MSEStart {
		t.Errorf("stopped %v after %d evaluations, tuned %v from %v, MSE %g → %g", fit.Stopped, fit.Evaluations, fit.Tuned, fit.Start, fit.MSEStart, fit.MSE)
	}
	// Stopped half-way, it keeps the best weights found until then.
	stop2 := make(chan struct{})
	var once sync.Once
	fit, err = Texel(p, nil, FitOptions{K: 1, Stop: stop2, Progress: func(n int, _ float64) {
		if n == 50 {
			once.Do(func() { close(stop2) })
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !fit.Stopped || fit.Evaluations != 50 || !(fit.MSE < fit.MSEStart) {
		t.Errorf("stopped %v after %d evaluations, MSE %g → %g", fit.Stopped, fit.Evaluations, fit.MSEStart, fit.MSE)
	}
}

// BenchmarkMSE is one error evaluation over othello6 positions from 40
// games, the unit of work of the weight fit.
func BenchmarkMSE(b *testing.B) {
	v, _ := games.Lookup("othello6")
	p, err := SamplePositions(v, othelloRecords(b), SampleOptions{SkipPlies: -1, HeldOut: -1})
	if err != nil {
		b.Fatal(err)
	}
	e := NewErrors(p.Train)
	w := make([]int, len(p.Weights))
	for i, d := range p.Weights {
		w[i] = d.Default
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		e.MSE(w, 1.5)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(p.Train)), "ns/position")
}
