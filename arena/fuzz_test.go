package arena

import (
	"bytes"
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/games"
)

// FuzzOpeningsFile: any bytes as an openings file give a book or an error,
// never a panic. The openings of an accepted book are in canonical form
// (they parse back to themselves) and apply to a fresh start position.
func FuzzOpeningsFile(f *testing.F) {
	for _, s := range []string{
		"1 2\n3 3 1 # three plies\n2\n", "# only a comment\n", "1 7\n", "\n\n", "1\r\n2\t3\n",
		"0 | 1, 2|2\n", "0|1,,2 | 2,\n", "| \n", "0 | 1 | 2\n",
	} {
		f.Add(false, []byte(s))
		f.Add(true, []byte(s))
	}
	seq, err := games.Lookup("t-sum")
	if err != nil {
		f.Fatal(err)
	}
	sim, err := games.Lookup("t-sim")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, simultaneous bool, data []byte) {
		v := seq
		if simultaneous {
			v = sim
		}
		b := &Book{variant: v, seed: 1}
		if err := b.read(bytes.NewReader(data), "fuzz.txt"); err != nil {
			return
		}
		if b.Size() == 0 {
			t.Fatal("a book without openings was accepted")
		}
		for r := 0; r < b.Size()+1; r++ {
			o := b.Opening(r)
			again, err := ParseOpening(v, o.Texts)
			if err != nil || !slices.Equal(again.Texts, o.Texts) {
				t.Fatalf("opening %q does not parse back to itself: %q, %v", o.Texts, again.Texts, err)
			}
			moves, err := o.apply(v.New(), nil)
			if err != nil || !slices.Equal(moves, o.Texts) {
				t.Fatalf("opening %q applies as %q, %v", o.Texts, moves, err)
			}
		}
	})
}
