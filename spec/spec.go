// Package spec parses the "name:key=value,key=value" strings that name games
// and agents, e.g. "erdos:algol" or "mcts:iters=2000,c=1.2", wherever they
// are given: games.Lookup and agents.Parse read theirs with it, from a Go
// caller or a command line alike.
//
// # Syntax
//
// The name runs up to the first ':'; the options follow, separated by
// commas. An option is key=value, or a bare key, which is a flag and gets
// the value "true". Spaces around names, keys and values are ignored. A key
// may not contain spaces or quotes.
//
// A value is taken literally unless it starts with a quote. A value that
// starts with ' or " and ends with the same quote is quoted: the quotes are
// removed, and inside, that quote character is written twice to stand for
// itself:
//
//	key='a,b'          the value a,b
//	key="it's,here"    the value it's,here
//	key='it''s,here'   the value it's,here too
//	key=''             the empty value
//	key=' x '          the value " x ", spaces kept
//
// A comma between two matching quotes does not end an option, even in the
// middle of a literal value: cmd=./bot --name "a,b" has the value
// ./bot --name "a,b". A quote with no partner later in the text is an
// ordinary character (map=it's is the value it's).
//
// String writes the canonical form, which Parse reads back to the same keys
// and values for any value: values holding commas, quotes or leading or
// trailing spaces are quoted, with ' when the value holds none, else with "
// when it holds none, else with ' and every ' doubled.
//
// # Values
//
// The typed accessors (Int, IntIn, Float, Duration, …) return the default
// when a key is absent and an error that names the spec, the key, what was
// wrong and what is accepted otherwise. A bare key given to a key that
// needs a value is reported as such ("option depth needs a value"), not as
// the value "true" being malformed. Floats refuse NaN and ±Inf.
package spec

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Spec is a parsed name with its ordered key/value options.
type Spec struct {
	Name string
	Keys []string          // in the order given
	Vals map[string]string // key → value
	bare map[string]bool   // keys given without "=" (flags)
}

// Parse splits s into a name and options. It rejects empty names, empty
// keys, keys holding spaces or quotes, and repeated keys.
func Parse(s string) (Spec, error) {
	name, rest, hasOpts := strings.Cut(strings.TrimSpace(s), ":")
	name = strings.TrimSpace(name)
	if name == "" {
		return Spec{}, fmt.Errorf("empty name in %q", s)
	}
	sp := Spec{Name: name, Vals: map[string]string{}}
	if !hasOpts {
		return sp, nil
	}
	var sc scanner
	for rest != "" {
		var item string
		item, rest = sc.next(rest)
		key, val, hasVal := strings.Cut(item, "=")
		key = strings.TrimSpace(key)
		if key == "" {
			if strings.TrimSpace(item) == "" {
				continue // tolerate "name:" and trailing commas
			}
			return Spec{}, fmt.Errorf("option %q in %q has no key", item, s)
		}
		if strings.ContainsAny(key, "'\" \t\n\r\v\f") {
			return Spec{}, fmt.Errorf("option key %q in %q may not contain spaces or quotes (write key=value, quoting the value: key='a b')", key, s)
		}
		if _, dup := sp.Vals[key]; dup {
			return Spec{}, fmt.Errorf("option %q given twice in %q", key, s)
		}
		if hasVal {
			val = unquote(strings.TrimSpace(val))
		} else {
			val = "true"
			if sp.bare == nil {
				sp.bare = map[string]bool{}
			}
			sp.bare[key] = true
		}
		sp.Keys = append(sp.Keys, key)
		sp.Vals[key] = val
	}
	return sp, nil
}

// scanner splits options. It remembers which quote characters have no
// partner left in the text, so that splitting stays linear in the length.
type scanner struct {
	lone [2]bool // no ' (0) or " (1) left after the last one looked at
}

func quoteIndex(c byte) int {
	if c == '"' {
		return 1
	}
	return 0
}

