package bitsel

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/boardgame-arena/arena/rng"
)

// naive is the definition: clear the k lowest set bits, then scan.
func naive(x uint64, k int) int {
	for ; k > 0; k-- {
		x &= x - 1
	}
	return bits.TrailingZeros64(x)
}

// words returns edge cases and seeded random words of every density.
func words() []uint64 {
	ws := []uint64{1, 1 << 63, ^uint64(0), 0x8000000000000001, 0xff00, 0x0f0f0f0f0f0f0f0f, 1<<36 - 1}
	r := rng.New(7)
	for range 2000 {
		x := r.Uint64()
		for range r.IntN(4) { // thin it out: 1/2, 1/4, 1/8 … of the bits
			x &= r.Uint64()
		}
		if x != 0 {
			ws = append(ws, x)
		}
	}
	return ws
}

func TestSelect(t *testing.T) {
	for _, x := range words() {
		for k := range bits.OnesCount64(x) {
			want := naive(x, k)
			if got := Select(x, k); got != want {
				t.Fatalf("Select(%#x, %d) = %d, want %d", x, k, got, want)
			}
			if got := broadword(x, k); got != want {
				t.Fatalf("broadword(%#x, %d) = %d, want %d", x, k, got, want)
			}
		}
	}
}

// TestPDEP tests the PDEP assembly, and Select's PDEP path on every word,
// whenever the processor has BMI2: also where PDEP is slow (AMD before Zen
// 3) and Select does not use it, so that the assembly is never left
// untested on a machine that could run it.
func TestPDEP(t *testing.T) {
	if !hasBMI2 {
		t.Skip("no BMI2 (PDEP) on this processor")
	}
	t.Logf("BMI2 present; fast PDEP (used by Select): %v", fastPDEP)
	for _, x := range words() {
		for k := range bits.OnesCount64(x) {
			if got, want := bits.TrailingZeros64(pdep(1<<uint(k), x)), naive(x, k); got != want {
				t.Fatalf("PDEP select of bit %d of %#x = %d, want %d", k, x, got, want)
			}
		}
	}
	for _, c := range []struct{ src, mask, want uint64 }{
		{0b101, 0b11010, 0b10010},
		{^uint64(0), 0xf0, 0xf0},
		{1 << 2, 0x8000000000000101, 0x8000000000000000},
		{0, ^uint64(0), 0},
	} {
		if got := pdep(c.src, c.mask); got != c.want {
			t.Errorf("pdep(%#x, %#x) = %#x, want %#x", c.src, c.mask, got, c.want)
		}
	}
}

func FuzzSelect(f *testing.F) {
	f.Add(uint64(0b1011), uint8(2))
	f.Add(^uint64(0), uint8(63))
	f.Fuzz(func(t *testing.T, x uint64, k uint8) {
		n := bits.OnesCount64(x)
		if n == 0 {
			return
		}
		kk := int(k) % n
		if got, want := Select(x, kk), naive(x, kk); got != want {
			t.Fatalf("Select(%#x, %d) = %d, want %d", x, kk, got, want)
		}
		if got, want := broadword(x, kk), naive(x, kk); got != want {
			t.Fatalf("broadword(%#x, %d) = %d, want %d", x, kk, got, want)
		}
	})
}

func ExampleSelect() {
	moves := uint64(0b1001_0110) // squares 1, 2, 4 and 7
	for k := range bits.OnesCount64(moves) {
		fmt.Print(Select(moves, k), " ")
	}
	fmt.Println()
	// Output: 1 2 4 7
}

// benchmark selects a random set bit of random 36-bit masks with four or
// five bits set on average (each bit with probability 1/8), as a playout
// picks among its legal moves; the mask depends on the last result so calls
// cannot overlap.
func benchmark(b *testing.B, sel func(uint64, int) int) {
	r := rng.New(1)
	var xs [1024]uint64
	for i := range xs {
		for xs[i] == 0 {
			a, b, c := r.Uint64(), r.Uint64(), r.Uint64()
			xs[i] = a & b & c & (1<<36 - 1)
		}
	}
	s := 0
	for b.Loop() {
		x := xs[(r.Uint64()+uint64(s))&1023]
		s = sel(x, r.IntN(bits.OnesCount64(x)))
	}
}

func BenchmarkSelect(b *testing.B)    { benchmark(b, Select) }
func BenchmarkBroadword(b *testing.B) { benchmark(b, broadword) }
func BenchmarkNaive(b *testing.B)     { benchmark(b, naive) }
