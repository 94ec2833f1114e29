//go:build !amd64

package bitsel

const hasBMI2, fastPDEP = false, false

func pdep(src, mask uint64) uint64 { panic("bitsel: no PDEP on this architecture") }
