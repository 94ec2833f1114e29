#!/usr/bin/env bash
# fleet-soak.sh: a coordinator and its workers on loopback, under faults,
# against a local run of the same seed.
#
# It plays one tournament twice: locally, and through an embedded broker
# with WORKERS workers, while a seeded chaos loop kills workers (kill -9)
# and starts them again, pauses them (SIGSTOP, then SIGCONT), and kills
# the coordinator and resumes it (--resume on the same store and address).
# With -f it also injects faults through the broker with worker
# credentials (forged results, junk near the size limit, a purge of the
# work queue, the run state set to done, a batch acknowledged unplayed):
# see benchmarks/fleetfaults. When the chaos is over the
# run must end by itself within the timeout; then every game must be in the
# distributed record exactly once, with the local record's moves and
# result. It prints one line of figures and exits 1 on any difference.
#
# Usage:
#   benchmarks/fleet-soak.sh [-g GAMES] [-w WORKERS] [-e EVENTS] [-s SEED] [-p PORT] [-t TIMEOUT] [-o DIR] [-b ARENA] [-f] [AGENT…]
#
#   -g  games per pairing, even (default 40)
#   -w  workers, each playing one game at a time (default 3)
#   -e  chaos events before the run is left to finish (default 12)
#   -s  seed of the tournament and of the chaos (default 1)
#   -p  the broker's loopback port (default 4333)
#   -t  seconds the run may take after the last event (default 600)
#   -o  output directory (default fleet-soak; emptied first)
#   -b  the arena binary (default: built from this checkout into DIR)
#   -f  inject broker faults too (the client is built from
#       ./benchmarks/fleetfaults)
#   AGENT  the agents (default: greedy alphabeta:depth=5 mcts:iters=4000)
#
# Needs: Go, jq. Everything stays on 127.0.0.1; every process it starts is
# stopped when it ends, however it ends.
set -euo pipefail

games=40 workers=3 events=12 seed=1 port=4333 timeout=600 out=fleet-soak arena= faults=
while getopts g:w:e:s:p:t:o:b:fh opt; do
	case $opt in
	g) games=$OPTARG ;;
	w) workers=$OPTARG ;;
	e) events=$OPTARG ;;
	s) seed=$OPTARG ;;
	p) port=$OPTARG ;;
	t) timeout=$OPTARG ;;
	o) out=$OPTARG ;;
	b) arena=$OPTARG ;;
	f) faults=1 ;;
	*) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- greedy alphabeta:depth=5 mcts:iters=4000
for n in "$games" "$workers" "$events" "$seed" "$port" "$timeout"; do
	case $n in '' | *[!0-9]*) echo "fleet-soak: $n is not a whole number" >&2; exit 2 ;; esac
done
[ "$workers" -ge 1 ] && [ "$workers" -le 32 ] || { echo "fleet-soak: -w $workers: use 1 to 32 workers" >&2; exit 2; }
command -v jq >/dev/null || { echo "fleet-soak: needs jq" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -z "$arena" ]; then
	arena=$out/arena
	(cd "$root" && go build -o "$arena" ./cmd/arena)
fi
if [ -n "$faults" ]; then
	(cd "$root" && go build -o "$out/faults" ./benchmarks/fleetfaults)
fi
token=soak-$seed-$$
url=nats://127.0.0.1:$port
RANDOM=$seed

pids=() fpids=()
stop_all() {
	for p in "${pids[@]}" "${fpids[@]}" ${coord:-}; do kill -CONT "$p" 2>/dev/null || true; kill -9 "$p" 2>/dev/null || true; done
}
trap stop_all EXIT

# The reference: the same tournament on this machine.
"$arena" tournament --agents "$@" --games "$games" --seed "$seed" --no-progress --rating-interval -1 \
	--out "$out/local.jsonl" >/dev/null 2>"$out/local.log"

