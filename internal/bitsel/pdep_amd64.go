package bitsel

// hasBMI2 reports whether this processor has the PDEP instruction (BMI2);
// fastPDEP whether it also runs it in a few cycles: AMD before Zen 3
// (family 0x19) microcodes it, slower than the broadword search, so Select
// uses PDEP only when it is fast. Tests exercise it whenever it exists.
var hasBMI2, fastPDEP = detectPDEP()

func detectPDEP() (bmi2, fast bool) {
	maxLeaf, b, c, d := cpuid(0, 0)
	if maxLeaf < 7 {
		return false, false
	}
	vendor := string(le(b)) + string(le(d)) + string(le(c))
	_, b7, _, _ := cpuid(7, 0)
	if b7&(1<<8) == 0 { // BMI2
		return false, false
	}
	a1, _, _, _ := cpuid(1, 0)
	family := a1 >> 8 & 0xf
	if family == 0xf {
		family += a1 >> 20 & 0xff
	}
	return true, pdepIsFast(vendor, family)
}

// pdepIsFast reports whether a BMI2 processor of the vendor and (extended)
// family runs PDEP fast.
func pdepIsFast(vendor string, family uint32) bool {
	switch vendor {
	case "GenuineIntel":
		return true
	case "AuthenticAMD", "HygonGenuine":
		return family >= 0x19
	}
	return false
}

func le(r uint32) []byte { return []byte{byte(r), byte(r >> 8), byte(r >> 16), byte(r >> 24)} }

// cpuid executes CPUID for the leaf and subleaf.
func cpuid(leaf, subleaf uint32) (a, b, c, d uint32)

// pdep deposits the low bits of src at the set bits of mask (BMI2 PDEP).
func pdep(src, mask uint64) uint64
