//go:build !race

package alphabeta

const raceEnabled = false
