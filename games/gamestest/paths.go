package gamestest

import (
	"slices"
	"testing"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// The checks below cover optional interfaces whose contract has a number
// in it that only the game knows (the empty cells at the start, the moves
// its fast playout makes without a draw), so a game's tests, or the
// registry's with the game's vectors, pass that number in.

// CheckEmpties plays seeded random games of v (Games, Seed and MaxPlies
// apply) and checks games.EmptiesCounter: Empties is start at the start,
// and every move takes exactly one empty place, except the moves whose
// notation is among passes (Othello's "pass"), which take none. Empties
// then counts the places left and bounds the placements left, as solver
// adjudication takes it to. It returns the first breach as a *Violation.
func CheckEmpties(v games.Variant, start int, passes []string, opts ...Option) (err error) {
	r := newRunner(v, opts)
	defer func() {
		if p := recover(); p != nil {
			err = r.fail("panic: %v", p)
		}
	}()
	for g := range r.cfg.games {
		r.game, r.seed, r.moves = g, rng.Derive(r.cfg.seed, uint64(g)), r.moves[:0]
		rand := rng.New(r.seed)
		b := v.New()
		r.shown = games.Clone(b)
		ec, ok := b.(games.EmptiesCounter)
		if !ok {
			return r.fail("%T does not count its empty places (games.EmptiesCounter)", b)
		}
		if n := ec.Empties(); n != start {
			return r.fail("Empties is %d at the start, want %d", n, start)
		}
		for !b.Terminal() {
			if len(r.moves) >= r.cfg.maxPlies {
				return r.fail("the game is not over after %d plies", len(r.moves))
			}
			before := ec.Empties()
			m := choose(r.take(b), rand)
			text := b.FormatMove(m[0])
			games.PlayFor(b, 0, m[0], m[1])
			r.moves = append(r.moves, m)
			want := before - 1
			if slices.Contains(passes, text) {
				want = before
			}
			if n := ec.Empties(); n != want || n < 0 {
				return r.fail("Empties is %d after %s, was %d before it", n, r.format(m), before)
			}
		}
	}
	return nil
}

// CheckPlayouts plays random plies into seeded games of v (Games, Seed and
// MaxPlies apply; up to 40 plies, game g's prefix g mod 41, so game 0
// starts at the start) and checks that the games.Playouter's RandomPlayout
// leaves the position as it was and plays the very game the generic loop
// (LegalMoves, one random number per ply) plays from the same seed. A
// lone legal move whose notation is among noDraw is played without a draw
// by both (Othello's fast playout passes without one). Across 100 games
// or more both players must win some playouts. It returns the first breach
// as a *Violation.
func CheckPlayouts(v games.Variant, noDraw []string, opts ...Option) (err error) {
	r := newRunner(v, opts)
	defer func() {
		if p := recover(); p != nil {
			err = r.fail("panic: %v", p)
		}
	}()
	var wins [2]int
	var buf []games.Move
	for g := range r.cfg.games {
		r.game, r.seed, r.moves = g, rng.Derive(r.cfg.seed, uint64(g)), r.moves[:0]
		rand := rng.New(r.seed)
		s, ok := v.New().(games.State)
		if !ok {
			return r.fail("%T is not sequential: only a games.State plays out", v.New())
		}
		pl, ok := s.(games.Playouter)
		if !ok {
			return r.fail("%T has no fast playout (games.Playouter)", s)
		}
		r.shown = s.Clone()
		for range g % 41 {
			if s.Terminal() {
				break
			}
			m := choose(r.take(s), rand)
			s.Play(m[0])
			r.moves = append(r.moves, m)
		}
		snap := r.take(s)
		seed := rng.Derive(r.seed, 1)
		fast := pl.RandomPlayout(rng.New(seed))
		if d := diff(r.take(s), snap); d != "" {
			return r.fail("RandomPlayout changed the state: %s", d)
		}
		dice, n := rng.New(seed), 0
		for ; !s.Terminal(); n++ {
			if n >= r.cfg.maxPlies {
				return r.fail("a playout is not over after %d plies", n)
			}
			buf = s.LegalMoves(buf[:0])
			if len(buf) == 1 && slices.Contains(noDraw, s.FormatMove(buf[0])) {
				s.Play(buf[0])
				continue
			}
			s.Play(buf[dice.IntN(len(buf))])
		}
		generic := s.Outcome()
		for ; n > 0; n-- {
			s.Undo()
		}
		if fast != generic {
			return r.fail("RandomPlayout %+v, the generic loop from the same seed %+v", fast, generic)
		}
		if fast.Winner != games.Draw {
			wins[fast.Winner]++
		}
	}
	if r.cfg.games >= 100 && (wins[0] == 0 || wins[1] == 0) {
		return r.fail("in %d playouts one side never won: %v", r.cfg.games, wins)
	}
	return nil
}

// CheckAllocs checks that the hot paths make no allocation in a position
// after a few seeded random plies of v (Seed applies): listing the legal
// moves (of both players) into a buffer, playing and undoing a move, Hash,
// and where the game has them, Evaluate, the fast playout and bulk perft.
// Search and the arena run these millions of times a second; an
// allocation there is garbage-collector work on every node.
func CheckAllocs(v games.Variant, opts ...Option) error {
	r := newRunner(v, opts)
	b := v.New()
	r.shown = games.Clone(b)
	rand := rng.New(r.cfg.seed)
	for range 6 {
		if b.Terminal() {
			break
		}
		m := choose(r.take(b), rand)
		games.PlayFor(b, 0, m[0], m[1])
		r.moves = append(r.moves, m)
	}
	if b.Terminal() {
		return r.fail("the game is over after %d plies", len(r.moves))
	}
	snap := r.take(b)
	m := choose(snap, rand)
	buf := make([]games.Move, 0, games.MaxMoves)
	sink := uint64(0)
	type path struct {
		name string
		f    func()
	}
	paths := []path{
		{"LegalMoves", func() {
			for p := range 2 {
				buf = games.LegalMovesFor(b, p, buf[:0])
			}
		}},
		{"Play+Undo", func() { games.PlayFor(b, 0, m[0], m[1]); b.Undo() }},
		{"Hash", func() { sink += b.Hash() }},
	}
	if e, ok := b.(games.Evaluator); ok {
		paths = append(paths, path{"Evaluate", func() { sink += uint64(e.Evaluate(0) + e.Evaluate(1)) }})
	}
	if pl, ok := b.(games.Playouter); ok {
		dice := rng.New(r.cfg.seed)
		paths = append(paths, path{"RandomPlayout", func() { sink += uint64(pl.RandomPlayout(dice).Score) }})
	}
	if bp, ok := b.(games.BulkPerfter); ok {
		paths = append(paths, path{"PerftBulk", func() { sink += bp.PerftBulk(2) }})
	}
	for _, p := range paths {
		if n := testing.AllocsPerRun(50, p.f); n != 0 {
			return r.fail("%s makes %.1f allocations per call", p.name, n)
		}
	}
	if d := diff(r.take(b), snap); d != "" {
		return r.fail("the hot paths changed the position: %s", d)
	}
	return nil
}
