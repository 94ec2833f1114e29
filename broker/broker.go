// Package broker spreads the games of a tournament or match over many
// machines through a NATS JetStream work queue.
//
// The coordinator (Runner, used by arena tournament|match --broker) owns
// the record file as a local run does. It publishes the run's configuration
// in the key-value bucket ARENA (key "run"), queues the games not yet
// recorded as batches (a colour-swapped pair each) on the work-queue stream
// ARENA_WORK, and records the results that workers publish on the stream
// ARENA_RESULTS, after checking each against the schedule and the game's
// rules (arena.Tournament.CheckGame). Its own local workers are ordinary
// workers connected in-process, so every game goes the same way.
//
// A worker (Work, used by arena worker) rebuilds the same tournament from
// the configuration, pulls batches, plays them (every game is reproducible
// from the schedule, so a redelivered batch plays the same games), keeps
// its batches alive with InProgress while they play, publishes each result
// with the message id run.game (JetStream drops a duplicate within its
// window; the coordinator drops any that get through) and acknowledges a
// batch once its results are stored. A batch whose worker dies is
// redelivered after the ack wait.
package broker

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

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
	// maxPayload bounds one message (a game with an engine's info lines
	// per move can be large).
	maxPayload = 8 << 20
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
}

// Batch is one message of the work queue: games of the run to play.
type Batch struct {
	Run   string `json:"run"`
	Games []int  `json:"games"`
}

// Result is one finished game a worker publishes.
type Result struct {
	Run    string        `json:"run"`
	Worker string        `json:"worker"`
	Game   *results.Game `json:"game"`
}

// Event is a worker's note to the coordinator (an agent it cannot build).
type Event struct {
	Worker string `json:"worker"`
	Text   string `json:"text"`
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
	Token string // shared secret (--token)
	CA    string // PEM file of the CA that signed the server's certificate (--tls-ca)
}

func (c Credentials) options() []nats.Option {
	var o []nats.Option
	if c.Token != "" {
		o = append(o, nats.Token(c.Token))
	}
	if c.CA != "" {
		o = append(o, nats.RootCAs(c.CA))
	}
	return o
}

// isAuth reports whether err is the server refusing credentials.
func isAuth(err error) bool {
	return errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization violation")
}

// explain turns a connection error into advice.
func explain(url string, err error) error {
	switch {
	case isAuth(err):
		return fmt.Errorf("broker %s: authorization violation: check --token (it must be the coordinator's)", url)
	case errors.Is(err, nats.ErrNoServers):
		return fmt.Errorf("broker %s: no server answers: is the coordinator running, and is the address the one it printed? (%v)", url, err)
	}
	return fmt.Errorf("broker %s: %w", url, err)
}

// Loopback reports whether a --listen address stays on this machine.
func Loopback(addr string) (bool, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("--listen %q: want HOST:PORT, e.g. %s: %v", addr, DefaultListen, err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return false, fmt.Errorf("--listen %q: the port must be 0 to 65535", addr)
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
