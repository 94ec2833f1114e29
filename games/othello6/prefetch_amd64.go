package othello6

// prefetch asks the processor to bring p's cache line in without waiting
// for it (PREFETCHT0), so that a later load of it does not stall.
//
//go:noescape
func prefetch(p *ttSlot)
