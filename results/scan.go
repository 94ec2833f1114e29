package results

import (
	"strconv"
	"strings"
)

// gameFacts is what the statistics take from one game record: the fields
// Summarize reads, and nothing that grows with the game's length.
type gameFacts struct {
	index       int
	names       [2]string
	moves       [2]int
	timeMS      [2]float64
	nodes       [2]int64
	winner      int
	forfeit     int
	termination string
	plies       int
}

func factsOf(g *GameRecord) gameFacts {
	f := gameFacts{index: g.Index, winner: g.Winner, forfeit: g.Forfeit, termination: g.Termination, plies: g.Plies}
	for p := range g.Players {
		f.names[p], f.moves[p], f.timeMS[p], f.nodes[p] = g.Players[p].Name, g.Players[p].Moves, g.Players[p].TimeMS, g.Players[p].Nodes
	}
	return f
}

// points returns what the game was worth to seat p, as GameRecord.Points.
func (f *gameFacts) points(p int) float64 {
	switch f.winner {
	case -1:
		return 0.5
	case p:
		return 1
	}
	return 0
}

// gameScanner decodes game lines in the canonical form AppendGame writes
// (fields in their order, no spaces, strings of plain printable ASCII
// without escapes) without building a GameRecord: it reads the few fields the
// statistics need, checks the rest's syntax and types, and applies
// GameRecord.Check's rules. Any line it does not accept, for whatever reason, is
// decoded the slow way (strictUnmarshal and Check), so that what is
// accepted and every error message stay exactly those of Read; the
// scanner is only ever a shortcut (FuzzScanGame checks that it agrees).
//
// Strings are compared as raw bytes, which is exact because they hold no
// escapes. Its buffers are reused: scanning makes no allocations once the
// names and terminations have been seen (they are interned).
type gameScanner struct {
	b       []byte
	i       int
	bad     bool
	opening [][2]int // spans of the opening's strings in b
	tc      [2]bool  // the player has a time control
	intern  map[string]string
}

