#!/usr/bin/env python3
"""A small UGI engine for the four sequential games, standard library only.

It plays othello6, erdos (and erdos:algol), pyrga (and pyrga:bga) and
gravity, one ply deep: the move that leaves the best score for the mover
(discs, columns, towers or the line just made; a win above all), ties
broken at random. With the option Player=random it plays uniformly random
legal moves instead. Its random choices are drawn from the Seed option and
the position, so the same seed gives the same move in the same position
whatever came before: a run is reproducible even when games are spread over
several engine processes in varying order.

    arena tournament --game pyrga --agents \
        "ugi:cmd=python3 examples/ugi-python/engine.py,movetime=100ms" greedy

The game is announced through the UGI_Game option (the arena's ugi agent
sends the game's spec before a game of another variant than the last, e.g.
"setoption name UGI_Game value erdos:algol"); othello6 until then. A game or variant it does not know is
refused: the reason goes to stderr and an info string, and the engine exits
at the next isready or go, so the game fails with that reason instead of
being played with the wrong rules.

The protocol, one command per line on stdin, answers on stdout (flushed):
  ugi                 -> id name, id author, option lines, ugiok
  isready             -> readyok
  setoption name UGI_Game value GAME | name Seed value N | name Player value greedy|random
  uginewgame          (the start position)
  position startpos | fen TEXT [moves M1 M2 ...]   (TEXT: the game's position text)
  go [movetime N | depth N | nodes N | p1time N p2time N ... | infinite]
                      -> info depth 1 score cp ... nodes ... pv M, bestmove M
                         (at once; under go infinite only after stop;
                          "bestmove (none)" when the game is over)
  stop                -> the bestmove held back by go infinite
  query gameover | p1turn | result -> response true|false, p1win|p2win|draw|none
  quit
Debug extensions (not UGI; the arena's tests compare them with its rules):
  moves               -> moves M1 M2 ...   (the legal moves, in no set order)
  fen                 -> fen TEXT          (the current position as text)
"""

import random
import sys
import time

sys.dont_write_bytecode = True  # keep the example's directory clean

import erdos  # noqa: E402 (the game modules sit next to this file)
import gravity  # noqa: E402
import othello6  # noqa: E402
import pyrga  # noqa: E402

GAMES = {m.__name__: m for m in (othello6, erdos, pyrga, gravity)}
VARIANTS = ["othello6", "erdos", "erdos:algol", "pyrga", "pyrga:bga", "gravity"]
TRUE = ("1", "t", "T", "true", "TRUE", "True")  # what Go's strconv.ParseBool reads
FALSE = ("0", "f", "F", "false", "FALSE", "False")


def parse_variant(text):
    """(game module, options) of a game spec such as "erdos:algol" or
    "pyrga:bga=false"; ValueError saying what is wrong."""
    name, _, rest = text.strip().partition(":")
    game = GAMES.get(name)
    if game is None:
        raise ValueError("this engine plays %s, not %r" % (", ".join(GAMES), name))
    opts = {}
    for kv in filter(None, rest.split(",")):
        key, eq, val = kv.partition("=")
        if key not in game.OPTIONS:
            known = ", ".join(game.OPTIONS) or "none"
            raise ValueError("%s has no option %r (known: %s)" % (name, key, known))
        if eq and val not in TRUE + FALSE:
            raise ValueError("%s option %s=%r is not a boolean" % (name, key, val))
        opts[key] = not eq or val in TRUE
    return game, opts


