package arena

import "testing"

// TestRunStatusString: a progress line's note, and none without refusals.
func TestRunStatusString(t *testing.T) {
	for s, want := range map[RunStatus]string{
		{}:                                     "",
		{RefusedLogins: 2, RefusedMessages: 1}: "3 refused (2 logins, 1 message)",
		{RefusedMessages: 5}:                   "5 refused (5 messages)",
		{RefusedLogins: 1}:                     "1 refused (1 login)",
	} {
		if got := s.String(); got != want {
			t.Errorf("%+v: %q, want %q", s, got, want)
		}
	}
}
