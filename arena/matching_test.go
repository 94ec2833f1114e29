package arena

import (
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// bruteMatching is the size of a maximum matching of the active vertices,
// by trying every way to pair the lowest free vertex.
func bruteMatching(edge [][]bool, active []bool) int {
	first := -1
	for v, a := range active {
		if a {
			first = v
			break
		}
	}
	if first < 0 {
		return 0
	}
	active[first] = false
	best := bruteMatching(edge, active) // first stays unmatched
	for u := range active {
		if active[u] && edge[first][u] {
			active[u] = false
			best = max(best, 1+bruteMatching(edge, active))
			active[u] = true
		}
	}
	active[first] = true
	return best
}

// TestMatcherAgainstBruteForce compares the blossom algorithm's maximum
// matching with an exhaustive search on random graphs, sparse ones
// included (where odd cycles need shrinking), and checks without.
func TestMatcherAgainstBruteForce(t *testing.T) {
	r := rng.New(1)
	var checks [2]int // without's answers checked: false, true
	defer func() { t.Logf("without checked %d times true, %d false", checks[1], checks[0]) }()
	for trial := 0; trial < 3000; trial++ {
		n := 1 + r.IntN(11)
		density := 1 + r.IntN(6)
		m := newMatcher(n)
		for i := 0; i < n; i++ {
			m.active[i] = r.IntN(8) != 0
			for j := i + 1; j < n; j++ {
				if r.IntN(8) < density {
					m.edge[i][j], m.edge[j][i] = true, true
				}
			}
		}
		active := append([]bool(nil), m.active...)
		want := bruteMatching(m.edge, active)
		count := 0
		for _, a := range m.active {
			if a {
				count++
			}
		}
		free := m.grow()
		if got := (count - free) / 2; got != want {
			t.Fatalf("trial %d: matching of %d, brute force %d", trial, got, want)
		}
		for v := 0; v < n; v++ {
			if u := m.match[v]; u >= 0 && (m.match[u] != v || !m.edge[v][u] || !m.active[u] || !m.active[v]) {
				t.Fatalf("trial %d: %d matched to %d is no matching edge", trial, v, u)
			}
		}
		if free != 0 {
			continue
		}
		// without(p, q) is true exactly when the rest has a perfect matching.
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				if !m.active[p] || !m.active[q] || !m.edge[p][q] {
					continue
				}
				active := append([]bool(nil), m.active...)
				active[p], active[q] = false, false
				want := bruteMatching(m.edge, active)*2 == count-2
				saved := append([]int(nil), m.match...)
				checks[b2i(want)]++
				if got := m.without(p, q); got != want {
					t.Fatalf("trial %d: without(%d, %d) = %v, brute force %v", trial, p, q, got, want)
				} else if !got {
					for v := range saved {
						if saved[v] != m.match[v] {
							t.Fatalf("trial %d: a refused without changed the matching", trial)
						}
					}
					continue
				}
				if m.grow() != 0 {
					t.Fatalf("trial %d: without(%d, %d) left no perfect matching", trial, p, q)
				}
				// Put p and q back with each other for the next try.
				m.active[p], m.active[q] = true, true
				m.match[p], m.match[q] = q, p
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
