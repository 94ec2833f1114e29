// Package all registers every game of the project with the games registry.
// Import it for its side effect:
//
//	import _ "github.com/boardgame-arena/arena/games/all"
package all

import (
	_ "github.com/boardgame-arena/arena/games/erdos"
	_ "github.com/boardgame-arena/arena/games/gravity"
	_ "github.com/boardgame-arena/arena/games/othello6"
	_ "github.com/boardgame-arena/arena/games/pyrga"
	_ "github.com/boardgame-arena/arena/games/tryangle"
)
