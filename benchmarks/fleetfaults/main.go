// Command fleetfaults injects into a running broker the faults a
// misbehaving or hostile worker could cause, with a worker's credentials,
// for benchmarks/fleet-soak.sh: a forged result (under the id the genuine
// one would have), a junk message near the size limit, a purge of the
// work queue, the run's state set to done, and a batch taken and
// acknowledged without being played. Each fault it tries is one line of
// output: done, or refused with the server's reason. It plays no game and
// exits when it has tried them.
//
// Usage:
//
//	fleetfaults --broker nats://127.0.0.1:4333 [--token T] [--seed S] [--faults forge,junk,purge,state,ack]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/boardgame-arena/arena/broker"
	"github.com/boardgame-arena/arena/results"
)

func main() {
	url := flag.String("broker", "", "the broker's `URL`, nats://HOST:PORT")
	token := flag.String("token", os.Getenv("ARENA_TOKEN"), "the workers' `TOKEN` (default $ARENA_TOKEN)")
	seed := flag.Uint64("seed", 1, "seed of the faults' choices (which game, which bytes)")
	which := flag.String("faults", "forge,junk,purge,state,ack", "the `FAULTS` to try, in this order")
	flag.Parse()
	if *url == "" {
		fmt.Fprintln(os.Stderr, "fleetfaults: --broker is missing")
		os.Exit(2)
	}
	rng := rand.New(rand.NewPCG(*seed, 0x5eed))
	for _, name := range strings.Split(*which, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains([]string{"forge", "junk", "purge", "state", "ack"}, name) {
			fmt.Fprintf(os.Stderr, "fleetfaults: unknown fault %q (forge, junk, purge, state, ack)\n", name)
			os.Exit(2)
		}
		// A connection of its own for each fault: a server may close one
		// that broke its permissions.
		if err := try(*url, *token, rng, name); err != nil {
			fmt.Printf("%s: refused or failed: %v\n", name, err)
		} else {
			fmt.Printf("%s: done\n", name)
		}
	}
}

// try connects as a worker and causes the fault name.
func try(url, token string, rng *rand.Rand, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	nc, err := broker.ConnectContext(ctx, url, "fleetfaults", broker.Credentials{Token: token}, 3*time.Second, 3*time.Second)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	f := &faults{js: js, nc: nc, rng: rng}
	if err := f.load(ctx); err != nil {
		return fmt.Errorf("no run to disturb: %v", err)
	}
	return map[string]func(context.Context) error{
		"forge": f.forge, "junk": f.junk, "purge": f.purge, "state": f.state, "ack": f.ack,
	}[name](ctx)
}

type faults struct {
	js    jetstream.JetStream
	nc    *nats.Conn
	rng   *rand.Rand
	run   broker.RunInfo
	kv    jetstream.KeyValue
	rev   uint64
	entry []byte
}

// load reads the run the coordinator published.
func (f *faults) load(ctx context.Context) error {
	kv, err := f.js.KeyValue(ctx, broker.Bucket)
	if err != nil {
		return err
	}
	e, err := kv.Get(ctx, broker.RunKey)
	if err != nil {
		return err
	}
	f.kv, f.rev, f.entry = kv, e.Revision(), e.Value()
	return json.Unmarshal(e.Value(), &f.run)
}

// resultSubject is where a worker publishes the run's results (the
// broker's subject, which a worker may publish on).
func (f *faults) resultSubject() string { return "arena.results." + f.run.ID }

// forge publishes a made-up result for a random game under the message id
// the genuine result would have had ("RUN.GAME"): a coordinator that
// rejects it must still record the genuine one.
func (f *faults) forge(ctx context.Context) error {
	subject := f.resultSubject()
	game := f.rng.IntN(max(f.run.Config.TotalGames, 1))
	g := &results.GameRecord{Record: results.KindGame, Index: game, Game: f.run.Config.Game, Result: "1-0", Winner: 0,
		Termination: results.Normal, Forfeit: -1, Moves: []string{"pass"}, Plies: 1}
	b, err := json.Marshal(broker.Result{Run: f.run.ID, Worker: "forger", Game: g})
	if err != nil {
		return err
	}
	_, err = f.js.Publish(ctx, subject, b, jetstream.WithMsgID(fmt.Sprintf("%s.%d", f.run.ID, game)))
	return err
}

// junk publishes a message of random bytes just under the size a record
// may have (4 MiB), which the results stream takes.
func (f *faults) junk(ctx context.Context) error {
	subject := f.resultSubject()
	b := make([]byte, min(f.nc.MaxPayload(), 4<<20)-4096) // what a results stream may take
	for i := range b {
		b[i] = byte(f.rng.Uint32())
	}
	_, err := f.js.Publish(ctx, subject, b)
	return err
}

// purge empties the work queue.
func (f *faults) purge(ctx context.Context) error {
	s, err := f.js.Stream(ctx, broker.WorkStream)
	if err != nil {
		return err
	}
	return s.Purge(ctx)
}

// state sets the run's state to done, as if the coordinator had ended it.
func (f *faults) state(ctx context.Context) error {
	run := f.run
	run.State = broker.Done
	b, err := json.Marshal(run)
	if err != nil {
		return err
	}
	_, err = f.kv.Update(ctx, broker.RunKey, b, f.rev)
	return err
}

// ack takes a batch of the work queue, as a worker does (from the
// broker's consumer work-RUN), and acknowledges it unplayed.
func (f *faults) ack(ctx context.Context) error {
	cons, err := f.js.Consumer(ctx, broker.WorkStream, "work-"+f.run.ID)
	if err != nil {
		return err
	}
	m, err := cons.Next(jetstream.FetchMaxWait(2 * time.Second))
	if err != nil {
		return err
	}
	return m.DoubleAck(ctx)
}
