//go:build !amd64

package bitsel

const fastPDEP = false

func pdep(src, mask uint64) uint64 { panic("bitsel: no PDEP on this architecture") }