class Engine:
    def __init__(self, out):
        self.out = out
        self.game, self.opts = othello6, {}
        self.refused = None  # why the announced game cannot be played
        self.seed, self.player = 1, "greedy"
        self.pos = self.game.new(self.opts)
        self.pending = None  # the bestmove held back under go infinite

    def say(self, line):
        self.out.write(line + "\n")
        self.out.flush()

    def set_option(self, words):
        text = " ".join(words)
        if not text.startswith("name "):
            self.say("info string setoption needs 'name NAME value VALUE'")
            return
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip(), value.strip()
        if name.lower() == "ugi_game":
            try:
                self.game, self.opts = parse_variant(value)
            except ValueError as e:
                self.refused = "UGI_Game %s: %s" % (value, e)
                self.say("info string " + self.refused)
                print("engine.py: refusing the game: " + self.refused, file=sys.stderr, flush=True)
                return
            self.refused = None
            self.pos = self.game.new(self.opts)
        elif name.lower() == "seed":
            try:
                self.seed = int(value)
            except ValueError:
                self.say("info string Seed %r is not an integer; kept %d" % (value, self.seed))
                return
        elif name.lower() == "player":
            if value not in ("greedy", "random"):
                self.say("info string Player %r: want greedy or random; kept %s" % (value, self.player))
                return
            self.player = value
        else:
            self.say("info string unknown option %r ignored" % name)

    def position(self, words):
        """position startpos|fen TEXT [moves ...]; on an error the position
        stays as it was."""
        if "moves" in words:
            cut = words.index("moves")
            head, moves = words[:cut], words[cut + 1:]
        else:
            head, moves = words, []
        try:
            if head == ["startpos"]:
                pos = self.game.new(self.opts)
            elif len(head) > 1 and head[0] == "fen":
                pos = self.game.parse_fen(" ".join(head[1:]), self.opts)
            else:
                raise ValueError("want 'position startpos [moves ...]' or 'position fen TEXT [moves ...]'")
            for i, m in enumerate(moves):
                try:
                    pos = pos.after(self.game.parse_move(m))
                except ValueError as e:
                    raise ValueError("move %d (%s): %s" % (i + 1, m, e))
        except ValueError as e:
            self.say("info string position: %s" % e)
            return
        self.pos = pos

    def choose(self):
        """(move, score for the mover, positions looked at)."""
        legal = self.pos.legal()
        rand = random.Random("%d %s" % (self.seed, self.pos.fen()))
        if self.player == "random":
            return rand.choice(legal), 0, 0
        p = self.pos.turn()
        scored = [(self.pos.after(m).value(p), m) for m in legal]
        top = max(v for v, _ in scored)
        return rand.choice([m for v, m in scored if v == top]), top, len(legal)

    def go(self, words):
        infinite = "infinite" in words  # the limits do not matter: one ply is fast
        if self.pos.over():
            lines = ["info string the game is over", "bestmove (none)"]
        else:
            t0 = time.monotonic()
            move, score, nodes = self.choose()
            ms = int(1000 * (time.monotonic() - t0))
            lines = ["info depth 1 score cp %d nodes %d time %d pv %s" % (score, nodes, ms, move), "bestmove " + move]
        for line in lines[:-1]:
            self.say(line)
        if infinite:
            self.pending = lines[-1]
        else:
            self.say(lines[-1])

    def query(self, words):
        what = words[0] if words else ""
        if what == "gameover":
            self.say("response " + ("true" if self.pos.over() else "false"))
        elif what == "p1turn":
            self.say("response " + ("true" if not self.pos.over() and self.pos.turn() == 0 else "false"))
        elif what == "result":
            if not self.pos.over():
                self.say("response none")
            else:
                self.say("response " + {0: "p1win", 1: "p2win", None: "draw"}[self.pos.winner()])
        else:
            self.say("info string unknown query %r (known: gameover, p1turn, result)" % what)

    def serve(self, inp):
        """Answers commands until quit or the end of input."""
        while True:
            raw = inp.readline()
            if not raw:
                return 0
            f = raw.split()
            if not f:
                continue
            cmd, args = f[0], f[1:]
            if self.pending is not None and cmd not in ("isready", "query", "moves", "fen"):
                self.say(self.pending)  # stop, or a command that ends go infinite
                self.pending = None
            if cmd == "quit":
                return 0
            if cmd == "ugi":
                self.say("id name python-one-ply")
                self.say("id author boardgame-arena example")
                self.say("option name UGI_Game type combo default othello6 var " + " var ".join(VARIANTS))
                self.say("option name Seed type spin default 1 min 0 max 9223372036854775807")
                self.say("option name Player type combo default greedy var greedy var random")
                self.say("ugiok")
            elif cmd == "setoption":
                self.set_option(args)
            elif self.refused and cmd in ("isready", "go"):
                # Exiting here, after the ugi agent has written its isready,
                # makes the game fail with the reason (from stderr).
                print("engine.py: exiting: " + self.refused, file=sys.stderr, flush=True)
                return 2
            elif self.refused:
                continue  # nothing of a refused game is played
            elif cmd == "isready":
                self.say("readyok")
            elif cmd == "uginewgame":
                self.pos = self.game.new(self.opts)
            elif cmd == "position":
                self.position(args)
            elif cmd == "go":
                self.go(args)
            elif cmd == "stop":
                pass  # a held bestmove was written above
            elif cmd == "query":
                self.query(args)
            elif cmd == "moves":
                self.say(" ".join(["moves"] + self.pos.legal()))
            elif cmd == "fen":
                self.say("fen " + self.pos.fen())
            else:
                self.say("info string unknown command %r ignored" % cmd)


if __name__ == "__main__":
    sys.exit(Engine(sys.stdout).serve(sys.stdin))
