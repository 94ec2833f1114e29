package othello6

import (
	"context"
	"fmt"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/rng"
)

// A book of the positions reachable from a position with 14 empty cells
// down to 12, and what it says of its root (a random position here): the
// move and the exact value for the side to move, which the solver agrees
// with.
func ExampleBuildBook() {
	root := positionWithEmpties(rng.New(3), 14)
	book, err := BuildBook(context.Background(), BookBuild{Root: root, MinEmpties: 12, Threads: 1, TTMB: 16})
	if err != nil {
		panic(err)
	}
	me, opp := root.discs[root.side], root.discs[1-root.side]
	m, v, _ := book.Lookup(me, opp)
	r, _ := Solve(context.Background(), root, 1, 16)
	fmt.Println(book.Len(), book.MinEmpties(), root.Legal(games.Move(m)), v == r.Value)
	// Output: 55 12 true true
}

// The book's bound for a position one ply below it, set up without its
// history: nine plies of book moves from the start lead there, so one of
// the positions its last move can be taken back to has the book move that
// leads to it, and the bound is the exact value (the start's -4, seen from
// the second player).
func ExampleState_BookBound() {
	s := New()
	for s.Empties() > 23 {
		m, _, _ := s.BookMove()
		s.Play(m)
	}
	first, second := s.Discs()
	bare, err := FromDiscs(first, second, s.ToMove()) // no history
	if err != nil {
		panic(err)
	}
	v, exact, ok := bare.BookBound()
	fmt.Println(bare.Empties(), bare.ToMove(), v, exact, ok)
	// Output: 23 1 4 true true
}
