// Package bitsel finds the k-th set bit of a 64-bit word: the step every
// bitboard playout takes to turn a uniform index into a square.
//
// On x86-64 processors with a fast PDEP instruction (Intel since Haswell,
// AMD since Zen 3) Select is one deposit and one bit scan. Elsewhere it is a
// branch-free broadword search over byte counts, so the random index never
// costs a mispredicted loop exit.
package bitsel

import "math/bits"

// Select returns the index of the k-th (counting from 0) set bit of x, with
// bits numbered from the least significant. It requires 0 <= k <
// bits.OnesCount64(x); otherwise the result is meaningless.
func Select(x uint64, k int) int {
	if fastPDEP {
		return bits.TrailingZeros64(pdep(1<<uint(k&63), x))
	}
	return broadword(x, k)
}

// broadword is Select without PDEP: it finds the byte holding the k-th set
// bit from prefix sums of byte counts, then looks the bit up in that byte.
func broadword(x uint64, k int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	c := x - (x>>1)&0x5555555555555555
	c = c&0x3333333333333333 + (c>>2)&0x3333333333333333
	c = (c + c>>4) & 0x0f0f0f0f0f0f0f0f
	prefix := c * ones // byte i: set bits in bytes 0…i (at most 64, so no carries)
	// Byte i of t has its high bit set when prefix byte i exceeds k.
	t := (prefix | highs) - uint64(k+1)*ones
	i := bits.TrailingZeros64(t&highs) &^ 7 // 8 × the byte's index
	before := int((prefix << 8 >> uint(i)) & 0xff)
	return i + int(inByte[(x>>uint(i))&0xff][(k-before)&7])
}

// inByte[b][k] is the index of the k-th set bit of the byte b.
var inByte [256][8]uint8

func init() {
	for b := range inByte {
		k := 0
		for i := range 8 {
			if b>>i&1 != 0 {
				inByte[b][k] = uint8(i)
				k++
			}
		}
	}
}
