// Package report writes the self-contained HTML report of tournaments and
// matches ('arena report'): one file with inline SVG and a little plain
// JavaScript, no network, that opens from disk in any browser. Its game
// viewer (viewer.go) replays every recorded game and draws each position
// through games.Drawer; it keeps each distinct SVG fragment once for the
// whole report and each position as a list of fragment numbers, so that a
// thousand games stay a few megabytes.
package report
