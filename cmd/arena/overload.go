package main

import (
	"fmt"
	"strconv"

	"github.com/boardgame-arena/arena/results"
	"github.com/boardgame-arena/arena/spec"
)

// overloadNote returns a warning when a run keeps more threads busy than the
// machine has CPUs: concurrency games at once, each with an agent thinking
// on up to threads= threads (the largest of the agents'; external agents
// count as one). Moves then take longer than on an idle machine, so time
// budgets buy less search and moves overrun their limits: the standings
// measure the machine's load. "" when the machine has enough CPUs.
func overloadNote(agents []results.AgentInfo, concurrency, cpus int) string {
	threads := 1
	for _, a := range agents {
		sp, err := spec.Parse(a.Spec)
		if err != nil {
			continue
		}
		if n, err := strconv.Atoi(sp.Vals["threads"]); err == nil && n > threads {
			threads = n
		}
	}
	busy := concurrency * threads
	if busy <= cpus {
		return ""
	}
	return fmt.Sprintf("the machine was overloaded: %d games at once × up to %d search threads = %d busy threads on %d CPUs; "+
		"time budgets bought less search than on an idle machine and moves were more likely to overrun their limits "+
		"(use --concurrency %d or fewer threads= for results that do not depend on the load)",
		concurrency, threads, busy, cpus, max(cpus/threads, 1))
}
