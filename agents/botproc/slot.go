package botproc

import "runtime"

// Slot is the current process of an owner that runs one bot at a time and
// starts a fresh one after a failure (an agent, a UGI client): at most one
// Process, killed with its group should the owner become unreachable while
// it runs (an agent dropped without Close).
type Slot struct {
	proc    *Process
	cleanup runtime.Cleanup
}

// Attach makes p the current process of s, a field of owner: once owner
// is unreachable, p is killed. A process already in s is forgotten, not
// stopped (Stop it first).
func Attach[T any](owner *T, s *Slot, p *Process) {
	s.proc = p
	s.cleanup = runtime.AddCleanup(owner, func(p *Process) { p.Kill() }, p)
}

// Process returns the current process, or nil.
func (s *Slot) Process() *Process { return s.proc }

// Stop stops the current process, if any, with its group, and forgets it.
func (s *Slot) Stop() { s.StopTail(0) }

// StopTail is Stop that returns the last n bytes of the process's stderr,
// read once it has stopped (so that all it wrote is there); "" when there
// was no process or n is 0.
func (s *Slot) StopTail(n int) string {
	if s.proc == nil {
		return ""
	}
	s.proc.Stop()
	tail := ""
	if n > 0 {
		tail = s.proc.StderrTail(n)
	}
	s.cleanup.Stop()
	s.proc = nil
	return tail
}
