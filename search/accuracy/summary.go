package accuracy

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/boardgame-arena/arena/rng"
)

// Report is the analysis summed up per player.
type Report struct {
	Game       string `json:"game"`
	Games      int    `json:"games"`
	PhaseUnit  string `json:"phase_unit"` // "empties" (before the move) or "plies"
	PhaseWidth int    `json:"phase_width"`
	BudgetMS   int64  `json:"budget_ms"`
	Nodes      int64  `json:"nodes,omitempty"`
	Bootstrap  int    `json:"bootstrap"`
	Seed       uint64 `json:"seed"`
	// Players in order of mean loss, then name.
	Players []PlayerStats `json:"players"`
	// Worst are the moves that lost the most (blunders first), at most
	// MaxWorst.
	Worst []WorstMove `json:"worst"`
	// Positions: where the values came from (cache, book, solved now,
	// left unknown).
	CacheHits int64 `json:"cache_hits"`
	Book      int64 `json:"book"`
	Solved    int64 `json:"solved"`
	Unsettled int64 `json:"unsettled"`
	// NodesSearched and SolveSecs are the work of the solves of this run
	// (SolveSecs in wall time, summed over the solves running at once).
	NodesSearched int64 `json:"nodes_searched"`
	// Cost is the solves of this run by the phase of the position solved
	// (empty cells or plies, not binned), the costliest first.
	Cost      []Cost  `json:"cost"`
	SolveSecs float64 `json:"solve_seconds"`
}

// Cost is the solves of one phase: how many, their nodes and their wall
// time (summed over the solves running at once).
type Cost struct {
	Phase   int     `json:"phase"`
	Solves  int64   `json:"solves"`
	Nodes   int64   `json:"nodes"`
	Seconds float64 `json:"seconds"`
}

// MaxWorst bounds Report.Worst.
const MaxWorst = 20

// Tally is a count of moves with the loss they sum to; the intervals are
// 95 % bootstrap intervals over the games. Means and intervals are 0 when
// no move was analysed, intervals also without resamples.
type Tally struct {
	Moves         int     `json:"moves"`
	MovesAnalysed int     `json:"moves_analysed"`
	Unknown       int     `json:"unknown"`
	Forced        int     `json:"forced"`
	MeanLoss      float64 `json:"mean_loss"`
	MeanLossLo    float64 `json:"mean_loss_lo"`
	MeanLossHi    float64 `json:"mean_loss_hi"`
	Blunders      int     `json:"blunders"`
	BlunderRate   float64 `json:"blunder_rate"`
	BlunderRateLo float64 `json:"blunder_rate_lo"`
	BlunderRateHi float64 `json:"blunder_rate_hi"`
	loss          int
	intervals     bool
}

// text renders the tally's mean loss, interval and blunder rate.
func (t Tally) text() (mean, meanSpan, rate, rateSpan string) {
	if t.MovesAnalysed == 0 {
		return "-", "", "-", ""
	}
	mean = fmt.Sprintf("%.2f", t.MeanLoss)
	rate = fmt.Sprintf("%.1f%%", 100*t.BlunderRate)
	if t.intervals {
		meanSpan = fmt.Sprintf("[%.2f,%.2f]", t.MeanLossLo, t.MeanLossHi)
		rateSpan = fmt.Sprintf("[%.1f,%.1f]", 100*t.BlunderRateLo, 100*t.BlunderRateHi)
	}
	return
}

// PlayerStats is one player's tally, over all its moves and per phase.
type PlayerStats struct {
	Name string `json:"name"`
	Tally
	Phases []PhaseStats `json:"phases"`
}

// PhaseStats is a player's tally over the moves of one phase: From to To
// empty cells (or plies) before the move.
type PhaseStats struct {
	From int `json:"from"`
	To   int `json:"to"`
	Tally
}

// WorstMove is one of the moves that lost the most.
type WorstMove struct {
	Game    int    `json:"game"` // the record's Index
	Player  string `json:"player"`
	Ply     int    `json:"ply"` // index in the game's moves, from 0
	Move    string `json:"move"`
	Before  int    `json:"before"`
	After   int    `json:"after"`
	Loss    int    `json:"loss"`
	Blunder bool   `json:"blunder"`
}

// cell is one player's moves of one phase in one game, for the bootstrap.
type cell struct {
	loss, analysed, blunders int
}

// Summary sums scored games up; Add them in a fixed order for a
// reproducible Worst list.
type Summary struct {
	a       *Analyser
	players map[string]*playerSum
	games   int
	worst   []WorstMove
}

type playerSum struct {
	all    Tally
	phases map[int]*Tally
	// games[g][phase] for the bootstrap; phase −1 is every phase.
	games []map[int]cell
}

// NewSummary returns an empty summary of games a scored.
func (a *Analyser) NewSummary() *Summary {
	return &Summary{a: a, players: map[string]*playerSum{}}
}

