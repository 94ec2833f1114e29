package results

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Dataset is the games of one or more record files. Players are identified
// by name, so files written on several machines merge into one pool.
type Dataset struct {
	Game    string   // the game spec all files share
	Players []string // in order of first appearance
	Games   []*GameRecord
	Files   []*File
	index   map[string]int
	fileOf  []int // Games[i] comes from Files[fileOf[i]] (0 for NewDataset)
}

// Merge pools the games of files. They must record the same game; two files
// of the same tournament (same configuration and seed) must not hold the
// same game twice. The shards of one run (Config.Shard) merge into exactly
// the dataset of the unsharded run; shards that overlap, and incomplete
// shards of different runs, are refused (see shardGroups).
func Merge(files ...*File) (*Dataset, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("results: no record files")
	}
	d := &Dataset{Game: files[0].Header.Config.Game, Files: files, index: map[string]int{}}
	type key struct {
		config string // the whole configuration, seed included
		index  int
	}
	owner := map[key]string{}
	group, err := shardGroups(files)
	if err != nil {
		return nil, err
	}
	for fi, f := range files {
		if g := f.Header.Config.Game; g != d.Game {
			return nil, fmt.Errorf("%s records %s but %s records %s; ratings pool games of one game", f.Path, g, files[0].Path, d.Game)
		}
		for _, a := range f.Header.Config.Agents {
			d.player(a.Name)
		}
		cfg, err := json.Marshal(f.Header.Config)
		if err != nil {
			return nil, err
		}
		for i := range f.Games {
			g := &f.Games[i]
			k := key{string(cfg), g.Index}
			if prev, dup := owner[k]; dup {
				return nil, fmt.Errorf("%s and %s are the same tournament (seed %d) and both hold game %d: give each machine its own seed", prev, f.Path, f.Header.Config.Seed, g.Index)
			}
			owner[k] = f.Path
			d.player(g.Players[0].Name)
			d.player(g.Players[1].Name)
			d.Games = append(d.Games, g)
			d.fileOf = append(d.fileOf, group[fi])
		}
	}
	return d, nil
}

// SpecClash is a player name that stands for different agent specs in
// the files of a Dataset: the games of all of them are pooled as one
// player's.
type SpecClash struct {
	Name  string
	Specs []string // distinct, in order of first appearance
	Paths []string // the file of each spec's first appearance
}

// SpecClashes lists the names that stand for more than one spec across
// the files, in order of first appearance. An engine without name= is
// named after its program, so two different programs named engine.py in
// two runs are pooled as one player unless their specs give each a name.
func (d *Dataset) SpecClashes() []SpecClash { return specClashes(d.shardFiles()) }

func specClashes(files []shardFile) []SpecClash {
	var out []SpecClash
	at := map[string]int{}
	seen := map[string]map[string]bool{}
	for _, f := range files {
		for _, a := range f.Config.Agents {
			if seen[a.Name] == nil {
				seen[a.Name] = map[string]bool{}
			}
			if seen[a.Name][a.Spec] {
				continue
			}
			seen[a.Name][a.Spec] = true
			i, ok := at[a.Name]
			if !ok {
				i = len(out)
				at[a.Name] = i
				out = append(out, SpecClash{Name: a.Name})
			}
			out[i].Specs = append(out[i].Specs, a.Spec)
			out[i].Paths = append(out[i].Paths, f.Path)
		}
	}
	return slices.DeleteFunc(out, func(c SpecClash) bool { return len(c.Specs) < 2 })
}

// clashNotes says each clash in a line.
func clashNotes(clashes []SpecClash) []string {
	var out []string
	for _, c := range clashes {
		var where []string
		for i, s := range c.Specs {
			where = append(where, fmt.Sprintf("%q in %s", s, c.Paths[i]))
		}
		out = append(out, fmt.Sprintf("the name %s stands for %s: their games are pooled as one player's; give each spec its own name= to keep them apart",
			c.Name, strings.Join(where, " and ")))
	}
	return out
}

