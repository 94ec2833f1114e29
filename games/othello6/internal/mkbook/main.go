// Command mkbook builds the othello6 book of solved positions (book.bin):
// every position reachable from the start with at least -min-empties empty
// cells, with an optimal move and its exact value. It is a long command,
// not a test; run it from the repository's root:
//
//	go run ./games/othello6/internal/mkbook -min-empties 25 -out games/othello6/book.bin
//
// Progress goes to stderr. Every -every, and when interrupted (Ctrl-C or
// SIGTERM), the positions solved so far go to the checkpoint file (-out
// with ".partial" appended: a book in the same format, the positions not
// solved yet marked so); a new run with the same flags starts from it,
// and it is removed once the book is written.
//
// To go one layer deeper, start from the current book, whose positions
// need no solving; its layers say which positions of the new bottom layer
// the perfect agent can meet, and those are solved first (with
// -paths-only, only those: a partial book, which the agent can use as it
// is); -reply-values then adds the exact values of the replies to the
// bottom positions on the second player's paths. The embedded book (all
// of the layer with 24 empty cells):
//
//	go run ./games/othello6/internal/mkbook -min-empties 25 -out games/othello6/book.bin
//	go run ./games/othello6/internal/mkbook -min-empties 24 -known games/othello6/book.bin -reply-values -threads 2 -out games/othello6/book.bin
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/boardgame-arena/arena/games/othello6"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "mkbook:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fl := flag.NewFlagSet("mkbook", flag.ContinueOnError)
	minEmpties := fl.Int("min-empties", 25, "book every reachable position with at least this many empty cells, 1 to 32 (the solver settles the others within the perfect agent's time)")
	threads := fl.Int("threads", 1, "solver threads, 1 to 256")
	ttMB := fl.Int("tt", 256, "solver table in MB, 1 to 65536")
	out := fl.String("out", "games/othello6/book.bin", "the book file to write")
	every := fl.Duration("every", time.Minute, "write the checkpoint this often, 1s to 24h")
	knownFile := fl.String("known", "", "a book whose positions are taken as solved, e.g. the current book.bin when building one layer deeper (its layers then put the perfect agent's positions first)")
	replyValues := fl.Bool("reply-values", false, "after the layers, solve the replies to the bottom positions on the second player's paths, for their exact values (the perfect agent then knows the value of its position one ply below the book)")
	pathsOnly := fl.Bool("paths-only", false, "at the bottom layer, solve only the positions the perfect agent can meet when it has played from 2 or 3 plies above it (a partial book; needs -known with every layer above)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	switch {
	case fl.NArg() > 0:
		return fmt.Errorf("unexpected arguments %q (all settings are flags)", fl.Args())
	case *minEmpties < 1 || *minEmpties > 32:
		return fmt.Errorf("-min-empties %d: use 1 to 32", *minEmpties)
	case *threads < 1 || *threads > 256:
		return fmt.Errorf("-threads %d: use 1 to 256", *threads)
	case *ttMB < 1 || *ttMB > 1<<16:
		return fmt.Errorf("-tt %d: use 1 to 65536 (MB)", *ttMB)
	case *every < time.Second || *every > 24*time.Hour:
		return fmt.Errorf("-every %s: use 1s to 24h", *every)
	}
	partial := *out + ".partial"
	var known *othello6.Book
	if data, err := os.ReadFile(partial); err == nil {
		if known, err = othello6.LoadBook(data); err != nil {
			return fmt.Errorf("checkpoint %s: %v (remove it to start afresh)", partial, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if *knownFile != "" {
		data, err := os.ReadFile(*knownFile)
		if err != nil {
			return fmt.Errorf("-known: %v", err)
		}
		k, err := othello6.LoadBook(data)
		if err != nil {
			return fmt.Errorf("-known %s: %v", *knownFile, err)
		}
		if known, err = known.Merge(k); err != nil {
			return fmt.Errorf("-known %s and the checkpoint %s: %v", *knownFile, partial, err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	book, err := othello6.BuildBook(ctx, othello6.BookBuild{
		MinEmpties: *minEmpties, Threads: *threads, TTMB: *ttMB, Progress: os.Stderr, Known: known, PathsOnly: *pathsOnly, ReplyValues: *replyValues,
		Checkpoint:      func(b *othello6.Book) error { return writeFile(partial, b) },
		CheckpointEvery: *every,
	})
	if err != nil {
		return fmt.Errorf("%v (the positions solved so far are in %s; run again to go on)", err, partial)
	}
	if err := writeFile(*out, book); err != nil {
		return err
	}
	if err := os.Remove(partial); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	st, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "mkbook: %s: %d positions with at least %d empties solved, %d bytes, built in %s\n", *out, book.Len(), book.MinEmpties(), st.Size(), time.Since(start).Round(time.Second))
	return nil
}

// writeFile writes b to path through a temporary file, so that an
// interrupted write leaves the old file whole.
func writeFile(path string, b *othello6.Book) error {
	data, err := b.MarshalBinary()
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
