package tune

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/arena"
)

func mustParams(t testing.TB, text string) []Param {
	t.Helper()
	ps, err := ParseParams(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func mustSPSA(t testing.TB, cfg SPSAConfig) *SPSA {
	t.Helper()
	s, err := NewSPSA(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The synthetic problem (see synthetic_test.go) has its optimum at x = 3,
// y = 5; the tune starts at x = 7, y = −4. In 400 iterations of 8 pairs
// (6400 games, about 0.2 s) every seed tried ends with |x−3| ≤ 0.2 and
// |y−5| ≤ 0.8; the test allows 0.4 and 1.25 (so round(y) is 4, 5 or 6).
func TestSPSAConverges(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 38400 fast games")
	}
	ps := mustParams(t, "x, float, 7, -5, 10, 0.5, 0.02\ny, int, -4, -20, 20, 2, 0.02")
	for seed := uint64(1); seed <= 6; seed++ {
		s := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic:opt=3,yopt=5,k=0.3", Params: ps, Iterations: 400, PairsPer: 8, A: -1, Seed: seed})
		res, err := s.Run(context.Background(), RunOptions{Run: arena.RunOptions{Concurrency: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete || len(res.Iterations) != 400 {
			t.Fatalf("seed %d: %d iterations, complete %v", seed, len(res.Iterations), res.Complete)
		}
		x, y := res.Theta[0], res.Theta[1]
		if math.Abs(x-3) > 0.4 || math.Abs(y-5) > 1.25 {
			t.Errorf("seed %d: ended at x=%.3f y=%.3f, want within 0.4 of 3 and 1.25 of 5", seed, x, y)
		}
		spec, _ := s.Spec(res.Theta)
		if want := "synthetic:opt=3,yopt=5,k=0.3,x="; !strings.HasPrefix(spec, want) || !strings.Contains(spec, ",y=") {
			t.Errorf("tuned spec %q", spec)
		}
	}
}

// The gains at hand-checkable settings: N = 16, γ = 0.5, α = 1, A = 4,
// c_end = 0.5, r_end = 0.01. Then c = c_end·N^γ = 0.5·4 = 2 and
// a = r_end·c_end²·(A+N)^α = 0.01·0.25·20 = 0.05, so
//
//	k = 1:  c_1 = 2/1 = 2,       a_1 = 0.05/5 = 0.01
//	k = 4:  c_4 = 2/2 = 1,       a_4 = 0.05/8 = 0.00625
//	k = 9:  c_9 = 2/3,           a_9 = 0.05/13
//	k = 16: c_16 = 2/4 = 0.5,    a_16 = 0.05/20 = 0.0025 (= r_end·c_end²)
func TestGains(t *testing.T) {
	s := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic", Params: mustParams(t, "x, float, 1, 0, 2, 0.5, 0.01"),
		Iterations: 16, PairsPer: 1, Alpha: 1, Gamma: 0.5, A: 4})
	if s.C(0) != 2 {
		t.Errorf("c = %v, want 2", s.C(0))
	}
	for _, tc := range []struct {
		k      int
		ck, ak float64
	}{{1, 2, 0.01}, {4, 1, 0.00625}, {9, 2.0 / 3, 0.05 / 13}, {16, 0.5, 0.0025}} {
		ck, ak := s.Gains(0, tc.k)
		if math.Abs(ck-tc.ck) > 1e-15 || math.Abs(ak-tc.ak) > 1e-15 {
			t.Errorf("k=%d: c_k=%v a_k=%v, want %v %v", tc.k, ck, ak, tc.ck, tc.ak)
		}
	}
	// With the defaults, whatever the exponents: A = N/10, and the last
	// iteration's gains are c_end and r_end·c_end² (that is what the
	// names mean: a_N/c_N = r_end·c_end is the last step per game).
	d := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic", Params: mustParams(t, "x, float, 1, 0, 2, 0.3, 0.002"), Iterations: 250, PairsPer: 1, A: -1})
	if d.Config.A != 25 || d.Config.Alpha != 0.602 || d.Config.Gamma != 0.101 {
		t.Errorf("defaults A=%v α=%v γ=%v, want 25, 0.602, 0.101", d.Config.A, d.Config.Alpha, d.Config.Gamma)
	}
	ck, ak := d.Gains(0, 250)
	if math.Abs(ck-0.3) > 1e-12 || math.Abs(ak-0.002*0.09) > 1e-15 {
		t.Errorf("last gains %v %v, want 0.3 and 0.00018", ck, ak)
	}
	// c = 0.3·250^0.101: ln 250 = 5.521461, ·0.101 = 0.5576675,
	// e^0.5576675 = e^0.5·e^0.0576675 = 1.648721·1.059363 = 1.746594.
	if math.Abs(d.C(0)-0.3*1.746594) > 1e-6 {
		t.Errorf("c = %v, want 0.523978", d.C(0))
	}
}

// One batch computed by hand, with the gains of TestGains at k = 4
// (c_4 = 1, a_4 = 0.00625, so a_4/c_4 = 0.00625 for x):
//
//	x: float, θ = 1.0 in [0, 2], c_end 0.5:   θ± = 1 ± 1·flip = 2 and 0
//	y: float, θ = 9.99 in [0, 10], c_end 0.5, r_end 0.4:
//	   a = 0.4·0.25·20 = 2, a_4 = 0.25, a_4/c_4 = 0.25;
//	   θ± = 9.99 ± flip clipped to 10 and 8.99 (or 8.99 and 10)
//	z: int, θ = 5 in [0, 10], c_end 2: c = 8, c_4 = 4, a = 0.01·4·20 = 0.8,
//	   a_4 = 0.1, a_4/c_4 = 0.025; θ± = 5 ± 4 = 9 and 1, already integers,
//	   so floor(x+u) leaves them.
//
// The batch ends 7 wins, 2 draws, 3 losses for θ+: wins−losses = 4, so
//
//	x ← 1 + 0.00625·4·flip_x = 1.025 or 0.975
//	y ← clip(9.99 + 0.25·4·flip_y, 0, 10) = 10 (flip +1) or 8.99
//	z ← 5 + 0.025·4·flip_z = 5.1 or 4.9 (θ stays real)
func TestUpdateByHand(t *testing.T) {
	ps := mustParams(t, "x, float, 1, 0, 2, 0.5, 0.01\ny, float, 9.99, 0, 10, 0.5, 0.4\nz, int, 5, 0, 10, 2, 0.01")
	s := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic:k=1", Params: ps, Iterations: 16, PairsPer: 6, Alpha: 1, Gamma: 0.5, A: 4, Seed: 7})
	it, err := s.Plan(4, []float64{1, 9.99, 5})
	if err != nil {
		t.Fatal(err)
	}
	fx, fy, fz := float64(it.Flips[0]), float64(it.Flips[1]), float64(it.Flips[2])
	for i, f := range it.Flips {
		if f != 1 && f != -1 {
			t.Fatalf("flip %d is %d", i, f)
		}
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v (flips %v)", what, got, want, it.Flips)
		}
	}
	near("c_4(x)", it.CK[0], 1)
	near("a_4(x)", it.AK[0], 0.00625)
	near("a_4(y)", it.AK[1], 0.25)
	near("c_4(z)", it.CK[2], 4)
	near("a_4(z)", it.AK[2], 0.1)
	near("x+", it.Plus[0], 1+fx)
	near("x-", it.Minus[0], 1-fx)
	near("y+", it.Plus[1], map[float64]float64{1: 10, -1: 8.99}[fy])
	near("y-", it.Minus[1], map[float64]float64{1: 8.99, -1: 10}[fy])
	near("z+", it.Plus[2], 5+4*fz)
	near("z-", it.Minus[2], 5-4*fz)
	if want := "synthetic:k=1,x=" + ps[0].Format(it.Plus[0]) + ",y=" + ps[1].Format(it.Plus[1]) + ",z=" + ps[2].Format(it.Plus[2]); it.PlusSpec != want {
		t.Errorf("θ+ spec %q, want %q", it.PlusSpec, want)
	}
	it.Wins, it.Draws, it.Losses = 7, 2, 3
	s.Update(&it)
	near("x after", it.After[0], 1+0.025*fx)
	near("y after", it.After[1], map[float64]float64{1: 10, -1: 8.99}[fy])
	near("z after", it.After[2], 5+0.1*fz)
	// The plan depends on (seed, k) and θ alone.
	again, _ := s.Plan(4, []float64{1, 9.99, 5})
	if again.PlusSpec != it.PlusSpec || again.MinusSpec != it.MinusSpec {
		t.Errorf("a second plan of iteration 4 differs: %q %q", again.PlusSpec, again.MinusSpec)
	}
}

// Integer values are rounded stochastically and without bias, with one
// draw for both sides (OpenBench's rule): at θ = 5 with c_k = 0.5 one side
// plays 5.5 and the other 4.5, rounded together to 6 and 5 or to 5 and 4,
// each about half the time, never to the same value. A file written before
// the rule was recorded keeps its own (IntRuleIndependent: a draw per
// side), under which the sides differ in only about three quarters of the
// iterations (equal when 5.5→5 and 4.5→5); its plans must not change, or
// the file would no longer resume.
func TestStochasticRounding(t *testing.T) {
	// c_end 0.25, N = 16, γ = 0.5: c = 1, c_4 = 0.5.
	ps := mustParams(t, "z, int, 5, 0, 10, 0.25, 0.01")
	for _, rule := range []string{IntRuleOpenBench, IntRuleIndependent} {
		s := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic", Params: ps, Iterations: 16, PairsPer: 1, Alpha: 1, Gamma: 0.5, A: 4, IntRule: rule})
		const n = 4000
		six, differ := 0, 0
		for seed := uint64(0); seed < n; seed++ {
			s.Config.Seed = seed
			it, _ := s.Plan(4, []float64{5})
			p, m := it.Plus[0], it.Minus[0]
			// θ+c·flip is 5.5 or 4.5: it rounds to 5 or 6, or 4 or 5.
			if lo := 5 + math.Min(0, float64(it.Flips[0])); p != lo && p != lo+1 {
				t.Fatalf("%s, seed %d: θ+ = %v from 5 + 0.5·%d", rule, seed, p, it.Flips[0])
			}
			if p == 6 || m == 6 {
				six++
			}
			if p != m {
				differ++
			}
		}
		// Each of the 4000 plans has one side at 5.5, which rounds up with
		// probability 1/2: 2000 ± 3·√(4000/4) ≈ ±95.
		if six < 1900 || six > 2100 {
			t.Errorf("%s: a 5.5 rounded up %d times in %d, want about half", rule, six, n)
		}
		// One draw: always apart. A draw each: apart with probability
		// 3/4, 3000 ± 3·√(4000·3/16) ≈ ±82 times.
		lo, hi := n, n
		if rule == IntRuleIndependent {
			lo, hi = 2900, 3100
		}
		if differ < lo || differ > hi {
			t.Errorf("%s: the sides differed %d times in %d, want %d to %d", rule, differ, n, lo, hi)
		}
	}
}

// TestIntPerturbationNeverTies: an int parameter's θ+ and θ− are never
// rounded to the same value, at any iteration, however small c/k^γ gets
// (OpenBench's floor: c_k ≥ 0.5, and one rounding draw for both sides).
// Without them, late iterations perturbed by less than half a step and
// often played θ+ against θ− with one value: games without signal (2310
// of these 6000 plans). Here c/k^γ, 0.53 at k = 1, is below 0.5 from k = 2
// and 0.3 at k = 300.
func TestIntPerturbationNeverTies(t *testing.T) {
	ps := mustParams(t, "z, int, 50, 0, 100, 0.3, 0.002")
	s := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic", Params: ps, Iterations: 300, PairsPer: 1, A: -1})
	if ck, _ := s.Gains(0, 300); ck != MinIntCK {
		t.Errorf("c_300 = %v, want the floor %v (c/k^γ = 0.3)", ck, MinIntCK)
	}
	ties := 0
	for seed := uint64(1); seed <= 20; seed++ {
		s.Config.Seed = seed
		for k := 1; k <= 300; k++ {
			// θ anywhere between the bounds but more than c_k from them:
			// a bound can clip both sides to one value.
			theta := 2 + 96*float64((seed*7919+uint64(k)*104729)%1000)/1000
			it, err := s.Plan(k, []float64{theta})
			if err != nil {
				t.Fatal(err)
			}
			if it.CK[0] < MinIntCK || math.Abs(it.Plus[0]-it.Minus[0]) < 1 {
				ties++
				if ties <= 5 {
					t.Errorf("seed %d, k %d, θ %.3f: c_k %.3f, θ+ %v, θ− %v", seed, k, theta, it.CK[0], it.Plus[0], it.Minus[0])
				}
			}
		}
	}
	if ties > 0 {
		t.Errorf("%d of 6000 plans played one value on both sides", ties)
	}
}

// TestParseLogIntRule: a file written before int_rule was recorded is
// read with the rule that planned its iterations; a new file records its
// rule.
func TestParseLogIntRule(t *testing.T) {
	ps := mustParams(t, "z, int, 5, 0, 10, 0.25, 0.01")
	s := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic", Params: ps, Iterations: 16, PairsPer: 1})
	path := filepath.Join(t.TempDir(), "run.jsonl")
	l, err := CreateLog(path, s.Config)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"int_rule":"openbench"`) {
		t.Errorf("the header does not record the rule: %s", data)
	}
	old := strings.Replace(string(data), `,"int_rule":"openbench"`, "", 1)
	for text, want := range map[string]string{string(data): IntRuleOpenBench, old: IntRuleIndependent} {
		cfg, _, _, err := ParseLog([]byte(text))
		if err != nil || cfg.IntRule != want {
			t.Errorf("%s: rule %q, %v; want %q", text, cfg.IntRule, err, want)
		}
	}
}

// TestParseLogTornHeader: a file holding only part of its header line (a
// run interrupted while writing it) says so and what to do, as a record
// file does; it said "no SPSA header line (is it empty?)". Other first
// lines, an empty file and a header line with its newline are not called
// torn headers.
func TestParseLogTornHeader(t *testing.T) {
	s := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic", Params: mustParams(t, "x, float, 0, -1, 1, 0.1, 0.01"), Iterations: 2, PairsPer: 1})
	path := filepath.Join(t.TempDir(), "run.jsonl")
	l, err := CreateLog(path, s.Config)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	header, _ := os.ReadFile(path)
	for _, torn := range []string{string(header[:40]), `{"rec`, string(header[:len(header)-1])} {
		_, _, _, err := ParseLog([]byte(torn))
		want := fmt.Sprintf("the file holds only part of a header line (%d bytes, no newline) and no iteration: the run that created it was interrupted", len(torn))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "delete the file and start the run again") {
			t.Errorf("%q: error %v, want one with %q", torn, err, want)
		}
	}
	for _, data := range []string{`{"name":"x"`, "hello", "", "  ", string(header[:40]) + "\n", `{"record":"header","version":1`} {
		if _, _, _, err := ParseLog([]byte(data)); err == nil || strings.Contains(err.Error(), "part of a header") {
			t.Errorf("%q: error %v, want one that does not speak of a torn header", data, err)
		}
	}
	os.WriteFile(path, header[:40], 0o644)
	if _, _, err := ReadResume(path); err == nil || !strings.HasPrefix(err.Error(), path+": the file holds only part of a header line") {
		t.Errorf("ReadResume: %v", err)
	}
}

// Play counts the games from θ+'s side, whichever colour it had.
func TestPlayPointOfView(t *testing.T) {
	s := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic", Params: mustParams(t, "x, float, 0, -1, 1, 0.1, 0.01"), Iterations: 2, PairsPer: 20, Seed: 3})
	for _, tc := range []struct {
		plus, minus string
		better      bool
	}{{"greedy", "random", true}, {"random", "greedy", false}} {
		it := Iteration{K: 1, PlusSpec: tc.plus, MinusSpec: tc.minus}
		n := 0
		if err := s.Play(context.Background(), &it, arena.RunOptions{Concurrency: 2}, func(k int) { n += k }); err != nil {
			t.Fatal(err)
		}
		if it.Wins+it.Draws+it.Losses != 40 || n != 40 {
			t.Fatalf("%s vs %s: %d-%d-%d, %d games heard of; want 40 games", tc.plus, tc.minus, it.Wins, it.Draws, it.Losses, n)
		}
		// greedy beats random in about 97 % of othello6 games.
		if (it.Wins > 30) != tc.better || (it.Losses > 30) == tc.better {
			t.Errorf("%s vs %s: %d-%d-%d from θ+'s side", tc.plus, tc.minus, it.Wins, it.Draws, it.Losses)
		}
	}
}

// A run cancelled in the middle of an iteration, with a torn line at the
// end of its file (as kill -9 during a write leaves), resumes to exactly
// the trajectory of an uninterrupted run, though the resumed part runs on
// one worker and the rest on two.
func TestResumeSameTrajectory(t *testing.T) {
	cfg := SPSAConfig{Game: "othello6", Agent: "synthetic:opt=3,yopt=5,k=0.3", Params: mustParams(t, "x, float, 7, -5, 10, 0.5, 0.02\ny, int, -4, -20, 20, 2, 0.02"),
		Iterations: 30, PairsPer: 4, A: -1, Seed: 11}
	full, err := mustSPSA(t, cfg).Run(context.Background(), RunOptions{Run: arena.RunOptions{Concurrency: 2}})
	if err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "spsa.jsonl")
	s := mustSPSA(t, cfg)
	l, err := CreateLog(path, s.Config)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	games := 0
	_, err = s.Run(ctx, RunOptions{Run: arena.RunOptions{Concurrency: 2}, Record: l.Append, OnGames: func(n int) {
		// In iteration 13; the arena delivers fast games in batches, so
		// iteration 13 may still finish whole before the run sees it.
		if games += n; games > 12*8 {
			cancel()
		}
	}})
	if err == nil {
		t.Fatal("the cancelled run returned no error")
	}
	l.Close()
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"record":"iteration","k":13,"theta_bef`) // torn
	f.Close()

	s2, file, err := ReadResume(path)
	if err != nil {
		t.Fatal(err)
	}
	done := file.Iterations
	if len(done) < 12 || len(done) > 13 || !file.Torn {
		t.Fatalf("resumed with %d iterations (torn %v), want 12 or 13 and a torn line", len(done), file.Torn)
	}
	l, err = AppendLog(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s2.Run(context.Background(), RunOptions{Run: arena.RunOptions{Concurrency: 1}, Done: done, Record: l.Append})
	l.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, onDisk, err := ReadLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Iterations) != 30 || len(onDisk) != 30 || !res.Complete {
		t.Fatalf("%d iterations (%d on disk), want 30", len(res.Iterations), len(onDisk))
	}
	for k := range full.Iterations {
		a, b, c := full.Iterations[k], res.Iterations[k], onDisk[k]
		if !equal(a.After, b.After) || !equal(a.After, c.After) || a.Wins != b.Wins || a.Losses != c.Losses || a.PlusSpec != c.PlusSpec {
			t.Errorf("iteration %d: θ %v (%d-%d-%d) uninterrupted, %v resumed, %v on disk", k+1, a.After, a.Wins, a.Draws, a.Losses, b.After, c.After)
		}
	}

	// A file whose iteration was edited is refused, by Run as by
	// ReadResume, which leaves the file as it was, torn last line
	// included.
	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), `"k":5,`, `"k":6,`, 1) + `{"record":"iter`
	os.WriteFile(path, []byte(edited), 0o644)
	edits := append(onDisk[:4:4], onDisk[4])
	edits[4].K = 6
	if _, err := mustSPSA(t, cfg).Run(context.Background(), RunOptions{Done: edits}); err == nil || !strings.Contains(err.Error(), "iteration 5") {
		t.Errorf("Run with an edited iteration: %v", err)
	}
	if _, _, err := ReadResume(path); err == nil || !strings.Contains(err.Error(), path+": iteration 5 of the file does not follow") {
		t.Errorf("ReadResume of an edited file: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != edited {
		t.Errorf("a refused ReadResume changed the file:\n%s\nwas:\n%s", got, edited)
	}
}

