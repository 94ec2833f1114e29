package arena

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/games/tryangle"
)

// TestResumeRefusesChangedMapFile: the header keeps the digest of a
// tryangle:map=FILE map, and resuming after the file changed is refused
// with an error that names it; an unchanged file resumes.
func TestResumeRefusesChangedMapFile(t *testing.T) {
	dir := t.TempDir()
	mapFile, path := filepath.Join(dir, "map.txt"), filepath.Join(dir, "run.jsonl")
	write := func(seed int64) {
		nodes, edges, units := tryangle.GeneratedMap(seed).Params()
		if err := os.WriteFile(mapFile, []byte("nodes="+nodes+"\nedges="+edges+"\nunits="+units+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(5)
	tour := mustNew(t, Options{Game: "tryangle:map=" + mapFile, Agents: []string{"random", "random"}, GamesPerPair: 2, Seed: 3})
	if d := tour.Config.GameDigest; len(d) != 64 {
		t.Fatalf("header digest %q, want the map's SHA-256", d)
	}
	createRecord(t, path, tour).Close()

	if _, err := resume(path, nil); err != nil {
		t.Fatalf("unchanged map: %v", err)
	}

	write(6)
	_, err := resume(path, nil)
	if err == nil || !strings.Contains(err.Error(), "map file (sha256; restore the file") {
		t.Fatalf("resume after the map file changed: %v", err)
	}
}
