package tryangle

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// evalBefore is the evaluation as it was before the weights became
// settable (constants written out), kept to prove default play unchanged.
func evalBefore(s *State, p int) int {
	o := 1 - p
	if s.over {
		d := int(s.score[p] - s.score[o])
		switch {
		case d > 0:
			return games.WinScore/2 + 10*d
		case d < 0:
			return -games.WinScore/2 + 10*d
		}
		return 0
	}
	units, owned, _ := s.counts()
	own0, own1 := s.ownership()
	var reach [2]int
	for q := 0; q < 2; q++ {
		c := int(s.analyze(q, own0, own1))
		if c < 0 || c > 20 {
			c = 20
		}
		reach[q] = c
	}
	uv := func(u int) int { return 150*min(u, 3) + 90*min(max(u-3, 0), 9) + 30*max(u-12, 0) }
	dg := func(units, owned int) int {
		if owned > 0 || units > 2 {
			return 0
		}
		return 1500
	}
	horizon := min(MaxTurns-s.ply-1, 8)
	v := 10*int(s.score[p]-s.score[o]) + 10*horizon*(owned[p]-owned[o]) +
		uv(units[p]) - uv(units[o]) + 10*(reach[o]-reach[p]) +
		dg(units[o], owned[o]) - dg(units[p], owned[p])
	const bound = games.WinScore/2 - 1
	return max(-bound, min(bound, v))
}

// legacyWeights are the defaults before the houses, near and horizon
// weights existed and the unit weights were retuned (#16).
var legacyWeights = []int{10, 10, 150, 90, 30, 10, 1500, 0, 0, 8}

// TestLegacyWeightsUnchanged: on every position of 40 random games on 8
// generated maps, the evaluation with the old defaults set explicitly (also
// in a clone) equals the one before weights existed, from both sides.
func TestLegacyWeightsUnchanged(t *testing.T) {
	r := rng.New(13)
	n := 0
	for g := 0; g < 40; g++ {
		s := New(Generate(int64(g % 8)))
		s.UseWeights(legacyWeights)
		var b0, b1 []games.Move
		for {
			c := s.clone()
			for p := 0; p < 2; p++ {
				want := evalBefore(s, p)
				if got := s.Evaluate(p); got != want {
					t.Fatalf("game %d turn %d player %d: %d, before %d", g, s.Turn(), p, got, want)
				}
				if got := c.Evaluate(p); got != want {
					t.Fatalf("game %d turn %d player %d: clone %d, before %d", g, s.Turn(), p, got, want)
				}
				n++
			}
			if s.Terminal() {
				break
			}
			b0 = s.LegalMovesFor(0, b0[:0])
			b1 = s.LegalMovesFor(1, b1[:0])
			s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
		}
	}
	if n < 1000 {
		t.Fatalf("only %d positions", n)
	}
}

// The defaults differ from the legacy weights exactly where #16 retuned
// them (houses, new then, was tried and kept at the legacy 0).
func TestDefaultsAgainstLegacy(t *testing.T) {
	d := games.DefaultWeights(weightList)
	for i, w := range weightList {
		changed := d[i] != legacyWeights[i]
		retuned := w.Name == "unit_next" || w.Name == "unit_extra" || w.Name == "near"
		if changed != retuned {
			t.Errorf("weight %s: default %d, legacy %d; retuned by #16: %v", w.Name, d[i], legacyWeights[i], retuned)
		}
	}
}

