package tryangle

import (
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// playRandom plays one game of random plans from s and undoes it again.
func playRandom(s *State, r *rng.Rand, b0, b1 []games.Move) int {
	n := 0
	for !s.Terminal() {
		b0 = s.LegalMovesFor(0, b0[:0])
		b1 = s.LegalMovesFor(1, b1[:0])
		s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
		n++
	}
	for i := 0; i < n; i++ {
		s.Undo()
	}
	return n
}

// The turn loop of the built-in agents allocates nothing once warm.
func TestTurnLoopDoesNotAllocate(t *testing.T) {
	s := New(Generate(2))
	r := rng.New(1)
	b0 := make([]games.Move, 0, games.MaxMoves)
	b1 := make([]games.Move, 0, games.MaxMoves)
	for range 3 {
		playRandom(s, r, b0, b1) // warm the buffers
	}
	if a := testing.AllocsPerRun(5, func() { playRandom(s, r, b0, b1) }); a != 0 {
		t.Fatalf("%.1f allocations per game", a)
	}
	// Evaluate, Hash and Play+Undo are games/gamestest's TestHotPathsDoNotAllocate.
}

// BenchmarkRandomGame plays whole games of random plans from one state,
// undoing each. Its plan cache forgets the last game before the next, as a
// fresh state would: the start position's plans asked for again would
// otherwise switch the cache on, which a game played forward never does.
func BenchmarkRandomGame(b *testing.B) {
	s := New(Generate(2))
	r := rng.New(1)
	b0 := make([]games.Move, 0, games.MaxMoves)
	b1 := make([]games.Move, 0, games.MaxMoves)
	turns := 0
	b.ReportAllocs()
	for b.Loop() {
		turns += playRandom(s, r, b0, b1)
		c := &s.scr().cache
		if c.slots != nil {
			b.Fatal("a game played forward switched the plan cache on")
		}
		c.seen = [cacheSeen]uint64{}
	}
	b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// midGame returns a position after some random turns.
func midGame(b *testing.B, turns int) *State {
	s := New(Generate(2))
	r := rng.New(3)
	var b0, b1 []games.Move
	for s.Ply() < turns && !s.Terminal() {
		b0 = s.LegalMovesFor(0, b0[:0])
		b1 = s.LegalMovesFor(1, b1[:0])
		s.PlayJoint(b0[r.IntN(len(b0))], b1[r.IntN(len(b1))])
	}
	if s.Terminal() {
		b.Fatal("game over too early")
	}
	return s
}

// Turn resolution (PlayJoint + Undo) with each player's last plan.
func BenchmarkTurn(b *testing.B) {
	s := midGame(b, 30)
	m0 := s.LegalMovesFor(0, nil)
	m1 := s.LegalMovesFor(1, nil)
	b.ReportAllocs()
	for b.Loop() {
		s.PlayJoint(m0[len(m0)-1], m1[len(m1)-1])
		s.Undo()
	}
}

// Plan generation for one player (the action abstraction).
func BenchmarkPlans(b *testing.B) {
	s := midGame(b, 30)
	ps := &s.scr().plans[0]
	b.ReportAllocs()
	for b.Loop() {
		s.genPlans(0, ps)
	}
	ps.valid = false
}

// A plan list served by the plan cache, as search gets it for a position
// it returns to (BenchmarkPlans is what generating it costs).
func BenchmarkPlansCached(b *testing.B) {
	s := midGame(b, 30)
	ps := &s.scr().plans[0]
	for range 2 { // the second request switches the cache on and stores the list
		ps.valid = false
		s.plansFor(0)
	}
	b.ReportAllocs()
	for b.Loop() {
		ps.valid = false
		s.plansFor(0)
	}
	if s.scr().cache.slots == nil {
		b.Fatal("the plan cache is off")
	}
}

// Incremental triangle update: add and remove one path.
func BenchmarkTrianglesAddRemove(b *testing.B) {
	s := New(Generate(2))
	links := s.Linkable()
	a, c := links[len(links)/2][0], links[len(links)/2][1]
	b.ReportAllocs()
	for b.Loop() {
		s.connect(a, c)
		s.disconnect(a, c)
		s.compact()
	}
}

// Full triangle enumeration from scratch, for comparison.
func BenchmarkTrianglesFromScratch(b *testing.B) {
	s := New(Generate(2))
	n := 0
	for b.Loop() {
		forEachTriangle(s.n, &s.adj, &s.m.X, &s.m.Y, func(_, _, _ int) { n++ })
	}
}

func BenchmarkInput(b *testing.B) {
	s := midGame(b, 30)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = s.AppendInput(buf[:0], 0, false)
	}
}

func BenchmarkGenerate(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		Generate(int64(i))
	}
}

func BenchmarkEvaluate(b *testing.B) {
	s := midGame(b, 30)
	b.ReportAllocs()
	for b.Loop() {
		s.Evaluate(0)
	}
}
