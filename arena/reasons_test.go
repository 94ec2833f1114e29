package arena

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/tryangle"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// lineAgent plays TryAngle Catch: Hold, except at ply at where it prints
// line (an output line, as a cg bot would), or returns err when set.
type lineAgent struct {
	name string
	at   int
	line string
	err  error
}

func (a *lineAgent) Name() string { return a.name }
func (a *lineAgent) Move(_ context.Context, s games.Base, p int) (games.Move, error) {
	if s.Ply() != a.at {
		return s.ParseMove("WAIT")
	}
	if a.err != nil {
		return 0, a.err
	}
	return s.ParseMove(a.line)
}

// A line with an unknown command loses by TryAngle Catch's rules, and the
// record says so: an illegal-move forfeit with the reason, not "normal".
func TestRuleForfeitHasReason(t *testing.T) {
	v, err := games.Lookup("tryangle:seed=4")
	if err != nil {
		t.Fatal(err)
	}
	bad := func(name string, at int) agents.Agent {
		return &lineAgent{name: name, at: at, line: "MOVE 0 1 1;HELLO WORLD"}
	}
	good := func(name string) agents.Agent { return &lineAgent{name: name, at: -1} }
	for _, tc := range []struct {
		name    string
		players [2]agents.Agent
		forfeit int
		winner  int
		detail  []string
	}{
		{"first", [2]agents.Agent{bad("garbage", 2), good("holder")}, 0, 1, []string{`garbage lost by the game's rules with its move at ply 3: unknown command "HELLO WORLD"`}},
		{"second", [2]agents.Agent{good("holder"), bad("garbage", 0)}, 1, 0, []string{`garbage lost by the game's rules with its move at ply 1: unknown command "HELLO WORLD"`}},
		{"both", [2]agents.Agent{bad("g1", 1), bad("g2", 1)}, results.BothForfeit, games.Draw, []string{"g1 lost by the game's rules with its move at ply 2", "; g2 lost"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := PlayGame(context.Background(), v, tc.players, nil)
			if err == nil {
				t.Error("PlayGame reported no forfeit")
			}
			g := res.Record
			if g.Termination != results.Illegal || g.Forfeit != tc.forfeit || g.Winner != tc.winner {
				t.Fatalf("termination %s, forfeit %d, winner %d; want %s, %d, %d (%s)", g.Termination, g.Forfeit, g.Winner, results.Illegal, tc.forfeit, tc.winner, g.Detail)
			}
			for _, d := range tc.detail {
				if !strings.Contains(g.Detail, d) {
					t.Errorf("detail %q lacks %q", g.Detail, d)
				}
			}
		})
	}
	// A game without such a move still ends normally.
	res, err := PlayGame(context.Background(), v, [2]agents.Agent{good("a"), good("b")}, nil)
	if err != nil || res.Record.Termination != results.Normal || res.Record.Forfeit != -1 {
		t.Fatalf("a clean game: %v, %s, forfeit %d", err, res.Record.Termination, res.Record.Forfeit)
	}
}

// Output that is no move at all (agents.ErrOutput) is an illegal move with
// its reason; a crashed bot stays a crash.
func TestUnusableOutputIsIllegal(t *testing.T) {
	v, _ := games.Lookup("tryangle:seed=4")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("cg x: %w: an output line longer than 1048576 bytes", agents.ErrOutput), results.Illegal},
		{fmt.Errorf("cg x: %w: exit status 3", agents.ErrCrash), results.Crash},
	} {
		res, _ := PlayGame(context.Background(), v, [2]agents.Agent{&lineAgent{name: "bot", at: 1, err: tc.err}, &lineAgent{name: "b", at: -1}}, nil)
		g := res.Record
		if g.Termination != tc.want || g.Forfeit != 0 || !strings.Contains(g.Detail, tc.err.Error()) {
			t.Errorf("%v: termination %s, forfeit %d, detail %q", tc.err, g.Termination, g.Forfeit, g.Detail)
		}
	}
}

// timeAgent fails to answer in time in one of the ways an agent can.
type timeAgent struct {
	name string
	how  string
}

