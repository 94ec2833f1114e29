package tune

import (
	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// record opens the record file of a run of tune's own (self-play games, a
// verification match). It is the one place where package tune creates or
// continues a record file, so that moving to a record-backed run session
// of package arena changes this function alone.
//
// With resume false it creates path with t's header (a file that exists
// is refused). With resume true it continues path: its tournament is
// rebuilt from its header (t is not used), check (if not nil) sees it,
// and only then is the file opened to append, a torn last line cut off,
// so that a refused resume leaves the file as it was. It returns the
// tournament, the games already recorded and the writer.
func record(path string, t *arena.Tournament, resume bool, concurrency int, check func(*arena.Tournament) error) (*arena.Tournament, []results.GameRecord, *results.Writer, error) {
	if !resume {
		w, err := arena.CreateRecord(path, t, concurrency)
		return t, nil, w, err
	}
	t, file, err := arena.ReadResume(path, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	if check != nil {
		if err := check(t); err != nil {
			return nil, nil, nil, err
		}
	}
	w, err := results.Append(file, concurrency)
	if err != nil {
		return nil, nil, nil, err
	}
	return t, file.Games, w, nil
}
