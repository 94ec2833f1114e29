module github.com/boardgame-arena/arena

go 1.26
