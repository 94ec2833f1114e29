// Package botproctest helps tests prove that no bot process outlives its
// run: a test bot writes its PID (and its children's) to files, and the
// test asks Running of each after the run.
package botproctest