// TestWeightsHandValues: positions after a few random turns on generated
// maps, checked term by term (score, owned, unit_first, unit_next,
// unit_extra, danger, houses, near; all but reach, whose capture costs only
// the evaluation's own analysis gives) against counts taken from the state,
// each weight alone and together.
func TestWeightsHandValues(t *testing.T) {
	r := rng.New(2)
	checked, nonzero := 0, 0
	seen := map[string]bool{} // cases whose term was not zero somewhere
	check := func(g int, s *State) {
		units, owned, _ := s.counts()
		horizon := min(MaxTurns-s.ply-1, 8)
		ds := int(s.score[0] - s.score[1])
		houses, near := handTerritory(s)
		var danger [2]int // §9's early loss is near: no triangle, at most two units
		for p := range danger {
			if owned[p] == 0 && units[p] <= 2 {
				danger[p] = 1
			}
		}
		extra := max(units[0]-12, 0) - max(units[1]-12, 0)
		cases := []struct {
			name string
			w    []int
			want int
		}{
			{"score 7", []int{7, 0, 0, 0, 0, 0, 0, 0, 0, 8}, 7 * ds},
			{"owned 5", []int{0, 5, 0, 0, 0, 0, 0, 0, 0, 8}, 5 * horizon * (owned[0] - owned[1])},
			{"owned 5 horizon 3", []int{0, 5, 0, 0, 0, 0, 0, 0, 0, 3}, 5 * 3 * (owned[0] - owned[1])},
			{"unit_first 1", []int{0, 0, 1, 0, 0, 0, 0, 0, 0, 8}, min(units[0], 3) - min(units[1], 3)},
			{"unit_next 1", []int{0, 0, 0, 1, 0, 0, 0, 0, 0, 8}, min(max(units[0]-3, 0), 9) - min(max(units[1]-3, 0), 9)},
			{"unit_extra 2", []int{0, 0, 0, 0, 2, 0, 0, 0, 0, 8}, 2 * extra},
			{"danger 6", []int{0, 0, 0, 0, 0, 0, 6, 0, 0, 8}, 6 * (danger[1] - danger[0])},
			{"houses 3", []int{0, 0, 0, 0, 0, 0, 0, 3, 0, 8}, 3 * houses},
			{"near 4", []int{0, 0, 0, 0, 0, 0, 0, 0, 4, 8}, 4 * near},
		}
		for _, c := range cases {
			prev := s.UseWeights(c.w)
			got0, got1 := s.Evaluate(0), s.Evaluate(1)
			s.UseWeights(prev)
			if got0 != c.want || got1 != -c.want {
				t.Errorf("game %d ply %d %s: %d / %d, want %d (units %v owned %v)", g, s.ply, c.name, got0, got1, c.want, units, owned)
			}
			checked++
			if c.want != 0 {
				nonzero++
				seen[c.name] = true
			}
		}
		// The sum of weights is the sum of the terms (the evaluation is
		// linear in the weights, below the clamp).
		all := []int{7, 5, 1, 1, 2, 0, 6, 3, 4, 8}
		prev := s.UseWeights(all)
		sum := s.Evaluate(0)
		s.UseWeights(prev)
		want := 7*ds + 5*horizon*(owned[0]-owned[1]) + min(units[0], 3) - min(units[1], 3) +
			min(max(units[0]-3, 0), 9) - min(max(units[1]-3, 0), 9) + 2*extra + 6*(danger[1]-danger[0]) + 3*houses + 4*near
		if sum != want {
			t.Errorf("game %d ply %d: weights %v give %d, the terms %d", g, s.ply, all, sum, want)
		}
	}
	for g := 0; g < 30; g++ {
		s := New(Generate(int64(g)))
		var b0, b1 []games.Move
		// Positions along whole games: early ones, later ones with units
		// beyond 12, and near the end players close to an early loss.
		for k := 0; !s.Terminal(); k++ {
			if k%4 == 3 {
				check(g, s)
			}
			b0 = s.LegalMovesFor(0, b0[:0])
			b1 = s.LegalMovesFor(1, b1[:0])
			s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
		}
	}
	if checked < 80 || nonzero < 20 {
		t.Fatalf("only %d cases, %d of them with a non-zero term", checked, nonzero)
	}
	for _, name := range []string{"score 7", "owned 5", "unit_first 1", "unit_next 1", "unit_extra 2", "danger 6", "houses 3", "near 4"} {
		if !seen[name] {
			t.Errorf("case %s: its term was zero in every position, so it checks nothing", name)
		}
	}
}

// handTerritory counts houses owned and "near" triangles (capturable, two
// corners owned, the third not the opponent's) from the public view.
func handTerritory(s *State) (houses, near int) {
	v := s.View()
	owner := make([]int, s.Houses())
	for h, hv := range v.Houses {
		owner[h] = hv.Owner
		switch hv.Owner {
		case 0:
			houses++
		case 1:
			houses--
		}
	}
	for _, tr := range s.Triangles() {
		for p, sign := range [2]int{1, -1} {
			mine, theirs := 0, 0
			for _, c := range tr.Corners {
				switch owner[c] {
				case p:
					mine++
				case 1 - p:
					theirs++
				}
			}
			if tr.Owner != p && tr.CanCapture[p] && mine == 2 && theirs == 0 {
				near += sign
			}
		}
	}
	return houses, near
}
