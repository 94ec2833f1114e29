package arena

// matcher finds maximum matchings in a general graph by Edmonds' blossom
// algorithm (augmenting paths, odd cycles shrunk to their base), O(n³) per
// augmentation. The Swiss pairing uses it as a look-ahead: a greedy choice
// of opponent is kept only if the players left can still all be paired.
type matcher struct {
	n      int
	edge   [][]bool // edge[i][j]: i and j may meet
	active []bool   // vertices of the current subgraph
	match  []int    // partner, or -1
	parent []int
	base   []int
	used   []bool
	bloss  []bool
	seen   []bool
	queue  []int
	saved  []int // the matching before a without
}

func newMatcher(n int) *matcher {
	m := &matcher{n: n, edge: make([][]bool, n), active: make([]bool, n), match: make([]int, n),
		parent: make([]int, n), base: make([]int, n), used: make([]bool, n), bloss: make([]bool, n), seen: make([]bool, n)}
	for i := range m.edge {
		m.edge[i] = make([]bool, n)
		m.match[i] = -1
	}
	return m
}

// lca is the base of the blossom closed by the edge a–b: the first common
// vertex of their alternating paths to the root.
func (m *matcher) lca(a, b int) int {
	clear(m.seen)
	for {
		a = m.base[a]
		m.seen[a] = true
		if m.match[a] == -1 {
			break
		}
		a = m.parent[m.match[a]]
	}
	for {
		b = m.base[b]
		if m.seen[b] {
			return b
		}
		b = m.parent[m.match[b]]
	}
}

func (m *matcher) markPath(v, b, child int) {
	for m.base[v] != b {
		m.bloss[m.base[v]], m.bloss[m.base[m.match[v]]] = true, true
		m.parent[v] = child
		child = m.match[v]
		v = m.parent[m.match[v]]
	}
}

// findPath searches an augmenting path from the free vertex root and
// returns its free end, or -1.
func (m *matcher) findPath(root int) int {
	for i := 0; i < m.n; i++ {
		m.used[i], m.parent[i], m.base[i] = false, -1, i
	}
	m.used[root] = true
	m.queue = append(m.queue[:0], root)
	for h := 0; h < len(m.queue); h++ {
		v := m.queue[h]
		for to := 0; to < m.n; to++ {
			if !m.edge[v][to] || !m.active[to] || m.base[v] == m.base[to] || m.match[v] == to {
				continue
			}
			if to == root || m.match[to] != -1 && m.parent[m.match[to]] != -1 {
				cur := m.lca(v, to)
				clear(m.bloss)
				m.markPath(v, cur, to)
				m.markPath(to, cur, v)
				for i := 0; i < m.n; i++ {
					if m.active[i] && m.bloss[m.base[i]] {
						m.base[i] = cur
						if !m.used[i] {
							m.used[i] = true
							m.queue = append(m.queue, i)
						}
					}
				}
			} else if m.parent[to] == -1 {
				m.parent[to] = v
				if m.match[to] == -1 {
					return to
				}
				m.used[m.match[to]] = true
				m.queue = append(m.queue, m.match[to])
			}
		}
	}
	return -1
}

func (m *matcher) augment(v int) {
	for v != -1 {
		pv := m.parent[v]
		next := m.match[pv]
		m.match[v], m.match[pv] = pv, v
		v = next
	}
}

// grow augments from every free active vertex and returns how many active
// vertices stay unmatched.
func (m *matcher) grow() int {
	free := 0
	for v := 0; v < m.n; v++ {
		if !m.active[v] || m.match[v] != -1 {
			continue
		}
		if end := m.findPath(v); end != -1 {
			m.augment(end)
		} else {
			free++
		}
	}
	return free
}

// perfect reports whether the active vertices can all be matched, starting
// from the current matching (whose edges must join active vertices). On
// true the matching is perfect; on false it is a maximum matching.
func (m *matcher) perfect() bool { return m.grow() == 0 }

// without removes p and q (who are to meet) from a perfect matching of the
// active vertices and reports whether the rest still has one; if not, it
// restores the state, with p and q still active and matched as before.
func (m *matcher) without(p, q int) bool {
	m.saved = append(m.saved[:0], m.match...)
	pp, qq := m.match[p], m.match[q]
	m.active[p], m.active[q] = false, false
	m.match[p], m.match[q] = -1, -1
	if pp == q {
		return true
	}
	if m.edge[pp][qq] { // the two left alone can meet: the common case
		m.match[pp], m.match[qq] = qq, pp
		return true
	}
	m.match[pp], m.match[qq] = -1, -1
	if end := m.findPath(pp); end != -1 {
		m.augment(end)
		return true
	}
	copy(m.match, m.saved)
	m.active[p], m.active[q] = true, true
	return false
}

// clone copies the matcher's state; the edges are shared (never written
// after setup).
func (m *matcher) clone() *matcher {
	c := newMatcherShared(m)
	c.copyFrom(m)
	return c
}

func newMatcherShared(m *matcher) *matcher {
	n := m.n
	return &matcher{n: n, edge: m.edge, active: make([]bool, n), match: make([]int, n),
		parent: make([]int, n), base: make([]int, n), used: make([]bool, n), bloss: make([]bool, n), seen: make([]bool, n)}
}

// copyFrom sets the active vertices and the matching to o's.
func (m *matcher) copyFrom(o *matcher) {
	copy(m.active, o.active)
	copy(m.match, o.match)
}
