// Package rng is the project's small, fast, seedable random source.
//
// Every random choice in games, agents and the arena flows from an explicit
// seed through this package, so a run is reproducible from its seed. The
// generator is SplitMix64: one add and three multiplies per draw, no heap
// state, and good enough statistics for playouts and opening selection.
package rng

import "math/bits"

// Rand is a SplitMix64 generator. Its zero value is a valid generator for seed 0.
type Rand struct{ state uint64 }

// New returns a generator for seed.
func New(seed uint64) *Rand { return &Rand{state: seed} }

// Seed resets the generator to seed.
func (r *Rand) Seed(seed uint64) { r.state = seed }

// Uint64 returns a uniformly distributed 64-bit value.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// IntN returns a uniform integer in [0, n). It panics if n <= 0.
// It uses Lemire's multiply-and-reject method, so it is exactly uniform.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("rng: IntN with n <= 0")
	}
	bound := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(r.Uint64(), bound)
		}
	}
	return int(hi)
}

// Float64 returns a uniform float in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Derive returns a seed for a sub-stream named by the given integers, so that
// e.g. game i of pairing j gets a seed that does not depend on the order in
// which games run.
func Derive(seed uint64, parts ...uint64) uint64 {
	r := Rand{state: seed}
	s := r.Uint64()
	for _, p := range parts {
		r.state = s ^ (p * 0xd1b54a32d192ed03)
		s = r.Uint64()
	}
	return s
}
