//go:build race

package alphabeta

// raceEnabled shrinks the single-threaded bulk tests under the race
// detector, which slows them tenfold; the threaded tests run in full.
const raceEnabled = true
