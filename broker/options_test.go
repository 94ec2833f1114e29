package broker

import (
	"context"
	"crypto/tls"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/boardgame-arena/arena/option"
)

// asFlag is a command line's names of the broker's options, as arena's.
func asFlag(name string) string {
	if f, ok := map[string]string{"CA": "tls-ca", "TLSCert": "tls-cert", "TLSKey": "tls-key", "NKeys": "nkey-users",
		"NKeyUsers": "nkey-users", "NewNKey": "new-nkey", "NKey": "nkey"}[name]; ok {
		return "--" + f
	}
	return "--" + strings.ToLower(name)
}

// TestErrorsNameOptions: the broker refuses a value in the names of its Go
// options (a *option.Error naming the option, its text in Go names), and a
// command line that renders them shows its flags in the same sentences,
// even where several options are named in one (the names are rendered in
// the order the text holds them, NKeys before NKey).
func TestErrorsNameOptions(t *testing.T) {
	dir := t.TempDir()
	seed, _ := newKey(t, dir, "w.nk")
	conn := func(c Credentials) error {
		_, err := ConnectContext(context.Background(), "nats://127.0.0.1:1", "w", c, time.Millisecond, 0)
		return err
	}
	startServer := func(o ServerOptions) error {
		o.StoreDir = dir
		s, err := StartServer(o)
		if err == nil {
			s.Shutdown()
		}
		return err
	}
	missing := filepath.Join(dir, "missing")
	for _, tc := range []struct {
		name     string
		err      error
		option   string // the first *option.Error's Name
		goText   string
		flagText string
	}{
		{"token and nkey", conn(Credentials{Token: "t", NKey: seed}), "Token",
			"Token and NKey are two ways of joining the broker: give the one the coordinator uses",
			"--token and --nkey are two ways of joining the broker: give the one the coordinator uses"},
		{"missing CA", conn(Credentials{CA: missing}), "CA",
			"CA " + missing + ": no such file or directory", "--tls-ca " + missing + ": no such file or directory"},
		{"CA without a certificate", conn(Credentials{CA: seed}), "CA",
			"CA " + seed + ": no PEM certificate in the file", "--tls-ca " + seed + ": no PEM certificate in the file"},
		{"missing seed", conn(Credentials{NKey: missing}), "NKey",
			"NKey: stat " + missing + ": no such file or directory", "--nkey: stat " + missing + ": no such file or directory"},
		{"listen", startServer(ServerOptions{Listen: "nowhere"}), "Listen",
			`Listen "nowhere": want HOST:PORT, e.g. 127.0.0.1:4222: address nowhere: missing port in address`,
			`--listen "nowhere": want HOST:PORT, e.g. 127.0.0.1:4222: address nowhere: missing port in address`},
		{"token and keys", startServer(ServerOptions{Token: "t", NKeys: []string{"U"}}), "Token",
			"Token and NKeys are two ways of letting workers in: give one",
			"--token and --nkey-users are two ways of letting workers in: give one"},
		{"beyond loopback", startServer(ServerOptions{Listen: "0.0.0.0:0"}), "Listen",
			"Listen 0.0.0.0:0: reaches beyond this machine: give Token (workers then join with the same token) or NKeys (workers join with NKey, the seed of a listed key), and preferably TLSCert and TLSKey",
			"--listen 0.0.0.0:0: reaches beyond this machine: give --token (workers then join with the same token) or --nkey-users (workers join with --nkey, the seed of a listed key), and preferably --tls-cert and --tls-key"},
		{"certificate alone", startServer(ServerOptions{TLSCert: "c.pem"}), "TLSCert",
			"TLSCert and TLSKey go together", "--tls-cert and --tls-key go together"},
		{"no key pair", startServer(ServerOptions{TLSCert: seed, TLSKey: seed}), "TLSCert",
			"TLSCert/TLSKey: error parsing X509 certificate/key pair: tls: failed to find any PEM data in certificate input",
			"--tls-cert/--tls-key: error parsing X509 certificate/key pair: tls: failed to find any PEM data in certificate input"},
		{"new key over a file", func() error { _, err := NewNKey(seed); return err }(), "NewNKey",
			"NewNKey " + seed + ": the file exists; a new key goes to a new file (remove the old one first if it is to be replaced)",
			"--new-nkey " + seed + ": the file exists; a new key goes to a new file (remove the old one first if it is to be replaced)"},
		{"no users", func() error { _, err := ReadNKeyUsers(missing); return err }(), "NKeyUsers",
			"NKeyUsers " + missing + ": no such file or directory", "--nkey-users " + missing + ": no such file or directory"},
		{"no NKeys", explain("nats://h:1", nats.ErrNkeysNotSupported), "NKey",
			"broker nats://h:1: the server takes no NKeys (nats: nkeys not supported by the server): its coordinator lets workers in with a token or without credentials: NKey: leave it out (give Token with the coordinator's token, if it has one)",
			"broker nats://h:1: the server takes no NKeys (nats: nkeys not supported by the server): its coordinator lets workers in with a token or without credentials: --nkey: leave it out (give --token with the coordinator's token, if it has one)"},
		{"refused", explain("nats://h:1", nats.ErrAuthorization), "Token",
			"broker nats://h:1: authorization violation: check Token (it must be the coordinator's) or NKey (its public key must be in the coordinator's NKeys)",
			"broker nats://h:1: authorization violation: check --token (it must be the coordinator's) or --nkey (its public key must be in the coordinator's --nkey-users)"},
		{"gone", errBrokerGone, "Patience",
			"the broker went away (no server for too long): the run is over or its coordinator stopped; Patience waits longer for a coordinator that is resumed",
			"the broker went away (no server for too long): the run is over or its coordinator stopped; --patience waits longer for a coordinator that is resumed"},
	} {
		var oe *option.Error
		if !errors.As(tc.err, &oe) || oe.Name != tc.option {
			t.Errorf("%s: %v names no option %s", tc.name, tc.err, tc.option)
			continue
		}
		if got := tc.err.Error(); got != tc.goText {
			t.Errorf("%s: Go text\n got %s\nwant %s", tc.name, got, tc.goText)
		}
		if got := option.Render(tc.err, asFlag); got != tc.flagText {
			t.Errorf("%s: flag text\n got %s\nwant %s", tc.name, got, tc.flagText)
		}
	}
}

