package tryangle

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A second, independent reading of §7: the command patterns as regular
// expressions in the style of the Java referee (ASCII case-insensitive
// keywords, \s = [ \t\n\x0B\f\r], \d = [0-9]).
var refPatterns = func() map[string]*regexp.Regexp {
	const ws = `[ \t\n\x0B\f\r]`
	ci := func(word string) string {
		var b strings.Builder
		for _, r := range word {
			if r >= 'A' && r <= 'Z' {
				b.WriteString("[" + string(r) + string(r+'a'-'A') + "]")
			} else {
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		return b.String()
	}
	num, signed := `(\d+)`, `(-?\d+)`
	mk := func(word string, args ...string) *regexp.Regexp {
		return regexp.MustCompile(`^` + ws + `*` + ci(word) + ws + `+` + strings.Join(args, ws+`+`) + ws + `*$`)
	}
	return map[string]*regexp.Regexp{
		"MOVE":        mk("MOVE", num, num, signed),
		"SPAWN":       mk("SPAWN", num, num, num),
		"ATTACK":      mk("ATTACK", num, num, num, num),
		"ADD_PATH":    mk("ADD_PATH", num, num, num, num),
		"REMOVE_PATH": mk("REMOVE_PATH", num, num, num, num),
		"LINE":        mk("LINE", signed, signed, signed, signed),
		"RECT":        mk("RECT", signed, signed, signed, signed),
		"CIRCLE":      mk("CIRCLE", signed, signed, signed),
		"TEXT":        regexp.MustCompile(`(?s)^` + ws + `*` + ci("TEXT") + ws + `+(-?\d+)` + ws + `+(-?\d+)(` + ws + `.*)?$`),
	}
}()

// refParse returns the gameplay commands and whether some segment is an
// unknown command.
func refParse(line string) (cmds []Command, unknown bool) {
	kinds := map[string]Kind{"MOVE": CmdMove, "SPAWN": CmdSpawn, "ATTACK": CmdAttack, "ADD_PATH": CmdAddPath, "REMOVE_PATH": CmdRemovePath}
	for _, seg := range strings.Split(line, ";") {
		if strings.HasPrefix(strings.ToUpper(seg), "MSG ") {
			continue
		}
		tr := strings.TrimFunc(seg, func(r rune) bool { return r <= ' ' })
		if tr == "" || strings.ToUpper(tr) == "WAIT" {
			continue
		}
		matched := false
		for name, re := range refPatterns {
			m := re.FindStringSubmatch(seg)
			if m == nil {
				continue
			}
			var v [4]int32
			ok := true
			for i := 1; i < len(m) && i <= 4; i++ {
				if name == "TEXT" && i == 3 {
					break
				}
				n, err := strconv.ParseInt(m[i], 10, 32)
				if err != nil {
					ok = false
					break
				}
				v[i-1] = int32(n)
			}
			if !ok {
				break // Java's parseInt throws: unknown command
			}
			matched = true
			if k, play := kinds[name]; play {
				c := Command{Kind: k, H: [3]int32{v[0], v[1], v[2]}, Target: v[3]}
				if k == CmdMove {
					c = Command{Kind: k, H: [3]int32{v[0], v[1]}, Amount: v[2]}
				}
				cmds = append(cmds, c)
			}
			break
		}
		if !matched {
			unknown = true
		}
	}
	return cmds, unknown
}

func TestParseLine(t *testing.T) {
	for _, tc := range []struct {
		line    string
		cmds    string // FormatCommands of the kept commands
		unknown bool
		msg     string
	}{
		{"MOVE 1 2 3", "MOVE 1 2 3", false, ""},
		{"  move\t1  2   -3 ", "MOVE 1 2 -3", false, ""},
		{"SPAWN 5 5 7;ATTACK 1 2 3 4;add_path 1 2 3 4;Remove_Path 4 3 2 1", "SPAWN 5 5 7;ATTACK 1 2 3 4;ADD_PATH 1 2 3 4;REMOVE_PATH 4 3 2 1", false, ""},
		{"MSG hello world ;WAIT;;", "WAIT", false, "hello world"},
		{"msg a;msg b", "WAIT", false, "b"},
		{"MSG " + strings.Repeat("x", 60), "WAIT", false, strings.Repeat("x", 50)},
		{"MOVE 1 2 3; MSG hi", "MOVE 1 2 3", true, ""},
		{"MSG", "WAIT", true, ""},
		{"MSG ", "WAIT", false, ""},
		{"WAIT 1", "WAIT", true, ""},
		{"MOVE 1 2", "WAIT", true, ""},
		{"MOVE 1 2 +3", "WAIT", true, ""},
		{"MOVE -1 2 3", "WAIT", true, ""},
		{"SPAWN 1 2 3 4", "WAIT", true, ""},
		{"MOVE 1 2 99999999999", "WAIT", true, ""},
		{"MOVE 1 2 2147483647", "MOVE 1 2 2147483647", false, ""},
		{"MOVE 1 2 -2147483648", "MOVE 1 2 -2147483648", false, ""},
		{"LINE 1 -2 3 4;RECT 0 0 -5 5;CIRCLE 1 1 -3;TEXT 1 2 hello; there", "WAIT", true, ""},
		{"LINE 1 -2 3 4;RECT 0 0 -5 5;CIRCLE 1 1 -3;TEXT 1 2 hello  there", "WAIT", false, ""},
		{"TEXT 1 2", "WAIT", false, ""},
		{"TEXT 1", "WAIT", true, ""},
		{"FLY 1 2", "WAIT", true, ""},
		{"MOVE 1 2 3\r", "MOVE 1 2 3", false, ""},
		{"mſg x", "WAIT", false, "x"}, // Java upper-cases ſ to S
		{"\x01MOVE 1 2 3", "WAIT", true, ""},
	} {
		ln := ParseLine(tc.line)
		if got := FormatCommands(ln.Commands); got != tc.cmds || (ln.Unknown != "") != tc.unknown || ln.Message != tc.msg {
			t.Errorf("%q: commands %q unknown %q message %q; want %q unknown=%v message %q",
				tc.line, got, ln.Unknown, ln.Message, tc.cmds, tc.unknown, tc.msg)
		}
		ref, refUnknown := refParse(tc.line)
		if refUnknown != tc.unknown || FormatCommands(ref) != tc.cmds {
			t.Errorf("%q: the reference parser disagrees with the table: %q %v", tc.line, FormatCommands(ref), refUnknown)
		}
	}
}

func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		"MOVE 1 2 3", "SPAWN 5 5 7;ATTACK 1 2 3 4", "MSG hi", " MSG hi", "msg x;WAIT;;",
		"ADD_PATH 1 2 3 4;REMOVE_PATH 4 3 2 1", "TEXT 1 -2 hello", "LINE 1 2 3 4", "CIRCLE 1 2 -3",
		"RECT -1 -2 3 4", "MOVE 1 2 -5", "MOVE 1 2 2147483648", "wait", "WAIT 1", "move\t1\v2\f3",
		"MOVE 01 002 3", "SPAWN 1 2", "\x00", "mſg", "MOVE 1 2 3\r",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		ln := ParseLine(line)
		ref, refUnknown := refParse(line)
		if (ln.Unknown != "") != refUnknown {
			t.Fatalf("%q: unknown %q, reference says %v", line, ln.Unknown, refUnknown)
		}
		if FormatCommands(ln.Commands) != FormatCommands(ref) {
			t.Fatalf("%q: commands %v, reference %v", line, ln.Commands, ref)
		}
		// What we format parses back to the same commands.
		again := ParseLine(FormatCommands(ln.Commands))
		if again.Unknown != "" || FormatCommands(again.Commands) != FormatCommands(ln.Commands) {
			t.Fatalf("%q: formatted commands do not parse back", line)
		}
		// Any line can be played without panicking.
		if !strings.Contains(line, "\n") {
			s := mustState(t, mapM1)
			m, err := s.ParseMove(line)
			if err != nil {
				t.Fatal(err)
			}
			s.PlayJoint(m, m)
			if s.computeHash() != s.Hash() {
				t.Fatalf("%q: hash out of step", line)
			}
		}
	})
}
