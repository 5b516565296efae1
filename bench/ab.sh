#!/bin/sh
# ab.sh OLD NEW PAIRS SCENARIO [ARGS...]: a paired A/B benchmark of two
# mmsim binaries (docs/benchmarks.md, "Reproduction run speed").
#
# Runs `mmsim run SCENARIO ARGS -o DB` with OLD and NEW alternately (OLD
# first in odd pairs, NEW first in even ones, so that a drift of the
# machine's load falls on both), PAIRS times each, pinned to one core
# (taskset -c ${AB_CPU:-1}).  Prints each run's CPU time (user + system,
# /usr/bin/time: on a shared core the wall time also counts the time the
# run waited for the CPU) and wall time, their medians, the ratios of
# the medians OLD/NEW (> 1: NEW is faster) and the median of the pairs'
# own CPU ratios, the figure least moved by the host's drift.  Every run's database is
# compared with the first OLD run's (scripts/cmp-runs.sh): a speed change
# must leave the results identical, and the script fails if they are not.
# AB_DIFFER=1 times two binaries whose results differ (a model change, or
# an old commit against today's): each binary's runs are then compared
# with its own first run only, so that the script still fails if either
# is not deterministic.
# AB_SIMULTANEOUS=1 runs the two runs of a pair at the same moment, OLD on
# CPU 0 and NEW on CPU 1 in odd pairs, the other way round in even ones
# (the two vCPUs need not be equally fast; AB_CPU is not used): a drift of
# the host's speed, which on a shared host can reach 30 % within ten
# minutes, then falls on both runs of a pair alike; each run is slower
# with both cores busy and the two share the last-level cache
# (docs/benchmarks.md, "Free lists as rings").
set -e
old=$1 new=$2 pairs=$3 scen=$4
shift 4
cpu=${AB_CPU:-1}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {         # run BIN TAG CPU ARGS...: "cpu wall" seconds into $tmp/TAG.t
	bin=$1 tag=$2 c=$3
	shift 3
	rm -f "$tmp/$tag.db"
	/usr/bin/time -f '%U %S %e' -o "$tmp/$tag.time" taskset -c "$c" "$bin" run "$scen" "$@" \
		-o "$tmp/$tag.db" >/dev/null 2>"$tmp/$tag.err" ||
		{ echo "run failed: $bin" >&2; cat "$tmp/$tag.err" >&2; return 1; }
	awk '{printf "%.2f %.2f\n", $1 + $2, $3}' "$tmp/$tag.time" >"$tmp/$tag.t"
}
# a process and everything under it (a run is a subshell, time, mmsim)
kill_tree() {
	for c in $(pgrep -P "$1"); do kill_tree "$c"; done
	kill "$1" 2>/dev/null || :
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ "$i" -le "$pairs" ]; do
	if [ "${AB_SIMULTANEOUS:-0}" = 1 ]; then
		co=$((i % 2 == 1 ? 0 : 1))
		run "$old" "old$i" "$co" "$@" & po=$!
		run "$new" "new$i" $((1 - co)) "$@" & pn=$!
		# a failed run ends the script: its partner is stopped first
		wait "$po" || { kill_tree "$pn"; exit 1; }
		wait "$pn" || exit 1
	elif [ $((i % 2)) -eq 1 ]; then
		run "$old" "old$i" "$cpu" "$@" || exit 1; run "$new" "new$i" "$cpu" "$@" || exit 1
	else
		run "$new" "new$i" "$cpu" "$@" || exit 1; run "$old" "old$i" "$cpu" "$@" || exit 1
	fi
	a=$(cat "$tmp/old$i.t") b=$(cat "$tmp/new$i.t")
	echo "$a $b" | awk '{printf "%.4f\n", $1 / $3}' >>"$tmp/pair.cpu"
	echo "$a" | cut -d' ' -f1 >>"$tmp/old.cpu"; echo "$a" | cut -d' ' -f2 >>"$tmp/old.wall"
	echo "$b" | cut -d' ' -f1 >>"$tmp/new.cpu"; echo "$b" | cut -d' ' -f2 >>"$tmp/new.wall"
	echo "pair $i: old cpu/wall $a s, new $b s, cpu old/new" \
	     "$(echo "$a $b" | awk '{printf "%.3f", $1 / $3}')"
	for t in old new; do
		ref=old1
		[ "${AB_DIFFER:-0}" = 1 ] && ref=${t}1
		"$here/scripts/cmp-runs.sh" "$tmp/$ref.db" "$tmp/$t$i.db" >/dev/null ||
			{ echo "RESULTS DIFFER: $t$i vs $ref" >&2; exit 1; }
	done
	i=$((i + 1))
done
med() { sort -n "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
for k in cpu wall; do
	mo=$(med "$tmp/old.$k"); mn=$(med "$tmp/new.$k")
	echo "median $k: old $mo s, new $mn s, ratio old/new $(echo "$mo $mn" | awk '{printf "%.3f", $1 / $2}')"
done
# the pairs' own ratios: a drift of the host's speed that outlasts a pair
# moves both of its runs, so their median moves less than the medians'
echo "median of the pairs' cpu ratios old/new: $(med "$tmp/pair.cpu")" \
     "(range $(sort -n "$tmp/pair.cpu" | head -1)-$(sort -n "$tmp/pair.cpu" | tail -1))"
if [ "${AB_SIMULTANEOUS:-0}" = 1 ]; then
	echo "each pair's two runs at the same moment on CPUs 0 and 1 (AB_SIMULTANEOUS=1)"
else
	echo "each run alone on CPU $cpu, a pair's two one after the other"
fi
if [ "${AB_DIFFER:-0}" = 1 ]; then
	echo "each binary's $pairs runs identical to its first (AB_DIFFER=1: the two binaries' results differ)"
else
	echo "all $((2 * pairs)) runs' results identical (scripts/cmp-runs.sh)"
fi
