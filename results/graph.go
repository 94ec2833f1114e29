package results

import "slices"

// scoredGraph is the "took points from" graph of a set of cells: out[i]
// lists (sorted) the players i won or drew a game against, in[i] those
// that took points from i. Adjacency lists keep it in the pairs that
// met, not players².
type scoredGraph struct {
	out, in [][]int
}

// newScoredGraph returns the graph of cells among n players. The lists
// share two backing arrays (one allocation each, whatever the players).
func newScoredGraph(n int, cells []cell) *scoredGraph {
	s := &scoredGraph{out: make([][]int, n), in: make([][]int, n)}
	edges := func(f func(i, j int)) {
		for _, c := range cells {
			if c.w+c.d > 0 {
				f(c.a, c.b)
			}
			if c.l+c.d > 0 {
				f(c.b, c.a)
			}
		}
	}
	outDeg, inDeg := make([]int, n), make([]int, n)
	total := 0
	edges(func(i, j int) { outDeg[i]++; inDeg[j]++; total++ })
	outAll, inAll := make([]int, total), make([]int, total)
	o, k := 0, 0
	for i := range n {
		s.out[i], s.in[i] = outAll[o:o:o+outDeg[i]], inAll[k:k:k+inDeg[i]]
		o, k = o+outDeg[i], k+inDeg[i]
	}
	edges(func(i, j int) { s.out[i], s.in[j] = append(s.out[i], j), append(s.in[j], i) })
	for i := range s.out {
		s.out[i], s.in[i] = sortedSet(s.out[i]), sortedSet(s.in[i])
	}
	return s
}

// sortedSet sorts v and drops repeats (a pair holds two cells, one per
// first mover).
func sortedSet(v []int) []int {
	slices.Sort(v)
	return slices.Clip(slices.Compact(v))
}

// has reports whether i took points from j.
func (s *scoredGraph) has(i, j int) bool {
	_, ok := slices.BinarySearch(s.out[i], j)
	return ok
}

// reach returns the players that from reaches in s (forward: along
// "took points from"; else against it), from included. Edges join
// players who met, so a search never leaves from's group.
func reach(s *scoredGraph, from []int, forward bool) map[int]bool {
	adj := s.out
	if !forward {
		adj = s.in
	}
	seen := map[int]bool{}
	stack := slices.Clone(from)
	for _, p := range from {
		seen[p] = true
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range adj[i] {
			if !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return seen
}

// dominanceOrder answers over(i, j): i took points from j, directly or
// through others, and j never from i in the same way. It keeps each
// player's strongly connected component of s and, per component, the
// set of components it reaches (bitsets): players plus components²
// bits, where over as a table took players² bytes. Components are few
// unless nobody beat anybody who beat them (a strict order).
type dominanceOrder struct {
	comp  []int32
	words int
	reach []uint64 // component c reaches d: bit d of reach[c·words:]
}

func newDominanceOrder(s *scoredGraph) *dominanceOrder {
	n := len(s.out)
	// Kosaraju: finishing order along out, then components along in, in
	// reverse finishing order (iterative depth-first searches).
	order := make([]int, 0, n)
	visited := make([]bool, n)
	type frame struct{ v, next int }
	var stack []frame
	for root := range n {
		if visited[root] {
			continue
		}
		visited[root] = true
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(s.out[f.v]) {
				w := s.out[f.v][f.next]
				f.next++
				if !visited[w] {
					visited[w] = true
					stack = append(stack, frame{w, 0})
				}
				continue
			}
			order = append(order, f.v)
			stack = stack[:len(stack)-1]
		}
	}
	d := &dominanceOrder{comp: make([]int32, n)}
	for i := range d.comp {
		d.comp[i] = -1
	}
	k := int32(0)
	var todo []int
	for i := n - 1; i >= 0; i-- {
		root := order[i]
		if d.comp[root] >= 0 {
			continue
		}
		d.comp[root] = k
		todo = append(todo[:0], root)
		for len(todo) > 0 {
			v := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, w := range s.in[v] {
				if d.comp[w] < 0 {
					d.comp[w] = k
					todo = append(todo, w)
				}
			}
		}
		k++
	}
	// Components come out in topological order (an edge between two goes
	// from the lower number to the higher), so reach is built from the
	// last component back.
	d.words = (int(k) + 63) / 64
	d.reach = make([]uint64, int(k)*d.words)
	members := make([][]int, k)
	for v, c := range d.comp {
		members[c] = append(members[c], v)
	}
	for c := int(k) - 1; c >= 0; c-- {
		row := d.reach[c*d.words : (c+1)*d.words]
		row[c/64] |= 1 << (c % 64)
		for _, v := range members[c] {
			for _, w := range s.out[v] {
				if e := int(d.comp[w]); e != c {
					for x, word := range d.reach[e*d.words : (e+1)*d.words] {
						row[x] |= word
					}
				}
			}
		}
	}
	return d
}

func (d *dominanceOrder) reaches(c, e int32) bool {
	return d.reach[int(c)*d.words+int(e)/64]&(1<<(uint(e)%64)) != 0
}

// over reports whether i is above j whatever the ratings.
func (d *dominanceOrder) over(i, j int) bool {
	c, e := d.comp[i], d.comp[j]
	return c != e && d.reaches(c, e) && !d.reaches(e, c)
}
