//go:build linux

package botproc

import "syscall"

// sysProcAttr puts the bot in a process group of its own, and has the
// kernel kill it should this process die without stopping it (the signal
// comes when the thread that started the bot exits; Go keeps its threads
// unless a goroutine locked to one ends, which this package never does).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
