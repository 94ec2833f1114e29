package tryangle

import (
	"fmt"
	"time"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/spec"
)

// DefaultSeed is the map seed of the plain spec "tryangle".
const DefaultSeed = 1

func init() {
	games.Register(&games.Entry{
		Name:     "tryangle",
		Title:    "TryAngle Catch",
		Notation: "simultaneous; a move is one CodinGame output line, e.g. \"MOVE 3 7 2;SPAWN 4 5 9\" or WAIT",
		Options: []games.Option{
			{Key: "seed", Help: fmt.Sprintf("map seed (a Java long), the original referee's map for that seed; default %d", DefaultSeed)},
			{Key: "map", Help: "file with the referee's nodes=, edges=, units= parameters (e.g. from a CodinGame replay; at most 1 MiB)"},
			{Key: "nodes", Help: "explicit map inline: houses \"x,y_x,y_…\" (with edges= and units=; quote the values)"},
			{Key: "edges", Help: "explicit map inline: paths \"a,b_a,b_…\""},
			{Key: "units", Help: "explicit map inline: starting units \"u0,u1_…\" per house"},
		},
		// Every game pair gets its own map instead of random plies, and the
		// limits are CodinGame's.
		OpeningPlies:  games.NoOpening,
		RoundKey:      "seed",
		FirstMoveTime: time.Second,
		MoveTime:      50 * time.Millisecond,
		// Generated maps differ in size and shape: the suite covers a few.
		Variants: []string{"tryangle:seed=1", "tryangle:seed=2", "tryangle:seed=3"},
		New: func(sp spec.Spec) (games.Base, error) {
			m, err := MapFromSpec(sp)
			if err != nil {
				return nil, err
			}
			return New(m), nil
		},
	})
}

// JSONView implements games.Viewer: the position's View.
func (s *State) JSONView() any { return s.View() }

// MapFromSpec returns the map a game spec names: "tryangle" (seed
// DefaultSeed), "tryangle:seed=N", "tryangle:map=FILE" or
// "tryangle:nodes=…,edges=…,units=…".
func MapFromSpec(sp spec.Spec) (*Map, error) {
	if err := sp.Check("seed", "map", "nodes", "edges", "units"); err != nil {
		return nil, err
	}
	explicit := sp.Has("nodes") || sp.Has("edges") || sp.Has("units")
	sources := 0
	for _, b := range []bool{sp.Has("seed"), sp.Has("map"), explicit} {
		if b {
			sources++
		}
	}
	if sources > 1 {
		return nil, fmt.Errorf("tryangle: give one of seed=, map= or nodes=/edges=/units=")
	}
	for _, k := range []string{"map", "nodes", "edges", "units"} {
		if sp.Bare(k) {
			return nil, fmt.Errorf("tryangle: option %s needs a value, e.g. %s", k, map[string]string{"map": "map=FILE", "nodes": "nodes='0,0_100,0_0,100'", "edges": "edges='0,1_1,2'", "units": "units='5,0_0,0_0,5'"}[k])
		}
	}
	switch {
	case sp.Has("map"):
		return LoadMap(sp.Vals["map"])
	case explicit:
		if !sp.Has("nodes") || !sp.Has("edges") || !sp.Has("units") {
			return nil, errNoMap
		}
		return ParseMap(sp.Vals["nodes"], sp.Vals["edges"], sp.Vals["units"])
	}
	seed, err := sp.Int64("seed", DefaultSeed) // any 64-bit integer
	if err != nil {
		return nil, err
	}
	return GeneratedMap(seed), nil
}
