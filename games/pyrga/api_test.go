package pyrga

import (
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

func TestRegistry(t *testing.T) {
	tests := []struct {
		spec    string
		bga     bool
		wantErr string // substring of the error, "" for success
	}{
		{spec: "pyrga"},
		{spec: "pyrga:bga", bga: true},
		{spec: "pyrga:bga=true", bga: true},
		{spec: "pyrga:bga=false"},
		{spec: "pyrga:bga=maybe", wantErr: "not a boolean"},
		{spec: "pyrga:algol", wantErr: "valid: bga"},
	}
	for _, tc := range tests {
		b, err := games.New(tc.spec)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tc.spec, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		s, ok := b.(*State)
		if !ok {
			t.Fatalf("%s: got %T", tc.spec, b)
		}
		if s.BGA() != tc.bga || s.Ply() != 0 || s.ToMove() != 0 {
			t.Errorf("%s: bga %v ply %d to move %d", tc.spec, s.BGA(), s.Ply(), s.ToMove())
		}
	}
}

// TestNotation checks every one of the 256 move codes: the 80 that exist
// format and parse back; the rest format as "?n".
func TestNotation(t *testing.T) {
	valid := 0
	for m := games.Move(0); m < 256; m++ {
		text := FormatMove(m)
		if strings.HasPrefix(text, "?") {
			continue
		}
		valid++
		if back, err := ParseMove(text); err != nil || back != m {
			t.Errorf("%d → %q → %d, %v", m, text, back, err)
		}
	}
	if valid != 80 {
		t.Errorf("%d move codes format, want 80 (16 S + 48 T + 16 C)", valid)
	}
	tests := []struct {
		text string
		want string // canonical form, "" if rejected
	}{
		{"S@b2", "S@b2"}, {"c@B2", "C@b2"}, {" t@b2>n ", "T@b2>N"}, {"T@d1>W", "T@d1>W"},
		{"T@a4>N", ""}, {"T@a1>W", ""}, {"T@b2", ""}, {"S@b2>N", ""}, {"X@b2", ""},
		{"S@e1", ""}, {"S@a5", ""}, {"S-b2", ""}, {"T@b2>Q", ""}, {"", ""}, {"ſ@b2", ""}, {"S@b2>", ""},
	}
	for _, tc := range tests {
		m, err := ParseMove(tc.text)
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("ParseMove(%q) = %s, want an error", tc.text, FormatMove(m))
		case tc.want != "" && err != nil:
			t.Errorf("ParseMove(%q): %v", tc.text, err)
		case tc.want != "" && FormatMove(m) != tc.want:
			t.Errorf("ParseMove(%q) formats as %q, want %q", tc.text, FormatMove(m), tc.want)
		}
	}
}

func TestString(t *testing.T) {
	s := New()
	play(t, s, "S@b2 c@c2 T@c2>W")
	want := `    a   b   c   d
4  ... ... ... ...
3  ... ... ... ...
2  ... S.. .Tc ...
1  ... ... ... ...
White: towers 0, pairs 0, singles 1; stock S4 T4 C5
Black: towers 0, pairs 0, singles 0; stock S5 T5 C4
last move T@c2>W (ply 3)
Black (second player) to move on a2 b2`
	if got := s.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := New().String(); !strings.HasSuffix(got, "White (first player) to move: any piece, any cell") {
		t.Errorf("start position renders as\n%s", got)
	}
}

// TestEvaluate checks hand-computed values and the evaluation's symmetry
// and bounds over random positions.
func TestEvaluate(t *testing.T) {
	tests := []struct {
		transcript string
		white      int // Evaluate(0)
	}{
		{"", 0},
		{"S@b2", 20},
		// b2 is a 1–1 stack Black (to move, on b2 c2 d2) can complete for
		// itself with T@b2; White has a single on a2.
		{"C@b2 S@b2 T@a2>E", 20 - 300},
		// White's b2 pair; Black (to move, on b2) can only add a piece that
		// leaves White in control.
		{"S@b2 S@b3 T@b2>N", 150 - 20},
		// After ply 11 of the careless game White has two towers and d2
		// holds two White pieces: a pair; Black must complete it for White.
		{"C@c4 S@c4 T@d4>W S@b4 T@c4>E C@d4 S@d4 S@d3 T@d2>S S@d1 C@d2", 2*1000 + 150 - 3*20},
		// White owns a1 and b2 and, to move, can complete b1 (s.C) with its
		// Triangle: the decisive threat. Black has singles a2 and c2.
		{"S@a1 S@a2 C@a1 T@a1>E C@b1 S@b1 T@b2>E S@c2 C@b2 S@b2", 2*1000 + 5000 - 2*20},
	}
	for _, tc := range tests {
		s := New()
		play(t, s, tc.transcript)
		if got := s.Evaluate(0); got != tc.white {
			t.Errorf("%q: Evaluate(White) = %d, want %d\n%s", tc.transcript, got, tc.white, s)
		}
		if got := s.Evaluate(1); got != -tc.white {
			t.Errorf("%q: Evaluate(Black) = %d, want %d", tc.transcript, got, -tc.white)
		}
	}
	for seed := range uint64(500) {
		r := rng.New(seed)
		s := New()
		for {
			e := s.Evaluate(0)
			if e != -s.Evaluate(1) || e <= -games.WinScore || e >= games.WinScore {
				t.Fatalf("seed %d ply %d: Evaluate %d / %d", seed, s.Ply(), e, s.Evaluate(1))
			}
			if s.Terminal() {
				o := s.Outcome()
				if (e > 0) != (o.Winner == 0) || (e == 0) != (o.Winner == games.Draw) || (e != 0 && abs(e) < games.WinScore/2) {
					t.Fatalf("seed %d: final Evaluate %d for outcome %+v", seed, e, o)
				}
				break
			}
			l := s.LegalMoves(nil)
			s.Play(l[r.IntN(len(l))])
		}
	}
}
