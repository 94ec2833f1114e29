package results

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// AnalysisOptions configure the ratings of a report.
type AnalysisOptions struct {
	Draws     DrawModel
	FirstMove bool    // fit a first-move advantage
	Prior     float64 // see FitOptions.Prior
	Anchor    string  // player fixed at AnchorElo; "" anchors every group at mean 0
	AnchorElo float64
	Bootstrap int    // replicates for the intervals and LOS; 0 for none
	Seed      uint64 // bootstrap seed
	Workers   int    // parallel bootstrap fits; 0 for GOMAXPROCS
	// MetaGame, when set, adds Nash averaging and α-Rank (MetaGameReport),
	// with intervals from the same number of resamples.
	MetaGame *MetaGameOptions
}

// Analysis is the full analysis of a set of games: the standings with
// ratings, the crosstable, LOS, per-colour results and termination counts.
// It is also the document Write writes as "json" (snake_case keys; arena
// rate --format json).
type Analysis struct {
	Game         string           `json:"game"`
	Games        int              `json:"games"`
	DrawModel    string           `json:"draw_model"` // "half" or "davidson"
	Level        float64          `json:"level"`      // interval coverage, e.g. 0.95
	Bootstrap    int              `json:"bootstrap"`  // replicates behind the intervals
	Anchor       string           `json:"anchor,omitempty"`
	AnchorElo    float64          `json:"anchor_elo,omitempty"`
	Players      []PlayerRow      `json:"players"` // ranked
	Crosstable   []CrossRow       `json:"crosstable"`
	LOS          []LOSRow         `json:"los,omitempty"`
	FirstPlayer  FirstPlayerStats `json:"first_player"`
	FirstMoveElo *Interval        `json:"first_move_elo,omitempty"`
	DrawNu       float64          `json:"draw_nu,omitempty"`
	// EloScale is Davidson's rescaling 2/(2+ν) of the log win/loss odds to
	// the half model's scale (see DrawModel).
	EloScale     float64            `json:"elo_scale,omitempty"`
	Terminations []TerminationCount `json:"terminations"`
	MeanPlies    float64            `json:"mean_plies"`
	Groups       [][]string         `json:"groups,omitempty"` // only when players are not all connected
	Regularised  bool               `json:"regularised,omitempty"`
	Notes        []string           `json:"notes,omitempty"`
	// MeanOf lists, when they are not all the players, the players whose
	// ratings average 0 (each group's apart; not the anchor's group): those
	// whose ratings the data bound (see Ratings.Reference).
	MeanOf []string `json:"mean_of,omitempty"`
	// MetaGame is Nash averaging and α-Rank (AnalysisOptions.MetaGame).
	MetaGame *MetaGameReport `json:"metagame,omitempty"`
}

// PlayerRow is one line of the standings.
type PlayerRow struct {
	Rank int     `json:"rank"`
	Name string  `json:"name"`
	Elo  float64 `json:"elo"`
	// EloLow and EloHigh bound the interval; −Inf or +Inf (null in JSON)
	// when the data cannot bound the rating on that side (see Ratings.Low).
	EloLow   float64 `json:"elo_low"`
	EloHigh  float64 `json:"elo_high"`
	Games    int     `json:"games"`
	Score    float64 `json:"score"` // share of the points, 0 to 1
	Points   float64 `json:"points"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	DrawRate float64 `json:"draw_rate"`
	Group    int     `json:"group"` // connected group (0 is the largest)
	AsFirst  WDL     `json:"as_first"`
	AsSecond WDL     `json:"as_second"`
	Forfeits int     `json:"forfeits"`
	// TimeLosses are the losses that were timeout forfeits (see Notes).
	TimeLosses int     `json:"time_losses"`
	MSPerMove  float64 `json:"ms_per_move"`
	Nodes      int64   `json:"nodes"`
	// MetaRow is the player's Nash averaging and α-Rank, when computed.
	*MetaRow
	index int
}

// MarshalJSON writes an open interval bound (±Inf) as null.
func (p PlayerRow) MarshalJSON() ([]byte, error) {
	type plain PlayerRow // without this method
	bound := func(v float64) *float64 {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil
		}
		return &v
	}
	return json.Marshal(struct {
		plain
		EloLow  *float64 `json:"elo_low"`
		EloHigh *float64 `json:"elo_high"`
	}{plain(p), bound(p.EloLow), bound(p.EloHigh)})
}

// UnmarshalJSON reads what MarshalJSON writes: a null elo_low is −Inf, a
// null elo_high +Inf (an open bound).
func (p *PlayerRow) UnmarshalJSON(data []byte) error {
	type plain PlayerRow
	var v struct {
		plain
		EloLow  *float64 `json:"elo_low"`
		EloHigh *float64 `json:"elo_high"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*p = PlayerRow(v.plain)
	p.EloLow, p.EloHigh = math.Inf(-1), math.Inf(1)
	if v.EloLow != nil {
		p.EloLow = *v.EloLow
	}
	if v.EloHigh != nil {
		p.EloHigh = *v.EloHigh
	}
	return nil
}

