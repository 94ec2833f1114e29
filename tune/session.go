package tune

import (
	"fmt"
	"runtime"

	"github.com/boardgame-arena/arena/arena"
)

// session opens the arena session of a run of tune's own — self-play
// games, a verification match, a sweep — with workers games at once as
// arena.RunOptions reads them (0: the number of CPUs, unless remote: a
// Runner plays the games, with none of this process's). It is the one
// place where package tune creates or continues a record
// (arena.OpenSession). If what is not empty, the errors of a new run's
// options say it ("self-play: …"); a resume's name its file.
func session(what string, so arena.SessionOptions, workers int, remote bool) (*arena.Session, error) {
	so.Remote = remote
	so.Concurrency = max(workers, 0)
	if so.Concurrency == 0 && !remote {
		so.Concurrency = min(runtime.NumCPU(), arena.MaxConcurrency)
	}
	// Check runs once the tournament is built: an error before it is the
	// options', one after it (a record that exists, a program that does
	// not start) the run's.
	built := what == "" || so.Resume != ""
	check := so.Check
	so.Check = func(t *arena.Tournament) error {
		built = true
		if check != nil {
			return check(t)
		}
		return nil
	}
	s, err := arena.OpenSession(so)
	if err != nil && !built {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return s, err
}
