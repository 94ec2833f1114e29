// Package javarand reproduces java.util.Random bit for bit, so that a seed
// gives the same TryAngle Catch map as the original Java referee.
//
// The generator is the 48-bit linear congruential generator of the Java
// platform: state = (seed XOR 0x5DEECE66D) mod 2^48, advanced by
// state·0x5DEECE66D + 0xB; a draw of k bits returns the top k bits of the
// state as a signed 32-bit integer. Only the methods the referee uses are
// provided (nextInt, nextInt(bound), nextDouble), with Java's exact rejection
// rule for bounds that are not powers of two.
//
// This package exists for seed fidelity only; everything else in the project
// draws from package rng.
package javarand

const (
	multiplier = 0x5DEECE66D
	addend     = 0xB
	mask       = 1<<48 - 1
)

// Random is a java.util.Random.
type Random struct{ state uint64 }

// New returns the generator java.util.Random(seed) would be.
func New(seed int64) *Random {
	return &Random{state: (uint64(seed) ^ multiplier) & mask}
}

// next returns the top bits of the advanced state, as Java's next(bits).
func (r *Random) next(bits uint) int32 {
	r.state = (r.state*multiplier + addend) & mask
	return int32(r.state >> (48 - bits))
}

// Int returns the next value of nextInt(): 32 uniformly random bits.
func (r *Random) Int() int32 { return r.next(32) }

// IntN returns the next value of nextInt(bound), uniform in [0, bound).
// It panics if bound <= 0, as Java throws.
func (r *Random) IntN(bound int32) int32 {
	if bound <= 0 {
		panic("javarand: bound must be positive")
	}
	v := r.next(31)
	m := bound - 1
	if bound&m == 0 { // a power of two: take the high bits
		return int32((int64(bound) * int64(v)) >> 31)
	}
	// Reject the last incomplete block of size bound; the test is Java's
	// int32 overflow check, wrapping included.
	for u := v; ; u = r.next(31) {
		v = u % bound
		if u-v+m >= 0 {
			return v
		}
	}
}

// Float64 returns the next value of nextDouble(), uniform in [0, 1) with
// 53 random bits.
func (r *Random) Float64() float64 {
	hi := int64(r.next(26))
	lo := int64(r.next(27))
	return float64(hi<<27+lo) * (1.0 / (1 << 53))
}
