package mcts

import "github.com/boardgame-arena/arena/games"

const (
	blockShift = 14
	blockSize  = 1 << blockShift
)

// node flags.
const (
	flagExpanded = 1 << iota
	flagChecked  // terminal status known
	flagTerminal
)

// node is one position of a UCT tree, 32 bytes.
type node struct {
	reward float64    // sum of rewards for mover
	move   games.Move // move that led here
	first  uint32     // index of the first child (children are contiguous)
	visits uint32
	nkids  uint16
	mover  int8 // player who made move
	proof  Proof
	flags  uint8
}

// tree is a pool of nodes allocated in blocks and addressed by index.
type tree struct {
	blocks [][]node
	used   uint32
	limit  uint32
}

func newTree(limit int) *tree { return &tree{limit: uint32(limit)} }

func (t *tree) at(i uint32) *node { return &t.blocks[i>>blockShift][i&(blockSize-1)] }

func (t *tree) reset() { t.used = 0 }

// alloc reserves n contiguous zeroed nodes; false when the tree is full.
func (t *tree) alloc(n int) (uint32, bool) {
	off := t.used & (blockSize - 1)
	start := t.used
	if int(off)+n > blockSize {
		start += blockSize - off // children never straddle two blocks
	}
	end := start + uint32(n)
	if end > t.limit || n > blockSize {
		return 0, false
	}
	for int(end-1)>>blockShift >= len(t.blocks) {
		t.blocks = append(t.blocks, make([]node, blockSize))
	}
	b := t.blocks[start>>blockShift]
	o := start & (blockSize - 1)
	clear(b[o : o+uint32(n)])
	t.used = end
	return start, true
}
