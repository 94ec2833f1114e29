package tryangle

import (
	"fmt"
	"strings"
	"sync"

	"github.com/boardgame-arena/arena/games"
)

// Move encoding (see the package doc):
//
//	Hold (0)              WAIT
//	bit 31 set            an interned command line (ParseMove), index below
//	otherwise             a plan: bits 0–7 the turn it belongs to (Ply mod
//	                      256), bit 8 the player, bits 9–14 its index in
//	                      that player's plan list for that position
const (
	// Hold is the plan "WAIT": no command at all. It is always the first
	// move LegalMovesFor lists.
	Hold     games.Move = 0
	interned games.Move = 1 << 31
)

func planMove(ply, p, i int) games.Move {
	return games.Move(ply&0xff | p<<8 | i<<9)
}

func decodePlan(m games.Move) (tag, p, i int) {
	return int(m & 0xff), int(m >> 8 & 1), int(m >> 9 & 0x3f)
}

// lineTable interns command lines; states and their clones share it.
type lineTable struct {
	mu    sync.RWMutex
	index map[string]uint32
	lines []*Line
}

func newLineTable() *lineTable { return &lineTable{index: map[string]uint32{}} }

func (lt *lineTable) intern(text string) games.Move {
	lt.mu.RLock()
	i, ok := lt.index[text]
	lt.mu.RUnlock()
	if ok {
		return interned | games.Move(i)
	}
	ln := ParseLine(text)
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if i, ok := lt.index[text]; ok {
		return interned | games.Move(i)
	}
	i = uint32(len(lt.lines))
	lt.lines = append(lt.lines, &ln)
	lt.index[text] = i
	return interned | games.Move(i)
}

func (lt *lineTable) get(m games.Move) *Line {
	i := int(m &^ interned)
	lt.mu.RLock()
	defer lt.mu.RUnlock()
	if i >= len(lt.lines) {
		return nil
	}
	return lt.lines[i]
}

// ParseMove implements games.Base. Any single line is a move: it is
// interned (stored once in a table shared with clones) and parsed per §7.
// A line with an unknown command is accepted here and makes its player
// lose when played, as on CodinGame; use CheckLine to refuse it earlier.
// An empty line and "WAIT" give Hold.
func (s *State) ParseMove(text string) (games.Move, error) {
	if strings.ContainsAny(text, "\n") {
		return 0, fmt.Errorf("tryangle: a move is one output line, got %q", text)
	}
	if t := strings.ToUpper(strings.TrimFunc(text, javaSpace)); t == "" || t == "WAIT" {
		return Hold, nil
	}
	return s.lines.intern(text), nil
}

// CheckLine returns an error describing the first unknown command of an
// output line (a critical error that loses the game), or nil.
func CheckLine(text string) error {
	if strings.ContainsAny(text, "\n") {
		return fmt.Errorf("tryangle: an output is one line")
	}
	if ln := ParseLine(text); ln.Unknown != "" {
		return fmt.Errorf("tryangle: unknown command %q", ln.Unknown)
	}
	return nil
}

// Line returns the parsed line of an interned move (nil for other moves).
func (s *State) Line(m games.Move) *Line {
	if m&interned == 0 {
		return nil
	}
	return s.lines.get(m)
}

// FormatMove implements games.Base: the command line the move stands for.
// A plan is expanded in the position of the turn it was listed for: the
// current one, or an earlier one of this game's history (so a move may be
// formatted after it was played).
func (s *State) FormatMove(m games.Move) string {
	cmds, ok := s.moveCommands(m)
	if !ok {
		if m&interned != 0 {
			return fmt.Sprintf("?line%d", m&^interned)
		}
		return fmt.Sprintf("?plan%d", m)
	}
	if m&interned != 0 {
		return s.lines.get(m).Text
	}
	return FormatCommands(cmds)
}

// moveCommands returns the commands of m, looking plans up in the position
// they belong to.
func (s *State) moveCommands(m games.Move) ([]Command, bool) {
	switch {
	case m == Hold:
		return nil, true
	case m&interned != 0:
		ln := s.lines.get(m)
		if ln == nil {
			return nil, false
		}
		return ln.Commands, true
	}
	tag, p, i := decodePlan(m)
	if i == 0 {
		return nil, true
	}
	at := s
	if tag != s.ply&0xff {
		if tag > s.ply {
			return nil, false
		}
		at = s.positionAt(tag)
	}
	if at.over {
		return nil, false
	}
	ps := at.plansFor(p)
	if i >= ps.n {
		return nil, false
	}
	return ps.plan(i), true
}

// positionAt rebuilds the position before turn ply+1 from the history.
func (s *State) positionAt(ply int) *State {
	c := &State{m: s.m, n: s.n, lines: s.lines}
	e := s.hist[ply]
	c.restore(&e, s.histData[e.off:])
	c.ply = ply
	return c
}

// LegalMovesFor implements games.SimState: player p's candidate plans in
// this position, Hold first (see the package doc). Any command line is a
// move too (ParseMove); the plans are what built-in agents choose from.
func (s *State) LegalMovesFor(p int, buf []games.Move) []games.Move {
	if s.over {
		return buf
	}
	ps := s.plansFor(p)
	buf = append(buf, Hold)
	for i := 1; i < ps.n; i++ {
		buf = append(buf, planMove(s.ply, p, i))
	}
	return buf
}

// PlayJoint implements games.SimState: both players' commands of this turn
// are resolved together (§6). m0 and m1 are Hold, interned lines, or plans
// that LegalMovesFor listed in this position for that player.
func (s *State) PlayJoint(m0, m1 games.Move) {
	if s.over {
		panic("tryangle: PlayJoint on a finished game")
	}
	var cmds [2][]Command
	var critical [2]bool
	for p, m := range [2]games.Move{m0, m1} {
		switch {
		case m == Hold:
		case m&interned != 0:
			ln := s.lines.get(m)
			if ln == nil {
				panic(fmt.Sprintf("tryangle: unknown line move %d", m))
			}
			cmds[p], critical[p] = ln.Commands, ln.Unknown != ""
		default:
			tag, q, i := decodePlan(m)
			if i == 0 {
				break
			}
			ps := s.plansFor(p)
			if tag != s.ply&0xff || q != p || i >= ps.n {
				panic(fmt.Sprintf("tryangle: plan move %d is not one of player %d's plans at turn %d", m, p, s.Turn()))
			}
			cmds[p] = ps.plan(i)
		}
	}
	s.push()
	s.resolve(cmds, critical)
	s.ply++
	s.hash ^= s.meta
	s.meta = s.metaKey()
	s.hash ^= s.meta
}

// ValidMove implements games.MoveValidator: Hold, any interned line (even
// one with an unknown command, which loses by the rules), and player p's
// plans of this turn are valid.
func (s *State) ValidMove(p int, m games.Move) bool {
	if s.over {
		return false
	}
	switch {
	case m == Hold:
		return true
	case m&interned != 0:
		return s.lines.get(m) != nil
	}
	tag, q, i := decodePlan(m)
	return tag == s.ply&0xff && q == p && i < s.plansFor(p).n
}
