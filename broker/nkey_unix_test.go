//go:build unix

package broker

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadSeedPipe: a seed "file" that is a pipe (its Stat size 0) and
// never ends is refused at the seed file's limit, not read whole.
func TestReadSeedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seed.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	go func() {
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		zeros := make([]byte, 4096)
		for {
			if _, err := w.Write(zeros); err != nil {
				return // the reader stopped
			}
		}
	}()
	_, err := readSeed(path)
	if want := "NKey " + path + ": more than 4 KiB; a seed file is at most 4 KiB"; err == nil || err.Error() != want {
		t.Errorf("endless seed pipe: %v, want %q", err, want)
	}
}
