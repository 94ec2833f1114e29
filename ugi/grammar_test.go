package ugi

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/games"
)

func TestField(t *testing.T) {
	for _, tc := range []struct{ in, word, rest string }{
		{"", "", ""},
		{"go", "go", ""},
		{"  go movetime 5", "go", " movetime 5"},
		{"\t\r\v\fbestmove\ta1", "bestmove", "\ta1"},
		{" \n ", "", ""},
	} {
		if w, r := Field(tc.in); w != tc.word || r != tc.rest {
			t.Errorf("Field(%q) = %q, %q; want %q, %q", tc.in, w, r, tc.word, tc.rest)
		}
	}
	if got := Words("  a \t b\r\nc "); got != "a b c" {
		t.Errorf("Words = %q", got)
	}
}

func TestInfoUpdate(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Info
	}{
		{"depth 5 seldepth 9 score cp 31 nodes 1000 nps 200 time 5 pv a1 b2", Info{Depth: 5, Score: 31, Nodes: 1000, Text: "nps 200 pv a1 b2"}},
		{"score mate 3", Info{Score: games.WinScore - 3}},
		{"score mate -2 depth 4", Info{Score: -games.WinScore + 2, Depth: 4}},
		{"depth x nodes 7", Info{Nodes: 7}},
		{"string hello  world", Info{Text: "string hello world"}},
		{"string", Info{Text: "string"}},
		{"pv", Info{Text: "pv "}},
		{"nps", Info{Text: "nps "}},
		{"depth", Info{}},
		{"score cp 5 upperbound depth 2 tthits 38 currmove a1", Info{Score: 5, Depth: 2}},
	} {
		var i Info
		i.Update(tc.line)
		if i != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.line, i, tc.want)
		}
	}
	// A field keeps its value from an earlier line; the text is the last
	// line's that had any.
	i := Info{Depth: 9, Text: "pv a1"}
	i.Update("nodes 5")
	if want := (Info{Depth: 9, Nodes: 5, Text: "pv a1"}); i != want {
		t.Errorf("%+v, want %+v", i, want)
	}
}

func TestCheckInfo(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"depth 4 seldepth 4 score cp 200 time 0 nodes 473 tthits 38 hashfull 0 pv f1 b1 g2 a2", ""},
		{"depth 3 score mate -2 lowerbound nodes 10 nps 5 currmove a1 currmovenumber 1", ""},
		{"string anything at all 1 2", ""},
		{"depth x", `depth "x" is not an integer`},
		{"nodes", "nodes without a number"},
		{"score 31", "score needs cp N or mate N"},
		{"score cp many", `score cp "many" is not an integer`},
		{"tthits lots", `unknown field "tthits" (not followed by an integer)`},
		{"depth 2 frob", `unknown field "frob" (not followed by an integer)`},
	} {
		got := ""
		if err := CheckInfo(tc.line); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestInfoUpdateAllocs: reading a well-formed info line allocates only
// the text it keeps.
func TestInfoUpdateAllocs(t *testing.T) {
	var i Info
	if n := testing.AllocsPerRun(100, func() { i.Update("depth 12 seldepth 18 score cp -31 nodes 123456 time 125 hashfull 3") }); n != 0 {
		t.Errorf("%.0f allocations for a line without text, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { i.Update("depth 12 nps 5 pv b3 c2 d5") }); n > 2 {
		t.Errorf("%.0f allocations for a line with text, want at most 2", n)
	}
}

func TestGoString(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		g    Go
		want string
	}{
		{Go{}, "go"},
		{Go{MoveTime: 30 * ms, Depth: 2, Nodes: 7}, "go movetime 30 depth 2 nodes 7"},
		{Go{Infinite: true}, "go infinite"},
		// The clock: all four times, in whole milliseconds rounded down,
		// a negative one as 0.
		{Go{Clock: true}, "go p1time 0 p2time 0 p1inc 0 p2inc 0"},
		{Go{Clock: true, Time: [2]time.Duration{10 * time.Second, 1500 * time.Microsecond}, Inc: [2]time.Duration{ms, 2 * time.Second}}, "go p1time 10000 p2time 1 p1inc 1 p2inc 2000"},
		{Go{Clock: true, Time: [2]time.Duration{-5 * ms, 999 * time.Microsecond}}, "go p1time 0 p2time 0 p1inc 0 p2inc 0"},
		{Go{Clock: true, Time: [2]time.Duration{900 * ms, 61 * time.Second}, Inc: [2]time.Duration{100 * ms, 0}, Depth: 7}, "go p1time 900 p2time 61000 p1inc 100 p2inc 0 depth 7"},
	} {
		if got := tc.g.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.g, got, tc.want)
		}
	}
}

