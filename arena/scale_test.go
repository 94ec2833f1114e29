package arena

import (
	"testing"
	"time"

	"github.com/boardgame-arena/arena/agents"
)

// TestScaleTime: the run's limit per move and every clock scale, the
// margin does not; a run on automatic limits (an agent's own time=) has
// nothing to scale.
func TestScaleTime(t *testing.T) {
	tour, err := New(Options{Game: "othello6", Agents: []string{"random", "greedy:tc=2s+20ms"}, GamesPerPair: 2, Seed: 1, MoveTime: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !tour.TimeScalable() {
		t.Fatal("a run with MoveTime is not scalable")
	}
	tour.ScaleTime(2.5)
	if l := tour.Limits[0]; l.Move != 250*time.Millisecond || l.Margin != DefaultMargin || !l.Clock.IsZero() {
		t.Errorf("per-move limits scaled by 2.5: %+v", l)
	}
	if l := tour.Limits[1]; l.Clock != (agents.TimeControl{Base: 5 * time.Second, Inc: 50 * time.Millisecond}) || l.clockText != "5s+50ms" {
		t.Errorf("clock scaled by 2.5: %+v", l)
	}
	auto, err := New(Options{Game: "othello6", Agents: []string{"alphabeta:time=50ms", "random"}, GamesPerPair: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if auto.TimeScalable() {
		t.Error("automatic limits are scalable")
	}
}
