package results

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// MaxGameBytes bounds one game's record line (its JSON and newline): an
// engine may print info lines of up to a MiB before every move, and a
// record of them all would outgrow a broker's message and, past
// MaxLineBytes, make the file unreadable. Fit keeps a record within it,
// in a local run and on a broker's workers alike, so that both record
// the same games.
const MaxGameBytes = 4 << 20

// TrimMark ends a text that Fit cut.
const TrimMark = "…"

// minDetail is what Fit leaves at least of a Detail it cuts (escaped
// bytes): the detail says why a game was forfeited.
const minDetail = 1024

// Fit cuts the longest info texts of g's move statistics, and a long
// Detail, to the same length (the largest that fits), so that g's line
// (AppendGame) is at most limit bytes, whatever its times and with any
// worker's name (GameRecord.Worker, which a broker's coordinator adds).
// Each cut text ends in TrimMark, and Trimmed counts the bytes cut.
//
// Whether and where Fit cuts depends only on g's texts, moves and names,
// never on its times (every time, node count and the worker's name are
// counted at their longest): a game played again, locally or by a
// broker's worker, is cut the same. A record that fits is left alone;
// one that would not fit even with every text cut to TrimMark is left
// alone too, with an error saying so (its moves and statistics alone are
// too long).
func (g *GameRecord) Fit(limit int) error {
	if g.sizeBound() <= limit {
		return nil // the common case: no need to encode the record
	}
	type text struct {
		s          *string
		enc, floor int
	}
	var texts []text
	fixed := g.texts(func(s *string, floor, enc int) { texts = append(texts, text{s, enc, floor}) })
	// total is the most a line can take with every text cut to c.
	total := func(c int) int {
		t := fixed
		for _, x := range texts {
			t += min(x.enc, max(c, x.floor)+len(TrimMark))
		}
		return t
	}
	whole := fixed
	for _, x := range texts {
		whole += x.enc
	}
	if whole <= limit {
		return nil
	}
	if total(0) > limit {
		return fmt.Errorf("game %d: its record takes up to %d bytes, and %d even with every info text cut: more than the %d bytes a record may have", g.Index, whole, total(0), limit)
	}
	lo, hi := 0, whole // total(lo) fits, total(hi) does not
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; total(mid) <= limit {
			lo = mid
		} else {
			hi = mid
		}
	}
	for _, x := range texts {
		if c := max(lo, x.floor); x.enc > c+len(TrimMark) {
			cut := cutEscaped(*x.s, c)
			g.Trimmed += len(*x.s) - len(cut)
			*x.s = cut + TrimMark
		}
	}
	return nil
}

// texts calls f with each Detail or info text of g, the least Fit leaves
// of it and its length as a JSON string without the quotes; it returns
// the length of g's line without them (widest, with their keys and
// quotes).
func (g *GameRecord) texts(f func(s *string, floor, enc int)) int {
	fixed := g.widest()
	add := func(s *string, key string, floor int) {
		if *s != "" {
			fixed += len(key) + 2
			f(s, floor, len(appendString(nil, *s))-2)
		}
	}
	add(&g.Detail, `,"detail":`, minDetail)
	for i := range g.MoveStats {
		add(&g.MoveStats[i].Info, `,"info":`, 0)
	}
	return fixed
}

// fitSize is the longest g's line may be, as Fit counts it: its texts
// as they are, every time and the worker's name at their longest.
func (g *GameRecord) fitSize() int {
	n := 0
	n += g.texts(func(_ *string, _, enc int) { n += enc })
	return n
}

// widest is the length of g's line without its Detail and info texts,
// with every time, node count, depth and score, the Trimmed count and the
// worker's name at their longest.
func (g *GameRecord) widest() int {
	// A time under maxClockMS with the longest text (18 characters:
	// 31535999999.999996; a time to the µs takes 15 at most).
	wideMS := math.Nextafter(maxClockMS, 0)
	const wideInt = math.MinInt64
	w := *g
	w.Detail, w.Trimmed, w.DurationMS = "", math.MaxInt64, wideMS
	w.Worker = strings.Repeat("\x00", MaxWorkerName) // escaped as \u0000: 6 bytes each
	for p := range w.Players {
		w.Players[p].TimeMS, w.Players[p].MaxMoveMS, w.Players[p].Nodes = wideMS, wideMS, wideInt
	}
	if len(g.Clocks) > 0 {
		w.Clocks = [][2]float64{{wideMS, wideMS}}
	}
	w.MoveStats = nil
	n := len(AppendGame(nil, &w))
	if len(g.Clocks) > 1 {
		n += (len(g.Clocks) - 1) * (len(`,[,]`) + 2*len(appendFloat(nil, wideMS)))
	}
	if len(g.MoveStats) > 0 {
		n += len(`,"move_stats":[]`)
		n += len(g.MoveStats) * len(appendMoveStat(nil, &MoveStat{MS: wideMS, Depth: wideInt, Score: wideInt, Nodes: wideInt}))
		n += len(g.MoveStats) - 1 // commas
	}
	return n
}

// cutEscaped returns the longest prefix of s, whole characters, whose
// JSON string takes at most n bytes, counting every character JSON may
// escape (and every invalid byte) as an escape of 6 bytes.
func cutEscaped(s string, n int) string {
	w := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		k := size
		if r < 0x20 || r == '"' || r == '\\' || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			k = 6
		}
		if w+k > n {
			return s[:i]
		}
		w += k
		i += size
	}
	return s
}

// sizeBound is an upper bound of len(AppendGame(nil, g)) and of what Fit
// counts (widest and the texts), found without encoding: every string
// counted as if each byte took an escape of 6, every number 25
// characters, the worker's name as the longest.
func (g *GameRecord) sizeBound() int {
	str := func(s string) int { return 6*len(s) + 3 } // quotes and a comma
	n := 2048                                         // keys and numbers of the record and its players
	for _, s := range [...]string{g.Record, g.Game, g.Variant, g.Result, g.Termination, g.Detail, g.Adjudicated} {
		n += str(s)
	}
	n += 6*MaxWorkerName + 3 // any worker's name
	for _, p := range g.Players {
		n += str(p.Name) + str(p.Spec) + str(p.TC)
	}
	for _, s := range g.Opening {
		n += str(s)
	}
	for _, s := range g.Moves {
		n += str(s)
	}
	n += 60 * len(g.Clocks)
	for _, m := range g.MoveStats {
		n += 200 + str(m.Info)
	}
	return n
}
