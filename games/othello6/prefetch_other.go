//go:build !amd64

package othello6

// prefetch does nothing where there is no prefetch instruction wrapper.
func prefetch(p *ttSlot) {}
