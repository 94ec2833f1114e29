package botproctest

import (
	"os"
	"strconv"
	"strings"
)

// Running reports whether pid is a live process. A zombie is not: it is
// dead and only waits for its parent, perhaps init, to reap it.
func Running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// "pid (comm) state …": comm may hold spaces and parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
