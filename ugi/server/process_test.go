//go:build unix

package server_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/agents/botproc"
	"github.com/boardgame-arena/arena/agents/botproc/botproctest"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/rng"
	"github.com/boardgame-arena/arena/ugi/server"
	"github.com/boardgame-arena/arena/ugi/ugitest"
)

// TestMain lets this test binary be a UGI engine (ugitest.Engine), so
// that the server is tested as a process without building one.
func TestMain(m *testing.M) {
	ugitest.ServeIfAsked()
	os.Exit(m.Run())
}

// normal checks that every game ended by the rules (no forfeit: every
// move crossed the protocol intact) after at least least moves.
func normal(t *testing.T, recs []*results.GameRecord, want, least int) {
	t.Helper()
	if len(recs) != want {
		t.Fatalf("%d games, want %d", len(recs), want)
	}
	for _, g := range recs {
		if g.Termination != results.Normal || len(g.Moves) < least {
			t.Errorf("%s vs %s: %s after %d moves (%s)", g.Players[0].Name, g.Players[1].Name, g.Termination, len(g.Moves), g.Detail)
		}
	}
}

// TestServeGames plays a served agent, run as a process through the ugi
// agent, against greedy on every sequential game: every game ends
// normally (no forfeit), so the moves went through both directions of the
// protocol in the game's notation, and the variant was announced (the
// engine starts on othello6; only UGI_Game makes it play the others).
func TestServeGames(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	engine := "ugi:cmd=" + ugitest.Engine(t, "random", "", "") + ",movetime=50ms,name=engine"
	for _, game := range []string{"othello6", "erdos:algol", "gravity", "pyrga"} {
		t.Run(game, func(t *testing.T) {
			v, err := games.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			normal(t, ugitest.PlayGames(t, arena.Setup{Variant: v}, arena.Limits{Move: 5 * time.Second, Margin: arena.DefaultMargin}, [2]string{engine, "greedy"}, 2, 1), 2, 4)
		})
	}
}

// TestServeClockGames: in games on a clock, the ugi agent asks the
// served agent for its moves with both clocks (never movetime), and every
// game ends normally.
func TestServeClockGames(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	dir := t.TempDir()
	log, pids := filepath.Join(dir, "log"), filepath.Join(dir, "pids")
	// The engine's input is copied to log on its way.
	script := filepath.Join(dir, "engine.sh")
	body := "#!/bin/sh\necho $$ >> " + pids + "\ntee -a " + log + " | " + ugitest.Engine(t, "greedy", "", pids) + "\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	v, _ := games.Lookup("othello6")
	limits := arena.Limits{Clock: agents.TimeControl{Base: 2 * time.Second, Inc: 20 * time.Millisecond}, Margin: arena.DefaultMargin}
	normal(t, ugitest.PlayGames(t, arena.Setup{Variant: v}, limits, [2]string{"ugi:cmd=sh " + script + ",name=engine", "random"}, 2, 1), 2, 1)
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`^go p1time (\d+) p2time (\d+) p1inc 20 p2inc 20$`)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "go") {
			// A clock holds at most its base and an increment a move.
			m := goLine.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("engine read %q; want go p1time … p2time … p1inc 20 p2inc 20", l)
				continue
			}
			for _, ms := range m[1:] {
				if v, _ := strconv.Atoi(ms); v <= 0 || v > 2000+20*64 {
					t.Errorf("engine read %q: %s ms is not a clock of 2s+20ms", l, ms)
				}
			}
			n++
		}
	}
	if n < 4 {
		t.Errorf("%d go commands in two games", n)
	}
	botproctest.NoneRunning(t, pids)
}

// TestServeFenOpening: games that start at an opening given as a
// position reach the served agent as "position fen …" (were they sent as
// startpos, it would play moves of the wrong position and lose by illegal
// moves).
func TestServeFenOpening(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external processes")
	}
	v, _ := games.Lookup("othello6")
	o, err := arena.ParsePositionOpening(v, "....../.O..../.XOX../..XO../....../...... x")
	if err != nil {
		t.Fatal(err)
	}
	engine := "ugi:cmd=" + ugitest.Engine(t, "greedy", "", "") + ",movetime=50ms,name=engine"
	normal(t, ugitest.PlayGames(t, arena.Setup{Variant: v, Opening: o}, arena.Limits{}, [2]string{engine, "random"}, 2, 1), 2, 1)
}

// BenchmarkUGIMove measures one move of a ugi agent whose engine serves
// random, at ply 20 of othello6: position and go written, bestmove read,
// the move history recovered and the answer checked. Compare with
// BenchmarkPipeRoundTrip, the bare cost of a line to a process and back.
func BenchmarkUGIMove(b *testing.B) {
	a, err := agents.New("ugi:cmd="+ugitest.Engine(b, "random", "", "")+",movetime=1s", 1)
	if err != nil {
		b.Fatal(err)
	}
	defer a.(*agents.UGI).Close()
	s := server.BenchPosition(b, 20)
	v, _ := games.Lookup("othello6")
	if err := a.(*agents.UGI).NewGame(v, 0); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.Move(context.Background(), s, s.ToMove()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUGIMoveInGame is BenchmarkUGIMove along whole games, as in a
// tournament: each move comes two plies (the engine's and its opponent's)
// after the last, so the client appends to its position command and the
// server plays only the new moves. New games (uginewgame, isready) are
// not timed.
func BenchmarkUGIMoveInGame(b *testing.B) {
	a, err := agents.New("ugi:cmd="+ugitest.Engine(b, "random", "", "")+",movetime=1s", 1)
	if err != nil {
		b.Fatal(err)
	}
	u := a.(*agents.UGI)
	defer u.Close()
	v, _ := games.Lookup("othello6")
	s := v.New().(games.State)
	r := rng.New(5)
	if err := u.NewGame(v, 0); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if s.Terminal() {
			b.StopTimer()
			s = v.New().(games.State)
			if err := u.NewGame(v, 0); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		m, err := a.Move(context.Background(), s, s.ToMove())
		if err != nil {
			b.Fatal(err)
		}
		s.Play(m)
		if !s.Terminal() { // the opponent's move
			ms := s.LegalMoves(nil)
			s.Play(ms[r.IntN(len(ms))])
		}
	}
}

// BenchmarkPipeRoundTrip writes a line to cat and reads it back.
func BenchmarkPipeRoundTrip(b *testing.B) {
	p, err := botproc.Start(botproc.Config{Argv: []string{"cat"}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop()
	for b.Loop() {
		if err := p.WriteLine("position startpos moves a1 b2 c3", time.Time{}); err != nil {
			b.Fatal(err)
		}
		if _, err := p.ReadLine(context.Background(), time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
}
