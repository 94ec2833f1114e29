package tryangle

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

// TestSpecValues: the map options refuse a missing value and a seed beyond
// 64 bits with errors that say so.
func TestSpecValues(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"tryangle:seed=-5", ""},
		{"tryangle:seed=9223372036854775807", ""},
		{"tryangle:seed", "tryangle: option seed needs a value (an integer), e.g. seed=1"},
		{"tryangle:seed=9223372036854775808", "tryangle: option seed=9223372036854775808 is out of range"},
		{"tryangle:seed=x", `option seed="x" is not an integer`},
		{"tryangle:map", "tryangle: option map needs a value, e.g. map=FILE"},
		{"tryangle:nodes,edges=1,units=2", "option nodes needs a value"},
	}
	for _, tt := range tests {
		_, err := games.Lookup(tt.spec)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.spec, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one containing %q", tt.spec, err, tt.want)
		}
	}
}
