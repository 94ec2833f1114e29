package broker

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"maps"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// Roles on the embedded server. The coordinator (ServerOptions.Coordinator)
// may do anything; a worker only what playing needs (WorkerPermissions),
// so that a worker's credentials cannot purge the queue, delete a
// consumer, write the run's state or queue games.
const (
	// CoordinatorUser is the user of the coordinator's own connection,
	// with every right.
	CoordinatorUser = "arena-coordinator"
	// localWorkersUser is the user of the coordinator's local workers:
	// in-process too, but with a worker's rights, so that every run checks
	// that WorkerPermissions suffice to play.
	localWorkersUser = "arena-local-workers"
)

// WorkerPermissions are what a worker may do: read the run's state (the
// bucket's stream info and direct gets), find and pull from the run's work
// consumer, acknowledge, heartbeat or terminate the batches delivered to it,
// publish results and events, and receive replies on its inbox, whose
// prefix is inbox (WorkerInbox): not on the coordinator's, nor, with NKeys,
// on another worker's. The same subjects make the permission block of an
// operator's own NATS server (see docs/distributed.md).
func WorkerPermissions(inbox string) *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			"$JS.API.STREAM.INFO.KV_" + Bucket,
			"$JS.API.DIRECT.GET.KV_" + Bucket + ".>",
			"$JS.API.CONSUMER.INFO." + WorkStream + ".*",
			"$JS.API.CONSUMER.MSG.NEXT." + WorkStream + ".*",
			"$JS.ACK." + WorkStream + ".>",
			resultPrefix + "*",
			eventPrefix + "*",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{inbox + ".>"}},
	}
}

// WorkerInbox is the prefix of the replies to a worker whose public NKey is
// key, or with "" to one that joins with a token or no credentials (such
// workers share it: they are one user).
func WorkerInbox(key string) string {
	if key == "" {
		return "_INBOX.arena-worker"
	}
	return "_INBOX." + key
}

// localInbox is the prefix of the replies to a coordinator's local workers.
const localInbox = "_INBOX.arena-local"

// guard authenticates the embedded server's clients, gives each its role,
// and counts what it refuses: logins (by the name the client gave) and
// messages a worker's permissions do not allow (by the worker's name).
type guard struct {
	token       string
	nkeys       map[string]bool
	coordinator string // CoordinatorUser's password; "" gives every client every right

	mu         sync.Mutex
	names      map[uint64]string // client id → name, for violations
	incidents  map[string]*incidents
	notify     func(string) // a line for the coordinator's log, or nil
	notedLines int
	// total counts every refusal, whatever the name (for the progress
	// line: totals is cheap enough to read after every fetch).
	total incidents
}

// incidents are what one client name had refused.
type incidents struct {
	logins, messages int
}

// maxNames bounds guard.names (a client that connects again and again must
// not grow it); past it, the names are forgotten and violations counted
// under "?".
const maxNames = 10000

// maxNotes bounds the lines a guard writes to the log; past it, refusals
// are counted (in the summary), with a line at each power of 10.
const maxNotes = 20

func newGuard(o ServerOptions) *guard {
	g := &guard{token: o.Token, coordinator: o.Coordinator, names: map[uint64]string{}, incidents: map[string]*incidents{}}
	if len(o.NKeys) > 0 {
		g.nkeys = map[string]bool{}
		for _, k := range o.NKeys {
			g.nkeys[k] = true
		}
	}
	return g
}

// Check implements server.Authentication.
func (g *guard) Check(c server.ClientAuthentication) bool {
	o := c.GetOpts()
	name := clientName(o.Name)
	var user *server.User
	switch {
	case o.Username == CoordinatorUser || o.Username == localWorkersUser:
		// Only in-process: the password never travels, and no remote
		// client can pass for the coordinator.
		if g.coordinator != "" && inProcess(c.RemoteAddress()) && equal(o.Password, g.coordinator) {
			user = &server.User{Username: o.Username}
			if o.Username == localWorkersUser {
				user.Permissions = WorkerPermissions(localInbox)
			}
		}
	case g.nkeys != nil:
		if g.nkeys[o.Nkey] && signed(o.Nkey, o.Sig, c.GetNonce()) {
			user = &server.User{Username: o.Nkey, Permissions: WorkerPermissions(WorkerInbox(o.Nkey))}
		}
	case g.token != "":
		if equal(o.Token, g.token) {
			user = &server.User{Username: "worker"}
		}
	default:
		user = &server.User{Username: "worker"} // on loopback, anyone
	}
	if user == nil {
		g.refuse(name, c.RemoteAddress())
		return false
	}
	switch {
	case g.coordinator == "":
		user.Permissions = nil // a stand-in for a server without permissions
	case user.Permissions == nil && user.Username != CoordinatorUser:
		user.Permissions = WorkerPermissions(WorkerInbox(""))
	}
	c.RegisterUser(user)
	id := c.GetID() // it locks the client: not under g.mu
	g.mu.Lock()
	if len(g.names) >= maxNames {
		clear(g.names)
	}
	g.names[id] = name
	g.mu.Unlock()
	return true
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// signed reports whether sig is key's signature of nonce, as the server
// checks an NKey.
func signed(key, sig string, nonce []byte) bool {
	if key == "" || len(nonce) == 0 {
		return false
	}
	s, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		if s, err = base64.StdEncoding.DecodeString(sig); err != nil {
			return false
		}
	}
	pub, err := nkeys.FromPublicKey(key)
	return err == nil && pub.Verify(nonce, s) == nil
}

