// Package readfile reads the files a user names on the command line (a
// flag such as --tls-ca, or an option such as tryangle:map=) with a bound
// on their size, so that a huge file or a device such as /dev/zero is
// refused with an error that names the file, the flag and the limit,
// instead of exhausting memory. The bound is counted while reading, so it
// holds for devices and pipes too, whose size a Stat does not tell.
package readfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// MiB is a mebibyte, the unit the limits are given in.
const MiB = 1 << 20

// Read reads the file at path, named by flag (e.g. "--tls-ca") in errors,
// and refuses one larger than limit bytes: kind says what the file is, for
// the error ("a PEM file" gives "--tls-ca /dev/zero: more than 1 MiB; a
// PEM file is at most 1 MiB"). A flag that ends in "=" (an option such as
// "tryangle:map=") is written with the path joined to it.
func Read(path, flag, kind string, limit int64) ([]byte, error) {
	if path == "" {
		return nil, fmt.Errorf("%s: no file named", flag)
	}
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is named already
		}
		return nil, fmt.Errorf("%s: %w", label(flag, path), err)
	}
	defer f.Close()
	return From(f, path, flag, kind, limit)
}

// From is Read of an open reader r, such as stdin, which name names in
// errors (e.g. "-").
func From(r io.Reader, name, flag, kind string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label(flag, name), err)
	}
	if int64(len(data)) > limit {
		return nil, &tooLarge{name: name, flag: flag, kind: kind, limit: limit}
	}
	return data, nil
}

// tooLarge is a file beyond its limit.
type tooLarge struct {
	name, flag, kind string
	limit            int64
}

func (e *tooLarge) Error() string {
	return fmt.Sprintf("%s: more than %s; %s is at most %s", label(e.flag, e.name), Size(e.limit), e.kind, Size(e.limit))
}

// label names a file as the user gave it: "--file game.txt", or for an
// option that ends in "=", "tryangle:map=m.txt".
func label(flag, name string) string {
	if strings.HasSuffix(flag, "=") {
		return flag + name
	}
	return flag + " " + name
}

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
