package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
)

// peakRSS runs the arena binary with args and returns its peak resident
// memory in MB (the kernel's count: what /usr/bin/time %M shows).
func peakRSS(t *testing.T, args ...string) float64 {
	t.Helper()
	cmd := exec.Command(arenaBinary(t), args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("arena %v: %v\n%s", args, err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no resource usage")
	}
	return float64(ru.Maxrss) / 1024 // kB on Linux
}

// memGames plays n random games per pairing of three agents (3n games)
// with clocks, so that each record has its clock times and move
// statistics, into a record file of dir.
func memGames(t *testing.T, dir string, n int) string {
	t.Helper()
	out := filepath.Join(dir, fmt.Sprintf("g%d.jsonl", n))
	code, _, stderr := runArena("tournament", "--game", "othello6", "--agents", "random", "random:name=r2", "random:name=r3",
		"--tc", "60s", "--games", strconv.Itoa(n), "--seed", "1", "--bootstrap", "0", "--no-progress", "--out", out)
	if code != 0 {
		t.Fatalf("tournament: %s", stderr)
	}
	return out
}

// TestReportMemoryFlat: arena report's peak memory does not grow with the
// games (issue #33): ten times the games, 2 000 then 20 000, may cost a
// little more, not the ~7 kB a game that holding the records took (some
// 120 MB here). The bound is generous: the GC's pacing moves the peak by
// a few MB.
func TestReportMemoryFlat(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS in kB is Linux's rusage")
	}
	dir := t.TempDir()
	small, large := memGames(t, dir, 668), memGames(t, dir, 6668)
	page := filepath.Join(dir, "r.html")
	a := peakRSS(t, "report", small, "--out", page, "--bootstrap", "100")
	b := peakRSS(t, "report", large, "--out", page, "--bootstrap", "100")
	t.Logf("peak RSS: %.0f MB on 2 000 games, %.0f MB on 20 000", a, b)
	if b-a > 40 {
		t.Errorf("arena report's peak grew by %.0f MB from 2 000 to 20 000 games (%.0f to %.0f MB); want it flat", b-a, a, b)
	}
}

// TestLiveReportMemoryFlat: a run's live page (--report) holds no game
// (issue #33): what --report adds to a tournament's peak memory does not
// grow with the games. Before, the session kept every game's move
// statistics for the page's plots: 200 MB more over 36 000 more games.
func TestLiveReportMemoryFlat(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS in kB is Linux's rusage")
	}
	dir := t.TempDir()
	peak := func(n int, report bool) float64 {
		args := []string{"tournament", "--game", "othello6", "--agents", "random", "random:name=r2", "random:name=r3",
			"--tc", "60s", "--games", strconv.Itoa(n), "--seed", "1", "--bootstrap", "0", "--no-progress"}
		if report {
			args = append(args, "--report", filepath.Join(dir, "live.html"))
		}
		return peakRSS(t, args...)
	}
	plainGrowth := peak(13334, false) - peak(1334, false)
	reportGrowth := peak(13334, true) - peak(1334, true)
	t.Logf("from 4 000 to 40 000 games the peak grows by %.0f MB, %.0f MB with --report", plainGrowth, reportGrowth)
	if reportGrowth-plainGrowth > 60 {
		t.Errorf("with --report the peak grows by %.0f MB more from 4 000 to 40 000 games; want the page's memory flat", reportGrowth-plainGrowth)
	}
}
