package othello6

import "math/bits"

// The eight symmetries of the square board, shared by the solver's pruning
// and the book's keys (so they are part of the book's format: changing the
// numbering changes which image a book entry is stored under).
// symmetry[t][i] is cell i under symmetry t: bit 0 of t mirrors the files,
// bit 1 the ranks, bit 2 swaps files and ranks. symInverse[t] undoes it.
var symmetry, symInverse [8][Size * Size]int8

func init() {
	for t := range symmetry {
		for i := range Size * Size {
			f, r := i%Size, i/Size
			if t&1 != 0 {
				f = Size - 1 - f
			}
			if t&2 != 0 {
				r = Size - 1 - r
			}
			if t&4 != 0 {
				f, r = r, f
			}
			symmetry[t][i] = int8(r*Size + f)
			symInverse[t][r*Size+f] = int8(i)
		}
	}
}

// transform maps a bitboard through symmetry t.
func transform(b uint64, t int) uint64 {
	var out uint64
	for ; b != 0; b &= b - 1 {
		out |= 1 << uint(symmetry[t][bits.TrailingZeros64(b)])
	}
	return out
}
