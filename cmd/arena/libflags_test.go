package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/boardgame-arena/arena/broker"
	"github.com/boardgame-arena/arena/report"
	"github.com/boardgame-arena/arena/results"
)

// TestLibraryErrorsInFlags: errors of broker, results and report name
// their Go options; rendered here they read as the messages these packages
// wrote in flags before they named options, word for word.
func TestLibraryErrorsInFlags(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	seed := filepath.Join(dir, "w.nk")
	if _, err := broker.NewNKey(seed); err != nil {
		t.Fatal(err)
	}
	users := filepath.Join(dir, "users")
	os.WriteFile(users, []byte("# nobody\n"), 0o644)
	second := func(_ any, err error) error { return err }
	third := func(_ string, _ float64, err error) error { return err }
	d, err := results.Merge(readRecords(t, filepath.Join(reportTestdata, "match.jsonl")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(broker.Connect("nats://127.0.0.1:1", "w", broker.Credentials{Token: "t", NKey: seed}, time.Millisecond)),
			"--token and --nkey are two ways of joining the broker: give the one the coordinator uses"},
		{second(broker.Connect("nats://127.0.0.1:1", "w", broker.Credentials{CA: missing}, time.Millisecond)),
			"--tls-ca " + missing + ": no such file or directory"},
		{second(broker.Connect("nats://127.0.0.1:1", "w", broker.Credentials{NKey: missing}, time.Millisecond)),
			"--nkey: stat " + missing + ": no such file or directory"},
		{second(broker.Loopback("nowhere")), `--listen "nowhere": want HOST:PORT, e.g. 127.0.0.1:4222: address nowhere: missing port in address`},
		{second(broker.Loopback("h:99999")), `--listen "h:99999": the port must be 0 to 65535`},
		{second(broker.StartServer(broker.ServerOptions{Token: "t", NKeys: []string{"U"}, StoreDir: dir})),
			"--token and --nkey-users are two ways of letting workers in: give one"},
		{second(broker.StartServer(broker.ServerOptions{TLSCert: seed, StoreDir: dir})), "--tls-cert and --tls-key go together"},
		{second(broker.StartServer(broker.ServerOptions{TLSCert: seed, TLSKey: seed, StoreDir: dir})),
			"--tls-cert/--tls-key: error parsing X509 certificate/key pair: tls: failed to find any PEM data in certificate input"},
		{second(broker.ReadNKeyUsers(users)), "--nkey-users " + users + " lists no public key: add one a line (a worker's --new-nkey prints it)"},
		{second(broker.NewNKey(seed)), "--new-nkey " + seed + ": the file exists; a new key goes to a new file (remove the old one first if it is to be replaced)"},
		{broker.JoinOptions{Broker: "h:1"}.Check(), `--broker "h:1": give the address the coordinator printed, nats://HOST:PORT (or tls://HOST:PORT)`},
		{broker.JoinOptions{Broker: "nats://h:1", Patience: time.Hour, WorkerOptions: broker.WorkerOptions{Concurrency: 1, Name: broker.LocalWorker}}.Check(),
			"--name local is the coordinator's own workers' name: choose another (the record names the worker of each game)"},
		{second(results.ParseShard("3")), `--shard "3": want i/N, the i-th of N shards, e.g. --shard 3/10 (1 ≤ i ≤ N ≤ 10000)`},
		{second(results.ParseShard("0/3")), `--shard "0/3": i is 0; shards are numbered 1 to N (3); a 0-based job index such as Kubernetes' JOB_COMPLETION_INDEX needs +1`},
		{results.CheckAnchor("nobody", []string{"a", "b"}), "--anchor nobody: no such player (players: a, b)"},
		{second(results.ParseDraws("third")), `unknown --draws "third" (valid: half, davidson)`},
		{third(results.ParseAnchor("random")), `--anchor "random": want NAME=RATING, e.g. random=0`},
		{results.AnalysisOptions{Bootstrap: -1}.Check(), "--bootstrap -1: want 0 to 1000000 resamples (a few thousand give stable 95 % intervals)"},
		{results.AnalysisOptions{Prior: -1}.Check(), "--prior -1: want a number of virtual draws from 0 to 1000000"},
		{results.AnalysisOptions{Anchor: "a", AnchorElo: 2e6}.Check(), "--anchor 2e+06: the rating must be a finite number between -1e+06 and 1e+06"},
		{second(results.ParseWDL("1,2")), `--wdl wants 3 counts W,D,L, got 2 in "1,2"`},
		{second(results.ParsePenta("1,2,3,4,x")), `--penta WW: "x" is not a whole number (want LL,LD,DD,WD,WW, e.g. 10,10,10,10,10)`},
		{second(report.Write(io.Discard, d, report.Options{PNGDir: missing})), "--png " + missing + ": not an existing directory (create it first)"},
	} {
		if got := errorText(tc.err); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