// CrossRow is one pairing of the crosstable, from Player's view.
type CrossRow struct {
	Player   string  `json:"player"`
	Opponent string  `json:"opponent"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Score    float64 `json:"score"`
}

// LOSRow is the likelihood that Player is stronger than Opponent.
type LOSRow struct {
	Player   string  `json:"player"`
	Opponent string  `json:"opponent"`
	LOS      float64 `json:"los"`
}

// FirstPlayerStats are the results of whoever moved first.
type FirstPlayerStats struct {
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Score  float64 `json:"score"`
}

// Interval is an estimate with its bounds.
type Interval struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// Analyse rates the dataset's players and gathers the statistics.
func Analyse(d *Dataset, o AnalysisOptions) (*Analysis, error) {
	return buildReport(d.Game, d.Summarize(), o)
}

// Analyse rates the counted players and gathers the statistics:
// the same report as Analyse on a Dataset of the same games.
func (t *Tally) Analyse(o AnalysisOptions) (*Analysis, error) {
	if err := t.Err(); err != nil {
		return nil, err
	}
	if len(t.Files) == 0 {
		return nil, fmt.Errorf("results: no record files")
	}
	return buildReport(t.Game, t.Summary, o)
}

// buildReport is Analyse of the games counted in s.
func buildReport(game string, s *Summary, o AnalysisOptions) (*Analysis, error) {
	names := make([]string, len(s.Players))
	for i, p := range s.Players {
		names[i] = p.Name
	}
	fo := FitOptions{Draws: o.Draws, FirstMove: o.FirstMove, Prior: o.Prior, Anchor: -1, AnchorElo: o.AnchorElo}
	if err := o.Check(); err != nil {
		return nil, err
	}
	if err := CheckAnchor(o.Anchor, names); err != nil {
		return nil, err
	}
	if o.Anchor != "" {
		fo.Anchor = slices.Index(names, o.Anchor)
	}
	cells, err := s.cells()
	if err != nil {
		return nil, err
	}
	ratings, err := rateCells(len(s.Players), cells, s.pairs, fo, BootstrapOptions{Replicates: o.Bootstrap, Seed: o.Seed, Workers: o.Workers})
	if err != nil {
		return nil, err
	}
	r := &Analysis{
		Game: game, Games: s.Games, DrawModel: o.Draws.String(), Level: ratings.Level,
		Bootstrap: ratings.Replicates, Anchor: o.Anchor, Terminations: s.TerminationList(),
		MeanPlies: s.MeanPlies(), Regularised: ratings.Regularised,
		FirstPlayer: FirstPlayerStats{s.FirstPlayer.Wins, s.FirstPlayer.Draws, s.FirstPlayer.Losses, s.FirstPlayer.Score()},
	}
	if o.Anchor != "" {
		r.AnchorElo = o.AnchorElo
	}
	// The players whose mean is 0, when some are left out.
	var meanOf []string
	partial := false
	for p, ref := range ratings.Reference {
		if fo.Anchor >= 0 && ratings.Group[p] == ratings.Group[fo.Anchor] || s.Players[p].All.Games() == 0 {
			continue
		}
		if ref {
			meanOf = append(meanOf, names[p])
		} else {
			partial = true
		}
	}
	if partial {
		r.MeanOf = meanOf
	}
	if r.Terminations == nil {
		r.Terminations = []TerminationCount{}
	}
	for i, ps := range s.Players {
		row := PlayerRow{
			Name: ps.Name, Elo: ratings.Elo[i], EloLow: ratings.Low[i], EloHigh: ratings.High[i],
			Games: ps.All.Games(), Score: ps.All.Score(), Points: ps.All.Points(),
			Wins: ps.All.Wins, Draws: ps.All.Draws, Losses: ps.All.Losses, DrawRate: ps.All.DrawRate(),
			Group: ratings.Group[i], AsFirst: ps.AsFirst, AsSecond: ps.AsSecond, Forfeits: ps.Forfeits,
			TimeLosses: ps.TimeLosses, Nodes: ps.Nodes, index: i,
		}
		if ps.Moves > 0 {
			row.MSPerMove = ps.TimeMS / float64(ps.Moves)
		}
		r.Players = append(r.Players, row)
	}
	slices.SortStableFunc(r.Players, func(a, b PlayerRow) int {
		switch {
		case (a.Games == 0) != (b.Games == 0):
			if a.Games == 0 {
				return 1
			}
			return -1
		case a.Group != b.Group:
			return a.Group - b.Group
		case a.Elo != b.Elo:
			if a.Elo > b.Elo {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	for k := range r.Players {
		r.Players[k].Rank = k + 1
	}
	// The crosstable and LOS rows in the order of the standings, row
	// player then column player, over the pairs that met (and the pairs
	// whose LOS is known): no players² loop.
	rank := make([]int, len(r.Players))
	for k, p := range r.Players {
		rank[p.index] = k
	}
	met := s.Met()
	opponents := make([][]int, len(r.Players)) // by rank, as ranks
	for _, pq := range met {
		if pq[0] != pq[1] {
			a, b := rank[pq[0]], rank[pq[1]]
			opponents[a] = append(opponents[a], b)
			opponents[b] = append(opponents[b], a)
		}
	}
	r.Crosstable = make([]CrossRow, 0, 2*len(met))
	for k, a := range r.Players {
		slices.Sort(opponents[k])
		for _, kb := range opponents[k] {
			b := r.Players[kb]
			c := s.Cross(a.index, b.index)
			r.Crosstable = append(r.Crosstable, CrossRow{a.Name, b.Name, c.Wins, c.Draws, c.Losses, c.Score()})
		}
	}
	if ratings.LOS != nil {
		for _, a := range r.Players {
			for _, b := range r.Players {
				if l := ratings.LOS[a.index][b.index]; a.index != b.index && !math.IsNaN(l) {
					r.LOS = append(r.LOS, LOSRow{a.Name, b.Name, l})
				}
			}
		}
	} else {
		near := make([][]int, len(r.Players)) // by rank, as ranks
		for pq := range ratings.losNear {
			near[rank[pq[0]]] = append(near[rank[pq[0]]], rank[pq[1]])
		}
		for k, a := range r.Players {
			slices.Sort(near[k])
			for _, kb := range near[k] {
				b := r.Players[kb]
				if l := ratings.LOSAt(a.index, b.index); !math.IsNaN(l) {
					r.LOS = append(r.LOS, LOSRow{a.Name, b.Name, l})
				}
			}
		}
		if ratings.Replicates > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%d players: the likelihood of superiority is given for neighbours in the ranking only (each player against the next above and below in its group), not for every two players (at most %d, results.LOSMaxPlayers)", len(r.Players), LOSMaxPlayers))
		}
	}
	if o.FirstMove {
		r.FirstMoveElo = &Interval{ratings.FirstMove, ratings.FirstMoveLow, ratings.FirstMoveHigh}
	}
	if o.Draws == Davidson {
		r.DrawNu, r.EloScale = ratings.DrawNu, ratings.EloScale
	}
	if len(ratings.Groups) > 1 {
		for _, g := range ratings.Groups {
			var members []string
			for _, p := range g {
				members = append(members, names[p])
			}
			r.Groups = append(r.Groups, members)
		}
		r.Notes = append(r.Notes, fmt.Sprintf("players fall into %d groups that never met: %s; ratings compare only within a group (each group averages 0%s)",
			len(ratings.Groups), GroupNames(names, ratings.Groups), anchorNote(o.Anchor)))
	}
	var above, below, unknown []string
	others := false          // an open player's group has players the data bound
	bounds := map[int]bool{} // groups with a player the data bound
	for p, o := range ratings.open {
		if o == bounded {
			bounds[ratings.Group[p]] = true
		}
	}
	for p, o := range ratings.open {
		switch o {
		case openAbove:
			above = append(above, names[p])
		case openBelow:
			below = append(below, names[p])
		case openBoth:
			unknown = append(unknown, names[p])
		}
		others = others || o != bounded && bounds[ratings.Group[p]]
	}
	switch {
	case len(above)+len(below)+len(unknown) > 0:
		var who []string
		if len(above) > 0 {
			who = append(who, strings.Join(above, ", ")+" scored 100 % against the rest of the group")
		}
		if len(below) > 0 {
			who = append(who, strings.Join(below, ", ")+" scored 0 % against the rest of the group")
		}
		if len(unknown) > 0 {
			who = append(who, strings.Join(unknown, ", ")+" won or lost every game against everyone they met")
		}
		if o.Prior > 0 {
			// The prior rated everybody; it gives these players a
			// rating, not a bound.
			draws := "draws"
			if o.Prior == 1 {
				draws = "draw"
			}
			r.Notes = append(r.Notes, fmt.Sprintf("%s: the Elo shown for them is the prior's (%g virtual %s per pair that met), and their intervals are open on that side, as without a prior: a prior moves a rating, it does not bound it where the games cannot", strings.Join(who, " and "), o.Prior, draws))
			break
		}
		rest := ""
		if others {
			rest = ", and the others are rated by maximum likelihood without them"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%s, so no finite rating is most likely: the Elo shown for them adds %g virtual draw per pair that met, their intervals are open on that side%s", strings.Join(who, " and "), AutoPrior, rest))
	case ratings.Regularised:
		r.Notes = append(r.Notes, fmt.Sprintf("the maximum-likelihood fit does not exist (players that never scored against each other, the first mover always or never winning, or no decisive game under Davidson); %g virtual draw per pair that met was added", AutoPrior))
	}
	if ratings.davidsonUnbounded {
		r.Notes = append(r.Notes, "Davidson's draw model has no most likely ratings here: there are draws, and no two players both won and lost decisive games against each other, so ν and the rating differences can grow together without end (its Elo, the log win/loss odds times 2/(2+ν), would shrink to 0); the ratings are the half model's (a draw is half a win)")
	}
	if a := fo.Anchor; a >= 0 && ratings.open != nil && ratings.open[a] != bounded {
		r.Notes = append(r.Notes, fmt.Sprintf("the games do not bound the anchor %s's rating relative to the rest of its group, so the others' intervals are open both ways (their Elo places them by the prior's rating of %s)", o.Anchor, o.Anchor))
	}
	if len(ratings.byPairs) > 0 {
		var who []string
		for _, p := range ratings.byPairs {
			who = append(who, names[p])
		}
		r.Notes = append(r.Notes, fmt.Sprintf("the intervals of %s come from their score differences as arena match computes them (over colour-swapped game pairs when all their games are paired; Wilson's interval when all ended alike), each rating's from the mean of its differences to its group (half the difference for two players) or from its difference to the anchor; two players' likelihood of superiority is match's too", strings.Join(who, ", ")))
	}
	for _, p := range r.Players {
		if math.IsInf(p.EloLow, 0) || math.IsInf(p.EloHigh, 0) {
			r.Notes = append(r.Notes, "∞ in the − or + column (null in JSON, -inf/+inf in CSV): the data cannot bound that rating on that side, because in too many resamples (or in the games themselves) the player scored 0 % or 100 % against the rest; Ordo prints such bounds as < or >")
			break
		}
	}
	if k := ratings.RegularisedReplicates; k > 0 && !ratings.Regularised {
		r.Notes = append(r.Notes, fmt.Sprintf("%d of %d bootstrap resamples needed the %g-draw prior", k, ratings.Replicates, AutoPrior))
	}
	if n := timeLossNote(r.Players); n != "" {
		r.Notes = append(r.Notes, n)
	}
	for _, m := range s.Matches {
		if n := uncountedNote(m); n != "" {
			r.Notes = append(r.Notes, n)
		}
	}
	if o.MetaGame != nil {
		bo := BootstrapOptions{Replicates: o.Bootstrap, Seed: o.Seed, Workers: o.Workers, Level: r.Level}
		if err := r.addMetaGame(names, cells, *o.MetaGame, bo); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// uncountedNote says, for a match record holding games that arena match
// did not count, what it counted and that the ratings count them all:
// they are games like any other (the match stopped counting to keep its
// test's stopping rule, not because they were different).
func uncountedNote(m MatchCount) string {
	more := m.Games - 2*m.Pairs
	if more <= 0 {
		return ""
	}
	games := "games"
	if more == 1 {
		games = "game"
	}
	if m.Test != nil && m.Decision != Continue {
		return fmt.Sprintf("%s: arena match counted %d game pairs (%d games), up to its SPRT's decision (%s); the %d %s that finished after the decision are rated here too", m.Path, m.Pairs, 2*m.Pairs, m.Decision, more, games)
	}
	return fmt.Sprintf("%s: arena match counted %d complete game pairs (%d games) in round order; the other %d %s (pairs not complete, or after one) are rated here too", m.Path, m.Pairs, 2*m.Pairs, more, games)
}

// timeLossNote says who lost games on time, if anyone: such results reflect
// the machine's speed and load as much as the players' play.
func timeLossNote(players []PlayerRow) string {
	var who []string
	for _, p := range players {
		if p.TimeLosses > 0 {
			who = append(who, fmt.Sprintf("%s lost %d of %d losses on time", p.Name, p.TimeLosses, p.Losses))
		}
	}
	if who == nil {
		return ""
	}
	return "time forfeits decided games: " + strings.Join(who, ", ") +
		"; these results depend on the machine's speed and load (fewer games at once, a larger move margin, or depth=, iters= or nodes= budgets make them repeatable)"
}

func anchorNote(anchor string) string {
	if anchor == "" {
		return ""
	}
	return ", except " + anchor + "'s group, which is anchored"
}
