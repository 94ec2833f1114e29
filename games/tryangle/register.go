package tryangle

import (
	"fmt"
	"strconv"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/internal/spec"
)

// DefaultSeed is the map seed of the plain spec "tryangle".
const DefaultSeed = 1

func init() {
	games.Register(&games.Game{
		Name:     "tryangle",
		Title:    "TryAngle Catch",
		Notation: "simultaneous; a move is one CodinGame output line, e.g. \"MOVE 3 7 2;SPAWN 4 5 9\" or WAIT",
		Options: []games.Option{
			{Key: "seed", Help: fmt.Sprintf("map seed (a Java long), the original referee's map for that seed; default %d", DefaultSeed)},
			{Key: "map", Help: "file with the referee's nodes=, edges=, units= parameters (e.g. from a CodinGame replay)"},
			{Key: "nodes", Help: "explicit map inline: houses \"x,y_x,y_…\" (with edges= and units=; quote the values)"},
			{Key: "edges", Help: "explicit map inline: paths \"a,b_a,b_…\""},
			{Key: "units", Help: "explicit map inline: starting units \"u0,u1_…\" per house"},
		},
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
	switch {
	case sp.Has("map"):
		return LoadMap(sp.Vals["map"])
	case explicit:
		if !sp.Has("nodes") || !sp.Has("edges") || !sp.Has("units") {
			return nil, errNoMap
		}
		return ParseMap(sp.Vals["nodes"], sp.Vals["edges"], sp.Vals["units"])
	}
	seed := int64(DefaultSeed)
	if v, ok := sp.Vals["seed"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("tryangle: seed=%q is not a 64-bit integer", v)
		}
		seed = n
	}
	return GeneratedMap(seed), nil
}
