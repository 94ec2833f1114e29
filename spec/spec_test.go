package spec

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		name    string
		vals    map[string]string
		canon   string
		wantErr string
	}{
		{in: "random", name: "random", vals: map[string]string{}, canon: "random"},
		{in: "erdos:algol", name: "erdos", vals: map[string]string{"algol": "true"}, canon: "erdos:algol"},
		{in: "mcts:iters=2000,c=1.2", name: "mcts", vals: map[string]string{"iters": "2000", "c": "1.2"}, canon: "mcts:iters=2000,c=1.2"},
		{in: " ext:cmd=./bot --level 3 ", name: "ext", vals: map[string]string{"cmd": "./bot --level 3"}, canon: "ext:cmd=./bot --level 3"},
		{in: "ext:cmd='./bot a,b',name=x", name: "ext", vals: map[string]string{"cmd": "./bot a,b", "name": "x"}, canon: "ext:cmd='./bot a,b',name=x"},
		{in: "greedy:", name: "greedy", vals: map[string]string{}, canon: "greedy"},
		{in: "", wantErr: "empty name"},
		{in: ":x=1", wantErr: "empty name"},
		{in: "a:=1", wantErr: "no key"},
		{in: "a:x=1,x=2", wantErr: "given twice"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Parse(%q) error = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got.Name != tt.name || len(got.Vals) != len(tt.vals) {
			t.Errorf("Parse(%q) = %+v", tt.in, got)
		}
		for k, v := range tt.vals {
			if got.Vals[k] != v {
				t.Errorf("Parse(%q)[%s] = %q, want %q", tt.in, k, got.Vals[k], v)
			}
		}
		if got.String() != tt.canon {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got.String(), tt.canon)
		}
	}
}

func TestAccessors(t *testing.T) {
	s, _ := Parse("x:n=5,f=0.5,b,d=200ms,bad=zz")
	if n, err := s.Int("n", 1); n != 5 || err != nil {
		t.Errorf("Int = %d, %v", n, err)
	}
	if n, err := s.Int("missing", 7); n != 7 || err != nil {
		t.Errorf("Int default = %d, %v", n, err)
	}
	if f, err := s.Float("f", 0); f != 0.5 || err != nil {
		t.Errorf("Float = %v, %v", f, err)
	}
	if b, err := s.Bool("b", false); !b || err != nil {
		t.Errorf("Bool = %v, %v", b, err)
	}
	if d, err := s.Duration("d", 0); d != 200*time.Millisecond || err != nil {
		t.Errorf("Duration = %v, %v", d, err)
	}
	for _, key := range []string{"bad"} {
		if _, err := s.Int(key, 0); err == nil || !strings.Contains(err.Error(), "not an integer") {
			t.Errorf("Int(%s) error = %v", key, err)
		}
		if _, err := s.Duration(key, 0); err == nil {
			t.Errorf("Duration(%s) accepted %q", key, s.Vals[key])
		}
	}
	if err := s.Check("n", "f"); err == nil || !strings.Contains(err.Error(), "valid: n, f") {
		t.Errorf("Check error = %v, want one listing the valid keys", err)
	}
	if err := s.Check("n", "f", "b", "d", "bad"); err != nil {
		t.Errorf("Check with every key valid: %v", err)
	}
}

