//go:build !race

package agents_test

const raceEnabled = false
