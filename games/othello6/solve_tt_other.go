//go:build !linux

package othello6

// adviseHugePages does nothing where huge pages are not asked for this way.
func adviseHugePages([]ttSlot) {}
