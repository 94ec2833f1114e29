package othello6

import "testing"

// TestCanonicalPosition: the eight images of a position share their
// canonical text, which reads back as one of them; the side to move counts.
func TestCanonicalPosition(t *testing.T) {
	s := New()
	for _, m := range []string{"c2", "b2", "b1"} {
		mv, _ := s.ParseMove(m)
		s.Play(mv)
	}
	want := s.CanonicalPosition()
	for k := range 8 {
		img, err := FromDiscs(transform(s.discs[0], k), transform(s.discs[1], k), s.side)
		if err != nil {
			t.Fatal(err)
		}
		if got := img.CanonicalPosition(); got != want {
			t.Errorf("image %d: %q, want %q", k, got, want)
		}
	}
	back, err := ParsePosition(want)
	if err != nil || back.side != s.side || back.Empties() != s.Empties() {
		t.Fatalf("%q reads back as %v, %v", want, back, err)
	}
	other, _ := FromDiscs(s.discs[0], s.discs[1], 1-s.side)
	if other.CanonicalPosition() == want {
		t.Error("the side to move is not in the canonical text")
	}
	// The four first moves are one position.
	first := map[string]bool{}
	for _, m := range New().LegalMoves(nil) {
		c := New()
		c.Play(m)
		first[c.CanonicalPosition()] = true
	}
	if len(first) != 1 {
		t.Errorf("%d classes of first moves, want 1", len(first))
	}
}
