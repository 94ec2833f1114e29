package broker

import (
	"net"
	"strings"
	"testing"
)

// TestJoinURL: the address printed for workers is one another machine can
// dial: a server on every interface is named by the host name (HOST
// without one), any other by its address.
func TestJoinURL(t *testing.T) {
	for _, tc := range []struct {
		ip       string
		port     int
		hostname string
		want     string
	}{
		{"127.0.0.1", 4222, "box", "nats://127.0.0.1:4222"},
		{"192.168.1.7", 4222, "box", "nats://192.168.1.7:4222"},
		{"::1", 40841, "box", "nats://[::1]:40841"},
		{"0.0.0.0", 4222, "box.example.org", "nats://box.example.org:4222"},
		{"::", 40841, "box", "nats://box:40841"},
		{"::", 40841, "", "nats://HOST:40841"},
	} {
		if got := joinURL(net.ParseIP(tc.ip), tc.port, tc.hostname); got != tc.want {
			t.Errorf("joinURL(%s, %d, %q) = %s, want %s", tc.ip, tc.port, tc.hostname, got, tc.want)
		}
	}
}

// TestJoinCommand: the coordinator says how workers join: the address, or
// the caller's command line for it (JoinCommand).
func TestJoinCommand(t *testing.T) {
	for _, join := range []func(string) string{nil, func(u string) string { return "start a worker at " + u }} {
		var log strings.Builder
		h, err := Open(Options{Broker: "embedded", Server: ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()}, Log: &log, JoinCommand: join})
		if err != nil {
			t.Fatal(err)
		}
		h.Close()
		want := "workers join with: " + h.url + "\n"
		if join != nil {
			want = "workers join with: start a worker at " + h.url + "\n"
		}
		if !strings.HasSuffix(log.String(), want) {
			t.Errorf("log %q, want it to end %q", log.String(), want)
		}
	}
}
