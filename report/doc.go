// Package report writes the self-contained HTML report of tournaments and
// matches ('arena report'): one file with inline SVG and a little plain
// JavaScript, no network, that opens from disk in any browser. Its game
// viewer (viewer.go) replays every recorded game and draws each position
// through games.Drawer; it keeps each distinct SVG fragment once for the
// whole report and each position as a list of fragment numbers, so that a
// thousand games stay a few megabytes.
//
// Write is the entry point, and WriteFile the same written atomically
// over a file (a live page, refreshed while a run plays, is never seen
// half written): it rates the games with results.Analyse and
// Options.Rating (so the standings are arena rate's) and fills the page
// (page.go, an html/template) with the tables, the match sections and
// the plots. The page is made from counts, not games (collect.go): a
// Collector counts each game as it is read or played (histograms of
// lengths and of times by value, sums, a match's pairs, the viewer's
// games replayed at once), and WriteSource makes the page from it and
// the ratings, so that its memory does not grow with the games; Write
// feeds a Dataset's games to one. With Collector.ScoreAccuracy it also
// scores each game against perfect play (accuracy.go, search/accuracy)
// for the section "Against perfect play" and the viewer's exact values. The package names no command-line flag: the command line
// that plays a record again is the caller's to write (Options.Command,
// as arena's command line does), and an option it refuses (PNGDir) is an
// *option.Error. Every
// plot is a gonum.org/v1/plot Plot drawn by one helper (renderer.render in
// plot.go) into inline SVG and, with Options.PNGDir, into a PNG file too;
// each kind of data mark has a colour of its own, which the tests use to
// count the marks of a parsed SVG.
package report
