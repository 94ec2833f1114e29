package bitsel

import "testing"

// TestPDEPIsFast: the dispatch gate, separate from BMI2 support.
func TestPDEPIsFast(t *testing.T) {
	for _, c := range []struct {
		vendor string
		family uint32
		want   bool
	}{
		{"GenuineIntel", 6, true},
		{"AuthenticAMD", 0x17, false}, // Zen, Zen 2: microcoded PDEP
		{"AuthenticAMD", 0x19, true},  // Zen 3, Zen 4
		{"AuthenticAMD", 0x1a, true},  // Zen 5
		{"HygonGenuine", 0x18, false}, // Zen-based
		{"CentaurHauls", 7, false},
	} {
		if got := pdepIsFast(c.vendor, c.family); got != c.want {
			t.Errorf("pdepIsFast(%q, %#x) = %v, want %v", c.vendor, c.family, got, c.want)
		}
	}
}
