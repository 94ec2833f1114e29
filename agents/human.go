package agents

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/spec"
)

func init() {
	Register(&Kind{
		Name: "human",
		Help: "reads moves typed on the terminal (stdin), showing the legal ones on stderr; for 'arena play'",
		New: func(s spec.Spec, _ uint64) (Agent, error) {
			return NewHuman(DisplayName(s), os.Stdin, os.Stderr), nil
		},
	})
}

// Human asks a person for moves.
type Human struct {
	name string
	in   *bufio.Scanner
	out  io.Writer
}

// NewHuman returns a human agent reading moves from in and prompting on out.
func NewHuman(name string, in io.Reader, out io.Writer) *Human {
	return &Human{name: name, in: bufio.NewScanner(in), out: out}
}

// Name implements Agent.
func (h *Human) Name() string { return h.name }

// Move implements Agent: it prompts until a legal move is typed.
func (h *Human) Move(ctx context.Context, s games.Base, p int) (games.Move, error) {
	legal := games.LegalMovesFor(s, p, nil)
	if len(legal) == 0 {
		return 0, errors.New("human: no legal move")
	}
	for {
		fmt.Fprintf(h.out, "%s (player %d), your move [%s]: ", h.name, p+1, games.FormatMoves(s, legal))
		if !h.in.Scan() {
			if err := h.in.Err(); err != nil {
				return 0, err
			}
			return 0, errors.New("human: input ended")
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		text := strings.TrimSpace(h.in.Text())
		m, err := s.ParseMove(text)
		if err == nil && containsMove(legal, m) {
			return m, nil
		}
		if v, ok := s.(games.MoveValidator); ok && err == nil && v.ValidMove(p, m) {
			return m, nil // e.g. any TryAngle Catch command line
		}
		fmt.Fprintf(h.out, "%q is not a legal move here\n", text)
	}
}

func containsMove(moves []games.Move, m games.Move) bool {
	for _, l := range moves {
		if l == m {
			return true
		}
	}
	return false
}
