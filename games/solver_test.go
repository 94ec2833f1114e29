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
