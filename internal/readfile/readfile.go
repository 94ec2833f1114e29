// Package readfile reads the files a caller names (an option such as
// Credentials.CA, or an option inside a spec such as tryangle:map=) with a
// bound on their size, so that a huge file or a device such as /dev/zero is
// refused with an error that names the file, the option and the limit,
// instead of exhausting memory. The bound is counted while reading, so it
// holds for devices and pipes too, whose size a Stat does not tell.
package readfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boardgame-arena/arena/option"
)

// MiB is a mebibyte, the unit the limits are given in.
const MiB = 1 << 20

// Read reads the file at path and refuses one larger than limit bytes.
// name is what the caller set to path: an option name such as "CA", whose
// errors are *option.Error with the path as the value (so that a command
// line shows them as its flag), or a label written as it is — a spec's
// option that ends in "=" ("tryangle:map=", joined to the path) or a
// command line's own flag, written with its dashes. kind says what the
// file is, for the error: "a PEM file" gives "CA /dev/zero: more than
// 1 MiB; a PEM file is at most 1 MiB".
func Read(path, name, kind string, limit int64) ([]byte, error) {
	if path == "" {
		return nil, fail(name, "", errors.New("no file named"))
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is named already
		}
		return nil, fail(name, path, err)
	}
	defer f.Close()
	return From(f, path, name, kind, limit)
}

// From is Read of an open reader r, such as stdin, which file names in
// errors (e.g. "-").
func From(r io.Reader, file, name, kind string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fail(name, file, err)
	}
	if int64(len(data)) > limit {
		return nil, &tooLarge{fileError{name: name, file: file,
			err: fmt.Errorf("more than %s; %s is at most %s", Size(limit), kind, Size(limit))}}
	}
	return data, nil
}

// fileError is a refusal of the file that name names: err says why.
type fileError struct {
	name, file string
	err        error
}

func fail(name, file string, err error) error {
	return &fileError{name: name, file: file, err: err}
}

// literal reports whether name is a label rather than an option name.
func literal(name string) bool {
	return strings.HasPrefix(name, "-") || strings.HasSuffix(name, "=")
}

func (e *fileError) Error() string {
	if !literal(e.name) {
		return e.option().Error()
	}
	if strings.HasSuffix(e.name, "=") {
		return e.name + e.file + ": " + e.err.Error()
	}
	if e.file == "" {
		return e.name + ": " + e.err.Error()
	}
	return e.name + " " + e.file + ": " + e.err.Error()
}

// option is the error as the *option.Error of the option name.
func (e *fileError) option() *option.Error {
	return &option.Error{Name: e.name, Value: e.file, Reason: e.err.Error()}
}

// Unwrap gives the cause (errors.Is(err, fs.ErrNotExist)) and, for an
// option, its *option.Error (for option.Render).
func (e *fileError) Unwrap() []error {
	if literal(e.name) {
		return []error{e.err}
	}
	return []error{e.option(), e.err}
}

// tooLarge is a file beyond its limit.
type tooLarge struct{ fileError }

// Size writes a limit in bytes for a person: "16 MiB", "4 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= MiB && n%MiB == 0:
		return fmt.Sprintf("%d MiB", n/MiB)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
