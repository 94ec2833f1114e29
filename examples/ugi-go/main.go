// Command ugi-go is a small UGI engine written against this module's
// public games packages: it plays every sequential game one ply deep (the
// move after which the game's own evaluation is best for it, the first on
// a tie). It is an example of an engine written outside the arena's agent
// interface; run it with
//
//	go build -o ugi-go ./examples/ugi-go
//	arena tournament --game gravity --agents "ugi:cmd=./ugi-go,movetime=100ms" random
//
// The game is othello6 until the GUI sets the UGI_Game option to another
// game spec (e.g. erdos:algol). The engine answers synchronously: it is
// fast enough that stop needs no thread, and under go infinite it holds
// its bestmove back until stop, as UGI requires.
package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/boardgame-arena/arena/games"
	_ "github.com/boardgame-arena/arena/games/all"
)

func main() {
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	v, _ := games.Lookup("othello6")
	s := v.New().(games.State)
	pending := ""
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 16<<20)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "ugi":
			say("id name ugi-go one-ply")
			say("id author boardgame-arena example")
			say("option name UGI_Game type string default othello6")
			say("ugiok")
		case "isready":
			say("readyok")
		case "setoption":
			name, value, _ := strings.Cut(strings.Join(f[1:], " "), " value ")
			if !strings.EqualFold(strings.TrimPrefix(name, "name "), "UGI_Game") {
				say("info string unknown option ignored: %s", name)
				continue
			}
			w, err := games.Lookup(strings.TrimSpace(value))
			if err == nil {
				if _, ok := w.New().(games.State); !ok {
					err = fmt.Errorf("%s is not a sequential game", w)
				}
			}
			if err != nil {
				say("info string UGI_Game: %v", err)
				continue
			}
			v, s = w, w.New().(games.State)
		case "uginewgame":
			s = v.New().(games.State)
		case "position":
			// position startpos|fen TEXT [moves ...]
			end := slices.Index(f, "moves")
			if end < 0 {
				end = len(f)
			}
			var err error
			switch {
			case len(f) > 1 && f[1] == "startpos":
				s = v.New().(games.State)
			case len(f) > 2 && f[1] == "fen":
				s, err = games.ParsePosition(v, strings.Join(f[2:end], " "))
			default:
				err = fmt.Errorf("want 'position startpos|fen TEXT [moves ...]'")
			}
			if err == nil && end < len(f) {
				_, err = games.Replay(v.String(), s, f[end+1:])
			}
			if err != nil {
				say("info string position: %v", err)
				s = v.New().(games.State)
			}
		case "query":
			// query gameover|p1turn|result, from the rules.
			switch strings.Join(f[1:], " ") {
			case "gameover":
				say("response %t", s.Terminal())
			case "p1turn":
				say("response %t", s.ToMove() == 0)
			case "result":
				r := "none"
				if s.Terminal() {
					r = map[int]string{0: "p1win", 1: "p2win"}[s.Outcome().Winner]
					if r == "" {
						r = "draw"
					}
				}
				say("response %s", r)
			}
		case "go":
			m, score, n := onePly(s)
			say("info depth 1 score cp %d nodes %d pv %s", score, n, m)
			if strings.Contains(in.Text(), "infinite") {
				pending = m
			} else {
				say("bestmove %s", m)
			}
		case "stop":
			if pending != "" {
				say("bestmove %s", pending)
				pending = ""
			}
		case "quit":
			return
		}
	}
}

// onePly returns the move whose position evaluates best for the player to
// move, its score and the number of positions looked at. Without an
// evaluation every move scores 0 and the first legal move is played.
func onePly(s games.State) (move string, score, nodes int) {
	legal := s.LegalMoves(nil)
	if len(legal) == 0 {
		return "(none)", 0, 0
	}
	p := s.ToMove()
	best, bestScore := legal[0], 0
	for i, m := range legal {
		sc := 0
		s.Play(m)
		if e, ok := s.(games.Evaluator); ok {
			sc = e.Evaluate(p)
		}
		s.Undo()
		if i == 0 || sc > bestScore {
			best, bestScore = m, sc
		}
	}
	return s.FormatMove(best), bestScore, len(legal)
}