// NewDataset pools games recorded elsewhere (e.g. in memory by a running
// tournament); players lists the expected names in order.
func NewDataset(game string, players []string, games []*GameRecord) *Dataset {
	d := &Dataset{Game: game, index: map[string]int{}}
	for _, p := range players {
		d.player(p)
	}
	for _, g := range games {
		d.player(g.Players[0].Name)
		d.player(g.Players[1].Name)
		d.Games = append(d.Games, g)
		d.fileOf = append(d.fileOf, 0)
	}
	return d
}

func (d *Dataset) player(name string) int {
	if i, ok := d.index[name]; ok {
		return i
	}
	d.index[name] = len(d.Players)
	d.Players = append(d.Players, name)
	return len(d.Players) - 1
}

// PlayerIndex returns the index of the named player, or -1.
func (d *Dataset) PlayerIndex(name string) int {
	if i, ok := d.index[name]; ok {
		return i
	}
	return -1
}

// Results returns the games as the rating model sees them, in schedule
// order (file by file, then by game index) rather than the order games
// ended, so that the list is the same whatever order the workers finished
// in (the ratings no longer depend on the order: Rate counts the games).
func (d *Dataset) Results() []Result {
	order := make([]int, len(d.Games))
	for i := range order {
		order[i] = i
	}
	file := func(i int) int {
		if i < len(d.fileOf) {
			return d.fileOf[i]
		}
		return 0
	}
	slices.SortStableFunc(order, func(x, y int) int {
		if fx, fy := file(x), file(y); fx != fy {
			return fx - fy
		}
		return d.Games[x].Index - d.Games[y].Index
	})
	out := make([]Result, len(d.Games))
	for k, i := range order {
		g := d.Games[i]
		out[k] = Result{First: d.index[g.Players[0].Name], Second: d.index[g.Players[1].Name], Score: g.Points(0)}
	}
	return out
}

// WDL counts wins, draws and losses.
type WDL struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games returns the number of games counted.
func (w WDL) Games() int { return w.Wins + w.Draws + w.Losses }

// Points returns wins plus half the draws.
func (w WDL) Points() float64 { return float64(w.Wins) + float64(w.Draws)/2 }

// Score returns the share of the points, 0 to 1 (0 without games).
func (w WDL) Score() float64 {
	if w.Games() == 0 {
		return 0
	}
	return w.Points() / float64(w.Games())
}

// DrawRate returns the share of draws (0 without games).
func (w WDL) DrawRate() float64 {
	if w.Games() == 0 {
		return 0
	}
	return float64(w.Draws) / float64(w.Games())
}

// String formats as "W-D-L".
func (w WDL) String() string { return fmt.Sprintf("%d-%d-%d", w.Wins, w.Draws, w.Losses) }

func (w *WDL) add(points float64) {
	switch points {
	case 1:
		w.Wins++
	case 0:
		w.Losses++
	default:
		w.Draws++
	}
}

// PlayerSummary is one player's record.
type PlayerSummary struct {
	Name     string
	All      WDL
	AsFirst  WDL
	AsSecond WDL
	Forfeits int // games lost by forfeit
	// TimeLosses counts the games lost on time (a timeout forfeit of this
	// player alone): results that measure the machine's speed as much as
	// the player's play.
	TimeLosses int
	Moves      int     // moves played (opening plies excluded)
	TimeMS     float64 // total thinking time
	Nodes      int64
}

// Summary is everything countable about a set of games.
type Summary struct {
	Players      []PlayerSummary
	FirstPlayer  WDL            // the first mover's results over all games
	Terminations map[string]int // games per termination reason
	Plies        int            // over all games
	Games        int
	// Matches are the match records among the files, as arena match
	// counted their games.
	Matches []MatchCount
	// met holds the results of the pairs that met (Seated and Cross read
	// it): memory in the pairs, not players², so that a pool of tens of
	// thousands of players who each met a few dozen fits (a players²
	// table of 48 bytes a pair was 800 MB at 4 096 players).
	met map[metKey]metCount
	// pairs[{i, j}] (i < j) counts the games of i and j as arena match
	// does: the pentanomial over complete colour-swapped game pairs
	// (games 2k and 2k+1 of one run), and the games outside such pairs.
	// The interval of a two-player group comes from it (see twoPlayerBounds).
	pairs map[[2]int]pairCount
	// pending holds a pair's first game until its partner comes, by
	// {source, index/2}: the games in flight, not all games.
	pending map[[2]int]pendingGame
}