// Add counts the scored game g.
func (s *Summary) Add(g Game) {
	s.games++
	var cells [2]map[int]cell
	for _, p := range g.Plies {
		name := g.Players[p.Player]
		ps := s.players[name]
		if ps == nil {
			ps = &playerSum{phases: map[int]*Tally{}}
			s.players[name] = ps
		}
		if cells[p.Player] == nil {
			cells[p.Player] = map[int]cell{}
		}
		bin := p.Phase / s.a.o.width()
		t := ps.phases[bin]
		if t == nil {
			t = &Tally{}
			ps.phases[bin] = t
		}
		for _, t := range []*Tally{&ps.all, t} {
			t.Moves++
			if p.Forced {
				t.Forced++
			}
			if !p.Known {
				t.Unknown++
				continue
			}
			t.MovesAnalysed++
			t.loss += p.Loss
			if p.Blunder {
				t.Blunders++
			}
		}
		if p.Known {
			for _, k := range []int{-1, bin} {
				c := cells[p.Player][k]
				c.analysed++
				c.loss += p.Loss
				if p.Blunder {
					c.blunders++
				}
				cells[p.Player][k] = c
			}
			if p.Loss > 0 {
				s.worst = append(s.worst, WorstMove{Game: g.Index, Player: name, Ply: p.Ply, Move: p.Move,
					Before: p.Before, After: p.After, Loss: p.Loss, Blunder: p.Blunder})
			}
		}
	}
	for seat, c := range cells {
		if c != nil {
			ps := s.players[g.Players[seat]]
			ps.games = append(ps.games, c)
		}
	}
	sortWorst(s.worst)
	if len(s.worst) > MaxWorst {
		s.worst = s.worst[:MaxWorst]
	}
}

func sortWorst(w []WorstMove) {
	sort.SliceStable(w, func(i, j int) bool {
		if w[i].Blunder != w[j].Blunder {
			return w[i].Blunder
		}
		if w[i].Loss != w[j].Loss {
			return w[i].Loss > w[j].Loss
		}
		if w[i].Game != w[j].Game {
			return w[i].Game < w[j].Game
		}
		return w[i].Ply < w[j].Ply
	})
}

// Report sums the games added so far up.
func (s *Summary) Report() *Report {
	o := s.a.o
	b := o.Bootstrap
	if b == 0 {
		b = DefaultBootstrap
	}
	b = max(b, 0)
	st := &s.a.stats
	r := &Report{Game: s.a.spec, Games: s.games, PhaseUnit: s.a.PhaseUnit(), PhaseWidth: o.width(),
		BudgetMS: o.budget().Milliseconds(), Nodes: o.Nodes, Bootstrap: b, Seed: o.Seed,
		Worst: append([]WorstMove{}, s.worst...), CacheHits: st.CacheHits.Load(), Book: st.Book.Load(),
		Solved: st.Solved.Load(), Unsettled: st.Unsettled.Load(), NodesSearched: st.Nodes.Load(), SolveSecs: float64(st.SolveNS.Load()) / 1e9}
	for ph := range st.byPhase {
		c := &st.byPhase[ph]
		if n := c[0].Load(); n > 0 {
			r.Cost = append(r.Cost, Cost{Phase: ph, Solves: n, Nodes: c[1].Load(), Seconds: float64(c[2].Load()) / 1e9})
		}
	}
	sort.SliceStable(r.Cost, func(i, j int) bool { return r.Cost[i].Nodes > r.Cost[j].Nodes })
	for pi, name := range sortedNames(s.players) {
		ps := s.players[name]
		p := PlayerStats{Name: name, Tally: finish(ps.all, ps.games, -1, b, rng.Derive(o.Seed, uint64(pi), 0))}
		bins := make([]int, 0, len(ps.phases))
		for k := range ps.phases {
			bins = append(bins, k)
		}
		sort.Sort(sort.Reverse(sort.IntSlice(bins))) // the opening first
		for _, k := range bins {
			w := o.width()
			p.Phases = append(p.Phases, PhaseStats{From: k * w, To: k*w + w - 1,
				Tally: finish(*ps.phases[k], ps.games, k, b, rng.Derive(o.Seed, uint64(pi), uint64(k)+1))})
		}
		if r.PhaseUnit == "empties" {
			for i := range p.Phases {
				p.Phases[i].From, p.Phases[i].To = p.Phases[i].To, p.Phases[i].From
			}
		}
		r.Players = append(r.Players, p)
	}
	sort.SliceStable(r.Players, func(i, j int) bool {
		a, b := r.Players[i], r.Players[j]
		if a.MovesAnalysed == 0 || b.MovesAnalysed == 0 {
			return a.MovesAnalysed > b.MovesAnalysed
		}
		return a.MeanLoss < b.MeanLoss
	})
	return r
}

