package games

import (
	"context"
	"sync/atomic"
	"testing"
)

// TestNodeCounter: a context carries the counter it was given, through
// derived contexts, and none otherwise.
func TestNodeCounter(t *testing.T) {
	if NodeCounter(context.Background()) != nil {
		t.Fatal("a plain context carries a counter")
	}
	var n atomic.Int64
	ctx, cancel := context.WithCancel(WithNodeCounter(context.Background(), &n))
	defer cancel()
	if NodeCounter(ctx) != &n {
		t.Fatal("the counter is lost")
	}
}

// TestTableMB: a context carries the table size it was given, 0 otherwise.
func TestTableMB(t *testing.T) {
	if TableMB(context.Background()) != 0 {
		t.Fatal("a plain context asks for a table size")
	}
	if got := TableMB(WithTableMB(context.Background(), 512)); got != 512 {
		t.Fatalf("TableMB %d, want 512", got)
	}
}