// inProcess reports whether a client's address is an in-process pipe
// (nats.InProcessServer) rather than the network.
func inProcess(a net.Addr) bool { return a != nil && a.Network() == "pipe" }

// clientName is the worker's name of a connection name (Join names its
// connection "arena worker NAME"), as the summary shows it.
func clientName(conn string) string {
	return workerName(strings.TrimPrefix(conn, "arena worker "))
}

func (g *guard) refuse(name string, from net.Addr) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.tally(name).logins++
	g.total.logins++
	addr := "?"
	if from != nil {
		addr = from.String()
	}
	g.note(fmt.Sprintf("refused a login from %s (connection name %q): wrong or missing credentials", addr, name))
}

// maxIncidentNames bounds the names refusals are counted under (each
// failed login may give another); past it, they are counted under "?".
const maxIncidentNames = 1000

func (g *guard) tally(name string) *incidents {
	if g.incidents[name] == nil && len(g.incidents) >= maxIncidentNames {
		name = "?"
	}
	in := g.incidents[name]
	if in == nil {
		in = &incidents{}
		g.incidents[name] = in
	}
	return in
}

// note writes a line to the log, up to maxNotes of them. Lock held.
func (g *guard) note(line string) {
	if g.notify == nil {
		return
	}
	g.notedLines++
	switch {
	case g.notedLines < maxNotes:
		g.notify(line)
	case g.notedLines == maxNotes:
		g.notify(line + " (further refusals are counted, not logged)")
	case powerOf10(g.notedLines):
		// A sign of life for a flood, at 100, 1000, …
		g.notify(fmt.Sprintf("%d logins and messages refused so far (the summary counts them by worker)", g.notedLines))
	}
}

// setNotify sets where refusals are logged (nil: nowhere).
func (g *guard) setNotify(f func(string)) {
	g.mu.Lock()
	g.notify, g.notedLines = f, 0
	g.mu.Unlock()
}

// snapshot is a copy of the counts so far.
func (g *guard) snapshot() map[string]incidents {
	g.mu.Lock()
	defer g.mu.Unlock()
	m := make(map[string]incidents, len(g.incidents))
	for k, v := range g.incidents {
		m[k] = *v
	}
	return m
}

// totals is the counts so far, over every name.
func (g *guard) totals() incidents {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.total
}

// since is the counts of now minus those of an earlier snapshot.
func since(now, before map[string]incidents) map[string]incidents {
	d := maps.Clone(now)
	for k, v := range d {
		b := before[k]
		v.logins -= b.logins
		v.messages -= b.messages
		if v.logins == 0 && v.messages == 0 {
			delete(d, k)
		} else {
			d[k] = v
		}
	}
	return d
}

// violation matches the server's log line of a message refused by
// permissions ("… - cid:7 - … - Publish Violation - Subject %q").
var violation = regexp.MustCompile(`cid:(\d+) .*(Publish|Subscription) Violation`)

// Errorf implements server.Logger: the server logs a permission violation
// as an error naming the client's id.
func (g *guard) Errorf(format string, v ...any) {
	m := violation.FindStringSubmatch(format)
	if m == nil {
		return
	}
	id, _ := strconv.ParseUint(m[1], 10, 64)
	g.mu.Lock()
	defer g.mu.Unlock()
	name, ok := g.names[id]
	if !ok {
		name = "?"
	}
	g.tally(name).messages++
	g.total.messages++
	what := strings.TrimSpace(format[strings.Index(format, m[2]+" Violation"):])
	g.note(fmt.Sprintf("refused a message of worker %q: %s", name, printable(fmt.Sprintf(what, v...))))
}

func (g *guard) Noticef(string, ...any) {}
func (g *guard) Warnf(string, ...any)   {}
func (g *guard) Fatalf(string, ...any)  {}
func (g *guard) Debugf(string, ...any)  {}
func (g *guard) Tracef(string, ...any)  {}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func powerOf10(n int) bool {
	for n >= 10 && n%10 == 0 {
		n /= 10
	}
	return n == 1
}
