package othello6

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"time"
)

// settle plays the passes of a mover who cannot place a disc: it returns
// the position from the view of the player who places next (flip reports
// that this is the other player) and over when neither can.
func settle(me, opp uint64) (nme, nopp uint64, flip, over bool) {
	if Moves(me, opp) != 0 {
		return me, opp, false, false
	}
	if Moves(opp, me) != 0 {
		return opp, me, true, false
	}
	return me, opp, false, true
}

// BookLayers returns every position reachable from root (its mover to
// place; positions where the mover must pass are skipped to the next
// placement; nil for the start position) with at least minEmpties empty
// cells, one per symmetry class (canonical orientation), grouped by their
// number of empty cells: layers[e] holds those with e empties, sorted.
func BookLayers(root *State, minEmpties int) map[int][][2]uint64 {
	if root == nil {
		root = New()
	}
	layers := map[int][][2]uint64{}
	me, opp, _, over := settle(root.discs[root.side], root.discs[1-root.side])
	if over {
		return layers
	}
	me, opp, _ = canonical(me, opp)
	list, _ := bookPositions(nil, me, opp, minEmpties, math.MaxInt)
	for len(list) > 0 {
		e := bits.OnesCount64(^(list[0][0] | list[0][1]) & full)
		n := 1
		for n < len(list) && bits.OnesCount64(^(list[n][0]|list[n][1])&full) == e {
			n++
		}
		layers[e] = list[:n:n]
		list = list[n:]
	}
	return layers
}

// bookPositions lists the positions reachable from (me, opp), canonical
// and its mover to place, with at least minEmpties empty cells, one per
// symmetry class (canonical orientation), in a book's order: the layers
// from the most empty cells to the fewest (each placement fills one), each
// sorted by (me, opp). It stops with ok false as soon as there are more
// than limit, so that its time and memory stay in proportion to limit.
// The list is buf[:0] with the positions appended (buf may be nil).
func bookPositions(buf [][2]uint64, me, opp uint64, minEmpties, limit int) (list [][2]uint64, ok bool) {
	e := bits.OnesCount64(^(me | opp) & full)
	if e < minEmpties {
		return buf[:0], true
	}
	if limit < 1 {
		return buf[:0], false
	}
	list = append(buf[:0], [2]uint64{me, opp})
	var next [][2]uint64
	for layer := list; len(layer) > 0 && e > minEmpties; e-- {
		room := limit - len(list)
		next = next[:0]
		sorted := 0 // next[:sorted] is sorted, without repeats
		for _, p := range layer {
			for m := Moves(p[0], p[1]); m != 0; m &= m - 1 {
				i := bits.TrailingZeros64(m)
				f := Flips(i, p[0], p[1]) | bit(i)
				if cme, copp, _, over := settle(p[1]&^f, p[0]|f); !over {
					a, b, _ := canonical(cme, copp)
					next = append(next, [2]uint64{a, b})
				}
			}
			// Keep the children's list within about three times the room
			// left (a book's layers rarely need it).
			if n := len(next) - sorted; n > 1024 && n/2 > room {
				next = sortPositions(next)
				if sorted = len(next); sorted > room {
					return list, false
				}
			}
		}
		if next = sortPositions(next); len(next) > room {
			return list, false
		}
		start := len(list)
		list = append(list, next...)
		layer = list[start:]
	}
	return list, true
}

// sortPositions sorts l by (me, opp) and drops the repeats.
func sortPositions(l [][2]uint64) [][2]uint64 {
	slices.SortFunc(l, comparePositions)
	return slices.Compact(l)
}

// comparePositions orders positions by the mover's discs, then the
// opponent's (with branches: cmp.Or, which evaluates both comparisons,
// made listing a book's positions 1.7 times slower).
func comparePositions(a, b [2]uint64) int {
	switch {
	case a[0] != b[0]:
		if a[0] < b[0] {
			return -1
		}
		return 1
	case a[1] < b[1]:
		return -1
	case a[1] > b[1]:
		return 1
	}
	return 0
}

// BookBuild describes a book to build (BuildBook).
type BookBuild struct {
	Root       *State // where the book starts; nil for the start position
	MinEmpties int    // the fewest empty cells of a book position (1 to 32)
	Threads    int    // the solver's threads (at least 1)
	TTMB       int    // the solver's table, MB (kept across the solves)
	Progress   io.Writer
	// Known holds positions solved before (a checkpoint of an interrupted
	// build, or a book with fewer layers when going deeper; it must start
	// from the same root, its minimum may differ): they are not solved
	// again. When it holds the layers above the bottom, the bottom
	// positions on the perfect agent's paths (bookPaths) are solved first,
	// so that a checkpoint serves the agent early.
	Known *Book
	// ReplyValues adds the exact values of the replies to the bottom
	// positions on the second player's paths (see bookvalues.go), after
	// the layers, keeping those Known has.
	ReplyValues bool
	// PathsOnly solves only the bottom positions on the perfect agent's
	// paths and returns a partial book (the others unsolved, unless Known
	// has them); Known must hold every layer above the bottom.
	PathsOnly bool
	// Checkpoint, when not nil, is given the positions solved so far (as
	// a book, which MarshalBinary writes with the others marked unsolved)
	// every CheckpointEvery and when ctx stops the build, so that an
	// interrupted build loses nothing.
	Checkpoint      func(*Book) error
	CheckpointEvery time.Duration
}

