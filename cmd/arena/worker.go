package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/broker"
	"github.com/boardgame-arena/arena/results"
)

func init() {
	register(command{"worker", "play the games of a tournament or match coordinated through --broker on other machines", runWorker})
}

// tokenEnv holds the broker token when --token is not given (a command
// line is visible to every user of the machine).
const tokenEnv = "ARENA_TOKEN"

// brokerFlags are the coordinator's flags of tournament and match.
type brokerFlags struct {
	broker, listen, token, tlsCert, tlsKey, tlsCA *string
	nkeyUsers, nkey                               *string
	ackWait                                       *time.Duration
	batch                                         *int
}

func addBrokerFlags(fs *flag.FlagSet) *brokerFlags {
	return &brokerFlags{
		broker:    fs.String("broker", "", "spread the games over workers: embedded (start a NATS JetStream server here; others join with arena worker) or nats://HOST:PORT of an existing one"),
		listen:    fs.String("listen", broker.DefaultListen, "with --broker embedded: the address workers join (port 0: any free one); beyond loopback it needs --token or --nkey-users"),
		token:     fs.String("token", "", "broker token; workers need the same (default $"+tokenEnv+")"),
		nkeyUsers: fs.String("nkey-users", "", "with --broker embedded: instead of a token, a file of the public NKeys (U…) allowed to join, one a line (# comments); each worker joins with --nkey SEEDFILE (arena worker --new-nkey makes one)"),
		nkey:      fs.String("nkey", "", "with --broker nats://…: this coordinator's NKey seed file, when the server authenticates by NKeys (readable by its owner only)"),
		tlsCert:   fs.String("tls-cert", "", "with --broker embedded: PEM certificate; workers then connect with TLS (--tls-ca)"),
		tlsKey:    fs.String("tls-key", "", "with --tls-cert: its PEM key"),
		tlsCA:     fs.String("tls-ca", "", "with --broker nats://…: PEM CA of the server's certificate"),
		ackWait:   fs.Duration("ack-wait", broker.DefaultAckWait, "with --broker: a batch whose worker neither finishes nor heartbeats for this long goes to another worker, 1s to 1h"),
		batch:     fs.Int("batch", 2, fmt.Sprintf("with --broker: games per batch of the work queue, 1 to %d", broker.MaxBatchGames)),
	}
}

// check validates the broker flags; it opens nothing.
func (b *brokerFlags) check() error {
	if b == nil || *b.broker == "" {
		return nil
	}
	if *b.broker != "embedded" && !strings.HasPrefix(*b.broker, "nats://") && !strings.HasPrefix(*b.broker, "tls://") {
		return fmt.Errorf("--broker %q: use embedded or nats://HOST:PORT", *b.broker)
	}
	if _, err := broker.Loopback(*b.listen); err != nil {
		return err
	}
	if *b.ackWait < time.Second || *b.ackWait > time.Hour {
		return fmt.Errorf("--ack-wait %s: use 1s to 1h", *b.ackWait)
	}
	if *b.batch < 1 || *b.batch > broker.MaxBatchGames {
		return fmt.Errorf("--batch %d: use 1 to %d", *b.batch, broker.MaxBatchGames)
	}
	switch embedded := *b.broker == "embedded"; {
	case *b.nkeyUsers != "" && !embedded:
		return errors.New("--nkey-users lists the workers' keys of the embedded server (--broker embedded); an existing server has its own configuration")
	case *b.nkey != "" && embedded:
		return errors.New("--nkey is the coordinator's key for an existing server (--broker nats://…); with --broker embedded, list the workers' keys with --nkey-users")
	case *b.nkeyUsers != "" && *b.token != "":
		return errors.New("--token and --nkey-users are two ways of letting workers in: give one")
	}
	return nil
}

// runFunc is an arena.RunOptions.Runner.
type runFunc = func(context.Context, *arena.Tournament, arena.RunOptions) (arena.RunStats, error)

// options are the broker.Options of the flags and a cleanup. The embedded
// server keeps its store next to the record file (PATH.broker), or in a
// temporary directory.
func (b *brokerFlags) options(recordPath string, stderr io.Writer) (broker.Options, func(), error) {
	token := *b.token
	if token == "" {
		token = os.Getenv(tokenEnv)
	}
	var users []string
	if *b.nkeyUsers != "" {
		var err error
		if users, err = broker.ReadNKeyUsers(*b.nkeyUsers); err != nil {
			return broker.Options{}, nil, err
		}
		token = "" // NKeys, not $ARENA_TOKEN
	}
	o := broker.Options{
		Broker: *b.broker, Credentials: broker.Credentials{Token: token, CA: *b.tlsCA, NKey: *b.nkey},
		AckWait: *b.ackWait, BatchGames: *b.batch, Log: stderr,
		Server: broker.ServerOptions{Listen: *b.listen, Token: token, NKeys: users, TLSCert: *b.tlsCert, TLSKey: *b.tlsKey},
	}
	cleanup := func() {}
	if o.Broker == "embedded" {
		if recordPath != "" {
			o.Server.StoreDir = recordPath + ".broker"
		} else {
			dir, err := os.MkdirTemp("", "arena-broker-")
			if err != nil {
				return o, nil, err
			}
			o.Server.StoreDir = dir
			cleanup = func() { os.RemoveAll(dir) }
		}
	}
	return o, cleanup, nil
}

