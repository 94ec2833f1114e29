package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/boardgame-arena/arena/option"
)

// SPSASession is an SPSA run with its run file: a new run that writes a
// new file, a run resumed from its file, or a run kept in memory.
type SPSASession struct {
	SPSA *SPSA
	// Path is the run file, "" for a run in memory.
	Path string
	// Done are the iterations a resumed run's file holds, 1 … m.
	Done []Iteration
	// Torn reports a resumed file that ends in a torn line (a run killed
	// while writing it): Run cuts it off before it appends.
	Torn bool

	file    *LogFile // resumed: read, not yet opened to append
	log     *Log
	created bool // Path was created by OpenSPSA
}

// OpenSPSA prepares a run. Without resume it is a new run of cfg
// (NewSPSA), whose file out, if not empty, is created with the header (a
// file that exists is refused). With resume it is the run of that file,
// read and checked (ReadResume) but not yet written to: a caller that
// refuses it after its own checks (Abandon) leaves the file as it was,
// torn last line included.
func OpenSPSA(cfg SPSAConfig, out, resume string) (*SPSASession, error) {
	if resume != "" {
		if out != "" {
			return nil, fmt.Errorf("%w continues its own file; leave out %w", named("Resume"), named("Out"))
		}
		s, file, err := ReadResume(resume)
		if err != nil {
			return nil, fmt.Errorf("%w %w", named("Resume"), err)
		}
		return &SPSASession{SPSA: s, Path: resume, Done: file.Iterations, Torn: file.Torn, file: file}, nil
	}
	s, err := NewSPSA(cfg)
	if err != nil {
		return nil, err
	}
	ss := &SPSASession{SPSA: s, Path: out}
	if out != "" {
		if ss.log, err = CreateLog(out, s.Config); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return nil, fmt.Errorf("%w already exists: continue it with %w, or choose another file", option.New("Out", out, ""), option.New("Resume", out, ""))
			}
			return nil, err
		}
		ss.created = true
	}
	return ss, nil
}

// Run plays the rest of the run (o.Done is the session's), appending each
// finished iteration to the file before o.Record sees it.
func (s *SPSASession) Run(ctx context.Context, o RunOptions) (Result, error) {
	if s.file != nil && s.log == nil {
		log, err := AppendLog(s.file)
		if err != nil {
			return Result{Theta: s.SPSA.Start()}, err
		}
		s.log = log
	}
	o.Done = s.Done
	record := o.Record
	o.Record = func(it Iteration) error {
		if s.log != nil {
			if err := s.log.Append(it); err != nil {
				return err
			}
		}
		if record != nil {
			return record(it)
		}
		return nil
	}
	return s.SPSA.Run(ctx, o)
}

// Abandon ends a session that did not run: its file is closed, and
// removed if OpenSPSA created it (so that the corrected command may
// create it again); a resumed file is left as it was.
func (s *SPSASession) Abandon() {
	s.Close()
	if s.created {
		os.Remove(s.Path)
	}
}

// Close closes the run file.
func (s *SPSASession) Close() error {
	if s.log == nil {
		return nil
	}
	err := s.log.Close()
	s.log = nil
	return err
}

// SPSAParam is one parameter of an SPSA run's report.
type SPSAParam struct {
	Name  string  `json:"name"`
	Int   bool    `json:"int"`
	Start float64 `json:"start"`
	Tuned float64 `json:"tuned"` // θ after the last iteration (an int parameter's spec value is its rounding)
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	C     float64 `json:"c"` // c = c_end·N^γ, the unit of the plotted path
}

// SPSAReport is the outcome of an SPSA run (arena tune spsa's JSON
// document).
type SPSAReport struct {
	Game       string        `json:"game"`
	Agent      string        `json:"agent"` // the tuned agent spec
	Start      string        `json:"start"` // the agent with the start values
	Params     []SPSAParam   `json:"params"`
	Iterations int           `json:"iterations"` // finished
	Planned    int           `json:"planned_iterations"`
	Complete   bool          `json:"complete"`
	Games      int           `json:"games"`
	Out        string        `json:"out,omitempty"` // the run file
	Verify     *VerifyResult `json:"verify"`        // nil: none played (switched off, or the run was interrupted)
}

// Report is the report of the run's result (without a verification).
func (s *SPSASession) Report(res Result) SPSAReport {
	c := s.SPSA.Config
	r := SPSAReport{Game: c.Game, Planned: c.Iterations, Iterations: len(res.Iterations), Complete: res.Complete, Out: s.Path}
	r.Agent, _ = s.SPSA.Spec(res.Theta)
	r.Start, _ = s.SPSA.StartSpec()
	for i, p := range c.Params {
		r.Params = append(r.Params, SPSAParam{Name: p.Name, Int: p.Int, Start: p.Start, Tuned: res.Theta[i], Min: p.Min, Max: p.Max, C: s.SPSA.C(i)})
	}
	for _, it := range res.Iterations {
		r.Games += it.Wins + it.Draws + it.Losses
	}
	return r
}

// WriteText writes the report: the tuned and start agents, a table of
// the parameters, and the verification.
func (r SPSAReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "Tuned agent: %s\n", r.Agent)
	fmt.Fprintf(w, "Start agent: %s\n", r.Start)
	fmt.Fprintf(w, "%s: %d of %d iterations, %d games\n", r.Game, r.Iterations, r.Planned, r.Games)
	width := len("parameter")
	for _, p := range r.Params {
		width = max(width, len(p.Name))
	}
	fmt.Fprintf(w, "%-*s %5s %12s %12s %14s %10s\n", width, "parameter", "type", "start", "tuned", "range", "c")
	for _, p := range r.Params {
		kind := "float"
		if p.Int {
			kind = "int"
		}
		fmt.Fprintf(w, "%-*s %5s %12.5g %12.5g %14s %10.4g\n", width, p.Name, kind, p.Start, p.Tuned, fmt.Sprintf("%g..%g", p.Min, p.Max), p.C)
	}
	if r.Verify != nil {
		fmt.Fprintf(w, "Verification SPRT %s: %s\n", r.Verify.SPRT, r.Verify)
	}
}

// WriteHistory writes the iterations to the file path: JSON for a .json
// file (WriteHistoryJSON), else CSV (WriteHistoryCSV).
func (s *SPSA) WriteHistory(path string, its []Iteration) error {
	return writeFile(path, func(w io.Writer) error {
		if strings.HasSuffix(path, ".json") {
			return WriteHistoryJSON(w, its)
		}
		return WriteHistoryCSV(w, s.Config.Params, its)
	})
}

// WritePlot writes the parameters' paths (WritePathsSVG) to the file
// path.
func (s *SPSA) WritePlot(path string, its []Iteration) error {
	return writeFile(path, func(w io.Writer) error { return s.WritePathsSVG(w, its) })
}

// writeFile creates the file path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(out); err != nil {
		out.Close()
		return fmt.Errorf("%s: %v", path, err)
	}
	return out.Close()
}