// TestReadResumeWritesNothing: a file ReadResume refuses (a configuration
// NewSPSA refuses, iterations of another run) is left as it was, torn last
// line included: ResumeLog cut the torn line before anything was checked.
func TestReadResumeWritesNothing(t *testing.T) {
	cfg := SPSAConfig{Game: "othello6", Agent: "synthetic:opt=3", Params: mustParams(t, "x, float, 7, -5, 10, 0.5, 0.02"), Iterations: 4, PairsPer: 1, A: -1, Seed: 3}
	path := filepath.Join(t.TempDir(), "spsa.jsonl")
	s := mustSPSA(t, cfg)
	l, err := CreateLog(path, s.Config)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), RunOptions{Record: l.Append}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	whole, _ := os.ReadFile(path)
	for _, tc := range []struct{ name, old, new, want string }{
		{"iterations 0", `"iterations":4,`, `"iterations":0,`, "Iterations 0"},
		{"another seed", `"seed":3,`, `"seed":4,`, "iteration 1 of the file does not follow"},
		{"an edited result", `"wins":`, `"wins":9`, "does not follow"},
	} {
		data := strings.Replace(string(whole), tc.old, tc.new, 1) + `{"record":"iteration","k":5,"th`
		if data == string(whole)+`{"record":"iteration","k":5,"th` {
			t.Fatalf("%s: %q is not in the file", tc.name, tc.old)
		}
		os.WriteFile(path, []byte(data), 0o644)
		if _, _, err := ReadResume(path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Errorf("%s: a refused ReadResume changed the file:\n%s\nwas:\n%s", tc.name, got, data)
		}
	}
}

