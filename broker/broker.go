// Package broker spreads the games of a tournament or match over many
// machines through a NATS JetStream work queue.
//
// The coordinator is an arena.Runner (the RunOptions.Runner of a run):
// Runner(Options) opens the broker for one run, and a Hub (Open) keeps it
// open across runs (tune spsa's iterations); a record-backed run connects
// one through arena.Session.Connect (arena tournament|match --broker). It
// publishes the run's configuration in the key-value bucket ARENA (key
// "run"), queues the games not yet recorded as batches (a colour-swapped
// pair each) on the work-queue stream ARENA_WORK, and hands the run's sink
// (which the session records) the results that workers publish on the
// stream ARENA_RESULTS, after checking each against the schedule and the
// game's rules (arena.Tournament.CheckGame). Its own local workers are
// ordinary workers connected in-process, so every game goes the same way.
//
// A worker (Join with JoinOptions, which connects and then Works; arena
// worker) rebuilds the same tournament from the configuration, pulls
// batches, plays them (every game is reproducible from the schedule, so a
// redelivered batch plays the same games), keeps its batches alive with
// InProgress while they play, publishes each result with a message id per
// attempt, run.game.nonce.count (the coordinator drops a game recorded
// already, so JetStream's de-duplication window is short: resultDuplicates)
// and acknowledges a batch
// once its results are stored. A batch whose worker dies is redelivered
// after the ack wait; the coordinator's watchdog queues again a game that
// is neither recorded, queued nor leased, and the game of a rejected result
// at once. A game that a worker says cannot be recorded (too long, an
// arena.UnrecordableError) the coordinator plays itself to check, and ends
// the run if it cannot be recorded here either.
//
// On the embedded server the coordinator alone has every right; workers
// (whatever their credentials, and the coordinator's local workers) have
// WorkerPermissions, and the logins and messages the server refuses are
// logged, counted in the run's summary of workers and reported on the way
// (arena.RunOptions.Status).
//
// Options, JoinOptions and the credentials (Credentials, ServerOptions,
// ReadNKeyUsers, NewNKey) refuse a value with an *option.Error naming the
// Go option (Token, NKey, CA, Listen, Patience, …), never a command-line
// flag; Options.JoinCommand lets a command line say how its workers join.
package broker

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/boardgame-arena/arena/internal/readfile"
	"github.com/boardgame-arena/arena/option"
	"github.com/boardgame-arena/arena/results"
)

// Names of the JetStream objects; subjects carry the run id.
const (
	Bucket        = "ARENA"
	RunKey        = "run"
	WorkStream    = "ARENA_WORK"
	ResultStream  = "ARENA_RESULTS"
	workPrefix    = "arena.work."
	resultPrefix  = "arena.results."
	eventPrefix   = "arena.events."
	DefaultListen = "127.0.0.1:4222"
	// DefaultAckWait is how long a batch may go without a heartbeat before
	// it is handed to another worker (workers heartbeat every third of it).
	DefaultAckWait = 30 * time.Second
	// MaxBatchGames bounds the games of one batch.
	MaxBatchGames = 1000
	// maxPayload bounds one message of the embedded server.
	maxPayload = 8 << 20
	// resultEnvelope is what a Result adds to its game's record, at most
	// (the run, the worker's name escaped, the message id).
	resultEnvelope = 4 << 10
	// resultMaxBytes bounds a message of the results stream: a record fits
	// results.MaxGameBytes (arena.Tournament.Run cuts engines' info texts
	// to fit), so longer messages are junk.
	resultMaxBytes = results.MaxGameBytes + 64<<10
	// resultStreamBytes and resultStreamMsgs bound what the results stream
	// holds. Results wait there only until the coordinator reads them, so
	// honest workers never come near; a worker that publishes junk fills
	// it and no more: a full stream refuses new messages (junk and honest
	// results alike, which their workers publish again until there is
	// room), and the coordinator empties it.
	resultStreamBytes = 16 * resultMaxBytes
	resultStreamMsgs  = 100_000
)

// Run states in RunInfo.State.
const (
	Running = "running"
	Stopped = "stopped" // no new games: a decided SPRT or a Ctrl-C
	Done    = "done"
)

// RunInfo is what the coordinator publishes under Bucket/RunKey.
type RunInfo struct {
	ID        string         `json:"id"`
	State     string         `json:"state"`
	AckWaitMS int64          `json:"ack_wait_ms"`
	Config    results.Config `json:"config"`
	// RefNPS, when the run's time control is scaled (Options.ScaleTC), is
	// the reference speed (nodes per second of MeasureSpeed) it is meant
	// for: a worker measures its own and multiplies the run's limits by
	// RefNPS / its speed. 0: no scaling.
	RefNPS float64 `json:"ref_nps,omitempty"`
}

// Batch is one message of the work queue: games of the run to play.
type Batch struct {
	Run   string `json:"run"`
	Games []int  `json:"games"`
}

// Result is one finished game a worker publishes.
type Result struct {
	Run    string              `json:"run"`
	Worker string              `json:"worker"`
	Game   *results.GameRecord `json:"game"`
}

// Event is a worker's note to the coordinator (an agent it cannot build).
type Event struct {
	Worker string `json:"worker"`
	Text   string `json:"text"`
	// TooLong is the index of the game the worker left the run on because
	// its record cannot be recorded (arena.UnrecordableError), if that was
	// why: the coordinator plays it to check, and ends the run.
	TooLong *int `json:"too_long,omitempty"`
}