var testBounds = GoBounds{MoveTime: 24 * time.Hour, Time: 365 * 24 * time.Hour, Inc: time.Hour, Depth: 100, Nodes: 1e12}

func TestParseGo(t *testing.T) {
	ms := time.Millisecond
	none := [2]time.Duration{-1, -1}
	for _, tc := range []struct {
		args string
		want Go
		bad  []string
	}{
		{"", Go{Time: none}, nil},
		{"movetime 100 depth 3 nodes 50 infinite frob", Go{MoveTime: 100 * ms, Time: none, Depth: 3, Nodes: 50, Infinite: true}, nil},
		{"p1time 300 p2time 40000 p1inc 20 p2inc 7", Go{Clock: true, Time: [2]time.Duration{300 * ms, 40 * time.Second}, Inc: [2]time.Duration{20 * ms, 7 * ms}}, nil},
		{"p2time 5", Go{Clock: true, Time: [2]time.Duration{-1, 5 * ms}}, nil},
		{"movetime 0", Go{Time: none}, []string{`go movetime "0" ignored: want 1 to 86400000 (milliseconds)`}},
		{"movetime 100 movetime x", Go{Time: none}, []string{`go movetime "x" ignored: want 1 to 86400000 (milliseconds)`}},
		{"p1time -1000 p2time 1000", Go{Clock: true, Time: [2]time.Duration{-1, time.Second}}, []string{`go p1time "-1000" ignored: want 0 to 31536000000 (milliseconds)`}},
		{"p1inc -3 p2inc 99999999", Go{Time: none}, []string{`go p1inc "-3" ignored: want 0 to 3600000 (milliseconds)`, `go p2inc "99999999" ignored: want 0 to 3600000 (milliseconds)`}},
		{"depth 3 depth 101 nodes", Go{Time: none, Depth: 3}, []string{`go depth "101" ignored: want 1 to 100`, `go nodes "" ignored: want 1 to 1000000000000`}},
	} {
		g, bad := ParseGo(tc.args, testBounds)
		if g != tc.want || fmt.Sprint(bad) != fmt.Sprint(tc.bad) {
			t.Errorf("%q: %+v %q, want %+v %q", tc.args, g, bad, tc.want, tc.bad)
		}
	}
}

func TestParsePosition(t *testing.T) {
	for _, tc := range []struct {
		args string
		want Position
		err  string
	}{
		{"startpos", Position{StartPos: true}, ""},
		{"startpos moves a1  b2", Position{StartPos: true, HasMoves: true, Moves: " a1  b2"}, ""},
		{"fen ..X  ..O x moves a1", Position{FEN: "..X ..O x", HasMoves: true, Moves: " a1"}, ""},
		{"fen ..X x", Position{FEN: "..X x"}, ""},
		{"fen moves a1", Position{HasMoves: true, Moves: " a1"}, ""},
		{"startpos a1", Position{}, `expected 'moves', got "a1"`},
		{"", Position{}, "want 'position startpos [moves …]' or 'position fen TEXT [moves …]'"},
	} {
		p, err := ParsePosition(tc.args)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: %v, want the error %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || p != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.args, p, err, tc.want)
		}
	}
	for _, tc := range []struct {
		fen   string
		moves []string
		want  string
	}{
		{"", nil, "position startpos"},
		{"", []string{"a1", "b2"}, "position startpos moves a1 b2"},
		{"..X x", []string{"a1"}, "position fen ..X x moves a1"},
	} {
		if got := string(AppendPosition(nil, tc.fen, tc.moves...)); got != tc.want {
			t.Errorf("AppendPosition(%q, %q) = %q, want %q", tc.fen, tc.moves, got, tc.want)
		}
	}
}

func TestOptionLines(t *testing.T) {
	for _, tc := range []struct {
		args, name string
		ok         bool
	}{
		{"name UGI_Game type string default othello6", "UGI_Game", true},
		{"name Skill  Level type spin default 3", "Skill Level", true},
		{"name Hash", "Hash", true},
		{"name type spin", "", false},
		{"type spin", "", false},
	} {
		if name, ok := OptionName(tc.args); name != tc.name || ok != tc.ok {
			t.Errorf("OptionName(%q) = %q, %v; want %q, %v", tc.args, name, ok, tc.name, tc.ok)
		}
	}
	for _, tc := range []struct {
		args, name, value string
		ok                bool
	}{
		{"name UGI_Game value erdos:algol", "UGI_Game", "erdos:algol", true},
		{"name Skill Level  value 3", "Skill Level", "3", true},
		{"name Clear Hash", "Clear Hash", "", true},
		{"UGI_Game value x", "", "", false},
	} {
		if name, value, ok := ParseSetOption(tc.args); name != tc.name || value != tc.value || ok != tc.ok {
			t.Errorf("ParseSetOption(%q) = %q, %q, %v", tc.args, name, value, ok)
		}
	}
	if got := SetOption("Skill Level", "3"); got != "setoption name Skill Level value 3" {
		t.Errorf("SetOption = %q", got)
	}
	if key, text := ID("name  my   engine 2"); key != "name" || text != "my engine 2" {
		t.Errorf("ID = %q, %q", key, text)
	}
}

