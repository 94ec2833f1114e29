package erdos

import (
	"os"
	"os/exec"
	"testing"
)

const lazyEnv = "ERDOS_TEST_LAZY_CHAINS"

// TestChainsBuiltOnFirstUse: the chain table is not built when the package
// is initialised (it took 3 ms in every process linking the registry), but
// by the first New. The check runs in a fresh process, since other tests
// here create games.
func TestChainsBuiltOnFirstUse(t *testing.T) {
	if os.Getenv(lazyEnv) == "1" {
		if chains != ([len(chains)]uint8{}) {
			t.Fatal("the chain table was built before any game was created")
		}
		New(Standard)
		if chains == ([len(chains)]uint8{}) {
			t.Fatal("New did not build the chain table")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChainsBuiltOnFirstUse$", "-test.v")
	cmd.Env = append(os.Environ(), lazyEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("in a fresh process: %v\n%s", err, out)
	}
}
