package broker

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"

	"github.com/boardgame-arena/arena/internal/readfile"
	"github.com/boardgame-arena/arena/option"
)

// ServerOptions configure the embedded NATS server of a coordinator.
type ServerOptions struct {
	Listen   string // HOST:PORT; "" is DefaultListen; port 0 picks a free one
	StoreDir string // JetStream's file store
	Token    string // a token or NKeys are required when Listen is beyond loopback
	// NKeys are the public user NKeys allowed to connect (ReadNKeyUsers),
	// instead of a token.
	NKeys   []string
	TLSCert string // PEM certificate and key: clients must then use TLS
	TLSKey  string
	// Coordinator is the password of CoordinatorUser, the one client with
	// every right, accepted on in-process connections only; every other
	// client (a Token holder, a listed NKey, or on loopback without
	// credentials anyone) is a worker, limited to WorkerPermissions. ""
	// gives every client every right, as a NATS server without
	// permissions does. Open makes one for each broker it opens.
	Coordinator string
}

// StartServer starts an embedded NATS server with JetStream. A listen
// address beyond loopback needs a token or NKeys: the broker accepts
// results that become part of the record, so nobody unknown may publish.
func StartServer(o ServerOptions) (*server.Server, error) {
	s, _, err := startServer(o)
	return s, err
}

// startServer is StartServer, with the guard that counts the logins and
// messages the server refused.
func startServer(o ServerOptions) (*server.Server, *guard, error) {
	if o.Listen == "" {
		o.Listen = DefaultListen
	}
	local, err := Loopback(o.Listen)
	if err != nil {
		return nil, nil, err
	}
	if o.Token != "" && len(o.NKeys) > 0 {
		return nil, nil, fmt.Errorf("%w and %w are two ways of letting workers in: give one", named("Token"), named("NKeys"))
	}
	for _, k := range o.NKeys {
		if !nkeys.IsValidPublicUserKey(k) {
			return nil, nil, fmt.Errorf("broker: %.60q is not a public user NKey", k)
		}
	}
	if !local && o.Token == "" && len(o.NKeys) == 0 {
		return nil, nil, option.New("Listen", o.Listen, "reaches beyond this machine: give {Token} (workers then join with the same token) or {NKeys} (workers join with {NKey}, the seed of a listed key), and preferably {TLSCert} and {TLSKey}")
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return nil, nil, fmt.Errorf("%w and %w go together", named("TLSCert"), named("TLSKey"))
	}
	if o.StoreDir == "" {
		return nil, nil, errors.New("broker: no store directory")
	}
	host, portText, _ := net.SplitHostPort(o.Listen)
	port, _ := strconv.Atoi(portText)
	if port == 0 {
		port = server.RANDOM_PORT
	} else if l, err := net.Listen("tcp", o.Listen); err != nil {
		// The server would only say it never became ready, after a wait.
		return nil, nil, option.New("Listen", o.Listen, "cannot listen there (%v): is another coordinator or NATS server on that port? choose another with {Listen} (port 0 picks a free one)", err)
	} else {
		l.Close()
	}
	opts := &server.Options{
		ServerName: "arena", Host: host, Port: port,
		JetStream: true, StoreDir: o.StoreDir,
		NoSigs: true, NoLog: true, MaxPayload: maxPayload,
	}
	// One authenticator for every way in: it gives each client its role
	// and counts refused logins (the server's own token and NKey checks
	// say nothing of a refusal). A nonce is sent for NKeys only, so that
	// an NKey client of a token server is told the server takes none.
	g := newGuard(o)
	opts.CustomClientAuthentication, opts.AlwaysEnableNonce = g, len(o.NKeys) > 0
	if o.TLSCert != "" {
		tc, err := serverTLS(o.TLSCert, o.TLSKey)
		if err != nil {
			return nil, nil, err
		}
		opts.TLSConfig, opts.TLS, opts.TLSTimeout = tc, true, 2
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("broker: %v", err)
	}
	s.SetLogger(g, false, false) // it hears of permission violations
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, nil, fmt.Errorf("broker: the embedded server did not start on %s (is the port in use? choose another with %w)", o.Listen, named("Listen"))
	}
	return s, g, nil
}

// serverTLS is the server's TLS configuration from the TLSCert and TLSKey
// files, as server.GenTLSConfig makes it (TLS 1.2 at least), but
// with the files read through readfile: GenTLSConfig reads them whole,
// however large.
func serverTLS(certFile, keyFile string) (*tls.Config, error) {
	certPEM, err := readfile.Read(certFile, "TLSCert", "a PEM file", MaxPEM)
	if err != nil {
		return nil, err
	}
	keyPEM, err := readfile.Read(keyFile, "TLSKey", "a PEM file", MaxPEM)
	if err != nil {
		return nil, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("%w/%w: error parsing X509 certificate/key pair: %v", named("TLSCert"), named("TLSKey"), err)
	}
	if cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
		return nil, option.New("TLSCert", certFile, "error parsing certificate: %v", err)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}, nil
}

// JoinURL is the address to tell workers on other machines: ClientURL,
// but when the server listens on every interface (Listen 0.0.0.0:PORT or
// [::]:PORT), whose address no other machine can dial, this machine's
// host name (HOST if it has none).
func JoinURL(s *server.Server) string {
	a, ok := s.Addr().(*net.TCPAddr)
	if !ok {
		return s.ClientURL()
	}
	host, _ := os.Hostname()
	return joinURL(a.IP, a.Port, host)
}

// joinURL is JoinURL's formatting, given the address bound and this
// machine's host name.
func joinURL(ip net.IP, port int, hostname string) string {
	host := ip.String()
	if ip.IsUnspecified() {
		host = hostname
		if host == "" {
			host = "HOST"
		}
	}
	return "nats://" + net.JoinHostPort(host, strconv.Itoa(port))
}

// ClientURL is the address workers join, e.g. nats://127.0.0.1:4222.
func ClientURL(s *server.Server) string {
	a, ok := s.Addr().(*net.TCPAddr)
	if !ok {
		return s.ClientURL()
	}
	scheme := "nats"
	return fmt.Sprintf("%s://%s", scheme, net.JoinHostPort(a.IP.String(), strconv.Itoa(a.Port)))
}