// scan decodes line (trimmed) into f; ok is false when the slow path must
// decide.
func (s *gameScanner) scan(line []byte, f *gameFacts) (ok bool) {
	s.b, s.i, s.bad = line, 0, false
	s.opening = s.opening[:0]
	s.lit(`{"record":"game","index":`)
	f.index = s.int()
	s.lit(`,"pair":`)
	s.int()
	s.lit(`,"round":`)
	s.int()
	s.lit(`,"game":`)
	game := s.str()
	if s.opt(`,"variant":`) {
		s.str()
	}
	s.lit(`,"seed":`)
	s.uint()
	s.lit(`,"players":[`)
	for p := 0; p < 2; p++ {
		if p == 1 {
			s.lit(`,`)
		}
		s.lit(`{"agent":`)
		s.int()
		s.lit(`,"name":`)
		name := s.str()
		if len(name) == 0 {
			s.bad = true
		}
		f.names[p] = s.internBytes(name)
		s.lit(`,"spec":`)
		s.str()
		s.lit(`,"seed":`)
		s.uint()
		s.lit(`,"moves":`)
		f.moves[p] = s.int()
		s.lit(`,"time_ms":`)
		f.timeMS[p] = s.float()
		s.lit(`,"max_move_ms":`)
		s.float()
		s.lit(`,"nodes":`)
		f.nodes[p] = int64(s.int())
		s.tc[p] = false
		if s.opt(`,"tc":`) {
			s.tc[p] = len(s.str()) > 0
		}
		s.lit(`}`)
	}
	s.lit(`],"opening":[`)
	for k := 0; !s.bad && !s.opt(`]`); k++ {
		if k > 0 {
			s.lit(`,`)
		}
		start := s.i
		if s.str(); !s.bad {
			s.opening = append(s.opening, [2]int{start, s.i}) // quotes included
		}
	}
	s.lit(`,"moves":[`)
	moves, fen := 0, false
	for ; !s.bad && !s.opt(`]`); moves++ {
		if moves > 0 {
			s.lit(`,`)
		}
		start := s.i
		m := s.str()
		if moves == 0 && strings.HasPrefix(string(m), PositionPrefix) { // no allocation: the conversion is only compared
			fen = true
		}
		if moves < len(s.opening) && !s.bad {
			o := s.opening[moves]
			if string(s.b[o[0]:o[1]]) != string(s.b[start:s.i]) {
				s.bad = true // Check's message comes from the slow path
			}
		}
	}
	if moves < len(s.opening) {
		s.bad = true
	}
	plies := moves
	if fen {
		plies--
	}
	openingPlies := len(s.opening)
	if !s.bad && len(s.opening) > 0 && strings.HasPrefix(string(s.b[s.opening[0][0]+1:s.opening[0][1]-1]), PositionPrefix) {
		openingPlies--
	}
	s.lit(`,"result":`)
	result := s.str()
	s.lit(`,"winner":`)
	f.winner = s.int()
	s.lit(`,"score":`)
	s.int()
	s.lit(`,"termination":`)
	f.termination = s.internBytes(s.str())
	s.lit(`,"forfeit":`)
	f.forfeit = s.int()
	if s.opt(`,"detail":`) {
		s.str()
	}
	if s.opt(`,"trimmed":`) && s.int() < 0 {
		s.bad = true // Check's message comes from the slow path
	}
	if s.opt(`,"adjudicated":`) && (string(s.str()) != AdjudicatedSolved || f.termination != Adjudication) {
		s.bad = true // Check's message comes from the slow path
	}
	s.lit(`,"plies":`)
	f.plies = s.int()
	s.lit(`,"duration_ms":`)
	s.float()
	if s.opt(`,"clocks_ms":[`) {
		n := 0
		for ; !s.bad && !s.opt(`]`); n++ {
			if n > 0 {
				s.lit(`,`)
			}
			s.lit(`[`)
			for p := 0; p < 2; p++ {
				if p == 1 {
					s.lit(`,`)
				}
				v := s.float()
				if s.tc[p] && !(v >= 0 && v <= maxClockMS) || !s.tc[p] && v != NoClock {
					s.bad = true
				}
			}
			s.lit(`]`)
		}
		if n == 0 || n != plies-openingPlies || !s.tc[0] && !s.tc[1] {
			s.bad = true
		}
	}
	if s.opt(`,"move_stats":[`) {
		var count [2]int
		for k := 0; !s.bad && !s.opt(`]`); k++ {
			if k > 0 {
				s.lit(`,`)
			}
			s.lit(`{"player":`)
			p := s.int()
			s.lit(`,"ms":`)
			ms := s.float()
			if s.opt(`,"depth":`) && s.int() < 0 {
				s.bad = true
			}
			if s.opt(`,"score":`) {
				s.int()
			}
			if s.opt(`,"nodes":`) && s.int() < 0 {
				s.bad = true
			}
			if s.opt(`,"info":`) {
				s.str()
			}
			s.lit(`}`)
			if p != 0 && p != 1 || !(ms >= 0 && ms <= maxClockMS) {
				s.bad = true
				break
			}
			count[p]++
		}
		if count[0] != f.moves[0] || count[1] != f.moves[1] || count[0]+count[1] == 0 {
			s.bad = true
		}
	}
	if s.opt(`,"worker":`) && len(s.str()) > MaxWorkerName {
		s.bad = true // Check's message comes from the slow path
	}
	// A scaled game's factor and speed: Check's bounds are the slow path's.
	if s.opt(`,"tc_scale":`) {
		if v := s.float(); !(v >= MinTCScale && v <= MaxTCScale) {
			s.bad = true
		}
	}
	if s.opt(`,"worker_nps":`) {
		if v := s.float(); !(v > 0 && v <= maxNPS) {
			s.bad = true
		}
	}
	s.lit(`}`)
	if s.bad || s.i != len(s.b) {
		return false
	}
	// GameRecord.Check's rules; a failure goes to the slow path for its message.
	switch {
	case len(game) == 0, f.index < 0, f.names[0] == f.names[1], f.plies != plies:
		return false
	case f.winner == 0 && string(result) != "1-0", f.winner == 1 && string(result) != "0-1",
		f.winner == -1 && string(result) != "1/2-1/2", f.winner < -1 || f.winner > 1:
		return false
	case f.forfeit < -1 || f.forfeit > BothForfeit:
		return false
	}
	known := false
	for _, t := range Terminations {
		known = known || t == f.termination
	}
	forfeitReason := f.termination != Normal && f.termination != Adjudication
	if !known || forfeitReason != (f.forfeit != -1) || (f.forfeit == 0 || f.forfeit == 1) && f.winner != 1-f.forfeit {
		return false
	}
	return true
}