// pairCount is what pairs keeps of two players' games.
type pairCount struct {
	penta    Penta // from the lower-indexed player's view
	unpaired int
}

// metKey is an unordered pair of players, the lower index in the high
// bits (keys sort as the rows of a players² table).
type metKey uint64

func newMetKey(i, j int) metKey {
	return metKey(uint64(min(i, j))<<32 | uint64(max(i, j)))
}

func (k metKey) players() (lo, hi int) { return int(k >> 32), int(k & (1<<32 - 1)) }

// metCount is the games of a pair: seated[0] the lower-indexed player's
// results moving first, seated[1] the other's. A player's results against
// the other (Cross) are its own moving first and the mirror of the
// other's: nothing else needs keeping.
type metCount struct{ seated [2]WDL }

// Seated returns player i's results moving first against j (what the
// ratings fit).
func (s *Summary) Seated(i, j int) WDL {
	c := s.met[newMetKey(i, j)]
	if i <= j {
		return c.seated[0]
	}
	return c.seated[1]
}

// Cross returns player i's results against j, whoever moved first.
func (s *Summary) Cross(i, j int) WDL {
	a, b := s.Seated(i, j), s.Seated(j, i)
	return WDL{Wins: a.Wins + b.Losses, Draws: a.Draws + b.Draws, Losses: a.Losses + b.Wins}
}

// Met returns the pairs of players who played each other, {lower index,
// higher}, in order.
func (s *Summary) Met() [][2]int {
	keys := make([]metKey, 0, len(s.met))
	for k := range s.met {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([][2]int, len(keys))
	for n, k := range keys {
		out[n][0], out[n][1] = k.players()
	}
	return out
}

// cells lists the ordered pairings that played, by first mover and then
// second (as cellsOf lists a players² table's), with its checks.
func (s *Summary) cells() ([]cell, error) {
	cells := make([]cell, 0, 2*len(s.met))
	for _, p := range s.Met() {
		for k, c := range [][2]int{p, {p[1], p[0]}} {
			if k == 1 && p[0] == p[1] {
				break
			}
			w := s.Seated(c[0], c[1])
			if w.Games() == 0 {
				continue
			}
			if c[0] == c[1] {
				return nil, fmt.Errorf("results: player %d against %d: %v", c[0], c[1], w)
			}
			cells = append(cells, cell{a: c[0], b: c[1], w: float64(w.Wins), d: float64(w.Draws), l: float64(w.Losses)})
		}
	}
	slices.SortFunc(cells, func(x, y cell) int {
		if x.a != y.a {
			return x.a - y.a
		}
		return x.b - y.b
	})
	return cells, nil
}

// pendingGame is a game whose pair partner has not been counted yet.
type pendingGame struct {
	seat  [2]int
	first float64 // seat[0]'s points
}

// MeanPlies returns the mean game length.
func (s *Summary) MeanPlies() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.Plies) / float64(s.Games)
}

// Summarize counts the dataset's games.
func (d *Dataset) Summarize() *Summary {
	s := newSummary(d.Players)
	for i, g := range d.Games {
		f := factsOf(g)
		s.add(&f, [2]int{d.index[g.Players[0].Name], d.index[g.Players[1].Name]}, d.fileOf[i])
	}
	s.endSource()
	for _, f := range d.Files {
		if m := newMatchCounter(f.Path, &f.Header); m != nil {
			for i := range f.Games {
				g := &f.Games[i]
				m.add(g.Index, g.Players[0].Name == m.first, g.Winner)
			}
			s.Matches = append(s.Matches, m.result())
		}
	}
	return s
}

func newSummary(players []string) *Summary {
	s := &Summary{Terminations: map[string]int{}, met: map[metKey]metCount{}, pairs: map[[2]int]pairCount{}, pending: map[[2]int]pendingGame{}}
	for _, p := range players {
		s.addPlayer(p)
	}
	return s
}

