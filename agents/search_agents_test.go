package agents_test

import (
	"context"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/search/testgames"
)

// playGame plays one game between a (first player) and b and returns the
// outcome.
func playGame(t *testing.T, v games.Variant, a, b agents.Agent) games.Outcome {
	t.Helper()
	s := v.New().(games.State)
	players := [2]agents.Agent{a, b}
	for p, ag := range players {
		if gs, ok := ag.(agents.GameStarter); ok {
			if err := gs.NewGame(v, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	for !s.Terminal() {
		p := s.ToMove()
		m, err := players[p].Move(context.Background(), s.Clone(), p)
		if err != nil {
			t.Fatalf("%s: %v", players[p].Name(), err)
		}
		if !games.IsLegal(s, m) {
			t.Fatalf("%s: illegal move %s", players[p].Name(), s.FormatMove(m))
		}
		s.Play(m)
	}
	return s.Outcome()
}

// match plays n games with alternating seats and returns a's score share.
func match(t *testing.T, specA, specB string, n int, seed uint64) float64 {
	t.Helper()
	v, err := games.Lookup("othello6")
	if err != nil {
		t.Fatal(err)
	}
	var points float64
	for i := 0; i < n; i++ {
		a, err := agents.New(specA, rng.Derive(seed, uint64(i), 0))
		if err != nil {
			t.Fatal(err)
		}
		b, err := agents.New(specB, rng.Derive(seed, uint64(i), 1))
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			points += playGame(t, v, a, b).Points(0)
		} else {
			points += playGame(t, v, b, a).Points(1)
		}
	}
	return points / float64(n)
}

func TestStrength(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 20
	}
	cases := []struct {
		a, b string
		min  float64
	}{
		{"alphabeta:depth=4,tt=4", "greedy", 0.75},
		{"greedy", "random", 0.75},
		{"mcts:iters=2000", "random", 0.90},
	}
	for _, c := range cases {
		t.Run(c.a+" vs "+c.b, func(t *testing.T) {
			t.Parallel()
			score := match(t, c.a, c.b, n, 2024)
			t.Logf("%s scores %.1f%% against %s over %d games", c.a, 100*score, c.b, n)
			if score < c.min {
				t.Fatalf("score %.3f < %.2f", score, c.min)
			}
		})
	}
}

func TestSpecsAndKeys(t *testing.T) {
	good := []string{
		"alphabeta:depth=3", "alphabeta:time=50ms,tt=8,threads=2", "alphabeta:nodes=5000,asp=0",
		"alphabeta:exact", "alphabeta:depth=2,rootscores,name=ab",
		"mcts:iters=100,c=1.2,fpu=0.5,rollout=egreedy,eps=0.2", "mcts:time=20ms,threads=2,reuse=false",
		"mcts:iters=100,cutoff=8,escale=100,solver=false,maxnodes=100000",
		"mcts:iters=100,sel=rm,gamma=0.05,final=sample", "mcts:fpu=inf,c=0",
	}
	for _, s := range good {
		if err := agents.Validate(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	bad := []string{
		"alphabeta:depth=x", "alphabeta:threads=0", "alphabeta:bogus=1", "alphabeta:time=-1s",
		"mcts:rollout=smart", "mcts:final=best", "mcts:sel=exp3", "mcts:threads=0", "mcts:bogus",
	}
	for _, s := range bad {
		if err := agents.Validate(s); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
	// Every key is documented.
	for _, k := range agents.Kinds() {
		if k.Name != "alphabeta" && k.Name != "mcts" {
			continue
		}
		for _, key := range k.Keys {
			if strings.TrimSpace(key.Help) == "" {
				t.Errorf("%s: key %s undocumented", k.Name, key.Name)
			}
		}
	}
}

func TestReportersAndAnalysis(t *testing.T) {
	s := othello6.New()
	for _, spec := range []string{"alphabeta:depth=5", "mcts:iters=3000", "alphabeta:depth=3,rootscores"} {
		a, err := agents.New(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		m, err := a.Move(context.Background(), s.Clone(), 0)
		if err != nil || !games.IsLegal(s, m) {
			t.Fatalf("%s: %v %v", spec, m, err)
		}
		st := a.(agents.Reporter).LastStats()
		if st.Nodes == 0 || st.Info == "" {
			t.Fatalf("%s: stats %+v", spec, st)
		}
		an := a.(agents.Analyser).Analysis()
		if len(an) != 4 || an[0].Move != m {
			t.Fatalf("%s: analysis %+v for move %v", spec, an, m)
		}
	}
}

func TestExactUsesSolver(t *testing.T) {
	// An endgame: the exact agent's reported score is the solved value.
	r := rng.New(8)
	s := othello6.New()
	for i := 0; i < 24 && !s.Terminal(); i++ {
		ms := s.LegalMoves(nil)
		s.Play(ms[r.IntN(len(ms))])
	}
	if s.Terminal() {
		t.Skip("random game ended early")
	}
	a, _ := agents.New("alphabeta:exact", 1)
	m, err := a.Move(context.Background(), s.Clone(), s.ToMove())
	if err != nil || !games.IsLegal(s, m) {
		t.Fatal(m, err)
	}
	if st := a.(agents.Reporter).LastStats(); st.Nodes == 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestMCTSOnSimultaneousGame(t *testing.T) {
	// DUCT through the agent on Goofspiel: legal actions for both seats.
	g := testgames.NewGoofspiel(3, 1, 4, 2)
	var ag [2]agents.Agent
	for p := range ag {
		a, err := agents.New("mcts:iters=3000,sel=rm,final=sample", uint64(p))
		if err != nil {
			t.Fatal(err)
		}
		ag[p] = a
	}
	for !g.Terminal() {
		var ms [2]games.Move
		for p := range ag {
			m, err := ag[p].Move(context.Background(), g.Clone(), p)
			if err != nil {
				t.Fatal(err)
			}
			legal := false
			for _, l := range g.LegalMovesFor(p, nil) {
				legal = legal || l == m
			}
			if !legal {
				t.Fatalf("player %d: illegal %v", p, m)
			}
			ms[p] = m
		}
		g.PlayJoint(ms[0], ms[1])
	}
	// alphabeta plays simultaneous games sequentialised: a legal move for
	// the seat asked, the position left as it was.
	ab, err := agents.New("alphabeta:depth=4", 1)
	if err != nil {
		t.Fatal(err)
	}
	for p := 0; p < 2; p++ {
		g := testgames.NewGoofspiel(3, 1, 2)
		h := g.Hash()
		m, err := ab.Move(context.Background(), g, p)
		if err != nil {
			t.Fatal(err)
		}
		legal := false
		for _, l := range g.LegalMovesFor(p, nil) {
			legal = legal || l == m
		}
		if !legal || g.Hash() != h || g.Ply() != 0 {
			t.Fatalf("alphabeta on Goofspiel, player %d: move %v legal %v, state kept %v", p, m, legal, g.Hash() == h)
		}
	}
}

func TestExactWithTimeFallsBack(t *testing.T) {
	// From the start the solver cannot finish in 20 ms: the agent still
	// answers with a legal move in time.
	a, err := agents.New("alphabeta:exact,time=20ms", 1)
	if err != nil {
		t.Fatal(err)
	}
	s := othello6.New()
	m, err := a.Move(context.Background(), s.Clone(), 0)
	if err != nil || !games.IsLegal(s, m) {
		t.Fatal(m, err)
	}
	if info := a.(agents.Reporter).LastStats().Info; !strings.Contains(info, "solver stopped") {
		t.Fatalf("info %q", info)
	}
}
