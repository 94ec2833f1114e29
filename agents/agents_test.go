package agents_test

import (
	"context"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/othello6"
	"github.com/boardgame-arena/arena/rng"
)

func TestNewErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"nosuch", `unknown agent "nosuch" (known: `},
		{"random:depth=3", `unknown option "depth" (valid: name, tc)`},
		{"", "empty name"},
	}
	for _, tt := range tests {
		_, err := agents.New(tt.spec, 1)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%q) error = %v, want one containing %q", tt.spec, err, tt.want)
		}
	}
	a, err := agents.New("greedy:name=Gina", 1)
	if err != nil || a.Name() != "Gina" {
		t.Errorf("name= ignored: %v, %v", a, err)
	}
}

func newOthello(t *testing.T) games.State {
	b, err := games.New("othello6")
	if err != nil {
		t.Fatal(err)
	}
	return b.(games.State)
}

func TestRandomIsSeededAndUniform(t *testing.T) {
	s := newOthello(t)
	counts := map[games.Move]int{}
	a, _ := agents.New("random", 11)
	b, _ := agents.New("random", 11)
	for i := 0; i < 4000; i++ {
		ma, _ := a.Move(context.Background(), s, 0)
		mb, _ := b.Move(context.Background(), s, 0)
		if ma != mb {
			t.Fatal("same seed, different moves")
		}
		counts[ma]++
	}
	if len(counts) != 4 {
		t.Fatalf("random used %d of the 4 opening moves", len(counts))
	}
	for m, c := range counts {
		if c < 850 || c > 1150 { // expectation 1000, sd ≈ 27
			t.Errorf("move %s chosen %d times of 4000", s.FormatMove(m), c)
		}
	}
}

// TestGreedyTakesWins walks random games; wherever a move ends the game with
// a win for the mover, greedy must choose such a move, and its choice must
// always be legal and leave the state unchanged.
func TestGreedyTakesWins(t *testing.T) {
	r := rng.New(4)
	g, _ := agents.New("greedy", 1)
	wins := 0
	for game := 0; game < 300; game++ {
		s := newOthello(t)
		for !s.Terminal() {
			p := s.ToMove()
			moves := s.LegalMoves(nil)
			winning := map[games.Move]bool{}
			for _, m := range moves {
				s.Play(m)
				if s.Terminal() && s.Outcome().Winner == p {
					winning[m] = true
				}
				s.Undo()
			}
			h := s.Hash()
			choice, err := g.Move(context.Background(), s, p)
			if err != nil || !games.IsLegal(s, choice) || s.Hash() != h {
				t.Fatalf("greedy: %v, legal %v, state kept %v", err, games.IsLegal(s, choice), s.Hash() == h)
			}
			if len(winning) > 0 {
				wins++
				if !winning[choice] {
					t.Fatalf("greedy chose %s although %d moves win\n%s", s.FormatMove(choice), len(winning), s)
				}
			}
			s.Play(moves[r.IntN(len(moves))])
		}
	}
	if wins == 0 {
		t.Fatal("no position with a winning move was met; the test checked nothing")
	}
}

// TestGreedyTiesBrokenBySeed: at the start all four moves are symmetric, so
// they tie; different seeds must spread over them, one seed must repeat.
func TestGreedyTiesBrokenBySeed(t *testing.T) {
	s := newOthello(t)
	seen := map[games.Move]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		a, _ := agents.New("greedy", seed)
		b, _ := agents.New("greedy", seed)
		ma, _ := a.Move(context.Background(), s, 0)
		mb, _ := b.Move(context.Background(), s, 0)
		if ma != mb {
			t.Fatal("same seed, different greedy choices")
		}
		seen[ma] = true
	}
	if len(seen) != 4 {
		t.Errorf("greedy's tie-breaking reached %d of 4 symmetric moves", len(seen))
	}
}

func TestKindsDocumented(t *testing.T) {
	for _, k := range agents.Kinds() {
		if k.Help == "" {
			t.Errorf("agent %s has no help", k.Name)
		}
		for _, key := range k.Keys {
			if key.Help == "" {
				t.Errorf("agent %s key %s has no help", k.Name, key.Name)
			}
		}
	}
}