// FuzzGrammar: no line makes a parser panic; words are strings.Fields';
// parseInt is strconv.ParseInt's; on ASCII lines CheckInfo says what the
// checker's own parser said, and Info.Update reads a well-formed line as
// the client's own parser did (see oldParseUGIInfo and oldCheckInfo:
// the two parsers the grammar replaced); a go command and a position
// command read back as what was written.
func FuzzGrammar(f *testing.F) {
	for _, s := range []string{
		"depth 5 seldepth 9 score cp 31 nodes 1000 nps 200 time 5 pv a1 b2",
		"depth 3 score mate -2 lowerbound nodes 10 nps 5 currmove a1 currmovenumber 1",
		"string hello", "score cp", "tthits 38 frob", "depth 99999999999999999999",
		"movetime 100 p1time 5 p2time 6 p1inc 1 p2inc 2 depth 3 nodes 4 infinite",
		"startpos moves a1 b2", "fen ..X ..O x moves a1", "name Skill Level type spin",
		"-9223372036854775808", "+12", "9223372036854775808",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ascii := true
		for i := 0; i < len(s); i++ {
			ascii = ascii && s[i] < 0x80
		}
		words := fields(s)
		if ascii && strings.Join(words, "\x00") != strings.Join(strings.Fields(s), "\x00") {
			t.Fatalf("Field splits %q into %q, strings.Fields into %q", s, words, strings.Fields(s))
		}
		for _, w := range words {
			n, ok := parseInt(w)
			m, err := strconv.ParseInt(w, 10, 64)
			if ok != (err == nil) || ok && n != m {
				t.Fatalf("parseInt(%q) = %d, %v; strconv says %d, %v", w, n, ok, m, err)
			}
		}

		var i Info
		i.Update(s)
		check := CheckInfo(s)
		if ascii {
			got, want := "", oldCheckInfo(strings.Fields(s))
			if check != nil {
				got = check.Error()
			}
			if got != want {
				t.Fatalf("CheckInfo(%q) = %q, the checker's parser said %q", s, got, want)
			}
			var old Info
			if check == nil && !currmoveKeyword(words) {
				oldParseUGIInfo(strings.Fields(s), &old)
				if i != old {
					t.Fatalf("Update(%q) = %+v, the client's parser read %+v", s, i, old)
				}
			}
		}

		g, _ := ParseGo(s, testBounds)
		if g2, bad := ParseGo(strings.TrimPrefix(g.String(), "go"), testBounds); len(bad) > 0 || g2.String() != g.String() {
			t.Fatalf("ParseGo(%q) = %+v, written %q, read back %+v %q", s, g, g.String(), g2, bad)
		}

		if p, err := ParsePosition(s); err == nil && (p.StartPos || p.FEN != "") {
			line := string(AppendPosition(nil, p.FEN, fields(p.Moves)...))
			_, args := Field(line)
			q, err := ParsePosition(args)
			if err != nil || q.StartPos != p.StartPos || q.FEN != p.FEN || Words(q.Moves) != Words(p.Moves) || q.HasMoves != (Words(p.Moves) != "") {
				t.Fatalf("ParsePosition(%q) = %+v, written %q, read back %+v, %v", s, p, line, q, err)
			}
		}
		OptionName(s)
		ParseSetOption(s)
	})
}

// currmoveKeyword reports whether a currmove in words is followed by a
// word the client's own parser read as a field: its parser did not know
// currmove, and read the move after it as the field it named.
func currmoveKeyword(words []string) bool {
	for i := 0; i+1 < len(words); i++ {
		if words[i] == "currmove" {
			switch words[i+1] {
			case "depth", "nodes", "score", "nps", "pv", "string":
				return true
			}
		}
	}
	return false
}

// fields is strings.Fields with Field's blanks.
func fields(s string) []string {
	var words []string
	for {
		w, rest := Field(s)
		if w == "" {
			return words
		}
		words, s = append(words, w), rest
	}
}

// BenchmarkInfoUpdate reads an info line as a Client does while its
// engine thinks: the command word, then the fields.
func BenchmarkInfoUpdate(b *testing.B) {
	const line = "info depth 12 seldepth 18 score cp -31 nodes 123456 nps 987654 time 125 pv b3 c2 d5 e4 a1"
	var i Info
	for b.Loop() {
		i = Info{}
		_, args := Field(line)
		i.Update(args)
	}
	if i.Depth != 12 {
		b.Fatal(i)
	}
}
