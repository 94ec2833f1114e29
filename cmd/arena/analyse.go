package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/games"
)

func init() {
	register(command{"analyse", groupEngines, "show an agent's choice in a position, with its per-move statistics", runAnalyse})
}

// analyseReport is the --format json output of analyse.
type analyseReport struct {
	Game   string        `json:"game"`
	Agent  string        `json:"agent"`
	Player int           `json:"player"`
	Move   string        `json:"move"`
	Nodes  int64         `json:"nodes"`
	Depth  int           `json:"depth"`
	Score  int           `json:"score"`
	Info   string        `json:"info"`
	Moves  []analyseMove `json:"moves"`
}

type analyseMove struct {
	Move   string  `json:"move"`
	Score  *int    `json:"score,omitempty"`
	Bound  string  `json:"bound,omitempty"`
	Visits int64   `json:"visits,omitempty"`
	Value  float64 `json:"value,omitempty"`
	Prob   float64 `json:"prob,omitempty"`
	Proven string  `json:"proven,omitempty"`
}

func runAnalyse(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("analyse", "[--game SPEC] [--agent SPEC] [--moves \"M…\" | --fen POSITION] [--player P] [flags]", stderr)
	game := fs.String("game", "othello6", "game `SPEC` (see arena games)")
	agentSpec := fs.String("agent", "alphabeta:depth=6", "agent `SPEC` (see arena agents)")
	fs.alias("agents", "agent")
	moves := fs.String("moves", "", "play these `MOVES` (space-separated) from the start first")
	fen := fs.String("fen", "", fenHelp)
	player := fs.Int("player", 0, "simultaneous games: the player `P` whose action is wanted, 0 or 1")
	seed := fs.Uint64("seed", 1, "`SEED` of the agent's random choices")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	fs.group("Core", "game agent seed")
	fs.group("Position", "moves fen player")
	fs.group("Output", "format")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format, "text", "json"); err != nil {
		return err
	}
	if err := inRange("player", *player, 0, 1, ""); err != nil {
		return err
	}
	v, err := games.Lookup(*game)
	if err != nil {
		return err
	}
	b := v.New()
	if *fen != "" {
		if *moves != "" {
			return errFenAndMoves()
		}
		s, err := fenPosition(v, *fen)
		if err != nil {
			return err
		}
		b = s
	}
	p := *player
	switch s := b.(type) {
	case games.State:
		playerSet := false
		fs.Visit(func(f *flag.Flag) { playerSet = playerSet || f.Name == "player" })
		if playerSet {
			return fmt.Errorf("--player is for simultaneous games; in %s the side to move plays (set it with --moves or --fen)", v)
		}
		if _, err := games.Replay(v.String(), s, strings.Fields(*moves)); err != nil {
			return fmt.Errorf("--moves: %w", err)
		}
		p = s.ToMove()
	case games.SimState:
		if *moves != "" {
			return fmt.Errorf("--moves is for sequential games; %s is simultaneous", v)
		}
		if p != 0 && p != 1 {
			return fmt.Errorf("--player must be 0 or 1")
		}
	}
	if b.Terminal() {
		return fmt.Errorf("the game is already over")
	}
	a, err := agents.New(*agentSpec, *seed)
	if err != nil {
		return err
	}
	if c, ok := a.(io.Closer); ok {
		defer c.Close()
	}
	if gs, ok := a.(agents.GameStarter); ok {
		if err := gs.NewGame(v, p); err != nil {
			return err
		}
	}
	m, err := a.Move(context.Background(), games.Clone(b), p)
	if err != nil {
		return err
	}
	rep := analyseReport{Game: v.String(), Agent: a.Name(), Player: p, Move: b.FormatMove(m), Moves: []analyseMove{}}
	if r, ok := a.(agents.Reporter); ok {
		st := r.LastStats()
		rep.Nodes, rep.Depth, rep.Score, rep.Info = st.Nodes, st.Depth, st.Score, st.Info
	}
	var rows []agents.MoveAnalysis
	if an, ok := a.(agents.Analyser); ok {
		rows = an.Analysis()
	}
	for _, r := range rows {
		am := analyseMove{Move: b.FormatMove(r.Move), Visits: r.Visits, Value: r.Value, Prob: r.Prob, Proven: r.Proven, Bound: r.Bound}
		if r.Bound != "" {
			score := r.Score
			am.Score = &score
		}
		rep.Moves = append(rep.Moves, am)
	}
	if *format == "json" {
		return json.NewEncoder(stdout).Encode(rep)
	}
	fmt.Fprintf(stdout, "%s\n\n%s (player %d) plays %s\n", b, rep.Agent, p, rep.Move)
	width := len("move")
	for _, r := range rep.Moves {
		width = max(width, len(r.Move))
	}
	if len(rows) > 0 {
		if rows[0].Bound != "" {
			fmt.Fprintf(stdout, "\n  %-*s %10s  %s\n", width, "move", "score", "bound")
			for _, r := range rep.Moves {
				fmt.Fprintf(stdout, "  %-*s %10d  %s\n", width, r.Move, *r.Score, r.Bound)
			}
		} else {
			var total int64
			mixed := false // DUCT reports an empirical mixed strategy
			for _, r := range rows {
				total += r.Visits
				mixed = mixed || r.Prob > 0
			}
			fmt.Fprintf(stdout, "\n  %-*s %9s %7s %7s", width, "move", "visits", "share", "value")
			if mixed {
				fmt.Fprintf(stdout, " %7s", "prob")
			}
			fmt.Fprintln(stdout, "  proven")
			for _, r := range rep.Moves {
				share := 0.0
				if total > 0 {
					share = 100 * float64(r.Visits) / float64(total)
				}
				fmt.Fprintf(stdout, "  %-*s %9d %6.1f%% %7.3f", width, r.Move, r.Visits, share, r.Value)
				if mixed {
					fmt.Fprintf(stdout, " %7.3f", r.Prob)
				}
				fmt.Fprintf(stdout, "  %s\n", r.Proven)
			}
		}
	}
	if rep.Info != "" {
		fmt.Fprintf(stdout, "\n%s\n", rep.Info)
	}
	return nil
}