// BuildBook solves every position BookLayers(o.Root, o.MinEmpties) lists:
// those with MinEmpties empty cells by the exact solver (one table kept
// across the solves, as siblings share much of their trees), the others by
// the best of their children, which are all in the book or finished. It
// stops with ctx's error when ctx is done. It refuses a root where the
// game is over or with fewer than MinEmpties empty cells, and a Known book
// of another root.
//
// From the start this is a long command, not a test: see book.go.
func BuildBook(ctx context.Context, o BookBuild) (*Book, error) {
	minEmpties := o.MinEmpties
	if minEmpties < 1 || minEmpties > Size*Size-4 {
		return nil, fmt.Errorf("othello6 book: minimum empties %d is not between 1 and %d", minEmpties, Size*Size-4)
	}
	root := o.Root
	if root == nil {
		root = New()
	}
	me, opp, _, over := settle(root.discs[root.side], root.discs[1-root.side])
	if over {
		return nil, errors.New("othello6 book: the game is over at the root")
	}
	if e := bits.OnesCount64(^(me | opp) & full); e < minEmpties {
		return nil, fmt.Errorf("othello6 book: the root has %d empty cells, fewer than the minimum %d", e, minEmpties)
	}
	me, opp, _ = canonical(me, opp)
	if k := o.Known; k != nil && (k.me != me || k.opp != opp) {
		return nil, fmt.Errorf("othello6 book: the known book starts from %x/%x, this one from %x/%x (another root)", k.me, k.opp, me, opp)
	}
	logf := func(format string, args ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, format+"\n", args...)
		}
	}
	start := time.Now()
	layers := BookLayers(root, minEmpties)
	total := 0
	for e := Size * Size; e >= minEmpties; e-- {
		if l := layers[e]; len(l) > 0 {
			total += len(l)
			logf("book: %d positions with %d empties", len(l), e)
		}
	}
	logf("book: %d positions in all, listed in %s", total, time.Since(start).Round(time.Millisecond))
	known := map[[2]uint64]bookEntry{}
	if o.Known != nil {
		// Entries of another minimum are as good (the layers above, when
		// going deeper): a position's value does not depend on the book it
		// is in.
		for _, e := range o.Known.entries {
			known[[2]uint64{e.me, e.opp}] = e
		}
		logf("book: %d positions known before", len(known))
	}
	all := len(layers[minEmpties])
	bottom, onPaths, err := bottomOrder(layers, minEmpties, known, o.PathsOnly)
	if err != nil {
		return nil, err
	}
	layers[minEmpties] = bottom
	switch {
	case o.PathsOnly:
		logf("book: solving only the %d of %d positions with %d empties on the perfect agent's paths", onPaths, all, minEmpties)
	case onPaths >= 0:
		logf("book: the %d of %d positions with %d empties on the perfect agent's paths first", onPaths, all, minEmpties)
	}
	value := make(map[[2]uint64]int8, total)
	entries := make([]bookEntry, 0, total)
	lastCheckpoint := time.Now()
	checkpoint := func() error {
		if o.Checkpoint == nil {
			return nil
		}
		lastCheckpoint = time.Now()
		part := slices.Clone(entries)
		slices.SortFunc(part, compareEntries)
		return o.Checkpoint(&Book{me: me, opp: opp, minEmpties: minEmpties, entries: part})
	}
	solver := NewSolver(o.TTMB)
	var nodes int64
	for e := minEmpties; e <= Size*Size-4; e++ {
		list := layers[e]
		if len(list) == 0 {
			continue
		}
		t0 := time.Now()
		var slowest time.Duration
		solved := 0
		for k, p := range list {
			var best, bestMove int
			if ke, ok := known[p]; ok {
				best, bestMove = int(ke.value), int(ke.move)
			} else if e == minEmpties {
				s, _ := FromDiscs(p[0], p[1], 0)
				t := time.Now()
				r, err := solver.Solve(ctx, s, max(o.Threads, 1))
				if err != nil {
					if cerr := checkpoint(); cerr != nil {
						logf("book: checkpoint: %v", cerr)
					}
					return nil, fmt.Errorf("othello6 book: solving a position with %d empties: %w", e, err)
				}
				slowest = max(slowest, time.Since(t))
				nodes += r.Nodes
				solved++
				if len(r.PV) == 0 || int(r.PV[0]) >= Size*Size {
					return nil, fmt.Errorf("othello6 book: the solver gave no move for a position with %d empties", e)
				}
				best, bestMove = r.Value, int(r.PV[0])
				if solved%20 == 0 {
					el := time.Since(t0)
					logf("book: %d empties: %d/%d done, %d solved in %s, about %s to go", e, k+1, len(list), solved, el.Round(time.Second), (el / time.Duration(solved) * time.Duration(len(list)-k-1)).Round(time.Second))
				}
			} else {
				var err error
				if best, bestMove, err = bestChild(p, value); err != nil {
					return nil, fmt.Errorf("othello6 book: %d empties: %w", e, err)
				}
			}
			value[p] = int8(best)
			entries = append(entries, bookEntry{me: p[0], opp: p[1], move: int8(bestMove), value: int8(best)})
			if o.CheckpointEvery > 0 && time.Since(lastCheckpoint) >= o.CheckpointEvery {
				if err := checkpoint(); err != nil {
					return nil, err
				}
			}
			if err := ctx.Err(); err != nil {
				if cerr := checkpoint(); cerr != nil {
					logf("book: checkpoint: %v", cerr)
				}
				return nil, err
			}
		}
		logf("book: %d empties: %d positions in %s (%d solved, slowest %s; %d nodes so far)", e, len(list), time.Since(t0).Round(time.Millisecond), solved, slowest.Round(time.Millisecond), nodes)
	}
	slices.SortFunc(entries, compareEntries)
	logf("book: %d positions in %s", len(entries), time.Since(start).Round(time.Second))
	b := &Book{me: me, opp: opp, minEmpties: minEmpties, entries: entries}
	if o.ReplyValues {
		if err := solveReplies(ctx, b, layers[minEmpties+3], o, solver, logf); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// solveReplies gives b the reply values (see bookvalues.go): those of
// o.Known, and the others solved.
func solveReplies(ctx context.Context, b *Book, top [][2]uint64, o BookBuild, solver *Solver, logf func(string, ...any)) error {
	parents, ok := replyParents(top, b.minEmpties, func(p [2]uint64) (int, bool) {
		e, ok := b.find(p[0], p[1])
		return int(e.move), ok
	})
	if !ok {
		return errors.New("othello6 book: the reply values need the book's moves on the second player's paths (a position on them is not solved)")
	}
	values := map[[2]uint64]int8{}
	if o.Known != nil {
		for _, e := range o.Known.values {
			values[[2]uint64{e.me, e.opp}] = e.value
		}
	}
	b.replies = true
	update := func() {
		// A new slice each time: a checkpoint may keep the last one.
		vals := make([]bookEntry, 0, len(values))
		for c, v := range values {
			vals = append(vals, bookEntry{me: c[0], opp: c[1], move: -1, value: v})
		}
		slices.SortFunc(vals, compareEntries)
		b.values = vals
	}
	checkpoint := func() error {
		if o.Checkpoint == nil {
			return nil
		}
		update()
		return o.Checkpoint(b)
	}
	lastCheckpoint := time.Now()
	t0 := time.Now()
	solved := 0
	for _, p := range parents {
		for m := Moves(p[0], p[1]); m != 0; m &= m - 1 {
			c, _, over := bookChild(p, bits.TrailingZeros64(m))
			if _, ok := values[c]; ok || over {
				continue
			}
			s, _ := FromDiscs(c[0], c[1], 0)
			r, err := solver.Solve(ctx, s, max(o.Threads, 1))
			if err != nil {
				if cerr := checkpoint(); cerr != nil {
					logf("book: checkpoint: %v", cerr)
				}
				return fmt.Errorf("othello6 book: solving a reply: %w", err)
			}
			values[c] = int8(r.Value)
			if solved++; solved%50 == 0 {
				logf("book: reply values: %d solved in %s", solved, time.Since(t0).Round(time.Second))
			}
			if o.CheckpointEvery > 0 && time.Since(lastCheckpoint) >= o.CheckpointEvery {
				lastCheckpoint = time.Now()
				if err := checkpoint(); err != nil {
					return err
				}
			}
		}
	}
	update()
	logf("book: reply values of the %d positions with %d empties on the second player's paths: %d solved in %s", len(parents), b.minEmpties, solved, time.Since(t0).Round(time.Second))
	return nil
}

// bottomOrder returns the bottom layer in the order to solve it: the
// positions on the perfect agent's paths first when the layers above are
// known (only those with pathsOnly), and how many are on the paths (-1:
// not known).
func bottomOrder(layers map[int][][2]uint64, minEmpties int, known map[[2]uint64]bookEntry, pathsOnly bool) (list [][2]uint64, onPaths int, err error) {
	list = layers[minEmpties]
	if pathsOnly {
		for e, l := range layers {
			for _, p := range l {
				if _, ok := known[p]; !ok && e > minEmpties {
					return nil, 0, fmt.Errorf("othello6 book: solving only the perfect agent's paths needs every position above the bottom known, and one with %d empties is not (start from the book of minimum %d)", e, minEmpties+1)
				}
			}
		}
	}
	paths, ok := bookPaths(layers, minEmpties, func(p [2]uint64) (int, bool) {
		e, ok := known[p]
		return int(e.move), ok
	})
	if !ok {
		return list, -1, nil
	}
	first := make([][2]uint64, 0, len(list))
	var rest [][2]uint64
	for _, p := range list {
		if paths[p] {
			first = append(first, p)
		} else if _, ok := known[p]; ok || !pathsOnly {
			rest = append(rest, p) // with pathsOnly, known ones are kept: they cost nothing
		}
	}
	return append(first, rest...), len(first), nil
}

func compareEntries(a, b bookEntry) int {
	return comparePositions([2]uint64{a.me, a.opp}, [2]uint64{b.me, b.opp})
}

// bestChild returns the best value and move of p (mover's discs, then the
// opponent's) from the values of its children, all in value or finished.
func bestChild(p [2]uint64, value map[[2]uint64]int8) (best, bestMove int, err error) {
	best, bestMove = -solveInf, -1
	for m := Moves(p[0], p[1]); m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		v, ok := childValue(p, i, value)
		if !ok {
			return 0, 0, errors.New("a child is missing (internal error)")
		}
		if v > best {
			best, bestMove = v, i
		}
	}
	return best, bestMove, nil
}

