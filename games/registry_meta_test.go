package games

import (
	"strings"
	"testing"
)

// TestRegisterChecksMetadata: metadata the arena relies on is checked when
// the game registers, with a message naming the game and the field.
func TestRegisterChecksMetadata(t *testing.T) {
	for _, tt := range []struct {
		g    Entry
		want string
	}{
		{Entry{Name: "t-meta-plies", OpeningPlies: -2}, "t-meta-plies: OpeningPlies -2"},
		{Entry{Name: "t-meta-key", RoundKey: "seed"}, `t-meta-key: RoundKey "seed" is not among its Options`},
	} {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tt.want) {
					t.Errorf("%s: panic %v, want one containing %q", tt.g.Name, r, tt.want)
				}
			}()
			g := tt.g
			Register(&g)
		}()
	}
}
