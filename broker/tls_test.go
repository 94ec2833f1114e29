package broker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/internal/testcert"
)

// TestTLS: a server with a certificate accepts a client that trusts it
// (--tls-ca) and the token, and refuses one that does not trust it.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key := testcert.SelfSigned(t, dir)
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Token: "secret", TLSCert: cert, TLSKey: key})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc, err := Connect(ClientURL(srv), "w", Credentials{Token: "secret", CA: cert}, time.Second)
	if err != nil {
		t.Fatalf("trusted client: %v", err)
	}
	if !nc.TLSRequired() {
		t.Error("the connection is not TLS")
	}
	nc.Close()
	if _, err := Connect(ClientURL(srv), "w", Credentials{Token: "secret"}, time.Second); err == nil || !strings.Contains(err.Error(), "certificate is not trusted") {
		t.Errorf("a client that does not trust the certificate: %v", err)
	}
	if _, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), TLSCert: cert}); err == nil {
		t.Error("--tls-cert without --tls-key accepted")
	}
}

// TestTLSRunner: a coordinator whose embedded server speaks TLS plays a
// run with its local workers (their in-process connection) and a remote
// worker that trusts the certificate.
func TestTLSRunner(t *testing.T) {
	dir := t.TempDir()
	cert, key := testcert.SelfSigned(t, dir)
	runWithRemoteWorker(t, Options{Broker: "embedded", Credentials: Credentials{Token: "s"},
		Server: ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Token: "s", TLSCert: cert, TLSKey: key}},
		Credentials{Token: "s", CA: cert})
}

// runWithRemoteWorker plays a 4-game run through a coordinator with opts
// (its own local worker included) while a remote worker joins with creds
// as soon as the server is up, and checks that the run completes.
func runWithRemoteWorker(t *testing.T, opts Options, creds Credentials) {
	t.Helper()
	tour := newTour(t, 4)
	var log syncBuffer
	opts.Log = &log
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, result := startRun(ctx, t, tour, opts, 1)
	nc, err := Connect(url, "remote", creds, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	Work(ctx, nc, WorkerOptions{Name: "remote", Concurrency: 1})
	got, st, err := result()
	if err != nil || !st.Complete || len(got) != 4 {
		t.Fatalf("run: %v %+v, %d games\n%s", err, st, len(got), log.String())
	}
}
