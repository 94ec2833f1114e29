package ugi

import (
	"strings"
	"testing"
	"time"
)

// TestHandshakeWait: Check waits for ugiok its own Handshake (by default
// 10s), whatever init= allows; init= is the limit when shorter (an ugiok
// after it would fail a match's handshake anyway).
func TestHandshakeWait(t *testing.T) {
	flag := func(s string) string { return "--" + strings.ToLower(strings.TrimPrefix(s, "Check.")) }
	for _, tc := range []struct {
		init, handshake, want time.Duration
		limit                 string
	}{
		{time.Hour, DefaultCheckHandshake, 10 * time.Second, "within 10s (--handshake; the agent's init= 1h is longer: give --handshake 1h to wait as long)"},
		{200 * time.Millisecond, DefaultCheckHandshake, 200 * time.Millisecond, "within init= 200ms (the agent's init= option)"},
		{time.Hour, 2 * time.Hour, time.Hour, "within init= 1h"},
	} {
		if got, limit := handshakeWait(tc.init, tc.handshake, flag); got != tc.want || !strings.HasPrefix(limit, tc.limit) {
			t.Errorf("init= %s, handshake %s: waits %s %q, want %s %q", tc.init, tc.handshake, got, limit, tc.want, tc.limit)
		}
	}
}
