package games

// MoveFaulter is implemented by games in which a move can be valid and
// still lose its player the game as a penalty: TryAngle Catch accepts any
// output line as a move, and a line holding an unknown command makes its
// player lose, as on CodinGame. The arena plays such a move and the game
// ends by its own rules; MoveFault lets the record say that it was a
// forfeit, and why, rather than a plain loss by play.
type MoveFaulter interface {
	// MoveFault describes why playing m, in this position, loses the
	// game for player p; it returns "" for a move that does not. It is
	// called for every move before it is played, so it must be cheap and
	// must not allocate for a move without fault.
	MoveFault(p int, m Move) string
}
