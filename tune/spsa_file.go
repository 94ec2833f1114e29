package tune

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/boardgame-arena/arena/report"
	"github.com/boardgame-arena/arena/results"
)

// Log is an SPSA run's file: a header line with the configuration, then
// one JSON line per finished iteration, each written with a single write
// and synced, so that a killed run loses at most the running iteration.
type Log struct {
	f    *os.File
	path string
}

// CreateLog creates path (which must not exist) and writes the header.
func CreateLog(path string, cfg SPSAConfig) (*Log, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err // a file that exists: errors.Is(err, fs.ErrExist)
	}
	l := &Log{f: f, path: path}
	if err := l.write(cfg); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// LogFile is an SPSA file read to be continued (ReadResume).
type LogFile struct {
	Path       string
	Config     SPSAConfig  // as the file records it
	Iterations []Iteration // the finished iterations, 1 … m
	// GoodSize is the length of the complete lines; AppendLog cuts the
	// file to it (a torn last line, a run killed while writing it).
	GoodSize int64
	// Torn is true when the file holds more than its complete lines.
	Torn bool
}

// ReadResume reads an SPSA file to continue it and checks it, without
// writing to it: the configuration (NewSPSA) and the iterations (each
// follows from it and the ones before). A caller with checks of its own
// (flags that a resumed run refuses …) makes them between ReadResume and
// AppendLog, so that a refused resume leaves the file as it was, torn last
// line included, as an arena.Session's resume of a record file does.
func ReadResume(path string) (*SPSA, *LogFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	cfg, its, keep, err := ParseLog(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	s, err := NewSPSA(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err) // an *option.Error, named as a new run's
	}
	if err := s.checkDone(its); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return s, &LogFile{Path: path, Config: cfg, Iterations: its, GoodSize: int64(keep), Torn: keep < len(data)}, nil
}

// AppendLog opens a file read with ReadResume to continue it: a torn last
// line is cut off so that appends start clean.
func AppendLog(file *LogFile) (*Log, error) {
	f, err := results.OpenAt(file.Path, file.GoodSize)
	if err != nil {
		return nil, err
	}
	return &Log{f: f, path: file.Path}, nil
}

// ParseLog reads an SPSA file's contents: the header, the iterations, and
// the length of the complete lines (a last line without its newline, or
// one that does not parse, is a torn write and left out).
func ParseLog(data []byte) (cfg SPSAConfig, its []Iteration, keep int, err error) {
	lines := 0
	for keep < len(data) {
		end := bytes.IndexByte(data[keep:], '\n')
		if end < 0 && lines == 0 {
			// The header's write cut short: say so, rather than that
			// there is no header.
			if err := results.TornHeader(bytes.TrimSpace(data), spsaHeaderStart, "iteration"); err != nil {
				return cfg, nil, 0, err
			}
		}
		if end < 0 {
			break // torn last line
		}
		line := data[keep : keep+end]
		lines++
		var rec struct {
			Record string `json:"record"`
		}
		uerr := json.Unmarshal(line, &rec)
		last := keep+end+1 == len(data)
		switch {
		case uerr != nil && last:
			return cfg, its, keep, checkHeader(lines, cfg)
		case uerr != nil:
			return cfg, nil, 0, fmt.Errorf("line %d is not JSON: %v", lines, uerr)
		case lines == 1 && rec.Record != RecordSPSA:
			return cfg, nil, 0, fmt.Errorf("not an SPSA file: the first line is a %q record (an SPSA run file starts with its configuration)", rec.Record)
		case lines == 1:
			if err := json.Unmarshal(line, &cfg); err != nil {
				return cfg, nil, 0, fmt.Errorf("line 1: %v", err)
			}
			var rule struct {
				IntRule *string `json:"int_rule"`
			}
			if json.Unmarshal(line, &rule); rule.IntRule == nil {
				cfg.IntRule = IntRuleIndependent // a file from before the field: its iterations' rule
			}
		case rec.Record != RecordIteration:
			return cfg, nil, 0, fmt.Errorf("line %d: a %q record where an iteration was expected", lines, rec.Record)
		default:
			var it Iteration
			if err := json.Unmarshal(line, &it); err != nil {
				return cfg, nil, 0, fmt.Errorf("line %d: %v", lines, err)
			}
			its = append(its, it)
		}
		keep += end + 1
	}
	return cfg, its, keep, checkHeader(lines, cfg)
}

// spsaHeaderStart is how every header line begins (json.Marshal of an
// SPSAConfig: its first field is the record kind).
const spsaHeaderStart = `{"record":"` + RecordSPSA + `"`

func checkHeader(lines int, cfg SPSAConfig) error {
	if lines == 0 || cfg.Record != RecordSPSA {
		return errors.New("the file has no SPSA header line (is it empty?)")
	}
	return nil
}

// Append writes one finished iteration.
func (l *Log) Append(it Iteration) error { return l.write(it) }

func (l *Log) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := l.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("%s: %v", l.path, err)
	}
	// Iterations take seconds or more: a sync each costs nothing and keeps
	// the file through a power cut too.
	return l.f.Sync()
}

// Close closes the file.
func (l *Log) Close() error { return l.f.Close() }

// WriteHistoryJSON writes the iterations as one JSON array.
func WriteHistoryJSON(w io.Writer, its []Iteration) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if its == nil {
		its = []Iteration{}
	}
	return enc.Encode(its)
}

// WriteHistoryCSV writes one row per iteration: k, the wins, draws and
// losses of θ+, then each parameter's flip, θ+ and θ− values, and θ after
// the update.
func WriteHistoryCSV(w io.Writer, ps []Param, its []Iteration) error {
	cw := csv.NewWriter(w)
	head := []string{"k", "wins", "draws", "losses"}
	for _, p := range ps {
		head = append(head, p.Name+".flip", p.Name+".plus", p.Name+".minus", p.Name)
	}
	cw.Write(head)
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, it := range its {
		row := []string{strconv.Itoa(it.K), strconv.Itoa(it.Wins), strconv.Itoa(it.Draws), strconv.Itoa(it.Losses)}
		for i := range ps {
			row = append(row, strconv.Itoa(it.Flips[i]), f(it.Plus[i]), f(it.Minus[i]), f(it.After[i]))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// WritePathsSVG plots each parameter's path θ_i/c_i against the
// iteration (c_i = c_end·N^γ, so that paths of parameters on different
// scales share one axis and a step of the perturbation's size is 1).
func (s *SPSA) WritePathsSVG(w io.Writer, its []Iteration) error {
	names := make([]string, len(s.Config.Params))
	ys := make([][]float64, len(s.Config.Params))
	for i, p := range s.Config.Params {
		names[i] = p.Name
		ys[i] = make([]float64, len(its))
		for k, it := range its {
			ys[i][k] = it.After[i] / s.c[i]
		}
	}
	return report.WriteLinesSVG(w, "SPSA parameter paths", "iteration", "θ / c", names, ys)
}

// ReadLog reads a whole SPSA file (for the history and plot of a run).
func ReadLog(path string) (SPSAConfig, []Iteration, error) {
	f, err := os.Open(path)
	if err != nil {
		return SPSAConfig{}, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(bufio.NewReader(io.LimitReader(f, 1<<30)))
	if err != nil {
		return SPSAConfig{}, nil, err
	}
	cfg, its, _, err := ParseLog(data)
	if err != nil {
		return cfg, nil, fmt.Errorf("%s: %v", path, err)
	}
	return cfg, its, nil
}
