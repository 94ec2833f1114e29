package results

import (
	"math"
	"runtime"
	"sync"

	"github.com/boardgame-arena/arena/rng"
)

// resample fills sample (as long as cells) with a bootstrap resample of
// the games counted in cells: games draws with replacement. Drawing games
// one by one makes the counts of the (pairing, outcome) categories
// multinomial with the data's shares as probabilities; resample draws that
// multinomial directly, category by category, each count binomial given
// the draws still to place among the categories still to fill. Its cost
// grows with the number of categories and, through the binomials' spread,
// with the square root of the games per category, never with the games.
func resample(r *rng.Rand, cells []cell, games int, sample []cell) {
	left, weight := games, games // draws to place; data games in the categories still to fill
	draw := func(count float64) float64 {
		c := int(count)
		var x int
		switch {
		case c <= 0 || left == 0:
		case c >= weight:
			x = left
		default:
			x = binomial(r, left, float64(c)/float64(weight))
		}
		left -= x
		weight -= c
		return float64(x)
	}
	for i, c := range cells {
		sample[i] = cell{a: c.a, b: c.b}
		sample[i].w = draw(c.w)
		sample[i].d = draw(c.d)
		sample[i].l = draw(c.l)
	}
}

// binomial draws from the binomial distribution of n trials with success
// probability p (0 < p < 1) by inversion, searching outward from the mode:
// the uniform draw is consumed by the probabilities of the mode, then one
// above, one below, and so on, which takes about as many steps as the
// standard deviation. The mode's probability comes from log-gamma; the
// others by the ratio of neighbouring terms.
func binomial(r *rng.Rand, n int, p float64) int {
	if p > 0.5 {
		return n - binomial(r, n, 1-p)
	}
	q := 1 - p
	m := int(float64(n+1) * p)
	if m > n {
		m = n
	}
	lgN, _ := math.Lgamma(float64(n) + 1)
	lgM, _ := math.Lgamma(float64(m) + 1)
	lgR, _ := math.Lgamma(float64(n-m) + 1)
	pm := math.Exp(lgN - lgM - lgR + float64(m)*math.Log(p) + float64(n-m)*math.Log1p(-p))
	u := r.Float64() - pm
	if u < 0 {
		return m
	}
	// The tails beyond terms this small hold less than about 1e-15 of the
	// mass: a draw that falls there (rounding) returns the mode.
	tiny := pm * 1e-17
	lo, hi, plo, phi := m, m, pm, pm
	ratio := p / q
	for {
		upOK, downOK := hi < n && phi > tiny, lo > 0 && plo > tiny
		if !upOK && !downOK {
			return m
		}
		if upOK {
			phi *= float64(n-hi) / float64(hi+1) * ratio
			hi++
			if u -= phi; u < 0 {
				return hi
			}
		}
		if downOK {
			plo *= float64(lo) / float64(n-lo+1) / ratio
			lo--
			if u -= plo; u < 0 {
				return lo
			}
		}
	}
}

// eachResample calls f(k, sample) with resample k of cells for every k
// below bo.Replicates, on bo.Workers goroutines (GOMAXPROCS if 0). Resample
// k draws from rng.Derive(bo.Seed, k) whatever the parallelism, so what f
// computes from it depends on the seed alone. It returns the first k, in
// order, whose f failed, and its error (-1 and nil when none did).
func eachResample(cells []cell, games int, bo BootstrapOptions, f func(k int, sample []cell) error) (int, error) {
	workers := bo.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, bo.Replicates)
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for w := 0; w < min(workers, bo.Replicates); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sample := make([]cell, len(cells))
			var r rng.Rand
			for {
				mu.Lock()
				k := next
				next++
				mu.Unlock()
				if k >= bo.Replicates {
					return
				}
				r.Seed(rng.Derive(bo.Seed, uint64(k)))
				resample(&r, cells, games, sample)
				errs[k] = f(k, sample)
			}
		}()
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			return k, err
		}
	}
	return -1, nil
}
