package tryangle

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a gameplay command.
type Kind uint8

// Gameplay command kinds. Debug drawing commands, MSG and WAIT have no
// effect on the game and are not kept as commands.
const (
	CmdMove Kind = iota + 1
	CmdSpawn
	CmdAttack
	CmdAddPath
	CmdRemovePath
)

var kindNames = [...]string{CmdMove: "MOVE", CmdSpawn: "SPAWN", CmdAttack: "ATTACK", CmdAddPath: "ADD_PATH", CmdRemovePath: "REMOVE_PATH"}

func (k Kind) String() string {
	if k >= CmdMove && k <= CmdRemovePath {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Command is one gameplay command of an output line.
//
//	MOVE from to amount       H[0] = from, H[1] = to, Amount
//	SPAWN h1 h2 h3            H = the triangle's houses, the unit appears on H[0]
//	ATTACK h1 h2 h3 target    H, Target
//	ADD_PATH h1 h2 h3 target  H, Target (the new path is H[0]–Target)
//	REMOVE_PATH h1 h2 h3 t    H, Target (the removed path is H[0]–Target)
//
// House ids are kept as written; ids that do not exist make the command a
// non-critical "invalid node" error when the turn is resolved.
type Command struct {
	Kind   Kind
	H      [3]int32
	Target int32
	Amount int32
}

// String formats the command in the protocol's notation.
func (c Command) String() string {
	return string(c.appendTo(nil))
}

func (c Command) appendTo(b []byte) []byte {
	b = append(b, c.Kind.String()...)
	switch c.Kind {
	case CmdMove:
		b = appendInts(b, c.H[0], c.H[1], c.Amount)
	case CmdSpawn:
		b = appendInts(b, c.H[0], c.H[1], c.H[2])
	default:
		b = appendInts(b, c.H[0], c.H[1], c.H[2], c.Target)
	}
	return b
}

func appendInts(b []byte, vs ...int32) []byte {
	for _, v := range vs {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return b
}

// Line is a parsed output line (§7.1).
type Line struct {
	Text     string    // the line as received
	Commands []Command // gameplay commands in output order
	Message  string    // the last MSG text (viewer only; no effect)
	// Unknown is the first segment that matches no command: a critical
	// error, the player loses (§9). Empty when every segment was understood.
	Unknown string
}

// ParseLine splits an output line on ';' and parses every segment exactly as
// §7 says: a segment whose upper-cased text starts with "MSG " (no leading
// blank) is a message; blank segments and WAIT are ignored; everything else
// must be one of the command patterns (case-insensitive keywords, tokens
// separated by whitespace, numbers that fit a signed 32-bit integer, only
// MOVE's amount and the debug coordinates may carry a '-'), otherwise it is
// an unknown command. Debug drawings (LINE, RECT, CIRCLE, TEXT) are accepted
// and dropped.
func ParseLine(text string) Line {
	ln := Line{Text: text}
	for seg := range strings.SplitSeq(text, ";") {
		if isMsg(seg) {
			msg := strings.TrimFunc(runesAfter(seg, 4), javaSpace)
			if utf8.RuneCountInString(msg) > 50 {
				msg = string([]rune(msg)[:50])
			}
			ln.Message = msg
			continue
		}
		trimmed := strings.TrimFunc(seg, javaSpace)
		if trimmed == "" || strings.ToUpper(trimmed) == "WAIT" {
			continue
		}
		cmd, keep, ok := parseCommand(seg)
		if !ok {
			if ln.Unknown == "" {
				ln.Unknown = seg
			}
			continue
		}
		if keep {
			ln.Commands = append(ln.Commands, cmd)
		}
	}
	return ln
}

// isMsg reports whether the segment, upper-cased, begins with "MSG ".
func isMsg(seg string) bool {
	want := "MSG "
	for _, r := range seg {
		if want == "" {
			break
		}
		u := []rune(strings.ToUpper(string(r)))
		if len(u) != 1 || u[0] != rune(want[0]) {
			return false
		}
		want = want[1:]
	}
	return want == ""
}

func runesAfter(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[i:]
		}
		n--
	}
	return ""
}

// javaSpace is what Java's String.trim removes: every char ≤ U+0020.
func javaSpace(r rune) bool { return r <= ' ' }

// patternSpace is the regex class \s of Java: space, \t, \n, \x0B, \f, \r.
func patternSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// fields splits s on runs of pattern whitespace, ignoring it at both ends.
func fields(s string, out []string) []string {
	i := 0
	for i < len(s) {
		for i < len(s) && patternSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && !patternSpace(s[j]) {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// number parses a decimal that must fit int32; signed allows a leading '-'.
func number(tok string, signed bool) (int32, bool) {
	digits := tok
	if signed && strings.HasPrefix(tok, "-") {
		digits = tok[1:]
	}
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(tok, 10, 32)
	if err != nil {
		return 0, false // overflow: Java's parseInt throws → unknown command
	}
	return int32(v), true
}

// parseCommand matches one segment against the command patterns. keep is
// false for debug drawings (understood, but without effect).
func parseCommand(seg string) (cmd Command, keep, ok bool) {
	var buf [8]string
	toks := fields(seg, buf[:0])
	if len(toks) == 0 {
		return cmd, false, false
	}
	args := toks[1:]
	nums := func(n int, signed ...bool) ([4]int32, bool) {
		var v [4]int32
		if len(args) != n {
			return v, false
		}
		for i := range n {
			var good bool
			v[i], good = number(args[i], len(signed) > i && signed[i])
			if !good {
				return v, false
			}
		}
		return v, true
	}
	asciiUpper := func(s string) string { // case-insensitive for ASCII only, as Java's regex flag
		b := []byte(s)
		for i, c := range b {
			if c >= 'a' && c <= 'z' {
				b[i] = c - 'a' + 'A'
			}
		}
		return string(b)
	}
	word := asciiUpper(toks[0])
	switch word {
	case "MOVE":
		v, good := nums(3, false, false, true)
		return Command{Kind: CmdMove, H: [3]int32{v[0], v[1]}, Amount: v[2]}, true, good
	case "SPAWN":
		v, good := nums(3)
		return Command{Kind: CmdSpawn, H: [3]int32{v[0], v[1], v[2]}}, true, good
	case "ATTACK", "ADD_PATH", "REMOVE_PATH":
		v, good := nums(4)
		k := map[string]Kind{"ATTACK": CmdAttack, "ADD_PATH": CmdAddPath, "REMOVE_PATH": CmdRemovePath}[word]
		return Command{Kind: k, H: [3]int32{v[0], v[1], v[2]}, Target: v[3]}, true, good
	case "LINE", "RECT":
		_, good := nums(4, true, true, true, true)
		return cmd, false, good
	case "CIRCLE":
		_, good := nums(3, true, true, true)
		return cmd, false, good
	case "TEXT":
		// TEXT x y message: the message is the rest of the segment (it may
		// contain blanks, and is not checked).
		if len(args) < 2 {
			return cmd, false, false
		}
		_, okX := number(args[0], true)
		_, okY := number(args[1], true)
		return cmd, false, okX && okY
	}
	return cmd, false, false
}

// FormatCommands writes commands as one output line ("WAIT" when empty).
func FormatCommands(cmds []Command) string {
	if len(cmds) == 0 {
		return "WAIT"
	}
	var b []byte
	for i, c := range cmds {
		if i > 0 {
			b = append(b, ';')
		}
		b = c.appendTo(b)
	}
	return string(b)
}
