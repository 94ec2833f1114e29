package agents

import (
	"slices"
	"testing"
)

// TestProgramName: a command is named by its program's base name, or by
// the script or program an interpreter, a build tool or a wrapper runs.
func TestProgramName(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"./mybot", "mybot"},
		{"/usr/games/stockfish bench", "stockfish"},
		{"bin/engine --threads 2", "engine"},
		{"python3 examples/ugi-python/engine.py", "engine.py"},
		{"python3.12 -u -W ignore bots/bot.py --depth 3", "bot.py"},
		{"python -m mypkg.engine", "mypkg.engine"},
		{"pypy3 bot.py", "bot.py"},
		{"node --max-old-space-size=4096 dist/bot.js", "bot.js"},
		{"java -Xmx1g -jar build/bot.jar", "bot.jar"},
		{"java -cp out Main", "Main"},
		{"sh /tmp/x/engine.sh", "engine.sh"},
		{"go run ./examples/ugi-go", "ugi-go"},
		{"go run .", "go"},
		{"cargo run --release", "cargo"},
		{"env OMP_NUM_THREADS=1 python3 nn/engine.py", "engine.py"},
		{"taskset -c 2 ./engine", "engine"},
		{"timeout -k 1 60 nice -n 5 ./engine", "engine"},
		{"python3 -- -weird.py", "-weird.py"},
		{"python3", "python3"}, // an interpreter alone names itself
		{"./sh2 --x y", "sh2"}, // not sh: only interpreters take a version
		{"./python3.py x", "python3.py"},
		{"dir/", "dir"},
		{"/", ""},
		{"", ""},
	} {
		if got := ProgramName(c.cmd); got != c.want {
			t.Errorf("ProgramName(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

// TestDisplayName: name= wins; an external agent (cmd=) is named by its
// program; any other agent, built-ins included, by its spec as before.
func TestDisplayName(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"ugi:cmd=python3 examples/ugi-python/engine.py,movetime=100ms", "engine.py"},
		{"ugi:cmd='python3 engine.py',name=Mine", "Mine"},
		{"cg:cmd=./bots/mybot,turn=100ms", "mybot"},
		{"greedy", "greedy"},
		{"mcts:iters=2000,c=1.2", "mcts:iters=2000,c=1.2"},
		{"alphabeta:depth=4,name=ab4", "ab4"},
		{"ugi:cmd", "ugi:cmd"}, // a bare cmd names no program
	} {
		sp, err := Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := sp.Name(); got != c.want {
			t.Errorf("Parse(%q).Name() = %q, want %q", c.spec, got, c.want)
		}
	}
	// The agents say the same of themselves.
	for _, text := range []string{"ugi:cmd=python3 examples/ugi-python/engine.py", "cg:cmd=./bots/mybot"} {
		a, err := New(text, 1)
		if err != nil {
			t.Fatal(err)
		}
		sp, _ := Parse(text)
		if a.Name() != sp.Name() {
			t.Errorf("%s: agent named %q, spec %q", text, a.Name(), sp.Name())
		}
	}
}

// TestNames: a run's names are unique, in the order of its agents; a
// name taken from a program yields to the names given by name= or a
// built-in's spec, which stay as they were.
func TestNames(t *testing.T) {
	for _, c := range []struct {
		specs, want []string
	}{
		{[]string{"ugi:cmd=python3 a/engine.py", "ugi:cmd=python3 b/engine.py", "greedy"},
			[]string{"engine.py", "engine.py#2", "greedy"}},
		{[]string{"ugi:cmd=./greedy", "greedy"}, []string{"greedy#2", "greedy"}},
		{[]string{"greedy", "greedy", "random"}, []string{"greedy", "greedy#2", "random"}},
		{[]string{"ugi:cmd=./bot", "random:name=bot", "cg:cmd=./bot"}, []string{"bot#2", "bot", "bot#3"}},
		{[]string{"ugi:cmd=./bot", "random:name=bot#2", "ugi:cmd=./bot,movetime=5ms"}, []string{"bot", "bot#2", "bot#3"}},
		{[]string{"ugi:cmd=./x,name=mine", "ugi:cmd=./mine"}, []string{"mine", "mine#2"}},
		{[]string{"mcts:iters=2000", "alphabeta:depth=4"}, []string{"mcts:iters=2000", "alphabeta:depth=4"}},
	} {
		var specs []Spec
		for _, text := range c.specs {
			sp, err := Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			specs = append(specs, sp)
		}
		if got := Names(specs); !slices.Equal(got, c.want) {
			t.Errorf("Names(%q) = %q, want %q", c.specs, got, c.want)
		}
	}
}

// TestNamed: an agent built from a named spec calls itself by that name;
// the spec it came from is left as it was.
func TestNamed(t *testing.T) {
	sp, err := Parse("ugi:cmd=python3 engine.py,name=old")
	if err != nil {
		t.Fatal(err)
	}
	a, err := sp.Named("engine#2").New(1)
	if err != nil {
		t.Fatal(err)
	}
	if a.Name() != "engine#2" || sp.Name() != "old" || sp.String() != "ugi:cmd=python3 engine.py,name=old" {
		t.Errorf("agent %q, spec %q (%s)", a.Name(), sp.Name(), sp.String())
	}
	b, err := Parse("greedy")
	if err != nil {
		t.Fatal(err)
	}
	if g, err := b.Named("greedy#2").New(1); err != nil || g.Name() != "greedy#2" || b.Name() != "greedy" {
		t.Errorf("agent %v, %v; spec %q", g, err, b.Name())
	}
}
