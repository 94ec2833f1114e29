package ugi

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/games"
)

// GameOption is the option by which an engine that plays several games is
// told the variant (its canonical spec, e.g. erdos:algol).
const GameOption = "UGI_Game"

// Field returns the first blank-separated word of s and what follows it:
// strings.Fields one word at a time, without allocating. Every line of
// the protocol is read with it: a command and its arguments, and the words
// of the arguments one by one.
func Field(s string) (word, rest string) {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isBlank(s[j]) {
		j++
	}
	return s[i:j], s[j:]
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// Words returns the words of s joined by one space: a name or a text of
// several words as the protocol means it, whatever blanks separate them.
func Words(s string) string { return string(appendWords(nil, s)) }

// appendWords appends the words of s to b, separated by one space.
func appendWords(b []byte, s string) []byte {
	for first := true; ; first = false {
		w, rest := Field(s)
		if w == "" {
			return b
		}
		if !first {
			b = append(b, ' ')
		}
		b = append(b, w...)
		s = rest
	}
}

// ID reads the arguments of an id line ("name NAME…" or "author TEXT…"):
// the key and its text, words joined by one space.
func ID(args string) (key, text string) {
	key, rest := Field(args)
	return key, Words(rest)
}

// OptionName reads the arguments of an option line of the handshake
// ("name NAME… type TYPE …") and returns the option's name: its words up
// to the word type, joined by one space. ok is false when the line names
// no option.
func OptionName(args string) (name string, ok bool) {
	kw, rest := Field(args)
	if kw != "name" {
		return "", false
	}
	for r := rest; ; {
		at := len(rest) - len(r)
		w, after := Field(r)
		if w == "" || w == "type" {
			name = Words(rest[:at])
			return name, name != ""
		}
		r = after
	}
}

// SetOption is the command that sets option name to value.
func SetOption(name, value string) string {
	return "setoption name " + name + " value " + value
}

// ParseSetOption reads the arguments of setoption ("name NAME… [value
// VALUE…]"): the name and the value, each with its words joined by one
// space. ok is false without "name".
func ParseSetOption(args string) (name, value string, ok bool) {
	rest, ok := strings.CutPrefix(Words(args), "name ")
	if !ok {
		return "", "", false
	}
	name, value, _ = strings.Cut(rest, " value ")
	return strings.TrimSpace(name), strings.TrimSpace(value), true
}

// BestMove reads the arguments of bestmove ("MOVE [ponder MOVE]"): the
// move, "" when there is none.
func BestMove(args string) string {
	mv, _ := Field(args)
	return mv
}

// Position is the arguments of a position command: "startpos" or "fen
// TEXT", then optionally "moves M1 M2 …".
type Position struct {
	// StartPos says the game starts at the variant's start (startpos),
	// else at FEN.
	StartPos bool
	// FEN is the position as text (the game's position format, see
	// games.ParsePosition), words joined by one space.
	FEN string
	// HasMoves says the keyword moves is there.
	HasMoves bool
	// Moves is what follows the keyword moves, as written: the moves,
	// blank-separated (read them with Field).
	Moves string
}

// ParsePosition reads the arguments of a position command. The text of a
// fen runs to the word moves.
func ParsePosition(args string) (Position, error) {
	var p Position
	root, f := Field(args)
	switch root {
	case "startpos":
		p.StartPos = true
	case "fen":
		text := f
		f = ""
		for r := text; ; {
			at := len(text) - len(r)
			w, after := Field(r)
			if w == "" {
				break
			}
			if w == "moves" {
				text, f = text[:at], text[at:]
				break
			}
			r = after
		}
		p.FEN = Words(text)
	default:
		return p, fmt.Errorf("want 'position startpos [moves …]' or 'position fen TEXT [moves …]'")
	}
	kw, rest := Field(f)
	if kw != "" && kw != "moves" {
		return p, fmt.Errorf("expected 'moves', got %q", kw)
	}
	p.HasMoves, p.Moves = kw == "moves", rest
	return p, nil
}

// AppendPosition appends the position command of a game that starts at
// fen ("" for the variant's start) with moves played since: "position
// startpos" or "position fen TEXT", and " moves M1 M2 …" when there are
// moves.
func AppendPosition(b []byte, fen string, moves ...string) []byte {
	if fen == "" {
		b = append(b, "position startpos"...)
	} else {
		b = append(append(b, "position fen "...), fen...)
	}
	for i, m := range moves {
		b = AppendMove(b, i > 0, m)
	}
	return b
}

// AppendMove appends a move to a position command built by AppendPosition:
// " moves" first unless the command has moves already.
func AppendMove(b []byte, hasMoves bool, mv string) []byte {
	if !hasMoves {
		b = append(b, " moves"...)
	}
	return append(append(b, ' '), mv...)
}

// Go is the arguments of a go command: how long, or how far, the engine
// searches. Times go over the wire in whole milliseconds.
type Go struct {
	// MoveTime is go movetime, the time for this move; 0 for none.
	MoveTime time.Duration
	// Clock says the clocks are given: Time, Inc (p1time p2time p1inc
	// p2inc).
	Clock bool
	// Time is each player's time left; negative when not given.
	Time [2]time.Duration
	// Inc is each player's increment per move.
	Inc [2]time.Duration
	// Depth is go depth; 0 for none.
	Depth int
	// Nodes is go nodes; 0 for none.
	Nodes int64
	// Infinite is go infinite: search until stop.
	Infinite bool
}

// String is the go command.
func (g Go) String() string { return string(g.Append(nil)) }

// Append appends the go command: "go", then movetime, the clock (all four
// of p1time p2time p1inc p2inc), depth, nodes and infinite, those given,
// in that order. A time is written in whole milliseconds, rounded down
// (never up: an engine told more time than it has loses on time), a
// negative one as 0.
func (g Go) Append(b []byte) []byte {
	b = append(b, "go"...)
	ms := func(name string, d time.Duration) {
		b = append(append(append(b, ' '), name...), ' ')
		b = strconv.AppendInt(b, max(d.Milliseconds(), 0), 10)
	}
	if g.MoveTime > 0 {
		ms("movetime", g.MoveTime)
	}
	if g.Clock {
		ms("p1time", g.Time[0])
		ms("p2time", g.Time[1])
		ms("p1inc", g.Inc[0])
		ms("p2inc", g.Inc[1])
	}
	if g.Depth > 0 {
		b = strconv.AppendInt(append(b, " depth "...), int64(g.Depth), 10)
	}
	if g.Nodes > 0 {
		b = strconv.AppendInt(append(b, " nodes "...), g.Nodes, 10)
	}
	if g.Infinite {
		b = append(b, " infinite"...)
	}
	return b
}

// GoBounds are the values ParseGo accepts: a movetime from 1 ms to
// MoveTime, a time left from 0 to Time, an increment from 0 to Inc, a
// depth from 1 to Depth and a node count from 1 to Nodes.
type GoBounds struct {
	MoveTime, Time, Inc time.Duration
	Depth               int
	Nodes               int64
}

// ParseGo reads the arguments of a go command. A value that is not a whole
// number in its bounds is ignored, and said in bad ("go movetime "-5"
// ignored: want 1 to 86400000 (milliseconds)"): a movetime, time left or
// increment is then not given, a depth or node count keeps an earlier
// value. Unknown words are skipped. g.Clock is set when a player's time
// left is given.
func ParseGo(args string, b GoBounds) (g Go, bad []string) {
	g.Time = [2]time.Duration{-1, -1}
	for args != "" {
		var w string
		w, args = Field(args)
		// ms reads w's value in whole milliseconds, lo to hi; def when
		// it is refused.
		ms := func(lo, hi, def time.Duration) time.Duration {
			var v string
			v, args = Field(args)
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < lo.Milliseconds() || n > hi.Milliseconds() {
				bad = append(bad, fmt.Sprintf("go %s %q ignored: want %d to %d (milliseconds)", w, v, lo.Milliseconds(), hi.Milliseconds()))
				return def
			}
			return time.Duration(n) * time.Millisecond
		}
		switch w {
		case "infinite":
			g.Infinite = true
		case "movetime":
			g.MoveTime = ms(time.Millisecond, b.MoveTime, 0)
		case "p1time":
			g.Time[0] = ms(0, b.Time, -1)
		case "p2time":
			g.Time[1] = ms(0, b.Time, -1)
		case "p1inc":
			g.Inc[0] = ms(0, b.Inc, 0)
		case "p2inc":
			g.Inc[1] = ms(0, b.Inc, 0)
		case "depth", "nodes":
			var v string
			v, args = Field(args)
			n, err := strconv.ParseInt(v, 10, 64)
			most := b.Nodes
			if w == "depth" {
				most = int64(b.Depth)
			}
			if err != nil || n < 1 || n > most {
				bad = append(bad, fmt.Sprintf("go %s %q ignored: want 1 to %d", w, v, most))
				continue
			}
			if w == "depth" {
				g.Depth = int(n)
			} else {
				g.Nodes = n
			}
		}
	}
	g.Clock = g.Time[0] >= 0 || g.Time[1] >= 0
	return g, bad
}

// Info is what an engine's info lines said of its search, each field as
// the last line that gave it.
type Info struct {
	Depth int
	// Score is the engine's evaluation from its own view: score cp N is
	// N, score mate N is MateScore(N).
	Score int
	Nodes int64
	// Text holds the fields kept as text, in the order of the last line
	// that had any: "nps N", "pv M1 M2 …" and "string …".
	Text string
}

// Update reads the fields of an info line (after "info") into i: depth,
// score cp|mate, nodes, and nps, pv and string into Text. Other fields
// are skipped; a malformed value leaves its field as it was.
func (i *Info) Update(args string) {
	var buf [256]byte
	text, has := buf[:0], false
	for s := args; ; {
		f, rest := nextInfo(s)
		s = rest
		if f.name == "" {
			break
		}
		n, ok := int64(0), false
		if f.bad == fieldOK && (f.name == "depth" || f.name == "nodes" || f.name == "score") {
			n, ok = parseInt(f.value)
		}
		switch f.name {
		case "depth":
			if ok {
				i.Depth = int(n)
			}
		case "nodes":
			if ok {
				i.Nodes = n
			}
		case "score":
			switch {
			case ok && f.unit == "cp":
				i.Score = int(n)
			case ok && f.unit == "mate":
				i.Score = MateScore(int(n))
			}
		case "nps", "pv", "string":
			if has {
				text = append(text, ' ')
			}
			text, has = append(text, f.name...), true
			switch w, _ := Field(f.value); {
			case f.name == "nps":
				text = append(append(text, ' '), f.value...)
			case f.name == "pv" || w != "":
				text = appendWords(append(text, ' '), f.value)
			}
		}
	}
	if has {
		i.Text = string(text)
	}
}

// CheckInfo returns what is wrong with the fields of an info line (after
// "info"), or nil. The fields UCI defines are checked; any other name
// must be followed by an integer (an engine's own statistic, such as
// cutegames' tthits N).
func CheckInfo(args string) error {
	for s := args; ; {
		f, rest := nextInfo(s)
		if f.name == "" {
			return nil
		}
		if f.bad != fieldOK {
			return f
		}
		s = rest
	}
}

// MateScore is the Score of a win in n moves (n < 0: a loss in -n moves).
func MateScore(n int) int {
	switch {
	case n > 0:
		return games.WinScore - n
	case n < 0:
		return -games.WinScore - n
	}
	return 0
}

// infoField is one field of an info line, as nextInfo reads it.
type infoField struct {
	name  string
	unit  string // of a score: cp or mate
	value string // a number; the move of currmove; the rest of the line for pv and string
	bad   fieldProblem
}

// fieldProblem says what is wrong with an info field.
type fieldProblem int

const (
	fieldOK fieldProblem = iota
	noNumber
	notInteger
	noScore
	unknownField
)

// Error describes the field's problem; it makes a malformed field the
// error of CheckInfo.
func (f infoField) Error() string {
	switch f.bad {
	case noNumber:
		return f.name + " without a number"
	case notInteger:
		if f.name == "score" {
			return fmt.Sprintf("score %s %q is not an integer", f.unit, f.value)
		}
		return fmt.Sprintf("%s %q is not an integer", f.name, f.value)
	case noScore:
		return "score needs cp N or mate N"
	case unknownField:
		return fmt.Sprintf("unknown field %q (not followed by an integer)", f.name)
	}
	return ""
}

// nextInfo reads the first field of s, the fields of an info line, and
// returns it and the rest. A field that takes a value consumes the word
// after it even when that is malformed; score consumes cp or mate, the
// number and an optional lowerbound or upperbound; pv and string take the
// rest of the line. An unknown name consumes the word after it when that
// is an integer.
func nextInfo(s string) (f infoField, rest string) {
	f.name, rest = Field(s)
	switch f.name {
	case "":
	case "depth", "seldepth", "time", "nodes", "nps", "hashfull", "multipv", "currmovenumber", "tbhits":
		f.value, rest = Field(rest)
		if f.value == "" {
			f.bad = noNumber
		} else if !isInt(f.value) {
			f.bad = notInteger
		}
	case "score":
		f.unit, rest = Field(rest)
		if f.unit != "cp" && f.unit != "mate" {
			f.bad = noScore
			break
		}
		f.value, rest = Field(rest)
		if f.value == "" {
			f.bad = noScore
		} else if !isInt(f.value) {
			f.bad = notInteger
		} else if w, after := Field(rest); w == "lowerbound" || w == "upperbound" {
			rest = after
		}
	case "currmove":
		_, rest = Field(rest)
	case "pv", "string":
		f.value, rest = rest, ""
	default:
		if w, after := Field(rest); isInt(w) {
			f.value, rest = w, after
		} else {
			f.bad = unknownField
		}
	}
	return f, rest
}

// isInt reports whether s is a 64-bit integer.
func isInt(s string) bool {
	_, ok := parseInt(s)
	return ok
}

// parseInt is strconv.ParseInt(s, 10, 64) without its error, which
// allocates: info lines are read while an engine thinks.
func parseInt(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if s == "" {
		return 0, false
	}
	limit := uint64(1<<63 - 1)
	if neg {
		limit = 1 << 63
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		d := uint64(s[i] - '0')
		if n > (limit-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	if neg {
		return -int64(n), true // -(1<<63) too: the negation wraps to itself
	}
	return int64(n), true
}

// Answers are the answers to query in a position: gameover, p1turn and
// result.
type Answers struct {
	GameOver, P1Turn bool
	// Result is p1win, p2win, draw, or none before the end.
	Result string
}

// AnswersOf returns the answers to query in s.
func AnswersOf(s games.State) Answers {
	a := Answers{GameOver: s.Terminal(), P1Turn: s.ToMove() == 0, Result: "none"}
	if a.GameOver {
		switch s.Outcome().Winner {
		case 0:
			a.Result = "p1win"
		case 1:
			a.Result = "p2win"
		default:
			a.Result = "draw"
		}
	}
	return a
}

// Queries are the queries UGI defines, in the order Answer knows them.
var Queries = []string{"gameover", "p1turn", "result"}

// Answer returns the answer to query q (the word after "response"), and
// false for a query UGI does not define.
func (a Answers) Answer(q string) (string, bool) {
	switch q {
	case "gameover":
		return strconv.FormatBool(a.GameOver), true
	case "p1turn":
		return strconv.FormatBool(a.P1Turn), true
	case "result":
		return a.Result, true
	}
	return "", false
}
