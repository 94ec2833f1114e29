package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/boardgame-arena/arena/agents"
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/report"
	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// Limits of a sweep: a curve needs two values at least, and 64 values
// already make a figure whose labels touch; 16 opponents are a wide
// gauntlet (each value plays every one of them).
const (
	MinSweepValues    = 2
	MaxSweepValues    = 64
	MaxSweepOpponents = 16
	// MaxSweepText bounds the length of the param and of each value: keys
	// and numbers are short, and the values label a table and a figure.
	MaxSweepText = 100
)

// Sweep is one parameter's sweep: the base agent with Param set to each
// of Values in turn (the value agents, Specs), every one playing the same
// gauntlet against the opponents (Against).
//
// The games are one arena tournament of kind results.Sweep: the value
// agents followed by the opponents, every value against every opponent
// (value agents never meet). One tournament rather than a gauntlet per
// value, so that a sweep is one record file, resumed, interrupted, sharded,
// spread over broker workers and rated like any tournament's (its header
// says which games it plays), and its workers are never idle between
// values. The arena gives the game of value i against opponent j the seeds
// of (opponent j, game) alone, the same for every value, and round r the
// same opening in every pairing: each value meets the same opponents from
// the same openings with the same seeds, so the comparison between values
// is paired.
type Sweep struct {
	Param   string
	Values  []string // as written, e.g. "0.3", "640"
	Agent   string   // the base agent spec
	Against []string // the opponents' specs
	Specs   []string // the value agents' specs, one per value
}

// NewSweep checks a sweep and builds its value agents: Agent with Param
// rewritten (or added) to each value. The agent kind must know the key
// (agents.New on each rewritten spec must accept it) and the values must
// be distinct, MinSweepValues to MaxSweepValues of them, against 1 to
// MaxSweepOpponents opponents.
func NewSweep(agent, param string, values, against []string) (*Sweep, error) {
	if err := checkSweepParam(param); err != nil {
		return nil, err
	}
	if n := len(values); n < MinSweepValues || n > MaxSweepValues {
		return nil, fmt.Errorf("%w lists %d values; a sweep has %d to %d (split a longer sweep into several)", named("Values"), n, MinSweepValues, MaxSweepValues)
	}
	if n := len(against); n < 1 || n > MaxSweepOpponents {
		return nil, fmt.Errorf("%w names %d opponents; a sweep has 1 to %d", named("Against"), n, MaxSweepOpponents)
	}
	s := &Sweep{Param: param, Agent: agent, Against: slices.Clone(against)}
	seen := map[string]string{} // canonical value → as written
	for _, v := range values {
		v = strings.TrimSpace(v)
		if v == "" {
			return nil, fmt.Errorf("%w has an empty value (write them separated by single commas, e.g. 0.3,0.5,0.7)", named("Values"))
		}
		if len(v) > MaxSweepText {
			return nil, option.New("Values", nil, "a value of %d characters; a value has at most %d", len(v), MaxSweepText)
		}
		key := v
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			key = strconv.FormatFloat(x, 'g', -1, 64) // 1.0 and 1 are one value
		}
		if first, dup := seen[key]; dup {
			return nil, fmt.Errorf("%w: %s and %s are the same value; give each value once", named("Values"), first, v)
		}
		seen[key] = v
		text, err := withKey(agent, param, v)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", named("Agent"), err)
		}
		if err := agents.Validate(text); err != nil {
			return nil, fmt.Errorf("%s=%s: %v", param, v, err)
		}
		s.Values = append(s.Values, v)
		s.Specs = append(s.Specs, text)
	}
	for _, a := range against {
		if err := agents.Validate(a); err != nil {
			// The spec as the value, not in the reason: its text is not read
			// for option names.
			return nil, fmt.Errorf("%w: %w", option.New("Against", strconv.Quote(a), ""), err)
		}
	}
	return s, nil
}

