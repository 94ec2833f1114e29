package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/boardgame-arena/arena/arena"
	"github.com/boardgame-arena/arena/broker"
	"github.com/boardgame-arena/arena/internal/linelog"
)

func init() {
	register(command{"worker", groupDistributed, "play the games of a --broker run from another machine", runWorker})
}

// tokenEnv holds the broker token when --token is not given (a command
// line is visible to every user of the machine).
const tokenEnv = "ARENA_TOKEN"

// brokerFlags are the coordinator's flags of tournament and match.
type brokerFlags struct {
	fs                                            *flagSet // to tell the flags given
	broker, listen, token, tlsCert, tlsKey, tlsCA *string
	nkeyUsers, nkey                               *string
	ackWait                                       *time.Duration
	batch                                         *int
	scaleTC                                       *string
}

// addBrokerFlags defines the coordinator's flags on fs, in the group
// Distributed.
func addBrokerFlags(fs *flagSet) *brokerFlags {
	b := &brokerFlags{
		fs:        fs,
		broker:    fs.String("broker", "", "play through workers: `URL` is embedded (a server here) or nats://HOST:PORT"),
		listen:    fs.String("listen", broker.DefaultListen, "with --broker embedded: the `ADDR` workers join (port 0: any free one)"),
		token:     fs.String("token", "", "the `SECRET` workers join with (default $"+tokenEnv+")"),
		nkeyUsers: fs.String("nkey-users", "", "with --broker embedded: `FILE` of the workers' public NKeys, one a line"),
		nkey:      fs.String("nkey", "", "with --broker nats://…: this coordinator's NKey seed `FILE`"),
		tlsCert:   fs.String("tls-cert", "", "with --broker embedded: PEM certificate `FILE`; workers then need --tls-ca"),
		tlsKey:    fs.String("tls-key", "", "with --tls-cert: its PEM key `FILE`"),
		tlsCA:     fs.String("tls-ca", "", "with --broker nats://…: PEM CA `FILE` of the server's certificate"),
		ackWait:   fs.Duration("ack-wait", broker.DefaultAckWait, "a batch whose worker is silent for `D` goes to another worker, 1s to 1h"),
		batch:     fs.Int("batch", 2, fmt.Sprintf("`N` games per batch of the work queue, 1 to %d", broker.MaxBatchGames)),
		scaleTC:   fs.String("scale-tc", "on", "scale --tc and --move-time to each worker's speed: on, off or reference `NPS`"),
	}
	fs.group("Distributed", "broker listen token nkey-users nkey tls-cert tls-key tls-ca ack-wait batch scale-tc")
	return b
}

