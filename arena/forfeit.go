package arena

import (
	"fmt"
	"strings"

	"github.com/boardgame-arena/arena/games"
	"github.com/boardgame-arena/arena/results"
)

// checkIllegalClaim checks a recorded forfeit for an illegal move against
// the rules, for CheckGame (results that broker workers send): the game
// was not over, it was the forfeiting player's turn, and the move the
// detail names is indeed not legal in the final position b. Only the
// referee's own wording ("NAME played the illegal move M (legal: …)") is
// checked (TestForgedIllegalForfeit fails if that wording changes); other illegal-move forfeits (output that is no move at all, a
// move that loses by the game's rules) and timeouts, crashes and errors
// cannot be replayed (see the README's trust model).
func checkIllegalClaim(g *results.GameRecord, b games.Base) error {
	if g.Termination != results.Illegal || (g.Forfeit != 0 && g.Forfeit != 1) {
		return nil
	}
	p := g.Forfeit
	_, rest, ok := strings.Cut(g.Detail, illegalMoveWords)
	if !ok {
		return nil
	}
	text, _, ok := strings.Cut(rest, " (legal: ")
	if !ok {
		return nil
	}
	if b.Terminal() {
		return fmt.Errorf("game %d: %s forfeits for an illegal move after the end of the game", g.Index, g.Players[p].Name)
	}
	if s, ok := b.(games.State); ok && s.ToMove() != p {
		return fmt.Errorf("game %d: %s forfeits for an illegal move, but it was not its turn", g.Index, g.Players[p].Name)
	}
	m, err := b.ParseMove(text)
	if err != nil {
		return nil // text the game cannot read is no legal move
	}
	if legalFor(b, p, m) {
		return fmt.Errorf("game %d: %s forfeits for the illegal move %s, but that move is legal in the final position", g.Index, g.Players[p].Name, text)
	}
	return nil
}

// illegalMoveWords follow the agent's name in the detail of an
// illegal-move forfeit (as the referee words it in game.go).
const illegalMoveWords = " played the illegal move "
