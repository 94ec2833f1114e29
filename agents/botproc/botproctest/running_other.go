//go:build unix && !linux

package botproctest

import "syscall"

// Running reports whether pid exists (zombies included: without /proc a
// zombie cannot be told from a live process cheaply).
func Running(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