// checkSweepParam accepts a key an agent spec can hold, except name (it
// changes only the label, so every value would play alike).
func checkSweepParam(param string) error {
	switch {
	case param == "":
		return fmt.Errorf("%w is missing: name the agent spec key to sweep, e.g. c or iters", named("Param"))
	case strings.ContainsAny(param, " \t'\"=:,"):
		return option.New("Param", strconv.Quote(param), "an agent spec key has no spaces, quotes, '=', ':' or ','")
	case len(param) > MaxSweepText:
		return option.New("Param", nil, "a key of %d characters; a key has at most %d", len(param), MaxSweepText)
	case param == "name":
		return option.New("Param", "name", "the display name does not change how an agent plays; sweep a parameter such as c or iters")
	}
	return nil
}

// withKey returns the agent spec base with key set to value: replaced in
// place, or added after the spec's keys.
func withKey(base, key, value string) (string, error) {
	sp, err := spec.Parse(base)
	if err != nil {
		return "", err
	}
	// A fresh Spec (the parsed one may remember key as a bare flag); its
	// canonical text reads back with the other flags intact.
	out := spec.Spec{Name: sp.Name, Keys: slices.Clone(sp.Keys), Vals: make(map[string]string, len(sp.Vals)+1)}
	for k, v := range sp.Vals {
		out.Vals[k] = v
	}
	if !out.Has(key) {
		out.Keys = append(out.Keys, key)
	}
	out.Vals[key] = value
	return out.String(), nil
}

// Agents lists the tournament's agents: the value agents, then the
// opponents.
func (s *Sweep) Agents() []string {
	return append(slices.Clone(s.Specs), s.Against...)
}

// Options returns o (game, games per pairing, seed, limits …) with the
// sweep's kind, swept count and agents.
func (s *Sweep) Options(o arena.Options) arena.Options {
	o.Kind = results.Sweep
	o.Swept = len(s.Specs)
	o.Agents = s.Agents()
	return o
}

// Games is the number of games a sweep plays with gamesPerPair games per
// (value, opponent) pairing.
func (s *Sweep) Games(gamesPerPair int) int {
	return len(s.Specs) * len(s.Against) * gamesPerPair
}

// Check reports whether t, a run built from a record header (a resumed
// file), is this sweep: kind sweep, with the sweep's values and opponents.
// A file of an older arena, whose sweep was recorded as a round robin of
// the same agents, is refused with a message that says so.
func (s *Sweep) Check(t *arena.Tournament) error {
	var have []string
	for _, a := range t.Config.Agents {
		have = append(have, a.Spec)
	}
	want := s.Agents()
	if t.Config.Kind == results.RoundRobin && slices.Equal(have, want) {
		return errors.New("the file records this sweep as a round robin, as arena tune sweep did before sweeps had a kind of their own; that header does not say which games the sweep plays, so the file cannot be resumed (arena rate and report still read it): start the sweep again in a new record file")
	}
	if c := t.Config; c.Kind != results.Sweep {
		again := "tournament"
		if c.Kind == results.Match {
			again = "match"
		}
		return fmt.Errorf("the file records a %s of %s, not a sweep (continue it as a %s)", c.Kind, strings.Join(have, ", "), again)
	}
	if c := t.Config; c.Swept != len(s.Specs) || !slices.Equal(have, want) {
		return fmt.Errorf("the run's agents are not this sweep's:\n  run:   %s of %d values: %s\n  sweep: %s of %d values: %s\n(resume a sweep with the agent, parameter, values and opponents it started with)",
			c.Kind, c.Swept, strings.Join(have, " "), results.Sweep, len(s.Specs), strings.Join(want, " "))
	}
	return nil
}

// Point is one value's rating on the scale of the whole sweep.
type Point struct {
	Value string `json:"value"` // as written
	Elo   float64
	// EloLow and EloHigh bound the interval; ±Inf (null in JSON) when
	// the games cannot bound it on that side, NaN (null) without a
	// bootstrap.
	EloLow, EloHigh float64
	Games           int `json:"games"`
}

// MarshalJSON writes DESIGN.md's point: value, elo, elo_low, elo_high
// (null when open), games.
func (p Point) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Value   string   `json:"value"`
		Elo     *float64 `json:"elo"`
		EloLow  *float64 `json:"elo_low"`
		EloHigh *float64 `json:"elo_high"`
		Games   int      `json:"games"`
	}{p.Value, bound(p.Elo), bound(p.EloLow), bound(p.EloHigh), p.Games})
}

