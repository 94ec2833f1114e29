#!/bin/sh
# tryangle-ladder.sh: the TryAngle Catch strength ladder of issue #16.
#
# Each of our agents plays a gauntlet against the official CodinGame boss
# bots (compiled here from a clone of the game's repository, never
# committed: they are not ours) and our own greedy and random, at the
# game's limit of 50 ms a turn, one game at a time; with several agents,
# they also play each other (a round robin, as many games per pairing). The summary gives each
# pairing's score with a 95 % interval and our agents' slowest move after
# the first turn (the game allows 1 s for the first, 50 ms for the others).
#
# Usage:
#   benchmarks/tryangle-ladder.sh [-n GAMES] [-s SEED] [-o DIR] [-b ARENA] [-t TURN] [-m MARGIN] CLONE [AGENT…]
#
#   CLONE   a clone of https://github.com/eulerscheZahl/TryAngle-Catch (a
#           work tree, or a bare repository: the bosses are read from HEAD)
#   AGENT   our agents to rank (default:
#           "mcts:time=50ms,first=1s,rollout=none,escale=300,expand=4,relative,c=0.2,maxdepth=8"
#           and "alphabeta:time=50ms")
#   -n      games per pairing, even (default 100: 50 maps, each with colours swapped)
#   -s      the tournament seed (default 1): it fixes the maps and every agent's seed
#   -o      output directory (default tryangle-ladder): bosses/ holds the
#           compiled bosses, gauntlet-SPEC.jsonl each agent's record (SPEC:
#           the agent's spec, other characters than letters, digits and
#           =._- as _); an existing record is resumed, so an interrupted
#           ladder loses nothing and a finished one is only summarised;
#           the round robin of our agents is gauntlet-ours_SPECS.jsonl;
#           options records -n, -s, -t and -m, and a ladder is resumed only
#           with the same ones (use another DIR for other options)
#   -b      the arena binary (default: built from this checkout into DIR)
#   -t      the bosses' limit per turn after the first (default 50ms, the
#           game's: a boss that answers later loses, as on CodinGame)
#   -m      the arena's grace beyond our agents' limits (default 100ms)
#
# The bosses play the same whatever their time (they do a fixed amount of
# work), ours do not: on a busy machine our agents get less of the CPU and
# the bosses may time out. There, use -t 1s -m 1s so that load does not
# decide games, and say that the figures were taken under load; the
# summary's slowest moves tell how close our agents came to 50 ms.
#
# Needs: Go, mcs and mono (Debian/Ubuntu: apt-get install mono-mcs), jq.
# Everything is reproducible from (SEED, GAMES, the agents): maps are the
# original referee's maps for seeds drawn from SEED, one per game pair.
set -eu

games=100
seed=1
out=tryangle-ladder
arena=
turn=50ms
margin=100ms
while getopts n:s:o:b:t:m:h opt; do
	case $opt in
	n) games=$OPTARG ;;
	s) seed=$OPTARG ;;
	o) out=$OPTARG ;;
	b) arena=$OPTARG ;;
	t) turn=$OPTARG ;;
	m) margin=$OPTARG ;;
	h)
		sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "usage: $0 [-n GAMES] [-s SEED] [-o DIR] [-b ARENA] [-t TURN] [-m MARGIN] CLONE [AGENT…] (-h for help)" >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
	echo "tryangle-ladder: give the path of a clone of https://github.com/eulerscheZahl/TryAngle-Catch (-h for help)" >&2
	exit 2
fi
clone=$1
shift
case $games in
'' | *[!0-9]*)
	echo "tryangle-ladder: -n $games: give an even number of games, 2 to 100000" >&2
	exit 2
	;;
esac
if [ "$games" -lt 2 ] || [ "$games" -gt 100000 ] || [ $((games % 2)) -ne 0 ]; then
	echo "tryangle-ladder: -n $games: give an even number of games, 2 to 100000" >&2
	exit 2
fi
for tool in mcs mono jq; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "tryangle-ladder: $tool not found: install it (Debian/Ubuntu: apt-get install mono-mcs jq)" >&2
		exit 1
	fi