// TestQuoting covers the escaping rule: quoted values, doubled quotes,
// quotes inside literal values, and canonical forms that parse back.
func TestQuoting(t *testing.T) {
	tests := []struct {
		in    string
		key   string
		want  string
		canon string
	}{
		{in: `t:map="it's,here"`, key: "map", want: "it's,here", canon: `t:map="it's,here"`},
		{in: `t:map='it''s,here'`, key: "map", want: "it's,here", canon: `t:map="it's,here"`},
		{in: `t:v='a"b''c,d'`, key: "v", want: `a"b'c,d`, canon: `t:v='a"b''c,d'`},
		{in: `t:v=''`, key: "v", want: "", canon: `t:v=`},
		{in: `t:v=' x '`, key: "v", want: " x ", canon: `t:v=' x '`},
		{in: `t:v="'"`, key: "v", want: "'", canon: `t:v="'"`},
		{in: `t:map=it's`, key: "map", want: "it's", canon: `t:map="it's"`},
		{in: `t:cmd=./bot --name "a,b"`, key: "cmd", want: `./bot --name "a,b"`, canon: `t:cmd='./bot --name "a,b"'`},
		{in: `t:cmd="./my bot" -x`, key: "cmd", want: `"./my bot" -x`, canon: `t:cmd='"./my bot" -x'`},
		{in: `t:v=a=b:c`, key: "v", want: "a=b:c", canon: `t:v=a=b:c`},
		{in: `t:v='unterminated`, key: "v", want: "'unterminated", canon: `t:v="'unterminated"`},
	}
	for _, tt := range tests {
		s, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := s.Vals[tt.key]; got != tt.want {
			t.Errorf("Parse(%q)[%s] = %q, want %q", tt.in, tt.key, got, tt.want)
		}
		if got := s.String(); got != tt.canon {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got, tt.canon)
		}
	}
	// A quote without a partner does not swallow the options after it.
	s, err := Parse(`tryangle:map=it's,seed=3`)
	if err != nil || s.Vals["map"] != "it's" || s.Vals["seed"] != "3" {
		t.Errorf("Parse(map=it's,seed=3) = %+v, %v", s, err)
	}
}

// TestBadKeys: keys may not hold quotes or spaces (they could not be
// written back unambiguously).
func TestBadKeys(t *testing.T) {
	for _, in := range []string{`a:x'y=1`, `a:"k"=1`, `a:a b=1`, `a:'q`} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), "may not contain") {
			t.Errorf("Parse(%q) error = %v, want one about the key", in, err)
		}
	}
}

// TestRoundTripValues: any value survives String and Parse.
func TestRoundTripValues(t *testing.T) {
	for _, v := range []string{"", "true", ",", "'", `"`, `'"`, `"'`, "''", `""`, "it's,here", " a ", "a=b", "x:y", `\`, `\'`, "'a'", `"a"`, "é,ü", "\t", "a\nb"} {
		roundTrip(t, "k", v)
	}
}

func roundTrip(t *testing.T, key, val string) {
	t.Helper()
	s := Spec{Name: "n", Keys: []string{key, "z"}, Vals: map[string]string{key: val, "z": "1"}}
	got, err := Parse(s.String())
	if err != nil {
		t.Fatalf("value %q: canonical %q does not parse: %v", val, s.String(), err)
	}
	if got.Vals[key] != val || got.Vals["z"] != "1" || len(got.Keys) != 2 {
		t.Fatalf("value %q: canonical %q parses to %+v", val, s.String(), got)
	}
}

