package main

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/boardgame-arena/arena/arena"
)

// progress reports finished games on stderr: a bar on a terminal, a line
// every tenth of the run otherwise.
type progress struct {
	bar      *progressbar.ProgressBar
	w        io.Writer
	total    int
	done     int
	nextLine int
	start    time.Time
	prefix   string // before each line: the command's ("arena tournament: ")
	status   string // the runner's live note (arena.RunStatus), "" for none
}

// newProgress is the progress of total games of the command (named in its
// lines: "tune spsa"), a bar on a terminal and a line every tenth
// elsewhere, nothing when quiet.
func newProgress(w io.Writer, command string, total int, quiet bool) *progress {
	p := &progress{w: w, total: total, start: time.Now(), nextLine: max(total/10, 1), prefix: "arena " + command + ": "}
	if quiet || total == 0 {
		p.w = nil
		return p
	}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("games"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetWidth(30),
		)
	}
	return p
}

func (p *progress) add(n int) {
	p.done += n
	switch {
	case p.bar != nil:
		p.bar.Add(n)
	case p.w != nil && p.done >= p.nextLine:
		el := time.Since(p.start).Seconds()
		rate := float64(p.done) / el
		eta := time.Duration(float64(p.total-p.done)/rate) * time.Second
		fmt.Fprintf(p.w, "%s%d/%d games (%.0f %%), %.1f games/s, ETA %s%s\n", p.prefix, p.done, p.total, 100*float64(p.done)/float64(p.total), rate, eta.Round(time.Second), p.status)
		for p.nextLine <= p.done {
			p.nextLine += max(p.total/10, 1)
		}
	}
}

// setStatus shows a runner's live note (arena.RunOptions.Status: a
// broker's refused logins and messages) after the bar's description and
// at the end of each line.
func (p *progress) setStatus(s arena.RunStatus) {
	p.status = ""
	if text := s.String(); text != "" {
		p.status = ", " + text
	}
	if p.bar != nil {
		p.bar.Describe("games" + p.status)
	}
}

// runNote keeps a runner's live note (arena.RunOptions.Status: a broker's
// refused logins and messages) for the commands that print progress lines
// of their own (match, race), which end each line with it.
type runNote struct{ v atomic.Value }

func (n *runNote) set(s arena.RunStatus) {
	text := ""
	if t := s.String(); t != "" {
		text = ", " + t
	}
	n.v.Store(text)
}

// String is ", NOTE", or "" for none.
func (n *runNote) String() string {
	s, _ := n.v.Load().(string)
	return s
}

// pause clears the bar before other output on the same stream.
func (p *progress) pause() {
	if p.bar != nil {
		p.bar.Clear()
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