// addPlayer adds a player without games.
func (s *Summary) addPlayer(name string) {
	s.Players = append(s.Players, PlayerSummary{Name: name})
}

// reserve makes room for n players.
func (s *Summary) reserve(n int) {
	s.Players = slices.Grow(s.Players, max(0, n-len(s.Players)))
}

// add counts one game whose seats are players seat[0] (first) and seat[1];
// source tells runs apart (games of one run share it), for the pairs.
func (s *Summary) add(g *gameFacts, seat [2]int, source int) {
	s.addPair(seat, g.points(0), [2]int{source, g.index / 2})
	k := newMetKey(seat[0], seat[1])
	c := s.met[k]
	side := 0
	if seat[0] > seat[1] {
		side = 1
	}
	c.seated[side].add(g.points(0))
	s.met[k] = c
	for p := 0; p < 2; p++ {
		me := seat[p]
		pts := g.points(p)
		ps := &s.Players[me]
		ps.All.add(pts)
		if p == 0 {
			ps.AsFirst.add(pts)
		} else {
			ps.AsSecond.add(pts)
		}
		if g.forfeit == p || g.forfeit == BothForfeit {
			ps.Forfeits++
		}
		if g.forfeit == p && g.termination == Timeout {
			ps.TimeLosses++
		}
		ps.Moves += g.moves[p]
		ps.TimeMS += g.timeMS[p]
		ps.Nodes += g.nodes[p]
	}
	s.FirstPlayer.add(g.points(0))
	s.Terminations[g.termination]++
	s.Plies += g.plies
	s.Games++
}

// addPair counts a game for the pentanomial of its two players: with its
// partner (same pair key, the same players with colours swapped) it
// completes a pair; a partner that does not fit leaves both unpaired.
func (s *Summary) addPair(seat [2]int, first float64, key [2]int) {
	prev, ok := s.pending[key]
	if !ok {
		s.pending[key] = pendingGame{seat, first}
		return
	}
	delete(s.pending, key)
	if prev.seat != [2]int{seat[1], seat[0]} {
		s.unpaired(seat)
		s.unpaired(prev.seat)
		return
	}
	// Both games from the lower-indexed player's view.
	a, b := prev.first, 1-first
	if seat[0] < seat[1] {
		a, b = 1-prev.first, first
	}
	k := pairKey(seat)
	pc := s.pairs[k]
	pc.penta.Add(a, b)
	s.pairs[k] = pc
}

// unpaired counts a game of the seats outside any complete pair.
func (s *Summary) unpaired(seat [2]int) {
	k := pairKey(seat)
	pc := s.pairs[k]
	pc.unpaired++
	s.pairs[k] = pc
}

func pairKey(seat [2]int) [2]int { return [2]int{min(seat[0], seat[1]), max(seat[0], seat[1])} }

// endSource counts the games still waiting for a partner as unpaired: a
// run's pairs never span sources (shards deal whole pairs), so none will
// come.
func (s *Summary) endSource() {
	for k, g := range s.pending {
		s.unpaired(g.seat)
		delete(s.pending, k)
	}
}

// TerminationList returns the reasons that occurred with their counts,
// in the order of Terminations.
func (s *Summary) TerminationList() []TerminationCount {
	var out []TerminationCount
	for _, t := range Terminations {
		if c := s.Terminations[t]; c > 0 {
			out = append(out, TerminationCount{t, c})
		}
	}
	return out
}

// TerminationCount is one line of the termination statistics.
type TerminationCount struct {
	Reason string `json:"reason"`
	Games  int    `json:"games"`
}

// GroupNames renders groups of players for messages: "{a, b} {c}".
func GroupNames(names []string, groups [][]int) string {
	var parts []string
	for _, g := range groups {
		var ns []string
		for _, p := range g {
			ns = append(ns, names[p])
		}
		slices.Sort(ns)
		parts = append(parts, "{"+strings.Join(ns, ", ")+"}")
	}
	return strings.Join(parts, " ")
}