// next returns the text up to the first comma that is not between two
// matching quotes, and the text after that comma.
func (sc *scanner) next(s string) (item, rest string) {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			// A quote opens only if it is closed later; otherwise it is
			// an ordinary character (and so is every later one of its kind).
			if !sc.lone[quoteIndex(c)] {
				if strings.IndexByte(s[i+1:], c) >= 0 {
					quote = c
				} else {
					sc.lone[quoteIndex(c)] = true
				}
			}
		case c == ',':
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// unquote returns the content of a quoted value (see the package doc), or
// v itself when v is not one quoted string.
func unquote(v string) string {
	if len(v) < 2 || (v[0] != '"' && v[0] != '\'') {
		return v
	}
	q := v[0]
	var b strings.Builder
	for i := 1; i < len(v); i++ {
		c := v[i]
		if c != q {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(v) && v[i+1] == q {
			b.WriteByte(q) // a doubled quote stands for itself
			i++
			continue
		}
		if i == len(v)-1 {
			return b.String()
		}
		return v // text after the closing quote: a literal value
	}
	return v // no closing quote
}

// quote returns v as String writes it: as is when Parse reads it back
// unchanged, else quoted.
func quote(v string) string {
	if !strings.ContainsAny(v, ",'\"") && strings.TrimSpace(v) == v {
		return v
	}
	switch {
	case !strings.Contains(v, "'"):
		return "'" + v + "'"
	case !strings.Contains(v, `"`):
		return `"` + v + `"`
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}

// String formats the spec canonically: name, then options in the given
// order, values quoted where needed, "true" values as bare keys.
func (s Spec) String() string {
	if len(s.Keys) == 0 {
		return s.Name
	}
	var b strings.Builder
	b.WriteString(s.Name)
	b.WriteByte(':')
	for i, k := range s.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		v := s.Vals[k]
		b.WriteString(k)
		if v == "true" {
			continue
		}
		b.WriteByte('=')
		b.WriteString(quote(v))
	}
	return b.String()
}

// Has reports whether key was given.
func (s Spec) Has(key string) bool { _, ok := s.Vals[key]; return ok }

// Bare reports whether key was given as a flag, without "=".
func (s Spec) Bare(key string) bool { return s.bare[key] }

// Check returns an error naming the first key not in valid, listing valid.
func (s Spec) Check(valid ...string) error {
	for _, k := range s.Keys {
		if !slices.Contains(valid, k) {
			if len(valid) == 0 {
				return fmt.Errorf("%s takes no options, got %q", s.Name, k)
			}
			return fmt.Errorf("%s: unknown option %q (valid: %s)", s.Name, k, strings.Join(valid, ", "))
		}
	}
	return nil
}

// value returns the text of key; ok is false when the key is absent. A
// bare key is an error: the key needs a value of the kind described by
// want, for which example is a valid one.
func (s Spec) value(key, want, example string) (v string, ok bool, err error) {
	v, ok = s.Vals[key]
	if ok && s.bare[key] {
		return "", true, fmt.Errorf("%s: option %s needs a value (%s), e.g. %s=%s", s.Name, key, want, key, example)
	}
	return v, ok, nil
}

// Int returns the integer value of key, or def when absent.
func (s Spec) Int(key string, def int) (int, error) {
	return s.IntIn(key, def, math.MinInt, math.MaxInt)
}

// IntIn returns the integer value of key, which must lie in [lo, hi], or
// def when absent (def is not checked).
func (s Spec) IntIn(key string, def, lo, hi int) (int, error) {
	n, err := s.Int64In(key, int64(def), int64(lo), int64(hi))
	return int(n), err
}

// Int64 is Int for 64-bit values.
func (s Spec) Int64(key string, def int64) (int64, error) {
	return s.Int64In(key, def, math.MinInt64, math.MaxInt64)
}

// Int64In is IntIn for 64-bit values.
func (s Spec) Int64In(key string, def, lo, hi int64) (int64, error) {
	want := "an integer"
	if lo != math.MinInt64 || hi != math.MaxInt64 {
		want = fmt.Sprintf("an integer from %d to %d", lo, hi)
	}
	ex := def
	if ex < lo || ex > hi || ex == 0 && lo > 0 {
		ex = max(lo, min(hi, 1))
	}
	v, ok, err := s.value(key, want, strconv.FormatInt(ex, 10))
	if !ok || err != nil {
		return def, err
	}
	n, perr := strconv.ParseInt(v, 10, 64)
	switch {
	case errors.Is(perr, strconv.ErrRange), perr == nil && (n < lo || n > hi):
		return 0, fmt.Errorf("%s: option %s=%s is out of range: use %s", s.Name, key, v, want)
	case perr != nil:
		return 0, fmt.Errorf("%s: option %s=%q is not an integer: use %s", s.Name, key, v, want)
	}
	return n, nil
}

// Float returns the float value of key, or def when absent. NaN and ±Inf
// are refused.
func (s Spec) Float(key string, def float64) (float64, error) {
	return s.FloatIn(key, def, -math.MaxFloat64, math.MaxFloat64)
}

// FloatIn returns the finite float value of key, which must lie in
// [lo, hi], or def when absent (def is not checked).
func (s Spec) FloatIn(key string, def, lo, hi float64) (float64, error) {
	want := "a finite number"
	if lo != -math.MaxFloat64 || hi != math.MaxFloat64 {
		want = fmt.Sprintf("a number from %g to %g", lo, hi)
	}
	ex := def
	if !(ex >= lo && ex <= hi) {
		ex = lo
	}
	v, ok, err := s.value(key, want, strconv.FormatFloat(ex, 'g', -1, 64))
	if !ok || err != nil {
		return def, err
	}
	f, perr := strconv.ParseFloat(v, 64)
	switch {
	case perr != nil && !errors.Is(perr, strconv.ErrRange):
		return 0, fmt.Errorf("%s: option %s=%q is not a number: use %s", s.Name, key, v, want)
	case perr != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("%s: option %s=%s is not a finite number: use %s", s.Name, key, v, want)
	case f < lo || f > hi:
		return 0, fmt.Errorf("%s: option %s=%s is out of range: use %s", s.Name, key, v, want)
	}
	return f, nil
}

// Bool returns the boolean value of key (a bare flag is true), or def.
func (s Spec) Bool(key string, def bool) (bool, error) {
	v, ok := s.Vals[key]
	if !ok {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: option %s=%q is not true or false", s.Name, key, v)
	}
	return b, nil
}

// Duration returns the duration value of key (e.g. "200ms", "1s"), which
// must be positive, or def when absent.
func (s Spec) Duration(key string, def time.Duration) (time.Duration, error) {
	return s.DurationIn(key, def, 1, math.MaxInt64)
}

// DurationIn returns the duration value of key, which must lie in [lo, hi],
// or def when absent (def is not checked).
func (s Spec) DurationIn(key string, def, lo, hi time.Duration) (time.Duration, error) {
	want := "a positive duration such as 200ms or 1s"
	if lo != 1 || hi != math.MaxInt64 {
		want = fmt.Sprintf("a duration from %s to %s, such as 200ms or 1s", FormatDuration(lo), FormatDuration(hi))
	}
	ex := 200 * time.Millisecond
	if ex < lo || ex > hi {
		ex = lo
	}
	v, ok, err := s.value(key, want, FormatDuration(ex))
	if !ok || err != nil {
		return def, err
	}
	d, perr := time.ParseDuration(v)
	switch {
	case perr != nil:
		return 0, fmt.Errorf("%s: option %s=%q is not %s", s.Name, key, v, want)
	case d < lo || d > hi:
		return 0, fmt.Errorf("%s: option %s=%s is out of range: use %s", s.Name, key, v, want)
	}
	return d, nil
}

// FormatDuration writes d as time.Duration does, without the zero units
// that follow hours or minutes: 24h, 1m, 1h30m, 200ms.
func FormatDuration(d time.Duration) string {
	t := d.String()
	if strings.HasSuffix(t, "m0s") {
		t = strings.TrimSuffix(t, "0s")
	}
	if strings.HasSuffix(t, "h0m") {
		t = strings.TrimSuffix(t, "0m")
	}
	return t
}
