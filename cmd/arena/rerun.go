package main

// This file writes the command line that plays a record's games again,
// which arena report's pages show: the record keeps the run's settings,
// the command line knows their flags.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/results"
)

// rerunCommand is the arena command line that plays the games of a record
// of configuration c again (same seed, same games); add --out FILE to keep
// the new record.
func rerunCommand(c results.Config) string {
	args := []string{"arena"}
	add := func(a ...string) { args = append(args, a...) }
	switch {
	case c.Kind == results.Match:
		add("match")
	case c.Kind == results.Gauntlet && c.SPRT != nil:
		add("race") // its --agents: the base, then the candidates
	default:
		add("tournament")
		switch c.Kind {
		case results.Gauntlet:
			add("--gauntlet")
		case results.Swiss:
			add("--swiss", strconv.Itoa(c.Rounds), "--bye", c.Bye)
		case results.Knockout:
			add("--knockout", "--extra-pairs", strconv.Itoa(c.ExtraPairs))
		}
	}
	add("--game", c.Game, "--agents")
	for _, a := range c.Agents {
		add(a.Spec)
	}
	add("--games", strconv.Itoa(c.GamesPerPair), "--seed", strconv.FormatUint(c.Seed, 10))
	switch {
	case strings.HasPrefix(c.Openings, "file:"):
		add("--openings", strings.TrimPrefix(c.Openings, "file:"))
	case c.Openings != "":
		add("--openings", c.Openings)
	}
	if c.ShuffleOpenings {
		add("--shuffle-openings")
	}
	if c.MoveTimeMS > 0 {
		add("--move-time", msDuration(c.MoveTimeMS))
	}
	if c.TimeControl != "" {
		add("--tc", c.TimeControl)
	}
	if c.MoveMarginMS > 0 {
		add("--move-margin", msDuration(c.MoveMarginMS))
	}
	add("--max-plies", strconv.Itoa(c.MaxPlies))
	if s := c.SPRT; s != nil {
		add("--sprt", fmt.Sprintf("elo0=%g,elo1=%g,alpha=%g,beta=%g", s.Elo0, s.Elo1, s.Alpha, s.Beta), "--model", s.Model)
	}
	if c.Shard != nil {
		add("--shard", c.Shard.String())
	}
	for i, a := range args {
		args[i] = shellWord(a)
	}
	return strings.Join(args, " ")
}

// msDuration writes milliseconds as a duration flag's value.
func msDuration(ms float64) string {
	return strconv.FormatFloat(ms, 'f', -1, 64) + "ms"
}

// shellWord quotes a word for a POSIX shell when it needs it (shellQuote
// always does).
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=:,./+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
