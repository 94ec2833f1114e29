package arena

import (
	"fmt"
	"strconv"
	"strings"
)

// RunStatus is what a Runner reports on the way (RunOptions.Status); each
// report replaces the last. Runners that have more to say add fields.
type RunStatus struct {
	// RefusedLogins and RefusedMessages count, since the run began, the
	// logins a broker's server refused (wrong or missing credentials) and
	// the messages it refused a worker (beyond its permissions).
	RefusedLogins, RefusedMessages int
}

// String is the status as a progress line shows it, "" when there is
// nothing to say: "3 refused (2 logins, 1 message)".
func (s RunStatus) String() string {
	n := s.RefusedLogins + s.RefusedMessages
	if n == 0 {
		return ""
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{s.RefusedLogins, "login"}, {s.RefusedMessages, "message"}} {
		switch {
		case c.n == 1:
			parts = append(parts, "1 "+c.what)
		case c.n > 1:
			parts = append(parts, strconv.Itoa(c.n)+" "+c.what+"s")
		}
	}
	return fmt.Sprintf("%d refused (%s)", n, strings.Join(parts, ", "))
}
