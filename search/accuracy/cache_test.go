package accuracy

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func sampleCache() []byte {
	b := cacheHeader("othello6")
	b = appendRecord(b, "......./x", entry{Known: true, Value: -12, Result: -1})
	b = appendRecord(b, "k2", entry{Nodes: 5000, Time: time.Second})
	return appendRecord(b, "......./x", entry{Known: true, Value: 4, Result: 1}) // the last record wins
}

// TestCacheRoundTrip: records read back as written, the last of a key
// winning; a torn last record is dropped and cut off before appending; a
// damaged one is an error.
func TestCacheRoundTrip(t *testing.T) {
	data := sampleCache()
	c, err := ReadCache(bytes.NewReader(data))
	if err != nil || c.Game() != "othello6" || c.Len() != 2 || c.Loaded != 3 || c.Torn {
		t.Fatalf("%+v %v", c, err)
	}
	if e, _ := c.get("......./x"); e != (entry{Known: true, Value: 4, Result: 1}) {
		t.Errorf("got %+v", e)
	}
	if e, _ := c.get("k2"); !e.covers(5000, time.Second) || e.covers(5001, time.Second) || e.covers(0, time.Second) || e.covers(10, 2*time.Second) {
		t.Errorf("covers wrong for %+v", e)
	}
	// Torn: cut inside the last record.
	path := filepath.Join(t.TempDir(), "c")
	if err := os.WriteFile(path, data[:len(data)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = OpenCache(path, "othello6")
	if err != nil || !c.Torn || c.Len() != 2 {
		t.Fatalf("torn: %+v %v", c, err)
	}
	c.put("k3", entry{Known: true})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c, err = OpenCache(path, "othello6")
	if err != nil || c.Torn || c.Len() != 3 {
		t.Fatalf("after appending to a torn file: %+v %v", c, err)
	}
	if e, _ := c.get("......./x"); e.Value != -12 {
		t.Errorf("the torn record's value was kept: %+v", e)
	}
	c.Close()
	// Damaged in the middle: refused.
	bad := append([]byte{}, data...)
	bad[len(cacheHeader("othello6"))+3] ^= 1
	if _, err := ReadCache(bytes.NewReader(bad)); err == nil {
		t.Error("a damaged record was read")
	}
	if _, err := OpenCache(path, "erdos"); err == nil {
		t.Error("an othello6 cache opened for erdos")
	}
}

// FuzzReadCache: any input reads without a panic, and what reads writes
// back to an input that reads the same.
func FuzzReadCache(f *testing.F) {
	f.Add(sampleCache())
	f.Add(cacheHeader(""))
	f.Add([]byte(cacheMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadCache(bytes.NewReader(data))
		if err != nil {
			return
		}
		out := cacheHeader(c.Game())
		for _, k := range sortedNames(c.m) {
			out = appendRecord(out, k, c.m[k])
		}
		c2, err := ReadCache(bytes.NewReader(out))
		if err != nil || c2.Len() != c.Len() || c2.Game() != c.Game() {
			t.Fatalf("rewritten: %v, %d vs %d entries", err, c2.Len(), c.Len())
		}
		for k, e := range c.m {
			if c2.m[k] != e {
				t.Fatalf("%q: %+v, rewritten %+v", k, e, c2.m[k])
			}
		}
	})
}
