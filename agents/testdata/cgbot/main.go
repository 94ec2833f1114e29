// Command cgbot is a TryAngle Catch bot for the cg agent's tests. It reads
// the CodinGame input of spec §8 strictly (any inconsistency makes it exit
// with an error) and answers with simple commands. Its first argument picks
// a behaviour, the second a turn:
//
//	play          play the whole game
//	crash N       exit with status 3 on turn N
//	stall N       never answer turn N
//	garbage N     print an unknown command on turn N
//	slow N        sleep 300 ms before answering turn N
//	exit          exit before reading anything
//
// On stderr it logs, per turn, "turn T sum S" (FNV-1a of the input it read
// for the turn, initial block included) and "turn T out LINE".
package main

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	mode, at := "play", 0
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	if len(os.Args) > 2 {
		at, _ = strconv.Atoi(os.Args[2])
	}
	if mode == "exit" {
		fmt.Fprintln(os.Stderr, "bye")
		os.Exit(2)
	}
	in := bufio.NewReader(os.Stdin)
	h := fnv.New64a()
	read := func() []int {
		line, err := in.ReadString('\n')
		if err != nil {
			os.Exit(0) // input closed: the game is over
		}
		h.Write([]byte(line))
		var out []int
		for _, f := range strings.Fields(line) {
			v, err := strconv.Atoi(f)
			if err != nil {
				fail("not a number in %q", line)
			}
			out = append(out, v)
		}
		return out
	}
	want := func(v []int, n int, what string) []int {
		if len(v) != n {
			fail("%s: %d numbers, want %d", what, len(v), n)
		}
		return v
	}
	n := want(read(), 1, "house count")[0]
	for i := 0; i < n; i++ {
		if v := want(read(), 3, "house"); v[0] != i {
			fail("house line %v out of order", v)
		}
	}
	for turn := 1; ; turn++ {
		want(read(), 2, "scores")
		mine := make([]int, n)
		for i := 0; i < n; i++ {
			v := want(read(), 3, "units")
			if v[0] != i || v[1] < 0 || v[2] < 0 {
				fail("units line %v", v)
			}
			mine[i] = v[1]
		}
		adj := make([]map[int]bool, n)
		for i := range adj {
			adj[i] = map[int]bool{}
		}
		np := want(read(), 1, "path count")[0]
		for i := 0; i < np; i++ {
			v := want(read(), 2, "path")
			if v[0] >= v[1] || v[1] >= n {
				fail("path %v", v)
			}
			adj[v[0]][v[1]], adj[v[1]][v[0]] = true, true
		}
		type tri struct {
			c     [3]int
			owner int
		}
		var tris []tri
		nt := want(read(), 1, "triangle count")[0]
		for i := 0; i < nt; i++ {
			v := want(read(), 6, "triangle")
			if !(v[0] < v[1] && v[1] < v[2]) || !adj[v[0]][v[1]] || !adj[v[1]][v[2]] || !adj[v[0]][v[2]] || v[3] < -1 || v[3] > 1 {
				fail("triangle %v", v)
			}
			tris = append(tris, tri{[3]int{v[0], v[1], v[2]}, v[3]})
		}
		nl := want(read(), 1, "linkable count")[0]
		for i := 0; i < nl; i++ {
			if v := want(read(), 2, "linkable"); v[0] >= v[1] || adj[v[0]][v[1]] {
				fail("linkable %v", v)
			}
		}
		fmt.Fprintf(os.Stderr, "turn %d sum %x\n", turn, h.Sum64())
		h.Reset()

		var cmds []string
		target := -1
		for _, t := range tris {
			if t.owner == 0 {
				cmds = append(cmds, fmt.Sprintf("SPAWN %d %d %d", t.c[0], t.c[1], t.c[2]))
			} else if target < 0 {
				target = t.c[turn%3]
			}
		}
		for i, u := range mine {
			if u > 0 && target >= 0 && i != target {
				cmds = append(cmds, fmt.Sprintf("MOVE %d %d 1", i, target))
			}
		}
		cmds = append(cmds, fmt.Sprintf("MSG turn %d", turn))
		out := strings.Join(cmds, ";")
		if turn == at {
			switch mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "crashing on purpose")
				os.Exit(3)
			case "stall":
				time.Sleep(time.Hour)
			case "garbage":
				out = "HELLO WORLD"
			case "slow":
				time.Sleep(300 * time.Millisecond)
			}
		}
		fmt.Fprintf(os.Stderr, "turn %d out %s\n", turn, out)
		fmt.Println(out)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "cgbot: "+format+"\n", args...)
	os.Exit(1)
}
