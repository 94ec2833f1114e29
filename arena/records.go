package arena

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/results"
)

// CreateRecord starts the record file of t at path with its header. It
// refuses to overwrite an existing file.
func CreateRecord(path string, t *Tournament, concurrency int) (*results.Writer, error) {
	return results.Create(path, results.Header{
		Created:     time.Now().UTC().Format(time.RFC3339),
		Concurrency: concurrency,
		Config:      t.Config,
	})
}

// ResumeRecord opens the record file at path to continue it. When want is
// not nil (the command line gave a configuration), it must equal the file's;
// otherwise the tournament is rebuilt from the file's header alone. It
// returns the tournament, the games already recorded, and a writer that
// appends to the file (a torn last line is cut off first).
func ResumeRecord(path string, want *Tournament, concurrency int) (*Tournament, *results.File, *results.Writer, error) {
	file, err := results.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	t := want
	if t == nil {
		t, err = New(OptionsFrom(file.Header.Config))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: cannot rebuild its tournament: %w", path, err)
		}
	}
	if diff := file.Header.Config.Diff(t.Config); len(diff) > 0 {
		return nil, nil, nil, fmt.Errorf("--resume %s: the configuration differs from the file's, so the remaining games would not be the planned ones:\n  %s\n(run with --resume alone to continue the file as it was started)",
			path, strings.Join(diff, "\n  "))
	}
	w, err := results.Append(file, concurrency)
	if err != nil {
		return nil, nil, nil, err
	}
	return t, file, w, nil
}
