//go:build unix

package botproc

import (
	"os"
	"syscall"
)

// killGroup signals the bot's whole process group: SIGKILL when hard,
// else SIGTERM. The bot is the group's leader (Setpgid), so the group id
// is its pid.
func killGroup(proc *os.Process, hard bool) {
	sig := syscall.SIGTERM
	if hard {
		sig = syscall.SIGKILL
	}
	// ESRCH (the group is already gone) is the expected end.
	_ = syscall.Kill(-proc.Pid, sig)
}