func TestStopAfterIteration(t *testing.T) {
	s := mustSPSA(t, SPSAConfig{Game: "othello6", Agent: "synthetic", Params: mustParams(t, "x, float, 0, -1, 1, 0.1, 0.01"), Iterations: 50, PairsPer: 2})
	stop := make(chan struct{})
	n := 0
	res, err := s.Run(context.Background(), RunOptions{Stop: stop, Record: func(Iteration) error {
		if n++; n == 3 {
			close(stop)
		}
		return nil
	}})
	if err != nil || res.Complete || len(res.Iterations) != 3 {
		t.Errorf("stopped run: %d iterations, complete %v, error %v; want 3", len(res.Iterations), res.Complete, err)
	}
}

func TestNewSPSAErrors(t *testing.T) {
	ps := mustParams(t, "x, float, 0, -1, 1, 0.1, 0.01")
	ok := SPSAConfig{Game: "othello6", Agent: "synthetic", Params: ps, Iterations: 10, PairsPer: 2}
	for _, tc := range []struct {
		edit func(*SPSAConfig)
		want string
	}{
		{func(c *SPSAConfig) { c.Iterations = 0 }, "Iterations 0: use 1 to 1000000"},
		{func(c *SPSAConfig) { c.Iterations = MaxIterations + 1 }, "Iterations"},
		{func(c *SPSAConfig) { c.PairsPer = 0 }, "PairsPer 0"},
		{func(c *SPSAConfig) { c.PairsPer = MaxPairsPer + 1 }, "PairsPer"},
		{func(c *SPSAConfig) { c.Alpha = -1 }, "Alpha -1 and Gamma 0.101: use exponents"},
		{func(c *SPSAConfig) { c.A = math.NaN() }, "A NaN: use 0 to"},
		{func(c *SPSAConfig) { c.Params = nil }, "Params: no parameters"},
		{func(c *SPSAConfig) { c.Params = append(append([]Param{}, ps...), ps...) }, "given twice"},
		{func(c *SPSAConfig) { c.Agent = "greedy" }, "unknown option \"x\""},
		{func(c *SPSAConfig) { c.Agent = "nosuch" }, "unknown agent"},
		{func(c *SPSAConfig) { c.MoveTime = "soon" }, "move time"},
		{func(c *SPSAConfig) { c.TimeControl = "x" }, "x"},
	} {
		c := ok
		tc.edit(&c)
		if _, err := NewSPSA(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one with %q", c, err, tc.want)
		}
	}
	if _, err := NewSPSA(ok); err != nil {
		t.Error(err)
	}
}