// check validates the broker flags; it opens nothing (the files they name
// are read when the broker opens). Credentials are checked here, before a
// record file is made.
func (b *brokerFlags) check() error {
	if b == nil {
		return nil
	}
	given := map[string]bool{}
	b.fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *b.broker != "embedded" {
		// Flags of the embedded server, or of any broker, that would
		// silently do nothing.
		for _, name := range []string{"listen", "tls-cert", "tls-key"} {
			if given[name] {
				return fmt.Errorf("--%s configures the embedded broker: add --broker embedded (or leave out --%s)", name, name)
			}
		}
	}
	if *b.broker == "" {
		for _, name := range []string{"token", "nkey", "nkey-users", "tls-ca", "ack-wait", "batch", "scale-tc"} {
			if given[name] {
				return fmt.Errorf("--%s is for a run through a broker: add --broker embedded or --broker nats://HOST:PORT (or leave out --%s)", name, name)
			}
		}
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
	if _, err := b.scale(); err != nil {
		return err
	}
	switch embedded := *b.broker == "embedded"; {
	case *b.nkeyUsers != "" && !embedded:
		return errors.New("--nkey-users lists the workers' keys of the embedded server (--broker embedded); an existing server has its own configuration")
	case *b.nkey != "" && embedded:
		return errors.New("--nkey is the coordinator's key for an existing server (--broker nats://…); with --broker embedded, list the workers' keys with --nkey-users")
	case *b.nkeyUsers != "" && *b.token != "":
		return errors.New("--token and --nkey-users are two ways of letting workers in: give one")
	case (*b.tlsCert == "") != (*b.tlsKey == ""):
		return errors.New("--tls-cert and --tls-key go together: give both (the certificate and its key)")
	}
	if *b.broker == "embedded" {
		local, _ := broker.Loopback(*b.listen)
		if !local && *b.token == "" && os.Getenv(tokenEnv) == "" && *b.nkeyUsers == "" {
			return fmt.Errorf("--listen %s reaches beyond this machine: give --token SECRET (workers then join with the same --token) or --nkey-users FILE (workers join with --nkey SEEDFILE), and preferably --tls-cert/--tls-key", *b.listen)
		}
	}
	return nil
}

// maxRefNPS bounds --scale-tc's reference speed.
const maxRefNPS = 1e12

// scale is broker.Options.ScaleTC from --scale-tc.
func (b *brokerFlags) scale() (float64, error) {
	switch *b.scaleTC {
	case "on":
		return broker.ScaleMeasure, nil
	case "off":
		return broker.ScaleOff, nil
	}
	v, err := strconv.ParseFloat(*b.scaleTC, 64)
	if err != nil || !(v >= 1 && v <= maxRefNPS) {
		return 0, fmt.Errorf("--scale-tc %q: use on (this machine's speed is the reference), off, or a reference speed of 1 to %g nodes per second", *b.scaleTC, maxRefNPS)
	}
	return v, nil
}

// checkConcurrency checks --concurrency (arena.CheckConcurrency): 0 is
// allowed with a broker (b given), where the coordinator plays no game
// itself and its workers play them all.
func checkConcurrency(n int, b *brokerFlags) error {
	return flagError(arena.CheckConcurrency(n, b.remote()))
}

// remote says whether --broker was given: remote workers play.
func (b *brokerFlags) remote() bool { return b != nil && *b.broker != "" }

// runFunc is an arena.RunOptions.Runner.
type runFunc = arena.Runner

// options are the broker.Options of the flags and a cleanup. The embedded
// server keeps its store next to the record file (PATH.broker), or in a
// temporary directory. fresh is a store directory this invocation makes
// (to remove if the broker cannot start); "" for one that exists already.
func (b *brokerFlags) options(recordPath string, stderr io.Writer) (o broker.Options, cleanup func(), fresh string, err error) {
	token := *b.token
	if token == "" {
		token = os.Getenv(tokenEnv)
	}
	var users []string
	if *b.nkeyUsers != "" {
		if users, err = broker.ReadNKeyUsers(*b.nkeyUsers); err != nil {
			return broker.Options{}, nil, "", err
		}
		token = "" // NKeys, not $ARENA_TOKEN
	}
	scale, err := b.scale()
	if err != nil {
		return broker.Options{}, nil, "", err
	}
	o = broker.Options{
		ScaleTC: scale,
		Broker:  *b.broker, Credentials: broker.Credentials{Token: token, CA: *b.tlsCA, NKey: *b.nkey},
		AckWait: *b.ackWait, BatchGames: *b.batch, Log: stderr,
		JoinCommand: func(url string) string { return "arena worker --broker " + url },
		Server:      broker.ServerOptions{Listen: *b.listen, Token: token, NKeys: users, TLSCert: *b.tlsCert, TLSKey: *b.tlsKey},
	}
	cleanup = func() {}
	if o.Broker == "embedded" {
		if recordPath != "" {
			o.Server.StoreDir = recordPath + ".broker"
			if _, err := os.Lstat(o.Server.StoreDir); errors.Is(err, fs.ErrNotExist) {
				fresh = o.Server.StoreDir
			}
		} else {
			dir, err := os.MkdirTemp("", "arena-broker-")
			if err != nil {
				return o, nil, "", err
			}
			o.Server.StoreDir = dir
			cleanup = func() { os.RemoveAll(dir) }
		}
	}
	return o, cleanup, fresh, nil
}

// hub opens the broker of the flags for one run (many: tune spsa's
// iterations and its verification match) and returns its Runner (nil
// without --broker) and a close. The broker is open when it returns: a
// wrong address, credentials or a port in use are reported here, before
// any game, and leave no store directory behind; ctx ends a wait for an
// existing server (Ctrl-C).
func (b *brokerFlags) hub(ctx context.Context, many bool, recordPath string, stderr io.Writer) (runFunc, func(), error) {
	if b == nil || *b.broker == "" {
		return nil, func() {}, nil
	}
	o, cleanup, fresh, err := b.options(recordPath, stderr)
	if err != nil {
		return nil, nil, err
	}
	h, err := broker.OpenContext(ctx, o)
	if err != nil {
		cleanup()
		if fresh != "" {
			os.RemoveAll(fresh)
		}
		return nil, nil, err
	}
	run := h.RunOnce()
	if many {
		run = h.Runner()
	}
	return run, func() { h.Close(); cleanup() }, nil
}

// open is hub as an arena.Session's Connect takes it, for one run.
func (b *brokerFlags) open(stderr io.Writer) func(ctx context.Context, path string) (arena.Runner, func(), error) {
	return func(ctx context.Context, path string) (arena.Runner, func(), error) {
		return b.hub(ctx, false, path, stderr)
	}
}

func runWorker(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("worker", "--broker URL [--concurrency K] [--token SECRET | --nkey FILE] [--wait] [flags]  |  --new-nkey FILE", stderr)
	url := fs.String("broker", "", "the coordinator's `URL`, nats://HOST:PORT, as it printed it")
	token := fs.String("token", "", "the coordinator's --token `SECRET` (default $"+tokenEnv+")")
	nkey := fs.String("nkey", "", "join with the NKey seed in `FILE` instead of a token")
	ca := fs.String("tls-ca", "", "PEM CA `FILE` of the broker's certificate (a coordinator with --tls-cert)")
	newKey := fs.String("new-nkey", "", "write a new NKey seed to `FILE`, print its public key and exit")
	wait := fs.Bool("wait", false, "serve run after run (default: exit when the run is over)")
	patience := fs.Duration("patience", 2*time.Minute, "give up after `D` without the broker, 1s to 24h")
	fs.group("Distributed", "broker token nkey tls-ca new-nkey wait patience")
	conc := fs.Int("concurrency", min(runtime.NumCPU(), maxConcurrency), fmt.Sprintf("`K` games at once, 1 to %d", maxConcurrency))
	name := fs.String("name", "", "this worker's `NAME` in the coordinator's log and records (default host:pid)")
	fs.group("Core", "concurrency name")
	verbose := fs.Bool("verbose", false, "say on stderr which games each batch the worker takes holds")
	fs.group("Output", "verbose")
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
		return errors.New("give --broker nats://HOST:PORT, the address the coordinator printed")
	}
	if *conc < 1 || *conc > maxConcurrency {
		return fmt.Errorf("--concurrency %d: use 1 to %d", *conc, maxConcurrency)
	}
	if *name == "" {
		host, _ := os.Hostname()
		*name = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	if *token == "" && *nkey == "" {
		*token = os.Getenv(tokenEnv)
	}
	log := linelog.New(stderr, "arena worker: ") // the library's lines
	o := broker.JoinOptions{Broker: *url, Credentials: broker.Credentials{Token: *token, CA: *ca, NKey: *nkey}, Patience: *patience,
		WorkerOptions: broker.WorkerOptions{Name: *name, Concurrency: *conc, Wait: *wait, Verbose: *verbose, Log: log}}
	if err := o.Check(); err != nil {
		return err
	}
	ctx, stop, release := interrupts(stderr, "worker")
	defer release()
	// Say what the worker waits for: a coordinator not started yet, one
	// whose run is over or a wrong address all look the same from here.
	fmt.Fprintf(log, "worker %s waiting for the broker at %s (up to %s: --patience)\n", *name, *url, *patience)
	// The first Ctrl-C ends the wait and the work: unfinished batches go
	// to other workers.
	ctx, cancel := arena.UntilStop(ctx, stop)
	defer cancel()
	return broker.Join(ctx, o)
}
