package broker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/results"
)

// newKey writes a new seed file in dir and returns its path and public key.
func newKey(t *testing.T, dir, name string) (string, string) {
	t.Helper()
	path := filepath.Join(dir, name)
	pub, err := NewNKey(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, pub
}

func TestNewNKey(t *testing.T) {
	dir := t.TempDir()
	path, pub := newKey(t, dir, "w.nk")
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("seed file: %v, mode %v; want 0600", err, st.Mode())
	}
	kp, err := readSeed(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := kp.PublicKey(); got != pub || !nkeys.IsValidPublicUserKey(pub) {
		t.Errorf("public key %q, the seed's %q", pub, got)
	}
	if _, err := NewNKey(path); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("overwriting a seed: %v", err)
	}
}

func TestReadNKeyUsers(t *testing.T) {
	dir := t.TempDir()
	seedPath, pub := newKey(t, dir, "a.nk")
	_, pub2 := newKey(t, dir, "b.nk")
	seed, _ := os.ReadFile(seedPath)
	for _, tc := range []struct {
		name, text string
		want       []string
		err        string
	}{
		{"keys, comments, a duplicate", "# workers\n" + pub + " alice's machine\n\n" + pub2 + "\n" + pub + "\n", []string{pub, pub2}, ""},
		{"a seed instead of a key", string(seed), nil, "a seed (SU…)"},
		{"not a key", "hello\n", nil, "not a public user NKey"},
		{"empty", "# nobody\n", nil, "lists no public key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "users")
			os.WriteFile(path, []byte(tc.text), 0o644)
			got, err := ReadNKeyUsers(path)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil || strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("keys %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestNKeyAuth: a server that lists a public key lets in the holder of its
// seed and refuses another key, no key, and a token; a seed file readable
// by others is refused before connecting.
func TestNKeyAuth(t *testing.T) {
	dir := t.TempDir()
	right, pub := newKey(t, dir, "right.nk")
	wrong, _ := newKey(t, dir, "wrong.nk")
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), NKeys: []string{pub}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := ClientURL(srv)
	nc, err := Connect(url, "w", Credentials{NKey: right}, time.Second)
	if err != nil {
		t.Fatalf("the listed key: %v", err)
	}
	nc.Close()
	for name, c := range map[string]Credentials{"another key": {NKey: wrong}, "no key": {}, "a token": {Token: "x"}} {
		if _, err := Connect(url, "w", c, time.Second); err == nil || !strings.Contains(err.Error(), "authorization violation: check Token (it must be the coordinator's) or NKey") {
			t.Errorf("%s: %v", name, err)
		}
	}
	open, _ := newKey(t, dir, "open.nk")
	os.Chmod(open, 0o644)
	if _, err := Connect(url, "w", Credentials{NKey: open}, time.Second); err == nil || !strings.Contains(err.Error(), "readable by other users") {
		t.Errorf("a seed readable by others: %v", err)
	}
	if _, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), NKeys: []string{pub}, Token: "t"}); err == nil {
		t.Error("a token and NKeys together were accepted")
	}
}

// TestNKeyRunner: a coordinator whose embedded server takes NKeys plays a
// run with its local workers (which sign with a key of the coordinator's
// own) and a remote worker holding a listed seed.
func TestNKeyRunner(t *testing.T) {
	dir := t.TempDir()
	seed, pub := newKey(t, dir, "w.nk")
	runWithRemoteWorker(t, Options{Broker: "embedded",
		Server: ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), NKeys: []string{pub}}},
		Credentials{NKey: seed})
}

// TestNKeyExternalServer: a coordinator on an existing server that
// authenticates by NKeys (--broker nats://… --nkey SEED) plays a run with
// its local worker and a remote worker, each with its own key.
func TestNKeyExternalServer(t *testing.T) {
	dir := t.TempDir()
	coordSeed, coordPub := newKey(t, dir, "coord.nk")
	workerSeed, workerPub := newKey(t, dir, "worker.nk")
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), NKeys: []string{coordPub, workerPub}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := ClientURL(srv)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nc, err := Connect(url, "remote", Credentials{NKey: workerSeed}, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	workerDone := make(chan error, 1)
	go func() { workerDone <- Work(ctx, nc, WorkerOptions{Name: "remote", Concurrency: 1}) }()
	tour := newTour(t, 6)
	n := 0
	st, err := tour.Run(ctx, arena.RunOptions{
		Concurrency: 1,
		Sink:        func(b []*results.GameRecord) error { n += len(b); return nil },
		Runner:      Runner(Options{Broker: url, Credentials: Credentials{NKey: coordSeed}}),
	})
	if err != nil || !st.Complete || n != 6 {
		t.Fatalf("run: %v %+v, %d games", err, st, n)
	}
	if err := <-workerDone; err != nil {
		t.Fatalf("worker: %v", err)
	}
}
