// Package benchmarks holds the cross-game benchmark suites whose figures the
// project tracks in benchmarks/README.md. It has no code of its own; run
//
//	go test ./benchmarks -run '^$' -bench . -benchmem
//
// Each benchmark runs on every registered game (sub-benchmarks named after
// the game spec), so a new game is measured as soon as it registers.
package benchmarks