// TestNewSPSABoundsValid: a parameter whose min or max the agent refuses
// is reported before any game (the run clips values to the bounds and
// would fail at the first iteration that reaches one), naming the
// parameter, its file line and the agent's error.
func TestNewSPSABoundsValid(t *testing.T) {
	for _, tc := range []struct{ agent, params, want string }{
		{"mcts:iters=20", "c, float, 0.05, -1, 2.0, 0.2, 0.002", "parameter c (parameter file line 1): its min -1 is not a value the agent takes (mcts:iters=20,c=-1): mcts: option c=-1 is out of range"},
		{"mcts:iters=20", "iters, int, 1, 0, 100, 2, 0.002", "parameter iters (parameter file line 1): its min 0 "},
		{"mcts:iters=20", "# c and fpu\nc, float, 1, 0.1, 2, 0.2, 0.002\n\nfpu, float, 0.5, 0, 1e6, 0.1, 0.002", "parameter fpu (parameter file line 4): its max 1e+06 "},
	} {
		cfg := SPSAConfig{Game: "othello6", Agent: tc.agent, Params: mustParams(t, tc.params), Iterations: 10, PairsPer: 1}
		if _, err := NewSPSA(cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one with %q", tc.params, err, tc.want)
		}
	}
	// Without a file line (a run file's parameters), the name alone.
	ps := mustParams(t, "c, float, 0.05, -1, 2.0, 0.2, 0.002")
	ps[0].Line = 0
	if _, err := NewSPSA(SPSAConfig{Game: "othello6", Agent: "mcts:iters=20", Params: ps, Iterations: 10, PairsPer: 1}); err == nil || !strings.Contains(err.Error(), "parameter c: its min -1") {
		t.Errorf("error %v, want one with %q", err, "parameter c: its min -1")
	}
	// Bounds the agent takes are accepted.
	if _, err := NewSPSA(SPSAConfig{Game: "othello6", Agent: "mcts:iters=20", Params: mustParams(t, "c, float, 1, 0, 100, 0.2, 0.002\niters, int, 20, 1, 100, 2, 0.002"), Iterations: 10, PairsPer: 1}); err != nil {
		t.Error(err)
	}
}
