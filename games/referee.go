package games

// Referees: games whose rules accept more than the listed moves. The arena's
// referee, the human agent, replays and the report's viewer ask these;
// without them a move is valid exactly when it is listed, and a move that
// loses is a plain loss.

// MoveValidator is implemented by simultaneous games whose LegalMovesFor
// lists only candidate moves (an action abstraction for agents and search)
// while more moves are valid, e.g. any output line in TryAngle Catch.
// Referees accept a move that ValidMove approves even when it is not
// listed; without it an unlisted move is illegal.
type MoveValidator interface {
	ValidMove(p int, m Move) bool
}

// MoveFaulter is implemented by games in which a move can be valid and
// still lose its player the game as a penalty: TryAngle Catch accepts any
// output line as a move, and a line holding an unknown command makes its
// player lose, as on CodinGame. The arena plays such a move and the game
// ends by its own rules; MoveFault lets the record say that it was a
// forfeit, and why, rather than a plain loss by play; without it the
// record shows such a game as lost by play.
type MoveFaulter interface {
	// MoveFault describes why playing m, in this position, loses the
	// game for player p; it returns "" for a move that does not. It is
	// called for every move before it is played, so it must be cheap and
	// must not allocate for a move without fault.
	MoveFault(p int, m Move) string
}