func bound(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// SweepResult is a sweep's curve: its JSON document (WriteJSON).
type SweepResult struct {
	Param  string  `json:"param"`
	Points []Point `json:"points"`
	// Anchor is the player rated at AnchorElo, Level the intervals'
	// coverage (0.95); both are for the table's title, not the JSON.
	Anchor    string  `json:"-"`
	AnchorElo float64 `json:"-"`
	Level     float64 `json:"-"`
	Games     int     `json:"-"`
}

// ReportOptions returns o with the sweep's default anchor: the first
// opponent (named first in the tournament t) at 0, unless o anchors
// another player. One fit rates every value and opponent on one scale,
// and a fixed opponent makes the values' Elo read as "against that
// opponent".
func (s *Sweep) ReportOptions(o results.AnalysisOptions, names []string) results.AnalysisOptions {
	if o.Anchor == "" && len(names) > len(s.Specs) {
		o.Anchor, o.AnchorElo = names[len(s.Specs)], 0
	}
	return o
}

// Result reads the values' points off a report of the sweep's games;
// names are the tournament's agent names (Tournament.Names), whose first
// len(Specs) are the value agents.
func (s *Sweep) Result(rep *results.Analysis, names []string) (SweepResult, error) {
	if len(names) != len(s.Specs)+len(s.Against) {
		return SweepResult{}, fmt.Errorf("sweep: %d names for %d agents", len(names), len(s.Specs)+len(s.Against))
	}
	r := SweepResult{Param: s.Param, Anchor: rep.Anchor, AnchorElo: rep.AnchorElo, Level: rep.Level, Games: rep.Games}
	rows := map[string]results.PlayerRow{}
	for _, p := range rep.Players {
		rows[p.Name] = p
	}
	for i, v := range s.Values {
		pt := Point{Value: v, Elo: math.NaN(), EloLow: math.NaN(), EloHigh: math.NaN()}
		if row, ok := rows[names[i]]; ok && row.Games > 0 {
			pt.Elo, pt.Games = row.Elo, row.Games
			if rep.Bootstrap > 0 {
				pt.EloLow, pt.EloHigh = row.EloLow, row.EloHigh
			}
		}
		r.Points = append(r.Points, pt)
	}
	return r, nil
}

// WriteJSON writes DESIGN.md's document {"param","points":[…]}.
func (r SweepResult) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes the Elo-versus-value table (markdown or a terminal's
// box table) under a title that says what the Elo is relative to.
func (r SweepResult) WriteTable(w io.Writer, markdown bool) error {
	title := fmt.Sprintf("Elo against %s (%d games", r.Param, r.Games)
	if r.Anchor != "" {
		title += fmt.Sprintf("; %s anchored at %g", r.Anchor, r.AnchorElo)
	}
	if r.Level > 0 {
		title += fmt.Sprintf("; %g %% intervals", 100*r.Level)
	}
	title += ")"
	if markdown {
		fmt.Fprintf(w, "### %s\n\n", title)
	} else {
		fmt.Fprintln(w, title)
	}
	var rend tw.Renderer = renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleLight)})
	if markdown {
		rend = renderer.NewMarkdown()
	}
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(rend),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignCenter),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: []tw.Align{tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}}),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	t.Header([]string{r.Param, "Elo", "−", "+", "Games"})
	for _, p := range r.Points {
		t.Append([]string{p.Value, number(p.Elo), arm(p.Elo - p.EloLow), arm(p.EloHigh - p.Elo), strconv.Itoa(p.Games)})
	}
	return t.Render()
}

// number formats an Elo; no rating (no games) is "–".
func number(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.1f", v)
}

// arm formats one arm of an interval: ∞ when open, empty without one.
func arm(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case math.IsInf(v, 0):
		return "∞"
	}
	return fmt.Sprintf("%.1f", v)
}

// SweepReport is a sweep's result with the rating's notes (open bounds,
// time losses).
type SweepReport struct {
	SweepResult
	Notes []string
}

