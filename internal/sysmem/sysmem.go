// Package sysmem tells how much memory the machine has, so that options
// which size tables (the agents' tt= keys, search/solve's TableMB) can
// refuse sizes the machine cannot hold with an error instead of dying in
// the allocator.
package sysmem

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// Total returns the machine's physical memory in bytes, and false where it
// cannot tell (it reads /proc/meminfo, so Linux only).
func Total() (uint64, bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	return parseMemInfo(data)
}

// parseMemInfo reads the MemTotal line ("MemTotal: 24684104 kB").
func parseMemInfo(data []byte) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 3 && string(f[0]) == "MemTotal:" && string(f[2]) == "kB" {
			kb, err := strconv.ParseUint(string(f[1]), 10, 64)
			if err != nil || kb > 1<<53 {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}

// CheckMB returns an error when a table of mb megabytes, named what (e.g.
// "alphabeta: tt=65536"), would not fit in the machine's memory.
func CheckMB(what string, mb int) error {
	total, ok := Total()
	return checkMB(what, mb, total, ok)
}

func checkMB(what string, mb int, total uint64, known bool) error {
	if !known || mb <= 0 {
		return nil
	}
	if have := total >> 20; uint64(mb) > have*3/4 {
		return fmt.Errorf("%s MB is more than this machine can hold (%d MB of memory): use at most %d", what, have, have*3/4)
	}
	return nil
}
