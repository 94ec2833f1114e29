package agents_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/boardgame-arena/arena/agents"
)

func TestHumanRepromptsUntilLegal(t *testing.T) {
	s := newOthello(t)
	var out bytes.Buffer
	h := agents.NewHuman("me", strings.NewReader("zz\nf6\n e4 \n"), &out)
	m, err := h.Move(context.Background(), s, 0)
	if err != nil || s.FormatMove(m) != "e4" {
		t.Fatalf("Move = %v, %v", s.FormatMove(m), err)
	}
	if got := strings.Count(out.String(), "is not a legal move here"); got != 2 {
		t.Errorf("%d rejections, want 2:\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "[b3 c2 d5 e4]") {
		t.Errorf("prompt does not list the legal moves:\n%s", out.String())
	}
	if _, err := h.Move(context.Background(), s, 0); err == nil {
		t.Error("no error at the end of the input")
	}
}
