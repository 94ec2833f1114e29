package results

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/option"
)

// Limits of AnalysisOptions: a million resamples already take minutes and
// their ratings gigabytes for large fields, and intervals stop improving
// after a few thousand; a prior beyond a million virtual draws per pair
// would drown any real data.
const (
	MaxBootstrap = 1_000_000
	MaxPrior     = 1_000_000
	MaxAnchorElo = 1e6
)

// ParseDraws reads a draw model by its name (DrawModel.String): "half"
// or "davidson".
func ParseDraws(text string) (DrawModel, error) {
	for _, m := range []DrawModel{HalfWin, Davidson} {
		if text == m.String() {
			return m, nil
		}
	}
	return HalfWin, fmt.Errorf("unknown %w %q (valid: %s, %s)", named("Draws"), text, HalfWin, Davidson)
}

// ParseAnchor reads an anchor, NAME=RATING ("random=0"): the player whose
// rating is fixed (AnalysisOptions.Anchor) and the rating (AnchorElo).
func ParseAnchor(text string) (name string, elo float64, err error) {
	name, val, ok := strings.Cut(text, "=")
	elo, perr := strconv.ParseFloat(val, 64)
	if !ok || name == "" || perr != nil {
		return "", 0, option.New("Anchor", strconv.Quote(text), "want NAME=RATING, e.g. random=0")
	}
	if !finiteElo(elo) {
		return "", 0, option.New("Anchor", strconv.Quote(text), "the rating must be a finite number between %g and %g", -MaxAnchorElo, MaxAnchorElo)
	}
	return name, elo, nil
}

func finiteElo(elo float64) bool { return !math.IsNaN(elo) && math.Abs(elo) <= MaxAnchorElo }

// Check reports the first option out of its range: Bootstrap (0 to
// MaxBootstrap), Prior (0 to MaxPrior) and, with an Anchor, AnchorElo
// (within ±MaxAnchorElo). Whether the anchor is a player is CheckAnchor's.
func (o AnalysisOptions) Check() error {
	switch {
	case o.Bootstrap < 0 || o.Bootstrap > MaxBootstrap:
		return option.New("Bootstrap", o.Bootstrap, "want 0 to %d resamples (a few thousand give stable 95 %% intervals)", MaxBootstrap)
	case math.IsNaN(o.Prior) || o.Prior < 0 || o.Prior > MaxPrior:
		return option.New("Prior", o.Prior, "want a number of virtual draws from 0 to %d", MaxPrior)
	case o.Anchor != "" && !finiteElo(o.AnchorElo):
		return option.New("AnchorElo", o.AnchorElo, "the rating must be a finite number between %g and %g", -MaxAnchorElo, MaxAnchorElo)
	case o.MetaGame != nil:
		return o.MetaGame.Check()
	}
	return nil
}

// CheckAnchor reports an anchor that is not one of the players (names);
// "" anchors no one.
func CheckAnchor(anchor string, names []string) error {
	if anchor == "" || slices.Contains(names, anchor) {
		return nil
	}
	return option.New("Anchor", anchor, "no such player (players: %s)", strings.Join(names, ", "))
}

// named is option name alone, to name it inside a message ("unknown Draws
// …"): a command line shows it as its flag. The text before it must not
// hold the name (option.Render replaces its first occurrence).
func named(name string) error { return option.New(name, nil, "") }