// RunID names a run by its configuration: a restarted coordinator finds
// its streams again, and workers their batches.
func RunID(c results.Config) string {
	b, _ := json.Marshal(c)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

func workSubject(run string) string   { return workPrefix + run }
func resultSubject(run string) string { return resultPrefix + run }
func eventSubject(run string) string  { return eventPrefix + run }
func workConsumer(run string) string  { return "work-" + run }
func resultConsumer(run string) string {
	return "record-" + run
}

// Credentials are what a connection to the broker needs beyond its address.
type Credentials struct {
	Token string // shared secret
	CA    string // PEM file of the CA that signed the server's certificate
	// NKey is a file holding this client's NKey user seed, whose public
	// key the server lists (ServerOptions.NKeys); see ReadNKeyUsers.
	NKey string
	// user and pass: the coordinator's in-process connections to its
	// embedded server (CoordinatorUser, ServerOptions.Coordinator).
	user, pass string
}

func (c Credentials) options() ([]nats.Option, error) {
	var o []nats.Option
	if c.Token != "" && c.NKey != "" {
		return nil, fmt.Errorf("%w and %w are two ways of joining the broker: give the one the coordinator uses", named("Token"), named("NKey"))
	}
	if c.Token != "" {
		o = append(o, nats.Token(c.Token))
	}
	if c.CA != "" {
		pool, err := readCA(c.CA)
		if err != nil {
			return nil, err
		}
		o = append(o, nats.ClientTLSConfig(nil, func() (*x509.CertPool, error) { return pool, nil }))
	}
	// A worker's replies come on its own inbox (WorkerInbox), the one
	// its permissions let it read.
	inbox := WorkerInbox("")
	if c.user != "" {
		o = append(o, nats.UserInfo(c.user, c.pass))
		inbox = localInbox
	}
	if c.NKey != "" {
		kp, err := readSeed(c.NKey)
		if err != nil {
			return nil, err
		}
		pub, err := kp.PublicKey()
		if err != nil {
			return nil, err
		}
		o = append(o, nats.Nkey(pub, kp.Sign))
		inbox = WorkerInbox(pub)
	}
	if c.user != CoordinatorUser {
		o = append(o, nats.CustomInboxPrefix(inbox))
	}
	return o, nil
}

// MaxPEM bounds a CA, TLSCert or TLSKey file (a certificate chain is a few
// kilobytes).
const MaxPEM = readfile.MiB

// readCA reads the certificates of a CA file. (nats.RootCAs would read it
// whole, however large, at every connection.)
func readCA(path string) (*x509.CertPool, error) {
	pem, err := readfile.Read(path, "CA", "a PEM file", MaxPEM)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, option.New("CA", path, "no PEM certificate in the file")
	}
	return pool, nil
}

// isAuth reports whether err is the server refusing credentials.
func isAuth(err error) bool {
	return errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization violation")
}

// final reports whether err is a refusal that waiting cannot change: the
// server refusing the credentials, or this client its certificate.
func final(err error) bool {
	return isAuth(err) || isUntrusted(err) || errors.Is(err, nats.ErrNkeysNotSupported)
}

// isUntrusted reports whether err is this client refusing the server's
// certificate.
func isUntrusted(err error) bool {
	var ua x509.UnknownAuthorityError
	var cv *tls.CertificateVerificationError
	var hn x509.HostnameError
	return errors.As(err, &ua) || errors.As(err, &cv) || errors.As(err, &hn)
}

// explain turns a connection error into advice.
func explain(url string, err error) error {
	switch {
	case isUntrusted(err):
		return fmt.Errorf("broker %s: the server's TLS certificate is not trusted (%v): %w", url, err,
			option.New("CA", nil, "give the CA that signed the coordinator's {TLSCert} (for a self-signed certificate, the certificate itself)"))
	case errors.Is(err, nats.ErrNkeysNotSupported):
		return fmt.Errorf("broker %s: the server takes no NKeys (%v): its coordinator lets workers in with a token or without credentials: %w", url, err,
			option.New("NKey", nil, "leave it out (give {Token} with the coordinator's token, if it has one)"))
	case isAuth(err):
		return fmt.Errorf("broker %s: authorization violation: check %w (it must be the coordinator's) or %w (its public key must be in the coordinator's %w)", url, named("Token"), named("NKey"), named("NKeys"))
	case errors.Is(err, nats.ErrNoServers):
		return fmt.Errorf("broker %s: no server answers: is the coordinator running, and is the address the one it printed? (%v)", url, err)
	}
	return fmt.Errorf("broker %s: %w", url, err)
}

// Loopback reports whether a listen address (ServerOptions.Listen) stays on
// this machine.
func Loopback(addr string) (bool, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false, option.New("Listen", strconv.Quote(addr), "want HOST:PORT, e.g. %s: %v", DefaultListen, err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return false, option.New("Listen", strconv.Quote(addr), "the port must be 0 to 65535")
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false, nil // a name: assume it reaches beyond this machine
	}
	return ip.IsLoopback(), nil
}

// named is option name alone, to name it inside a message ("check Token
// (…)"): a command line shows it as its flag. The text before it must not
// hold the name (option.Render replaces its first occurrence).
func named(name string) error { return option.New(name, nil, "") }