coord=
start_coordinator() { # new AGENT…, or resume
	local mode=$1
	shift
	if [ "$mode" = new ]; then
		ARENA_TOKEN=$token "$arena" tournament --agents "$@" --games "$games" --seed "$seed" --no-progress \
			--rating-interval -1 --concurrency 0 --broker embedded --listen "127.0.0.1:$port" \
			--out "$out/dist.jsonl" >>"$out/coordinator.out" 2>>"$out/coordinator.log" &
	else
		ARENA_TOKEN=$token "$arena" tournament --resume "$out/dist.jsonl" --no-progress --rating-interval -1 \
			--concurrency 0 --broker embedded --listen "127.0.0.1:$port" \
			>>"$out/coordinator.out" 2>>"$out/coordinator.log" &
	fi
	coord=$!
}
start_worker() { # $1: the worker's number
	ARENA_TOKEN=$token "$arena" worker --broker "$url" --name "w$1" --wait --patience 2m \
		>>"$out/worker$1.out" 2>>"$out/worker$1.log" &
	pids[$1]=$!
}

t0=$(date +%s)
start_coordinator new "$@"
for i in $(seq 1 "$workers"); do start_worker "$i"; done

kills=0 pauses=0 coordkills=0 injected=0
for e in $(seq 1 "$events"); do
	sleep "$((RANDOM % 3)).$((RANDOM % 10))"
	kill -0 "$coord" 2>/dev/null || break # the run ended before the chaos did
	i=$((RANDOM % workers + 1))
	pick=$((RANDOM % 10))
	if [ -n "$faults" ] && { [ "$e" -eq 1 ] || [ "$pick" -eq 6 ]; }; then
		pick=9 # with -f: the first event, and a fifth of the others
	fi
	case $pick in
	0 | 1 | 2 | 3)
		kill -9 "${pids[$i]}" 2>/dev/null || true
		wait "${pids[$i]}" 2>/dev/null || true
		start_worker "$i"
		kills=$((kills + 1))
		;;
	4 | 5 | 6)
		kill -STOP "${pids[$i]}" 2>/dev/null || true
		sleep "$((1 + RANDOM % 3))"
		kill -CONT "${pids[$i]}" 2>/dev/null || true
		pauses=$((pauses + 1))
		;;
	7 | 8)
		kill -9 "$coord" 2>/dev/null || true
		wait "$coord" 2>/dev/null || true
		start_coordinator resume
		coordkills=$((coordkills + 1))
		;;
	9)
		if [ -n "$faults" ]; then
			# In the background: a refused request waits for its timeout.
			"$out/faults" --broker "$url" --token "$token" --seed "$RANDOM" >>"$out/faults.log" 2>&1 &
			fpids+=($!)
			injected=$((injected + 1))
		fi
		;;
	esac
done

# Left alone, the run must end by itself.
deadline=$(($(date +%s) + timeout))
while kill -0 "$coord" 2>/dev/null; do
	if [ "$(date +%s)" -ge "$deadline" ]; then
		echo "fleet-soak: FAIL: the run did not end within ${timeout}s after the chaos (see $out/coordinator.log)" >&2
		exit 1
	fi
	sleep 1
done
set +e
wait "$coord"
rc=$?
set -e
elapsed=$(($(date +%s) - t0))
if [ "$rc" -ne 0 ]; then
	echo "fleet-soak: FAIL: the coordinator exited with status $rc (see $out/coordinator.log)" >&2
	exit 1
fi

# Every game once, as the local run played it.
key='select(.record == "game") | [.index, .moves, .result, .termination] | tostring'
jq -r "$key" "$out/local.jsonl" | sort >"$out/local.games"
jq -r "$key" "$out/dist.jsonl" | sort >"$out/dist.games"
total=$(wc -l <"$out/local.games")
recorded=$(wc -l <"$out/dist.games")
twice=$(jq -r 'select(.record == "game") | .index' "$out/dist.jsonl" | sort | uniq -d | wc -l)
played=$(cat "$out"/worker*.log | sed -n 's/.*played \([0-9][0-9]*\) games\{0,1\}$/\1/p' | awk '{s += $1} END {print s + 0}')
verdict=PASS
if [ "$twice" -ne 0 ] || ! cmp -s "$out/local.games" "$out/dist.games"; then
	verdict=FAIL
fi
echo "fleet-soak: $verdict: $recorded of $total games recorded, $twice twice; $workers workers, $kills worker kills, $pauses pauses, $coordkills coordinator kills, $injected fault injections; the workers alive at the end reported $played games played; ${elapsed}s"
[ "$verdict" = PASS ] || { diff "$out/local.games" "$out/dist.games" | head -5 >&2; exit 1; }
