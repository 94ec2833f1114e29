package arena

import "math/bits"

// GameSet is a set of game indices, one bit a game of the run: what a run
// remembers of the games recorded, so that its memory grows by an eighth
// of a byte a game rather than by a record or a map entry. The zero value
// is empty; it grows as indices are added. Not safe for concurrent use.
type GameSet struct {
	words []uint64
	n     int
}

// NewGameSet returns an empty set sized for indices below n.
func NewGameSet(n int) *GameSet {
	return &GameSet{words: make([]uint64, (max(n, 0)+63)/64)}
}

// Add adds index (≥ 0) and reports whether it was not yet in the set.
func (s *GameSet) Add(index int) bool {
	w := index / 64
	if w >= len(s.words) {
		s.words = append(s.words, make([]uint64, w+1-len(s.words))...)
	}
	bit := uint64(1) << (index % 64)
	if s.words[w]&bit != 0 {
		return false
	}
	s.words[w] |= bit
	s.n++
	return true
}

// Has reports whether index is in the set (false for a nil set).
func (s *GameSet) Has(index int) bool {
	if s == nil || index < 0 || index/64 >= len(s.words) {
		return false
	}
	return s.words[index/64]&(1<<(index%64)) != 0
}

// Len is the number of indices in the set (0 for a nil set).
func (s *GameSet) Len() int {
	if s == nil {
		return 0
	}
	return s.n
}

// count recounts the set's bits (the tests check Len against it).
func (s *GameSet) count() int {
	c := 0
	for _, w := range s.words {
		c += bits.OnesCount64(w)
	}
	return c
}
