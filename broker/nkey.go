package broker

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/nats-io/nkeys"

	"github.com/boardgame-arena/arena/internal/readfile"
	"github.com/boardgame-arena/arena/option"
)

// NKeys are the alternative to a shared token: each worker holds its own
// seed (a private key, in a file only its owner can read) and the
// coordinator lists the public keys it lets in (ServerOptions.NKeys). The server
// authenticates a connection by a signature of its nonce, so the seed never
// crosses the network, and one worker's key can be withdrawn without
// changing the others'.

// MaxNKeyUsers bounds the public keys of a file of NKey users.
const MaxNKeyUsers = 10000

// MaxNKeyUsersFile bounds the size of a file of NKey users: MaxNKeyUsers keys
// of 56 characters, each with a comment naming it.
const MaxNKeyUsersFile = 4 * readfile.MiB

// ReadNKeyUsers reads the public user NKeys (U…, 56 characters) of a file
// for ServerOptions.NKeys: one a line; blank lines and lines starting with
// # are ignored, as is anything after a key and a space (a comment naming
// it). Its errors name the file as the option NKeyUsers.
func ReadNKeyUsers(path string) ([]string, error) {
	data, err := readfile.Read(path, "NKeyUsers", "a list of public keys", MaxNKeyUsersFile)
	if err != nil {
		return nil, err
	}
	var keys []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, _, _ := strings.Cut(line, " ")
		switch {
		case strings.HasPrefix(key, "SU"):
			return nil, option.New("NKeyUsers", fmt.Sprintf("%s, line %d", path, n), "a seed (SU…), the private key: list the public key (U…) that a worker's {NewNKey} printed, and keep the seed on the worker only")
		case !nkeys.IsValidPublicUserKey(key):
			return nil, option.New("NKeyUsers", fmt.Sprintf("%s, line %d", path, n), "%.60q is not a public user NKey (U followed by 55 characters, as a worker's {NewNKey} prints)", key)
		case seen[key]:
			continue
		}
		seen[key] = true
		keys = append(keys, key)
		if len(keys) > MaxNKeyUsers {
			return nil, option.New("NKeyUsers", path, "more than %d keys", MaxNKeyUsers)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, option.New("NKeyUsers", path, "%v", err)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w %s lists no public key: add one a line (a worker's %w prints it)", named("NKeyUsers"), path, named("NewNKey"))
	}
	return keys, nil
}

// readSeed reads the user seed of an NKey file. A seed readable by others
// is refused, as ssh refuses such a private key: whoever reads it can
// publish results into the coordinator's record.
func readSeed(path string) (nkeys.KeyPair, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", named("NKey"), err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, option.New("NKey", path, "the seed is readable by other users (mode %04o); it is a private key: chmod 600 %s", st.Mode().Perm(), path)
	}
	if st.Size() > 4096 {
		return nil, option.New("NKey", path, "%d bytes is no seed file (a seed is one line of 58 characters)", st.Size())
	}
	// The size Stat gave does not bound a device or a pipe.
	data, err := readfile.Read(path, "NKey", "a seed file", 4096)
	if err != nil {
		return nil, err
	}
	kp, err := nkeys.ParseDecoratedUserNKey(data)
	if err != nil {
		return nil, option.New("NKey", path, "no user seed (SU…) in the file: %v ({NewNKey} writes one)", err)
	}
	return kp, nil
}

// NewNKey writes a new user seed to path, readable by its owner only (the
// file must not exist), and returns its public key, for the coordinator's
// list (ServerOptions.NKeys). Its errors name path as the option NewNKey.
func NewNKey(path string) (string, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", err
	}
	seed, err := kp.Seed()
	if err != nil {
		return "", err
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return "", err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return "", option.New("NewNKey", path, "the file exists; a new key goes to a new file (remove the old one first if it is to be replaced)")
		}
		return "", fmt.Errorf("%w: %v", named("NewNKey"), err)
	}
	if _, err := fmt.Fprintf(f, "%s\n", seed); err != nil {
		f.Close()
		os.Remove(path)
		return "", fmt.Errorf("%w: %v", named("NewNKey"), err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return "", fmt.Errorf("%w: %v", named("NewNKey"), err)
	}
	return pub, nil
}
