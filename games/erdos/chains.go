package erdos

import "sync"

// chains[code*Size+r] describes the chains through the unit on rank r of a
// column whose levels are code (base 6, rank 0 lowest digit):
//
//	bit 0: a first-player chain (increasing bottom→top) through the unit
//	bit 1: a second-player chain (increasing top→bottom) through the unit
//	bit 2: bit 0 as the Algol engine sees it on the second player's turns
//	bit 3: bit 1 as the Algol engine sees it on the second player's turns
//
// Entries for an empty cell r are 0. The table is built by New, once: a
// program that never plays Erdős does not pay for it at start-up (about
// 3 ms, in every process that links the game registry).
var (
	chains     [6 * 6 * 6 * 6 * 6 * Size]uint8
	chainsOnce sync.Once
)

// buildChains fills chains.
func buildChains() {
	var lv [Size]int
	for code := 0; code < len(chains)/Size; code++ {
		for r, c := 0, code; r < Size; r, c = r+1, c/6 {
			lv[r] = c % 6
		}
		for r := 0; r < Size; r++ {
			if lv[r] != 0 {
				chains[code*Size+r] = chainBits(&lv, r)
			}
		}
	}
}

// chainBits classifies the chains through the unit on rank r of column lv
// (levels bottom→top, 0 = empty) by where the unit sits in the chain.
func chainBits(lv *[Size]int, r int) uint8 {
	l := lv[r]
	// Extremes of the units below and above the new one (0 when none).
	minB, maxB, minA, maxA := 0, 0, 0, 0
	for i, v := range lv {
		if v == 0 || i == r {
			continue
		}
		if i < r {
			minB, maxB = lower(minB, v), max(maxB, v)
		} else {
			minA, maxA = lower(minA, v), max(maxA, v)
		}
	}
	// A run of two units on one side that a third, the new unit, extends.
	// up[i]: some unit below i is lower; down[i]: some unit below i is higher.
	// upAbove[i], downAbove[i]: the same for units above i.
	var up, down, upAbove, downAbove [Size]bool
	for i := range lv {
		for j := range lv {
			if lv[i] == 0 || lv[j] == 0 {
				continue
			}
			switch {
			case j < i && lv[j] < lv[i]:
				up[i] = true
			case j < i && lv[j] > lv[i]:
				down[i] = true
			case j > i && lv[j] > lv[i]:
				upAbove[i] = true
			case j > i && lv[j] < lv[i]:
				downAbove[i] = true
			}
		}
	}
	var p1End, p2End bool
	for i, v := range lv {
		switch {
		case v == 0:
		case i < r && v < l && up[i]: // x < v < l, new unit on top
			p1End = true
		case i > r && v > l && upAbove[i]: // l < v < y, new unit at the bottom
			p1End = true
		case i < r && v > l && down[i]: // x > v > l bottom→top, new unit on top
			p2End = true
		case i > r && v < l && downAbove[i]: // l > v > y bottom→top, new unit at the bottom
			p2End = true
		}
	}
	p1Mid := minB != 0 && minB < l && maxA > l
	p2Mid := maxB > l && minA != 0 && minA < l
	// The engine compares with the minimum where the maximum is right.
	p1Quirk := minB != 0 && minB < l && minA != 0 && l < minA
	p2Quirk := minA != 0 && minA < l && minB != 0 && l < minB
	var t uint8
	if p1End || p1Mid {
		t |= 1
	}
	if p2End || p2Mid {
		t |= 2
	}
	if p1End || p1Quirk {
		t |= 4
	}
	if p2End || p2Quirk {
		t |= 8
	}
	return t
}

// lower returns the smaller of a running minimum m (0 = none yet) and v.
func lower(m, v int) int {
	if m == 0 || v < m {
		return v
	}
	return m
}
