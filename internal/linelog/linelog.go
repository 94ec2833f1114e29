// Package linelog puts a prefix before every line written to a writer:
// the one log convention of the arena. Libraries write bare lines to the
// log they are given ("took games 3 4"); the command wraps its stderr with
// its name ("arena worker: took games 3 4"), and a coordinator wraps the
// log of its own workers ("local worker: …").
package linelog

import (
	"bytes"
	"io"
	"sync"
)

// Writer writes to w with the prefix before every line that is not blank.
// It is safe for concurrent use; a line written in one Write stays whole.
// Its lock is held while w writes: a writer that must log from inside
// another's Write (a signal handler woken by a line) needs a Writer of
// its own.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	prefix  []byte
	midLine bool // the last write did not end its line
	buf     []byte
}

// New returns w with prefix before every line; a nil w is io.Discard.
func New(w io.Writer, prefix string) *Writer {
	if w == nil {
		w = io.Discard
	}
	return &Writer{w: w, prefix: []byte(prefix)}
}

// Write writes p, a prefix before each line it starts. It reports len(p)
// written when the underlying writer took everything.
func (l *Writer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = l.buf[:0]
	for rest := p; len(rest) > 0; {
		if !l.midLine && rest[0] != '\n' { // a blank line stays blank
			l.buf = append(l.buf, l.prefix...)
		}
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			l.buf = append(l.buf, rest...)
			l.midLine = true
			break
		}
		l.buf = append(l.buf, rest[:i+1]...)
		l.midLine = false
		rest = rest[i+1:]
	}
	if _, err := l.w.Write(l.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}
