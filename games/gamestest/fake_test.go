package gamestest_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/gamestest"
)

// pile is a small correct game for checking the suite itself: players take
// one or two stones from a pile in turn, and whoever takes the last stone
// wins. A bug switches on one deliberate defect.
type pile struct {
	stones int
	hash   uint64
	hist   []games.Move
	bug    string
	flip   bool // lists the moves backwards (bug "order": every other new game)
	first  int  // the player to move at ply 0 (1 for some positions read as text)
}

const startStones = 11

var keys = func() [2 * (startStones + 1)]uint64 {
	var k [2 * (startStones + 1)]uint64
	x := uint64(0x9e3779b97f4a7c15)
	for i := range k {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		k[i] = x
	}
	return k
}()

// created counts the piles made, for the bug "order".
var created int

func newPile(bug string) *pile {
	created++
	p := &pile{stones: startStones, hist: make([]games.Move, 0, 64), bug: bug, flip: bug == "order" && created%2 == 0}
	p.hash = p.ComputeHash()
	return p
}

func (p *pile) side() int { return (len(p.hist) + p.first) & 1 }

func (p *pile) ComputeHash() uint64 { return keys[2*p.stones+p.side()] }

func (p *pile) ToMove() int {
	if p.stones == 0 && p.bug != "terminal-to-move" {
		return games.None
	}
	return p.side()
}

func (p *pile) Terminal() bool { return p.stones == 0 }

func (p *pile) Outcome() games.Outcome {
	w := 1 - p.side() // the player who took the last stone
	o := games.Outcome{Winner: w, Score: 1 - 2*w}
	if p.bug == "score-sign" {
		o.Score = -o.Score
	}
	return o
}

func (p *pile) Ply() int { return len(p.hist) }

func (p *pile) LegalMoves(buf []games.Move) []games.Move {
	switch {
	case p.stones == 0:
	case p.stones == 1:
		buf = append(buf, 1)
	case p.bug == "duplicate":
		buf = append(buf, 1, 2, 2)
	case p.flip:
		buf = append(buf, 2, 1)
	default:
		buf = append(buf, 1, 2)
	}
	return buf
}

func (p *pile) Play(m games.Move) {
	old := p.hash
	p.stones -= int(m)
	p.hist = append(p.hist, m)
	p.hash = p.ComputeHash()
	if p.bug == "path-hash" && m == 2 {
		p.hash ^= 1 // depends on the move, not only on the position
	}
	if p.bug == "stale-hash" && len(p.hist) == 3 {
		p.hash = old
	}
}

func (p *pile) Undo() {
	if len(p.hist) == 0 {
		if p.bug == "undo-at-start" {
			return
		}
		panic("pile: Undo at the start")
	}
	m := p.hist[len(p.hist)-1]
	p.hist = p.hist[:len(p.hist)-1]
	p.stones += int(m)
	if p.bug != "undo-hash" || m != 2 {
		p.hash = p.ComputeHash()
		if p.bug == "path-hash" && len(p.hist) > 0 && p.hist[len(p.hist)-1] == 2 {
			p.hash ^= 1
		}
	}
}

func (p *pile) Clone() games.State {
	c := *p
	if p.bug != "shared-clone" {
		c.hist = append(make([]games.Move, 0, cap(p.hist)), p.hist...)
	}
	return &c
}

func (p *pile) Hash() uint64 { return p.hash }

func (p *pile) FormatMove(m games.Move) string {
	if p.bug == "notation" && m == 2 {
		return "take1"
	}
	return "take" + strconv.Itoa(int(m))
}

func (p *pile) ParseMove(s string) (games.Move, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "take"))
	if err != nil || n < 1 || n > 2 {
		return 0, fmt.Errorf("pile: %q is not take1 or take2", s)
	}
	return games.Move(n), nil
}

func (p *pile) String() string {
	return fmt.Sprintf("%d stones, player %d to move", p.stones, p.side())
}

// Evaluate implements games.Evaluator: a pile that is a multiple of three
// loses for the player to move.
func (p *pile) Evaluate(q int) int {
	v := 1
	if p.stones%3 == 0 {
		v = -1
	}
	if q != p.side() {
		v = -v
	}
	if p.bug == "eval-bounds" && p.stones == 5 {
		return games.WinScore
	}
	if p.bug == "eval-sign" && p.stones == 0 {
		return 0
	}
	return v
}