done
if [ $# -eq 0 ]; then
	set -- "mcts:time=50ms,first=1s,rollout=none,escale=300,expand=4,relative,c=0.2,maxdepth=8" "alphabeta:time=50ms"
fi

mkdir -p "$out/bosses"
out=$(cd "$out" && pwd)

# The records in DIR were played with these options; resuming them with
# others would silently keep the old games.
options="-n $games -s $seed -t $turn -m $margin"
if [ -f "$out/options" ]; then
	if [ "$(cat "$out/options")" != "$options" ]; then
		echo "tryangle-ladder: $out holds a ladder played with $(cat "$out/options"), not $options: give those options to resume it, or another -o DIR" >&2
		exit 2
	fi
elif ls "$out"/gauntlet-*.jsonl >/dev/null 2>&1; then
	echo "tryangle-ladder: $out holds records of unknown options: give another -o DIR" >&2
	exit 2
else
	printf '%s\n' "$options" >"$out/options"
fi

# The bosses the ladder plays: final league (config/Boss.cs) and Wood 1
# (config/level2), as the game's repository has them.
boss() { # boss NAME PATH-IN-REPOSITORY
	src=$out/bosses/$1.cs
	if [ -f "$clone/$2" ]; then
		cp "$clone/$2" "$src"
	elif ! git --git-dir="$clone" show "HEAD:$2" >"$src" 2>/dev/null &&
		! git -C "$clone" show "HEAD:$2" >"$src" 2>/dev/null; then
		rm -f "$src"
		echo "tryangle-ladder: $clone has no $2: is it a clone of eulerscheZahl/TryAngle-Catch?" >&2
		exit 1
	fi
	if [ ! -f "$out/bosses/$1.exe" ] || [ "$src" -nt "$out/bosses/$1.exe" ]; then
		mcs -nowarn:219 -out:"$out/bosses/$1.exe" "$src" >/dev/null
	fi
}
boss final config/Boss.cs
boss wood1 config/level2/Boss.cs

if [ -z "$arena" ]; then
	arena=$out/arena
	(cd "$(dirname "$0")/.." && go build -o "$arena" ./cmd/arena)
fi

# record AGENT: the agent's record file, named after its spec.
record() { printf '%s/gauntlet-%s.jsonl' "$out" "$(printf '%s' "$1" | tr -c 'A-Za-z0-9=._-' '_')"; }
for agent in "$@"; do
	rec=$(record "$agent")
	if [ -f "$rec" ]; then
		"$arena" tournament --resume "$rec" --concurrency 1 --no-progress --rating-interval -1 >/dev/null
	else
		"$arena" tournament --game tryangle --gauntlet --games "$games" --seed "$seed" \
			--concurrency 1 --no-progress --rating-interval -1 --out "$rec" --move-margin "$margin" \
			--agents "$agent" \
			"cg:cmd='mono $out/bosses/final.exe',name=final-boss,turn=$turn" \
			"cg:cmd='mono $out/bosses/wood1.exe',name=wood1-boss,turn=$turn" \
			greedy random >/dev/null
	fi
done
# Our agents against each other, when there are several: a round robin.
if [ $# -ge 2 ]; then
	rec=$(record "ours $*")
	if [ -f "$rec" ]; then
		"$arena" tournament --resume "$rec" --concurrency 1 --no-progress --rating-interval -1 >/dev/null
	else
		"$arena" tournament --game tryangle --games "$games" --seed "$seed" \
			--concurrency 1 --no-progress --rating-interval -1 --out "$rec" --move-margin "$margin" \
			--agents "$@" >/dev/null
	fi
fi

# The summary: per pairing W-D-L, score and its 95 % Wilson interval (a
# draw is half a win), our agent's forfeits, its slowest move after the
# first turn and how many of those moves took over 50 ms.
echo "| agent | opponent | games | W-D-L | score | 95 % interval | forfeits | slowest move (ms) | moves over 50 ms |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
rows() { # rows RECORD PART: one line per game, from the first-listed agent's seat
	jq -r --arg part "$2" 'select(.record == "game") |
		(if .players[0].agent < .players[1].agent then 0 else 1 end) as $us |
		[$part, .players[$us].name, .players[1 - $us].name,
		 (if .winner == $us then 1 elif .winner == (1 - $us) then 0 else 0.5 end),
		 (if .forfeit == $us then 1 else 0 end),
		 ([.move_stats[]? | select(.player == $us) | .ms] | .[1:]) as $t |
		 ($t | max // 0), ($t | length), ([$t[] | select(. > 50)] | length)] | @tsv' "$1"
}
{
	for agent in "$@"; do
		rows "$(record "$agent")" "$agent"
	done
	if [ $# -ge 2 ]; then
		rows "$(record "ours $*")" ours
	fi
} | awk -F '\t' '
{
	# Keyed by the record too: an agent of ours named like an opponent
	# (greedy) must not merge its round-robin games into a gauntlet row.
	k = $1 "\t" $2 "\t" $3
	if (!(k in n)) order[++m] = k
	n[k]++; s[k] += $4; f[k] += $5
	if ($4 == 1) w[k]++; else if ($4 == 0) l[k]++; else d[k]++
	if ($6 > slow[k]) slow[k] = $6
	moves[k] += $7; late[k] += $8
}
END {
	z = 1.959964
	for (i = 1; i <= m; i++) {
		k = order[i]; split(k, a, "\t")
		p = s[k] / n[k]; z2 = z * z / n[k]
		c = (p + z2 / 2) / (1 + z2); h = z * sqrt(p * (1 - p) / n[k] + z2 / (4 * n[k])) / (1 + z2)
		# Agents that record no per-move times (greedy, random) have no
		# slowest move to show.
		slowest = moves[k] ? sprintf("%.1f", slow[k]) : "–"
		latemoves = moves[k] ? sprintf("%d of %d", late[k], moves[k]) : "–"
		printf "| `%s` | %s | %d | %d-%d-%d | %.1f %% | %.1f–%.1f %% | %d | %s | %s |\n",
			a[2], a[3], n[k], w[k], d[k], l[k], 100 * p, 100 * (c - h), 100 * (c + h), f[k], slowest, latemoves
	}
}'