// internBytes returns b as a string, allocating only the first time.
func (s *gameScanner) internBytes(b []byte) string {
	if v, ok := s.intern[string(b)]; ok {
		return v
	}
	if s.intern == nil {
		s.intern = map[string]string{}
	}
	if len(s.intern) > 1<<16 {
		return string(b) // a file of unbounded distinct strings: stop growing
	}
	v := string(b)
	s.intern[v] = v
	return v
}

// lit consumes the exact text want.
func (s *gameScanner) lit(want string) {
	if s.bad || len(s.b)-s.i < len(want) || string(s.b[s.i:s.i+len(want)]) != want {
		s.bad = true
		return
	}
	s.i += len(want)
}

// opt consumes want if it comes next.
func (s *gameScanner) opt(want string) bool {
	if s.bad || len(s.b)-s.i < len(want) || string(s.b[s.i:s.i+len(want)]) != want {
		return false
	}
	s.i += len(want)
	return true
}

// str consumes a string of printable ASCII without escapes and returns
// its contents.
func (s *gameScanner) str() []byte {
	if s.bad || s.i >= len(s.b) || s.b[s.i] != '"' {
		s.bad = true
		return nil
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			return s.b[start:j]
		case c < 0x20 || c >= 0x7f || c == '\\':
			s.bad = true // escapes, control bytes, UTF-8: the slow path
			return nil
		}
	}
	s.bad = true
	return nil
}

// number consumes a JSON number and returns its text; integer requires
// no fraction or exponent.
func (s *gameScanner) number(integer bool) []byte {
	if s.bad {
		return nil
	}
	b, j := s.b, s.i
	if j < len(b) && b[j] == '-' {
		j++
	}
	digits := func() int {
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j - k
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case digits() == 0:
		s.bad = true
		return nil
	}
	if !integer {
		if j < len(b) && b[j] == '.' {
			j++
			if digits() == 0 {
				s.bad = true
				return nil
			}
		}
		if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
			j++
			if j < len(b) && (b[j] == '+' || b[j] == '-') {
				j++
			}
			if digits() == 0 {
				s.bad = true
				return nil
			}
		}
	}
	text := b[s.i:j]
	s.i = j
	return text
}

// int consumes an integer that fits an int64 (Go's int here).
func (s *gameScanner) int() int {
	text := s.number(true)
	if s.bad {
		return 0
	}
	neg := text[0] == '-'
	if neg {
		text = text[1:]
	}
	if len(text) > 18 { // beyond 18 digits overflow is possible: the slow path decides
		s.bad = true
		return 0
	}
	v := 0
	for _, c := range text {
		v = v*10 + int(c-'0')
	}
	if neg {
		v = -v
	}
	return v
}

// uint consumes a non-negative integer that fits a uint64.
func (s *gameScanner) uint() uint64 {
	text := s.number(true)
	if s.bad {
		return 0
	}
	v, err := strconv.ParseUint(string(text), 10, 64) // no allocation: the conversion does not escape
	if err != nil {
		s.bad = true
	}
	return v
}

// float consumes a number as encoding/json reads a float64.
func (s *gameScanner) float() float64 {
	text := s.number(false)
	if s.bad {
		return 0
	}
	v, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		s.bad = true
	}
	return v
}
