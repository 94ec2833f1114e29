package agents

import (
	"fmt"
	"runtime"

	"github.com/boardgame-arena/arena/agents/botproc"
)

// procSlot is an external agent's current bot process (cg, ugi): at most
// one, killed with its group should the agent be dropped without Close.
type procSlot struct {
	proc    *botproc.Process
	cleanup runtime.Cleanup
}

// attachProc makes p owner's current process; owner is the agent that
// embeds s, whose collection kills p.
func attachProc[T any](owner *T, s *procSlot, p *botproc.Process) {
	s.proc = p
	s.cleanup = runtime.AddCleanup(owner, func(p *botproc.Process) { p.Kill() }, p)
}

// stop stops the current process, if any, and forgets it.
func (s *procSlot) stop() {
	if s.proc != nil {
		s.proc.Stop()
		s.cleanup.Stop()
		s.proc = nil
	}
}

// failed stops the current process, if any, and returns err, a game's
// failure of the given kind, with the end of the process's stderr added
// (but for a crash, whose description already carries it).
func (s *procSlot) failed(err, kind error) error {
	if s.proc != nil {
		s.proc.Stop()
		if tail := s.proc.StderrTail(300); tail != "" && kind != ErrCrash {
			err = fmt.Errorf("%w; stderr ends with: %s", err, tail)
		}
		s.stop()
	}
	return err
}
