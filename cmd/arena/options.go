package main

import (
	"errors"
	"strings"
	"unicode"

	"github.com/boardgame-arena/arena/option"
)

// This file is the one place where the library's option names become this
// command line's flags: the libraries refuse a value with an
// *option.Error naming the Go option (GamesPerPair), and errorText shows
// it as the flag a user typed (--games).

// flagNames lists the options whose flag is not their name in kebab case
// (MoveTime is --move-time without an entry). A qualified name
// ("SPSA.Iterations") is looked up whole first, then by its last part.
var flagNames = map[string]string{
	// arena: tournaments, matches and their records
	"GamesPerPair": "games",
	"TimeControl":  "tc",
	"Remote":       "broker", // a coordinator's remote workers play (Concurrency 0)
	"Rounds":       "swiss",  // a Swiss tournament's rounds

	// tune: sweep, spsa and texel
	"A": "A", // SPSA's stability constant, a capital as in a_k = a/(A+k)^α

	// broker and worker
	"CA":      "tls-ca",
	"TLSCert": "tls-cert",
	"TLSKey":  "tls-key",
	"NKeys":   "nkey-users", // the public keys; NKeyUsers, the file of them, is --nkey-users too

	// report, results and rate
	"PNGDir":    "png",
	"AnchorElo": "anchor", // set with the name, --anchor NAME=R

	// ugi: engine and check-engine
	"Check.MoveTime": "movetime",

	// solve, perft and positions
	"TableMB": "tt",

	// agents and games
}

// flagName is the flag, with its dashes, that sets the option name.
func flagName(name string) string {
	if f, ok := flagNames[name]; ok {
		return "--" + f
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
		if f, ok := flagNames[name]; ok {
			return "--" + f
		}
	}
	return "--" + kebab(name)
}

// kebab writes a Go name in the words of a flag: MoveTime is move-time,
// TTMB is ttmb, OpeningPlies is opening-plies.
func kebab(name string) string {
	var b strings.Builder
	r := []rune(name)
	for i, c := range r {
		if unicode.IsUpper(c) && i > 0 && unicode.IsLower(r[i-1]) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// errorText is err's message for this command line: every option the
// libraries name is shown as its flag.
func errorText(err error) string { return option.Render(err, flagName) }

// flagError is err with its options shown as flags, for the helpers whose
// errors a command returns to a caller other than run (tests call the
// tune commands directly); nil stays nil.
func flagError(err error) error {
	if err == nil {
		return nil
	}
	return errors.New(errorText(err))
}
