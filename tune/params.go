package tune

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/boardgame-arena/arena/spec"
)

// Limits of a parameter file.
const (
	// MaxParams is the most parameters one run tunes.
	MaxParams = 256
	// MaxValue bounds the magnitude of every number in a parameter file.
	MaxValue = 1e9
	// maxLine bounds a parameter file's line (bytes).
	maxLine = 4096
)

// Param is one tuned parameter: an agent spec key with its start value,
// bounds and SPSA gains (OpenBench's c_end and r_end: the perturbation
// and the learning rate at the last iteration).
type Param struct {
	Name  string  `json:"name"`
	Int   bool    `json:"int"`
	Start float64 `json:"start"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	CEnd  float64 `json:"c_end"`
	REnd  float64 `json:"r_end"`
	// Line is the parameter file line it was read from (0: not read from
	// a file, e.g. from a run file), for messages only.
	Line int `json:"-"`
}

// String writes the parameter as a line of a parameter file.
func (p Param) String() string {
	kind := "float"
	if p.Int {
		kind = "int"
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return strings.Join([]string{p.Name, kind, f(p.Start), f(p.Min), f(p.Max), f(p.CEnd), f(p.REnd)}, ", ")
}

// ParseParams reads a parameter file: one parameter a line,
//
//	name, int|float, start, min, max, c_end, r_end
//
// with # starting a comment and blank lines skipped. A name is an agent
// spec key (c, fpu, eval.corner, …); name and tc cannot be tuned. An
// integer parameter has integer start, min and max. Errors give the line
// number, what was wrong and what is accepted.
func ParseParams(r io.Reader) ([]Param, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), maxLine)
	var ps []Param
	seen := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		p, err := parseParam(line)
		if err != nil {
			return nil, fmt.Errorf("parameter file line %d: %v", n, err)
		}
		if prev, dup := seen[p.Name]; dup {
			return nil, fmt.Errorf("parameter file line %d: %s is already tuned on line %d: give each parameter once", n, p.Name, prev)
		}
		if len(ps) == MaxParams {
			return nil, fmt.Errorf("parameter file line %d: more than %d parameters: tune at most %d at once", n, MaxParams, MaxParams)
		}
		seen[p.Name] = n
		p.Line = n
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, fmt.Errorf("parameter file: a line is longer than %d bytes", maxLine)
		}
		return nil, fmt.Errorf("parameter file: %v", err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("parameter file has no parameters: write one a line as 'name, int|float, start, min, max, c_end, r_end', e.g. 'c, float, 1.0, 0.1, 3.0, 0.1, 0.002'")
	}
	return ps, nil
}

func parseParam(line string) (Param, error) {
	f := strings.Split(line, ",")
	if len(f) != 7 {
		return Param{}, fmt.Errorf("%d fields in %q; want 7: name, int|float, start, min, max, c_end, r_end", len(f), strings.TrimSpace(line))
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	p := Param{Name: f[0]}
	if err := checkName(p.Name); err != nil {
		return Param{}, err
	}
	switch strings.ToLower(f[1]) {
	case "int":
		p.Int = true
	case "float":
	default:
		return Param{}, fmt.Errorf("%s: type %q; want int or float", p.Name, f[1])
	}
	names := [5]string{"start", "min", "max", "c_end", "r_end"}
	dst := [5]*float64{&p.Start, &p.Min, &p.Max, &p.CEnd, &p.REnd}
	for i, d := range dst {
		v, err := strconv.ParseFloat(f[2+i], 64)
		if err != nil || math.IsNaN(v) || math.Abs(v) > MaxValue {
			return Param{}, fmt.Errorf("%s: %s %q is not a number from %g to %g", p.Name, names[i], f[2+i], -MaxValue, MaxValue)
		}
		*d = v
	}
	return p, p.Check()
}

// checkName accepts names that are agent spec keys a run may set.
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("empty parameter name: start the line with an agent spec key such as c or eval.corner")
	}
	if strings.ContainsAny(name, " \t'\"=:,") {
		return fmt.Errorf("parameter name %q: an agent spec key has no spaces, quotes, '=', ':' or ','", name)
	}
	if name == "name" || name == "tc" {
		return fmt.Errorf("parameter name %q cannot be tuned (it is not a number of the agent)", name)
	}
	return nil
}

// Check validates a parameter (as ParseParams does for each line).
func (p Param) Check() error {
	if err := checkName(p.Name); err != nil {
		return err
	}
	for _, v := range []float64{p.Start, p.Min, p.Max, p.CEnd, p.REnd} {
		if math.IsNaN(v) || math.Abs(v) > MaxValue {
			return fmt.Errorf("%s: %v is out of range: numbers go from %g to %g", p.Name, v, -MaxValue, MaxValue)
		}
	}
	switch {
	case !(p.Min < p.Max):
		return fmt.Errorf("%s: min %g must be below max %g", p.Name, p.Min, p.Max)
	case p.Start < p.Min || p.Start > p.Max:
		return fmt.Errorf("%s: start %g is outside [min, max] = [%g, %g]", p.Name, p.Start, p.Min, p.Max)
	case !(p.CEnd > 0):
		return fmt.Errorf("%s: c_end %g must be positive (the perturbation at the last iteration)", p.Name, p.CEnd)
	case !(p.REnd > 0):
		return fmt.Errorf("%s: r_end %g must be positive (the learning rate at the last iteration)", p.Name, p.REnd)
	case p.Int && (p.Start != math.Trunc(p.Start) || p.Min != math.Trunc(p.Min) || p.Max != math.Trunc(p.Max)):
		return fmt.Errorf("%s: an int parameter needs integer start, min and max, got %g, %g, %g", p.Name, p.Start, p.Min, p.Max)
	}
	return nil
}

// Format writes a value of p as it goes into an agent spec: an integer
// for an int parameter (v is already rounded), else a decimal with six
// significant digits (finer than any game can tell apart).
func (p Param) Format(v float64) string {
	if p.Int {
		return strconv.FormatInt(int64(math.Round(v)), 10)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// where names the parameter in a message: its name and, when it was read
// from a parameter file, the line.
func (p Param) where() string {
	if p.Line > 0 {
		return fmt.Sprintf("parameter %s (parameter file line %d)", p.Name, p.Line)
	}
	return "parameter " + p.Name
}

// WithValues returns the agent spec base with each parameter's key set to
// its value (added after the spec's keys when absent, replaced in place
// otherwise).
func WithValues(base string, ps []Param, vals []float64) (string, error) {
	sp, err := spec.Parse(base)
	if err != nil {
		return "", fmt.Errorf("agent spec: %v", err)
	}
	out := spec.Spec{Name: sp.Name, Keys: append([]string(nil), sp.Keys...), Vals: make(map[string]string, len(sp.Vals)+len(ps))}
	for k, v := range sp.Vals {
		out.Vals[k] = v
	}
	for i, p := range ps {
		if !out.Has(p.Name) {
			out.Keys = append(out.Keys, p.Name)
		}
		out.Vals[p.Name] = p.Format(vals[i])
	}
	return out.String(), nil
}
