package results

import "testing"

func TestPlies(t *testing.T) {
	for _, tc := range []struct {
		moves []string
		want  int
	}{
		{nil, 0},
		{[]string{"c2", "b2"}, 2},
		{[]string{"fen ....../......", "c2", "b2"}, 2},
		{[]string{"fen ....../......"}, 0},
		{[]string{"c2", "fen x"}, 2}, // only a leading entry is a start position
	} {
		if got := Plies(tc.moves); got != tc.want {
			t.Errorf("Plies(%q) = %d, want %d", tc.moves, got, tc.want)
		}
	}
}
