package spec

import (
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

func FuzzParse(f *testing.F) {
	for _, s := range []string{"random", "mcts:iters=10,c=1", "ext:cmd='a,b'", "a:b,c=", ":", "x:'"} {
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
	})
}