// TestUntrustedNamesCA: the advice on an untrusted certificate names the
// CA option even when the TLS error before it holds the letters "CA".
func TestUntrustedNamesCA(t *testing.T) {
	cause := &tls.CertificateVerificationError{Err: errors.New(`x509: certificate signed by unknown authority (possibly because of "crypto/rsa: verification error" while trying to verify candidate authority certificate "arena CA")`)}
	err := explain("nats://h:1", cause)
	var oe *option.Error
	if !errors.As(err, &oe) || oe.Name != "CA" {
		t.Fatalf("%v names no option CA", err)
	}
	want := "broker nats://h:1: the server's TLS certificate is not trusted (" + cause.Error() + "): --tls-ca: give the CA that signed the coordinator's --tls-cert (for a self-signed certificate, the certificate itself)"
	if got := option.Render(err, asFlag); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestJoinOptionsCheck: Join refuses, before connecting, an address that is
// not a NATS URL, a patience outside its bounds and a worker name the
// record cannot keep or that passes for the coordinator's own workers.
func TestJoinOptionsCheck(t *testing.T) {
	good := JoinOptions{Broker: "nats://127.0.0.1:1", Patience: time.Minute, WorkerOptions: WorkerOptions{Name: "w1", Concurrency: 2}}
	if err := good.Check(); err != nil {
		t.Fatalf("good options: %v", err)
	}
	for _, tc := range []struct {
		change func(*JoinOptions)
		want   string // rendered with asFlag
	}{
		{func(o *JoinOptions) { o.Broker = "127.0.0.1:4222" }, `--broker "127.0.0.1:4222": give the address the coordinator printed, nats://HOST:PORT (or tls://HOST:PORT)`},
		{func(o *JoinOptions) { o.Concurrency = 0 }, "--concurrency 0: use at least 1"},
		{func(o *JoinOptions) { o.Patience = 999 * time.Millisecond }, "--patience 999ms: use 1s to 24h"},
		{func(o *JoinOptions) { o.Patience = 25 * time.Hour }, "--patience 25h0m0s: use 1s to 24h"},
		{func(o *JoinOptions) { o.Name = LocalWorker }, "--name local is the coordinator's own workers' name: choose another (the record names the worker of each game)"},
		{func(o *JoinOptions) { o.Name = strings.Repeat("x", 101) }, "--name: use up to 100 bytes of printable characters"},
		{func(o *JoinOptions) { o.Name = "a\nb" }, "--name: use up to 100 bytes of printable characters"},
		// 60 characters, 120 bytes: the bound is the record's, in bytes, and the message must say so.
		{func(o *JoinOptions) { o.Name = strings.Repeat("é", 60) }, "--name: use up to 100 bytes of printable characters"},
		{func(o *JoinOptions) { o.Name = "" }, "--name: give the worker a name (the record names the worker of each game)"},
	} {
		o := good
		tc.change(&o)
		err := o.Check()
		if got := option.Render(err, asFlag); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
		if err := Join(context.Background(), o); err == nil || option.Render(err, asFlag) != tc.want {
			t.Errorf("Join: %v, want the Check error", err)
		}
	}
}
