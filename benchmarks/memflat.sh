#!/usr/bin/env bash
# memflat.sh: peak memory of runs of 10^5 and 10^6 games (issue #33).
#
# It builds arena once, then measures the peak resident memory
# (/usr/bin/time -f %M) and the wall time of:
#   tournament  a round robin of two random agents (--games N)
#   resume      the tournament's record cut to its first N − LEFT games,
#               resumed (--resume): LEFT games played
#   match       two random agents, no SPRT (--games N)
#   broker      the same tournament through an embedded broker, the
#               coordinator with its own local workers (--broker embedded)
#   report      arena report on the tournament's record
# at N = SMALL and N = LARGE games, and prints one table. Memory that does
# not grow with the run shows as the same peak at both sizes.
#
# Usage:
#   benchmarks/memflat.sh [-s SMALL] [-l LARGE] [-B BROKER_LARGE] [-r LEFT] [-g GAME] [-o DIR] [-b ARENA] [-n]
#
#   -s  the smaller number of games (default 100000)
#   -l  the larger number of games (default 1000000)
#   -B  the larger number of games of the broker run (default: LARGE)
#   -r  the games left to play in the resume rows (default 5000)
#   -g  the game (default othello6)
#   -o  output directory for the records (default memflat; emptied first)
#   -b  the arena binary (default: built from this checkout into DIR)
#   -n  skip arena report
#
# Needs: Go (unless -b), GNU time at /usr/bin/time. Everything stays on
# 127.0.0.1. About ten minutes on 2 cores with the defaults.
set -euo pipefail

small=100000 large=1000000 blarge= left=5000 game=othello6 out=memflat arena= noreport=
while getopts s:l:B:r:g:o:b:nh opt; do
	case $opt in
	s) small=$OPTARG ;;
	l) large=$OPTARG ;;
	B) blarge=$OPTARG ;;
	r) left=$OPTARG ;;
	g) game=$OPTARG ;;
	o) out=$OPTARG ;;
	b) arena=$OPTARG ;;
	n) noreport=1 ;;
	*) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
blarge=${blarge:-$large}
for n in "$small" "$large" "$blarge" "$left"; do
	case $n in '' | *[!0-9]*) echo "memflat: $n is not a whole number" >&2; exit 2 ;; esac
done
[ "$left" -ge 1 ] && [ "$left" -lt "$small" ] || { echo "memflat: -r $left: the games left must be from 1 to fewer than SMALL" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "memflat: needs GNU time at /usr/bin/time" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -z "$arena" ]; then
	(cd "$root" && go build -o "$out/arena" ./cmd/arena)
	arena=$out/arena
fi

rows=()
# measure NAME GAMES COMMAND…: runs the command, adds a row of its peak
# RSS (MB) and wall seconds; its output goes to DIR/NAME-GAMES.log.
measure() {
	local name=$1 games=$2
	shift 2
	local log=$out/$name-$games.log
	if ! /usr/bin/time -o "$out/time" -f '%M %e' "$@" >"$log" 2>&1; then
		echo "memflat: $name with $games games failed (see $log)" >&2
		exit 1
	fi
	read -r kb secs <"$out/time"
	rows+=("$(printf '%-11s %9d %8.0f %8.1f' "$name" "$games" "$((kb / 1024))" "$secs")")
	echo "${rows[-1]}" >&2
}

agents=(--game "$game" --agents random random:name=r2 --no-progress)
for n in "$small" "$large"; do
	measure tournament "$n" "$arena" tournament "${agents[@]}" --games "$n" --out "$out/tournament-$n.jsonl"
done
for n in "$small" "$large"; do
	# The header and the first n − left games: a run killed with left
	# games to play.
	head -n "$((n - left + 1))" "$out/tournament-$n.jsonl" >"$out/resume-$n.jsonl"
	measure resume "$n" "$arena" tournament --resume "$out/resume-$n.jsonl" --no-progress
done
for n in "$small" "$large"; do
	measure match "$n" "$arena" match --game "$game" --agents random random:name=r2 --games "$n" --out "$out/match-$n.jsonl"
done
for n in "$small" "$blarge"; do
	rm -rf "$out/broker-$n.jsonl" "$out/broker-$n.jsonl.broker"
	measure broker "$n" "$arena" tournament "${agents[@]}" --games "$n" --broker embedded --listen 127.0.0.1:0 --out "$out/broker-$n.jsonl"
done
if [ -z "$noreport" ]; then
	for n in "$small" "$large"; do
		measure report "$n" "$arena" report "$out/tournament-$n.jsonl" --out "$out/report-$n.html"
	done
fi

printf '%-11s %9s %8s %8s\n' run games "peak MB" seconds
printf '%s\n' "${rows[@]}"
