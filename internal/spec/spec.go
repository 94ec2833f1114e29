// Package spec parses the "name:key=value,key=value" strings that name games
// and agents on the command line, e.g. "erdos:algol" or "mcts:iters=2000,c=1.2".
//
// A key without "=" is a flag and gets the value "true". A value may be
// wrapped in single or double quotes to let it contain commas.
package spec

import (
	"fmt"
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
}

// Parse splits s into a name and options. It rejects empty names, empty keys
// and repeated keys.
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
	for rest != "" {
		var item string
		item, rest = nextItem(rest)
		key, val, hasVal := strings.Cut(item, "=")
		key = strings.TrimSpace(key)
		if key == "" {
			if strings.TrimSpace(item) == "" {
				continue // tolerate "name:" and trailing commas
			}
			return Spec{}, fmt.Errorf("option %q in %q has no key", item, s)
		}
		if !hasVal {
			val = "true"
		}
		val = unquote(strings.TrimSpace(val))
		if _, dup := sp.Vals[key]; dup {
			return Spec{}, fmt.Errorf("option %q given twice in %q", key, s)
		}
		sp.Keys = append(sp.Keys, key)
		sp.Vals[key] = val
	}
	return sp, nil
}

// nextItem returns the text up to the first comma that is not inside quotes.
func nextItem(s string) (item, rest string) {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == ',':
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// String formats the spec canonically: name, then options in the given order.
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
		if strings.ContainsAny(v, ",") {
			v = "'" + v + "'"
		}
		b.WriteString(v)
	}
	return b.String()
}

// Has reports whether key was given.
func (s Spec) Has(key string) bool { _, ok := s.Vals[key]; return ok }

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

// Int returns the integer value of key, or def when absent.
func (s Spec) Int(key string, def int) (int, error) {
	v, ok := s.Vals[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s: option %s=%q is not an integer", s.Name, key, v)
	}
	return n, nil
}

// Int64 is Int for 64-bit values.
func (s Spec) Int64(key string, def int64) (int64, error) {
	v, ok := s.Vals[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: option %s=%q is not an integer", s.Name, key, v)
	}
	return n, nil
}

// Float returns the float value of key, or def when absent.
func (s Spec) Float(key string, def float64) (float64, error) {
	v, ok := s.Vals[key]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: option %s=%q is not a number", s.Name, key, v)
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

// Duration returns the duration value of key (e.g. "200ms", "1s"), or def.
func (s Spec) Duration(key string, def time.Duration) (time.Duration, error) {
	v, ok := s.Vals[key]
	if !ok {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s: option %s=%q is not a positive duration such as 200ms or 1s", s.Name, key, v)
	}
	return d, nil
}