// TestSuiteFindsDefects runs the suite on the pile game with each defect
// and expects the suite to name it; the game without a defect must pass.
func TestSuiteFindsDefects(t *testing.T) {
	tests := []struct{ bug, want string }{
		{"", ""},
		{"undo-hash", "play+undo"},
		{"shared-clone", "a clone taken at ply"},
		{"duplicate", "listed twice"},
		{"notation", "parses to 1"},
		{"terminal-to-move", "finished game has player"},
		{"score-sign", "Score's sign"},
		{"eval-bounds", "outside (−WinScore, WinScore)"},
		{"eval-sign", "want a value of sign"},
		{"stale-hash", "from scratch"},
		{"path-hash", "from scratch"},
		{"undo-at-start", "did not panic"},
		{"order", "fresh state"},
	}
	for _, tt := range tests {
		name := tt.bug
		if name == "" {
			name = "correct"
		}
		t.Run(name, func(t *testing.T) {
			v := gamestest.Variant("pile", func() games.Base { return newPile(tt.bug) })
			err := gamestest.Check(v, gamestest.Games(4))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("the correct game fails the suite: %v", err)
			case tt.want != "" && err == nil:
				t.Fatalf("the suite missed the defect %q", tt.bug)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Fatalf("defect %q reported as %q, want a message containing %q", tt.bug, err, tt.want)
			}
		})
	}
}

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Error(args ...any) { r.errors = append(r.errors, fmt.Sprint(args...)) }

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestRunReports checks that Run reports a breach to its testing.TB, once,
// and stays silent on a correct game.
func TestRunReports(t *testing.T) {
	rec := &recorder{TB: t}
	gamestest.Run(rec, gamestest.Variant("pile", func() games.Base { return newPile("shared-clone") }))
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "pile: game ") {
		t.Errorf("Run reported %q, want one error naming the variant and game", rec.errors)
	}
	rec = &recorder{TB: t}
	gamestest.Run(rec, gamestest.Variant("pile", func() games.Base { return newPile("") }))
	if len(rec.errors) != 0 {
		t.Errorf("Run reported %q on a correct game", rec.errors)
	}
}

// A panic inside the game is reported as a breach, not a crash of the test.
func TestCheckReportsPanics(t *testing.T) {
	v := gamestest.Variant("boom", func() games.Base { return boom{newPile("")} })
	err := gamestest.Check(v, gamestest.Games(1))
	if err == nil || !strings.Contains(err.Error(), "panic: boom") {
		t.Fatalf("Check = %v, want the panic reported", err)
	}
}

type boom struct{ *pile }

func (b boom) String() string     { panic("boom") }
func (b boom) Clone() games.State { return boom{b.pile.Clone().(*pile)} }

// sharedSim is a simultaneous game whose Clone returns the state itself.
type sharedSim struct{ games.SimState }

func (s sharedSim) Clone() games.SimState { return s }
func (s sharedSim) ValidMove(p int, m games.Move) bool {
	return s.SimState.(games.MoveValidator).ValidMove(p, m)
}

// seqSim is a simultaneous game that names one player to move.
type seqSim struct{ games.SimState }

func (s seqSim) ToMove() int           { return 0 }
func (s seqSim) Clone() games.SimState { return seqSim{s.SimState.Clone()} }
func (s seqSim) ValidMove(p int, m games.Move) bool {
	return s.SimState.(games.MoveValidator).ValidMove(p, m)
}

// TestSuiteFindsSimultaneousDefects breaks a real simultaneous game (TryAngle
// Catch) in two ways and expects the suite to say so.
func TestSuiteFindsSimultaneousDefects(t *testing.T) {
	tests := []struct {
		name string
		wrap func(games.SimState) games.Base
		want string
	}{
		{"shared-clone", func(s games.SimState) games.Base { return sharedSim{s} }, "changed its clone"},
		{"to-move", func(s games.SimState) games.Base { return seqSim{s} }, "want Both"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			real, err := games.Lookup("tryangle:seed=1")
			if err != nil {
				t.Fatal(err)
			}
			v := gamestest.Variant("broken-tryangle", func() games.Base { return tt.wrap(real.New().(games.SimState)) })
			err = gamestest.Check(v, gamestest.Games(1))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Check = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