// runner returns the arena.RunOptions.Runner of the broker flags (nil
// without --broker), which opens the broker for its run, and a cleanup.
func (b *brokerFlags) runner(recordPath string, stderr io.Writer) (runFunc, func(), error) {
	if b == nil || *b.broker == "" {
		return nil, func() {}, nil
	}
	o, cleanup, err := b.options(recordPath, stderr)
	if err != nil {
		return nil, nil, err
	}
	return broker.Runner(o), cleanup, nil
}

// hub opens the broker once for many runs (tune spsa's iterations and its
// verification match) and returns their Runner (nil without --broker) and
// a close.
func (b *brokerFlags) hub(recordPath string, stderr io.Writer) (runFunc, func(), error) {
	if b == nil || *b.broker == "" {
		return nil, func() {}, nil
	}
	o, cleanup, err := b.options(recordPath, stderr)
	if err != nil {
		return nil, nil, err
	}
	h, err := broker.Open(o)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return h.Runner(), func() { h.Close(); cleanup() }, nil
}

func runWorker(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("worker", "--broker nats://HOST:PORT [--concurrency K] [--token T | --nkey SEEDFILE] [--tls-ca CA.pem] [--wait]  |  --new-nkey SEEDFILE", stderr)
	url := fs.String("broker", "", "the coordinator's address, as it printed it: nats://HOST:PORT")
	conc := fs.Int("concurrency", min(runtime.NumCPU(), maxConcurrency), fmt.Sprintf("games played at once, 1 to %d", maxConcurrency))
	token := fs.String("token", "", "the coordinator's --token (default $"+tokenEnv+")")
	ca := fs.String("tls-ca", "", "PEM CA of the broker's certificate (a coordinator with --tls-cert)")
	nkey := fs.String("nkey", "", "join with the NKey seed in this file (readable by its owner only) instead of a token; its public key must be in the coordinator's --nkey-users")
	newKey := fs.String("new-nkey", "", "write a new NKey seed to this file (readable by its owner only), print its public key for the coordinator's --nkey-users, and exit")
	name := fs.String("name", "", "this worker's name in the coordinator's log and summary and in the record of every game it plays (\"worker\"), up to 100 printable characters, not local (default host:pid)")
	wait := fs.Bool("wait", false, "keep serving run after run (default: exit when the run is over)")
	verbose := fs.Bool("verbose", false, "say on stderr which games each batch the worker takes holds")
	patience := fs.Duration("patience", 2*time.Minute, "give up after this long without the broker (a coordinator resumed within it is joined again), 1s to 24h")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *newKey != "" {
		pub, err := broker.NewNKey(*newKey)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, pub)
		fmt.Fprintf(stderr, "arena worker: seed in %s (keep it secret); add the public key above to the coordinator's --nkey-users file\n", *newKey)
		return nil
	}
	if *url == "" {
		return errors.New("arena worker needs --broker nats://HOST:PORT (the address the coordinator printed)")
	}
	if *conc < 1 || *conc > maxConcurrency {
		return fmt.Errorf("--concurrency %d: use 1 to %d", *conc, maxConcurrency)
	}
	if *patience < time.Second || *patience > 24*time.Hour {
		return fmt.Errorf("--patience %s: use 1s to 24h", *patience)
	}
	if *name == "" {
		host, _ := os.Hostname()
		*name = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	switch {
	case *name == broker.LocalWorker:
		return fmt.Errorf("--name %s is the coordinator's own workers' name: choose another (the record names the worker of each game)", *name)
	case len(*name) > results.MaxWorkerName || !utf8.ValidString(*name) || strings.ContainsFunc(*name, unicode.IsControl):
		return fmt.Errorf("--name: use up to %d printable characters", results.MaxWorkerName)
	}
	if *token == "" && *nkey == "" {
		*token = os.Getenv(tokenEnv)
	}
	nc, err := broker.Connect(*url, "arena worker "+*name, broker.Credentials{Token: *token, CA: *ca, NKey: *nkey}, *patience)
	if err != nil {
		return err
	}
	defer nc.Close()
	ctx, stop, release := interrupts(stderr)
	defer release()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-stop: // the first Ctrl-C: leave; unfinished batches go to others
			cancel()
		case <-wctx.Done():
		}
	}()
	fmt.Fprintf(stderr, "arena worker %s: connected to %s, %d games at once\n", *name, *url, *conc)
	err = broker.Work(wctx, nc, broker.WorkerOptions{Name: *name, Concurrency: *conc, Wait: *wait, Verbose: *verbose, Log: stderr})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
