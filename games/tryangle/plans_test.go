package tryangle

import (
	"fmt"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// Every command of every plan, on every turn of random games on several
// maps, passes the referee's parse-time checks and its strict check at the
// start of the turn (the referee would run it, not skip it), and no plan
// moves more units out of a house than stand there. The lines parse back
// to the same commands.
func TestPlansAcceptedByReferee(t *testing.T) {
	for _, seed := range []int64{1, 2, 3, 7, 12, 40} {
		s := New(Generate(seed))
		r := rng.New(uint64(seed))
		var buf []games.Move
		turns := 0
		for !s.Terminal() {
			for p := 0; p < 2; p++ {
				buf = s.LegalMovesFor(p, buf[:0])
				if len(buf) > maxPlans {
					t.Fatalf("seed %d turn %d: %d plans, more than maxPlans", seed, s.Turn(), len(buf))
				}
				for i, m := range buf {
					cmds, ok := s.moveCommands(m)
					if !ok {
						t.Fatalf("seed %d turn %d: plan %d of player %d has no commands", seed, s.Turn(), i, p)
					}
					if err := planAccepted(s, p, cmds); err != nil {
						t.Fatalf("seed %d turn %d player %d plan %d (%v) %q: %v", seed, s.Turn(), p, i,
							s.PlanKinds(p)[i], FormatCommands(cmds), err)
					}
					line := s.FormatMove(m)
					if got := FormatCommands(ParseLine(line).Commands); got != line {
						t.Fatalf("plan line %q parses back as %q", line, got)
					}
				}
			}
			b0 := s.LegalMovesFor(0, nil)
			b1 := s.LegalMovesFor(1, nil)
			s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
			turns++
		}
		if turns < 5 {
			t.Errorf("seed %d: the random game lasted only %d turns", seed, turns)
		}
	}
}

// planAccepted checks cmds against the referee's checks at the start of
// the turn (§7.2, §7.3).
func planAccepted(s *State, p int, cmds []Command) error {
	var out [MaxHouses]int32
	for _, c := range cmds {
		tk, ok := s.makeTask(p, &c)
		if !ok {
			return fmt.Errorf("%v fails the parse-time checks", c)
		}
		if !s.strict(&tk) {
			return fmt.Errorf("%v fails the strict check", c)
		}
		if c.Kind == CmdMove {
			out[c.H[0]] += c.Amount
			if out[c.H[0]] > s.units[p][c.H[0]] {
				return fmt.Errorf("moves %d units out of house %d, which has %d", out[c.H[0]], c.H[0], s.units[p][c.H[0]])
			}
		}
	}
	return nil
}

// Plan generation allocates nothing once the buffers are warm, on every
// position of a game.
func TestLegalMovesForDoesNotAllocate(t *testing.T) {
	s := New(Generate(3))
	randomGame(t, s, 5, nil)
	n := s.Ply()
	buf := make([]games.Move, 0, games.MaxMoves)
	regen := func() {
		for p := 0; p < 2; p++ {
			s.genPlans(p, &s.scr().plans[p]) // generation itself, not the plan cache
			buf = s.LegalMovesFor(p, buf[:0])
		}
	}
	for s.Ply() > 0 {
		s.Undo()
		regen() // warm
	}
	for i := 0; i < n/2; i++ {
		b0 := s.LegalMovesFor(0, nil)
		b1 := s.LegalMovesFor(1, nil)
		s.PlayJoint(b0[len(b0)-1], b1[len(b1)-1])
		if s.Terminal() {
			break
		}
		if a := testing.AllocsPerRun(3, regen); a != 0 {
			t.Fatalf("turn %d: LegalMovesFor allocates %.1f times", s.Turn(), a)
		}
	}
}

// The spread plans exist and move units one hop at a time: from a start
// position, the spread spreads the three units over distinct houses.
func TestSpreadPlanSpreadsUnits(t *testing.T) {
	for _, seed := range []int64{1, 2, 5} {
		s := New(Generate(seed))
		kinds := s.PlanKinds(0)
		moves := s.LegalMovesFor(0, nil)
		found := false
		for i, k := range kinds {
			if k != PlanSpread && k != PlanSpreadSpawn { // the same plan when p owns no triangle
				continue
			}
			found = true
			cmds, _ := s.moveCommands(moves[i])
			for _, c := range cmds {
				if c.Kind != CmdMove || !s.Adjacent(int(c.H[0]), int(c.H[1])) {
					t.Fatalf("seed %d: spread command %v is not a one-hop move", seed, c)
				}
			}
			s.PlayJoint(moves[i], Hold)
			houses := 0
			for h := 0; h < s.Houses(); h++ {
				if s.Units(0, h) > 0 {
					houses++
				}
			}
			if houses < 3 {
				t.Errorf("seed %d: after the spread player 0 stands on %d houses", seed, houses)
			}
		}
		if !found {
			t.Errorf("seed %d: no spread plan at the start (kinds %v)", seed, kinds)
		}
	}
}

// TestSpreadCountsIncremental: the spread keeps each triangle's held and
// present corners up to date as units move (spreadCount) instead of
// recounting them; after every plan generation of random games on several
// maps they equal a recount from the plan's unit counts, and each
// triangle's value is the value of those counts.
func TestSpreadCountsIncremental(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		s := New(Generate(seed))
		r := rng.New(uint64(seed))
		var b [2][]games.Move
		for !s.Terminal() {
			for p := range 2 {
				b[p] = s.LegalMovesFor(p, b[p][:0])
				sp := &s.scr().plan.spread
				for i := 0; i < sp.ntri; i++ {
					var held, present int8
					for _, c := range s.tris[i].c {
						if sp.cnt[c] >= sp.need[c] {
							held++
						}
						if sp.cnt[c] > 0 {
							present++
						}
					}
					if held != sp.held[i] || present != sp.present[i] {
						t.Fatalf("map %d, turn %d, player %d, triangle %d: kept held %d present %d, recounted %d %d",
							seed, s.Ply(), p, i, sp.held[i], sp.present[i], held, present)
					}
					if v := spreadValue(sp.kind[i], held, present); v != sp.val[i] {
						t.Fatalf("map %d, turn %d, player %d, triangle %d: kept value %d, recomputed %d", seed, s.Ply(), p, i, sp.val[i], v)
					}
				}
			}
			s.PlayJoint(b[0][r.IntN(len(b[0]))], b[1][r.IntN(len(b[1]))])
		}
	}
}