// childValue returns the value for p's mover of playing i in p, from the
// child's entry in value (false if missing) or its end.
func childValue(p [2]uint64, i int, value map[[2]uint64]int8) (int, bool) {
	c, flip, over := bookChild(p, i)
	if over {
		return SolvedScore(c[0], c[1]), true
	}
	v, ok := value[c]
	if flip {
		return int(v), ok // the opponent passes: I place again
	}
	return -int(v), ok // the opponent places next: his value is against me
}

// bookChild returns the child of p (mover's discs, then the opponent's)
// after move i: settled (the next mover can place) and canonical, with
// flip when the opponent must pass (the mover places again); when the game
// is over, the final discs from the mover's view instead.
func bookChild(p [2]uint64, i int) (c [2]uint64, flip, over bool) {
	f := Flips(i, p[0], p[1]) | bit(i)
	me, opp := p[0]|f, p[1]&^f
	nme, nopp, flip, over := settle(opp, me)
	if over {
		return [2]uint64{me, opp}, false, true
	}
	a, b, _ := canonical(nme, nopp)
	return [2]uint64{a, b}, flip, false
}

// Merge returns a book with the positions of b and o (for BookBuild.Known:
// a checkpoint and an earlier book), down to the lower of their minimums,
// or an error if they start from different roots or give a position
// different values (one of them is corrupt). Either may be nil.
func (b *Book) Merge(o *Book) (*Book, error) {
	switch {
	case b == nil:
		return o, nil
	case o == nil:
		return b, nil
	case b.me != o.me || b.opp != o.opp:
		return nil, fmt.Errorf("othello6 book: the books start from different positions (%x/%x and %x/%x)", b.me, b.opp, o.me, o.opp)
	}
	entries, err := mergeEntries(b.entries, o.entries)
	if err != nil {
		return nil, err
	}
	values, err := mergeEntries(b.values, o.values)
	if err != nil {
		return nil, err
	}
	return &Book{me: b.me, opp: b.opp, minEmpties: min(b.minEmpties, o.minEmpties), entries: entries, replies: b.replies || o.replies, values: values}, nil
}

// mergeEntries merges two sorted lists of entries, refusing a position
// they give different values.
func mergeEntries(a, b []bookEntry) ([]bookEntry, error) {
	out := make([]bookEntry, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && compareEntries(a[i], b[j]) < 0:
			out = append(out, a[i])
			i++
		case i == len(a) || compareEntries(a[i], b[j]) > 0:
			out = append(out, b[j])
			j++
		default:
			if a[i].value != b[j].value {
				return nil, fmt.Errorf("othello6 book: the books give position %x/%x the values %d and %d (one is corrupt)", a[i].me, a[i].opp, a[i].value, b[j].value)
			}
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out, nil
}