func (a *timeAgent) Name() string { return a.name }
func (a *timeAgent) Move(ctx context.Context, s games.Base, p int) (games.Move, error) {
	var buf [8]games.Move
	switch a.how {
	case "own deadline": // an external bot's protocol deadline, before the arena's
		time.Sleep(5 * time.Millisecond)
		return 0, fmt.Errorf("cg %s: %w: no answer within 5ms", a.name, agents.ErrTimeout)
	case "context": // gives up when the move's context ends
		<-ctx.Done()
		return 0, ctx.Err()
	case "late": // answers after the limit and margin
		time.Sleep(80 * time.Millisecond)
	case "stuck": // the watchdog gives up on it
		time.Sleep(400 * time.Millisecond)
	}
	return s.(games.State).LegalMoves(buf[:0])[0], nil
}

// The same failure, no answer in time, is described the same way whoever
// notices it: the agent itself, the referee after the move, the watchdog.
func TestTimeoutsDescribedAlike(t *testing.T) {
	v, _ := games.Lookup("t-sum")
	lim := Limits{Move: 20 * time.Millisecond, Margin: 30 * time.Millisecond}
	form := func(name string) *regexp.Regexp {
		return regexp.MustCompile(`^` + name + ` timed out choosing a move after [0-9.]+[µm]?s \(limit 20ms \+ margin 30ms\)(: |$)`)
	}
	for _, how := range []string{"own deadline", "context", "late"} {
		a := &timeAgent{name: "slowpoke", how: how}
		res, err := Play(context.Background(), Setup{Variant: v}, [2]Seat{{Agent: a, Limits: lim}, {Agent: &timeAgent{name: "b"}}}, nil)
		g := res.Record
		if err == nil || g.Termination != results.Timeout || g.Forfeit != 0 || !form("slowpoke").MatchString(g.Detail) {
			t.Errorf("%s: %v; termination %s, forfeit %d, detail %q", how, err, g.Termination, g.Forfeit, g.Detail)
		}
	}
	// The watchdog, in a tournament.
	agents.Register(&agents.Kind{Name: "t-stuck400", Help: "test agent: sleeps 400ms per move, ignoring the context",
		New: func(spec.Spec, uint64) (agents.Agent, error) {
			return &timeAgent{name: "t-stuck400", how: "stuck"}, nil
		}})
	tour, err := New(Options{Game: "t-sum", Agents: []string{"t-stuck400", "t-max"}, GamesPerPair: 2, MoveTime: 20 * time.Millisecond, MoveMargin: 30 * time.Millisecond, Openings: "none"})
	if err != nil {
		t.Fatal(err)
	}
	// The opponent's instant moves get a second of grace: a loaded
	// machine can stall a thread past 50 ms, which would forfeit it.
	tour.Limits[1] = Limits{Move: time.Second, Margin: time.Second}
	var got []*results.GameRecord
	if _, err := tour.Run(context.Background(), RunOptions{Concurrency: 1, Sink: func(b []*results.GameRecord) error {
		for _, g := range b {
			c := *g
			got = append(got, &c)
		}
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d games recorded", len(got))
	}
	for _, g := range got {
		if g.Termination != results.Timeout || !form("t-stuck400").MatchString(g.Detail) || !strings.HasSuffix(g.Detail, ": the arena stopped waiting and left it running") {
			t.Errorf("watchdog: termination %s, detail %q", g.Termination, g.Detail)
		}
	}
}

// An agent that cannot play the game (agents.GameChecker) stops a
// tournament, a match and a single game before they start.
func TestGameMismatchRefused(t *testing.T) {
	cg := "cg:cmd=/no/such/bot" // never started: the check comes first
	for _, o := range []Options{
		{Game: "othello6", Agents: []string{cg, "random"}, GamesPerPair: 2},
		{Game: "othello6", Agents: []string{"random", cg}, GamesPerPair: 2, Kind: results.Match},
	} {
		_, err := New(o)
		if err == nil || !strings.Contains(err.Error(), "othello6 has none") || !strings.Contains(err.Error(), `agent "cg:cmd=/no/such/bot"`) {
			t.Errorf("%s %v: %v", o.Kind, o.Agents, err)
		}
	}
	if _, err := New(Options{Game: "tryangle", Agents: []string{cg, "random"}, GamesPerPair: 2}); err != nil {
		t.Errorf("cg on tryangle: %v", err)
	}
	a, err := agents.New(cg, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := agents.New("random", 0)
	v, _ := games.Lookup("othello6")
	res, err := PlayGame(context.Background(), v, [2]agents.Agent{r, a}, nil)
	if err == nil || !strings.Contains(err.Error(), "othello6 has none") || res.Plies != 0 || res.Record != nil {
		t.Errorf("PlayGame: %v, %d plies", err, res.Plies)
	}
}