// TestValues covers the typed accessors' ranges and their errors.
func TestValues(t *testing.T) {
	s, err := Parse("x:n=5,big=99999999999999999999,neg=-3,f=0.5,nan=NaN,inf=+Inf,minf=-inf,huge=1e400,bare,d=200ms,d0=0s,dlong=48h,word=zz")
	if err != nil {
		t.Fatal(err)
	}
	type check struct {
		name string
		call func() error
		want string // "" for no error
	}
	intIn := func(key string, lo, hi int) func() error {
		return func() error { _, err := s.IntIn(key, 7, lo, hi); return err }
	}
	floatIn := func(key string, lo, hi float64) func() error {
		return func() error { _, err := s.FloatIn(key, 0.5, lo, hi); return err }
	}
	durIn := func(key string, lo, hi time.Duration) func() error {
		return func() error { _, err := s.DurationIn(key, time.Second, lo, hi); return err }
	}
	tests := []check{
		{"int in range", intIn("n", 1, 10), ""},
		{"int absent", intIn("missing", 1, 2), ""},
		{"int above", intIn("n", 1, 4), "x: option n=5 is out of range: use an integer from 1 to 4"},
		{"int below", intIn("neg", 0, 4), "out of range"},
		{"int overflow", intIn("big", 0, 4), "out of range"},
		{"int word", intIn("word", 0, 4), `option word="zz" is not an integer`},
		{"int bare", intIn("bare", 1, 100), "x: option bare needs a value (an integer from 1 to 100), e.g. bare=7"},
		{"int64 bare", func() error { _, err := s.Int64In("bare", 0, 1, 9); return err }, "e.g. bare=1"},
		{"plain int bare", func() error { _, err := s.Int("bare", 4); return err }, "option bare needs a value (an integer), e.g. bare=4"},
		{"float", floatIn("f", 0, 1), ""},
		{"float NaN", floatIn("nan", -1e9, 1e9), "x: option nan=NaN is not a finite number"},
		{"float Inf", floatIn("inf", -1e9, 1e9), "not a finite number"},
		{"float -Inf", func() error { _, err := s.Float("minf", 0); return err }, "not a finite number"},
		{"float overflow", func() error { _, err := s.Float("huge", 0); return err }, "not a finite number"},
		{"plain float NaN", func() error { _, err := s.Float("nan", 0); return err }, "not a finite number"},
		{"float above", floatIn("f", 0, 0.25), "out of range: use a number from 0 to 0.25"},
		{"float word", floatIn("word", 0, 1), "is not a number"},
		{"float bare", floatIn("bare", 0, 1), "option bare needs a value (a number from 0 to 1), e.g. bare=0.5"},
		{"duration", durIn("d", time.Millisecond, time.Hour), ""},
		{"duration zero", func() error { _, err := s.Duration("d0", 0); return err }, "positive duration"},
		{"duration above", durIn("dlong", time.Millisecond, 24*time.Hour), "out of range: use a duration from 1ms to 24h"},
		{"duration bare", durIn("bare", time.Millisecond, time.Hour), "option bare needs a value (a duration from 1ms to 1h, such as 200ms or 1s), e.g. bare=200ms"},
		{"bool bare", func() error { _, err := s.Bool("bare", false); return err }, ""},
	}
	for _, tt := range tests {
		err := tt.call()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	if !s.Bare("bare") || s.Bare("n") {
		t.Errorf("Bare: bare=%v n=%v", s.Bare("bare"), s.Bare("n"))
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{24 * time.Hour: "24h", time.Minute: "1m", 90 * time.Minute: "1h30m", time.Millisecond: "1ms", 61 * time.Second: "1m1s"} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"random", "mcts:iters=10,c=1", "ext:cmd='a,b'", "a:b,c=", ":", "x:'", `t:map="it's,here"`, `t:v='a"b''c'`, `a:x=' y ',z`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		// The canonical form parses back to the same spec.
		again, err := Parse(s.String())
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", s.String(), in, err)
		}
		if again.String() != s.String() {
			t.Fatalf("%q → %q → %q", in, s.String(), again.String())
		}
		if again.Name != s.Name || !slices.Equal(again.Keys, s.Keys) || !maps.Equal(again.Vals, s.Vals) {
			t.Fatalf("%q → %q parses to %+v, want %+v", in, s.String(), again, s)
		}
	})
}

// FuzzRoundTrip: any key Parse accepts, with any value, survives String
// and Parse.
func FuzzRoundTrip(f *testing.F) {
	for _, v := range []string{"", "it's,here", `'"`, " x ", "a,b", "''"} {
		f.Add("k", v)
	}
	f.Fuzz(func(t *testing.T, key, val string) {
		if k, err := Parse("n:" + key + "=1"); err != nil || len(k.Keys) != 1 || k.Keys[0] != key {
			return // not a key Parse reads back as itself
		}
		if key == "z" {
			return
		}
		roundTrip(t, key, val)
	})
}