// finish computes t's means and, over the players' games' cells of phase
// k, their bootstrap intervals: the games resampled b times with
// replacement (the moves of one game are not independent).
func finish(t Tally, games []map[int]cell, k, b int, seed uint64) Tally {
	if t.MovesAnalysed == 0 {
		return t
	}
	t.MeanLoss = float64(t.loss) / float64(t.MovesAnalysed)
	t.BlunderRate = float64(t.Blunders) / float64(t.MovesAnalysed)
	var cells []cell
	for _, g := range games {
		if c, ok := g[k]; ok && c.analysed > 0 {
			cells = append(cells, c)
		}
	}
	if b == 0 || len(cells) == 0 {
		return t
	}
	r := rng.New(seed)
	loss, blunder := make([]float64, b), make([]float64, b)
	for i := range b {
		var l, n, bl int
		for range cells {
			c := cells[r.IntN(len(cells))]
			l, n, bl = l+c.loss, n+c.analysed, bl+c.blunders
		}
		loss[i], blunder[i] = float64(l)/float64(n), float64(bl)/float64(n)
	}
	t.MeanLossLo, t.MeanLossHi = interval(loss)
	t.BlunderRateLo, t.BlunderRateHi = interval(blunder)
	t.intervals = true
	return t
}

// interval is the 2.5 % and 97.5 % quantiles of x (sorted in place).
func interval(x []float64) (lo, hi float64) {
	sort.Float64s(x)
	q := func(p float64) float64 { return x[min(len(x)-1, int(p*float64(len(x))))] }
	return q(0.025), q(0.975)
}

// WriteText writes the report as tables: one line per player, then the
// mean loss per phase, then the worst moves.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "%s: %d games, per position %v", r.Game, r.Games, fmtBudget(r))
	fmt.Fprintf(w, "; positions: %d from the cache, %d from the book, %d solved, %d unknown (%d nodes, %.1f s solving)\n\n",
		r.CacheHits, r.Book, r.Solved, r.Unsettled, r.NodesSearched, r.SolveSecs)
	fmt.Fprintln(tw, "player\tmoves\tanalysed\tunknown\tforced\tmean loss\t95 %\tblunders\trate\t95 %\t")
	for _, p := range r.Players {
		m, ms, br, bs := p.text()
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%d\t%s\t%s\t\n", p.Name, p.Moves, p.MovesAnalysed, p.Unknown, p.Forced,
			m, ms, p.Blunders, br, bs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Mean loss per phase: one column per phase, the opening first.
	type col struct{ from, to int }
	var cols []col
	seen := map[col]bool{}
	for _, p := range r.Players {
		for _, ph := range p.Phases {
			c := col{ph.From, ph.To}
			if !seen[c] {
				seen[c] = true
				cols = append(cols, c)
			}
		}
	}
	sort.Slice(cols, func(i, j int) bool {
		if r.PhaseUnit == "empties" {
			return cols[i].from > cols[j].from
		}
		return cols[i].from < cols[j].from
	})
	fmt.Fprintf(w, "\nmean loss per move by phase (%s before the move) [95 %%]:\n", r.PhaseUnit)
	head := "phase\t"
	for _, p := range r.Players {
		head += p.Name + "\t"
	}
	fmt.Fprintln(tw, head)
	for _, c := range cols {
		line := fmt.Sprintf("%d-%d\t", c.from, c.to)
		for _, p := range r.Players {
			cell := "\t"
			for _, ph := range p.Phases {
				if ph.From == c.from && ph.To == c.to {
					m, ms, _, _ := ph.text()
					cell = m + " " + ms + "\t"
				}
			}
			line += cell
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Cost) > 0 {
		fmt.Fprintf(w, "\nsolving by %s, the costliest first:", r.PhaseUnit)
		for i, c := range r.Cost[:min(len(r.Cost), 6)] {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(w, "%s %d: %d solves, %.1f M nodes, %.1f s", sep, c.Phase, c.Solves, float64(c.Nodes)/1e6, c.Seconds)
		}
		fmt.Fprintln(w)
	}
	if len(r.Worst) > 0 {
		fmt.Fprintf(w, "\nworst moves:\n")
		fmt.Fprintln(tw, "game\tply\tplayer\tmove\tbefore\tafter\tloss\t\t")
		for _, m := range r.Worst {
			b := ""
			if m.Blunder {
				b = "blunder"
			}
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%+d\t%+d\t%d\t%s\t\n", m.Game, m.Ply+1, m.Player, m.Move, m.Before, m.After, m.Loss, b)
		}
	}
	return tw.Flush()
}

func fmtBudget(r *Report) string {
	s := fmt.Sprintf("%d ms", r.BudgetMS)
	if r.Nodes > 0 {
		s += fmt.Sprintf(" and %d nodes", r.Nodes)
	}
	return s
}
