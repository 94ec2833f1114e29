package broker_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardgame-arena/arena/broker"
)

// A worker's NKey: NewNKey writes the seed (readable by its owner only) and
// returns the public key, which goes into the coordinator's --nkey-users
// file; ReadNKeyUsers reads that file back as ServerOptions.NKeys.
func ExampleNewNKey() {
	dir, _ := os.MkdirTemp("", "nkey-example")
	defer os.RemoveAll(dir)
	pub, err := broker.NewNKey(filepath.Join(dir, "worker1.nk"))
	if err != nil {
		panic(err)
	}
	users := filepath.Join(dir, "users")
	os.WriteFile(users, []byte("# the workers allowed in\n"+pub+" worker1\n"), 0o644)
	keys, err := broker.ReadNKeyUsers(users)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(keys), strings.HasPrefix(keys[0], "U"), len(keys[0]))
	// Output: 1 true 56
}
