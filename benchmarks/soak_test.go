package benchmarks

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestFleetSoakScript runs fleet-soak.sh briefly (a small tournament, two
// workers, two chaos events) to keep the script working: it must compare
// the distributed record with the local one and say PASS, and refuse a
// bad option. The soak itself is a command, run by hand (see
// benchmarks/README.md); its verdict does not depend on the machine's
// speed, only its duration does.
func TestFleetSoakScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena and runs a coordinator and two workers")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		if os.Getenv("ARENA_REQUIRE_JQ") != "" {
			t.Fatal("jq not found and ARENA_REQUIRE_JQ is set: the soak script needs it (apt-get install jq)")
		}
		t.Skip("jq not found: the soak script needs it")
	}
	dir := t.TempDir()
	arenaBin := filepath.Join(dir, "arena-cli")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if out, err := exec.Command(goTool, "build", "-o", arenaBin, "../cmd/arena").CombinedOutput(); err != nil {
		t.Fatalf("building the arena: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	out, err := exec.Command("bash", "fleet-soak.sh", "-g", "6", "-w", "2", "-e", "2", "-t", "300", "-p", port,
		"-o", filepath.Join(dir, "soak"), "-b", arenaBin, "greedy", "random").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "fleet-soak: PASS: 6 of 6 games recorded, 0 twice; 2 workers") {
		t.Fatalf("fleet-soak: %v\n%s", err, out)
	}
	out, err = exec.Command("bash", "fleet-soak.sh", "-w", "0").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "-w 0: use 1 to 32 workers") {
		t.Errorf("fleet-soak -w 0: %v\n%s", err, out)
	}
}