// Rate rates the games of the sweep's tournament so far (d, whose players
// are names, Tournament.Names) and reads off the values' points. o are
// the rating options, with the sweep's default anchor (ReportOptions).
func (s *Sweep) Rate(d *results.Dataset, names []string, o results.AnalysisOptions) (SweepReport, error) {
	rep, err := results.Analyse(d, s.ReportOptions(o, names))
	return s.report(rep, err, names)
}

// RateSession is Rate of the games a session has recorded so far, from
// their counts (arena.Session.Analyse): for a running sweep.
func (s *Sweep) RateSession(sess *arena.Session, names []string, o results.AnalysisOptions) (SweepReport, error) {
	rep, err := sess.Analyse(s.ReportOptions(o, names))
	return s.report(rep, err, names)
}

func (s *Sweep) report(rep *results.Analysis, err error, names []string) (SweepReport, error) {
	if err != nil {
		return SweepReport{}, err
	}
	r, err := s.Result(rep, names)
	return SweepReport{r, rep.Notes}, err
}

// CheckRecords reports whether every record file is of this sweep
// (Check), and returns the names of the sweep's players.
func (s *Sweep) CheckRecords(paths []string) ([]string, error) {
	var names []string
	for _, path := range paths {
		f, err := results.ReadFile(path)
		if err != nil {
			return nil, err
		}
		t, err := arena.New(arena.OptionsFrom(f.Header.Config))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if err := s.Check(t); err != nil {
			return nil, fmt.Errorf("%w: %w", option.New("Records", path, ""), err)
		}
		names = t.Names()
	}
	return names, nil
}

// Write writes the table with the notes (format "text" or "markdown"),
// or the JSON document of DESIGN.md without them ("json").
func (r SweepReport) Write(w io.Writer, format string) error {
	if format == "json" {
		return r.WriteJSON(w)
	}
	md := format == "markdown"
	if err := r.WriteTable(w, md); err != nil {
		return err
	}
	for _, n := range r.Notes {
		if md {
			fmt.Fprintf(w, "\n> Note: %s\n", n)
		} else {
			fmt.Fprintf(w, "Note: %s\n", n)
		}
	}
	return nil
}

// WriteSVGFile writes the curve (WriteSVG) to the file path whole or not
// at all: to a temporary file beside it, renamed over path once complete.
func (r SweepResult) WriteSVGFile(path string) error {
	var b bytes.Buffer
	if err := r.WriteSVG(&b); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// WriteSVG draws the curve (report.WriteCurveSVG).
func (r SweepResult) WriteSVG(w io.Writer) error {
	values := make([]string, len(r.Points))
	elo, low, high := make([]float64, len(r.Points)), make([]float64, len(r.Points)), make([]float64, len(r.Points))
	for i, p := range r.Points {
		values[i], elo[i], low[i], high[i] = p.Value, p.Elo, p.EloLow, p.EloHigh
	}
	level := r.Level
	if level == 0 {
		level = 0.95
	}
	return report.WriteCurveSVG(w, r.Param, values, elo, low, high, level)
}

// RunSweep plays a whole sweep in memory (no record file) and rates it:
// the library's one call for what arena tune sweep does. o gives the game,
// games per pairing, seed and limits; its Kind and Agents are the sweep's.
// ropts are the rating options (the default anchor is the first
// opponent, see ReportOptions). run's Sink, if set, sees every batch;
// RunSweep sets its Done (a sweep to continue is a record: arena.Session).
func RunSweep(ctx context.Context, s *Sweep, o arena.Options, run arena.RunOptions, ropts results.AnalysisOptions) (SweepResult, error) {
	sess, err := session("", arena.SessionOptions{Options: s.Options(o), Check: s.Check}, run.Concurrency, run.Runner != nil)
	if err != nil {
		return SweepResult{}, err
	}
	st, err := sess.Run(ctx, run)
	if err != nil {
		return SweepResult{}, err
	}
	if !st.Complete {
		return SweepResult{}, fmt.Errorf("sweep stopped after %d of %d games", st.Skipped+st.Played, st.Planned)
	}
	names := sess.Tournament().Names()
	rep, err := sess.Analyse(s.ReportOptions(ropts, names))
	if err != nil {
		return SweepResult{}, err
	}
	return s.Result(rep, names)
}
