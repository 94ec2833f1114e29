//go:build !unix

package botproc

import (
	"os"
	"syscall"
)

// sysProcAttr: no process groups here.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the bot itself (there is no group to signal); a polite
// request is not possible, so only the hard kill does anything.
func killGroup(proc *os.Process, hard bool) {
	if hard {
		_ = proc.Kill()
	}
}
