#!/usr/bin/env bash
# twin.sh - the twin against the real series (docs/twin.md): import the
# real runs, sweep configs/twin-6.18.ini with v6_15 and defrag_mode on
# the same seeds, merge both and print the table with the real
# vm.defrag_mode=0 runs as the baseline.
#
#   scripts/twin.sh [SEEDS [OUT]]      defaults: 5, out/twin
#
# SERIES (default real/data/series-2026-12-05-streamer) names the real
# runs; SETS, space-separated KEY=VALUE, are given to the sweep as --set
# (the traced series: SETS="run.compact_memory=yes run.nr_hugepages=N",
# docs/twin.md).  Resumable: the sweep skips runs already complete in OUT.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SEEDS=${1:-5}
OUT=${2:-out/twin}
SERIES=${SERIES:-real/data/series-2026-12-05-streamer}
M=build/release/mmsim
set_args=()
for kv in ${SETS:-}; do
	set_args+=(--set "$kv")
done

cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DMMSIM_SANITIZE=OFF >/dev/null
cmake --build build/release -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
mkdir -p "$OUT"
rm -f "$OUT/real.db" "$OUT/all.db"
"$M" import "$SERIES" -o "$OUT/real.db"
"$M" sweep configs/twin-6.18.ini ${set_args[@]+"${set_args[@]}"} --vary policy.name=v6_15,defrag_mode --seeds "$SEEDS" \
	-j "$(nproc 2>/dev/null || echo 2)" -o "$OUT/sweep"
"$M" merge -o "$OUT/all.db" "$OUT/real.db" "$OUT/sweep/sweep.db"
"$M" compare "$OUT/all.db" --baseline real:v6_15 --spread --extra-rows cadence --extra-rows wakes

# the change from vm.defrag_mode=0 to 1, row by row: the real runs' against
# the twin's, and whether they go the same way (a change under 5 % of the
# larger mean counts as none)
echo
echo "vm.defrag_mode 0 -> 1: real against twin (means)"
"$M" compare "$OUT/all.db" --format csv --extra-rows cadence --extra-rows wakes | python3 -c '
import csv, sys
rows = {}
for r in csv.DictReader(sys.stdin):
    try:
        rows.setdefault(r["metric"], {})[r["column"]] = float(r["mean"])
    except ValueError:
        pass
def way(a, b):
    if a != a or b != b:
        return None
    big = max(abs(a), abs(b))
    if big == 0 or abs(b - a) < 0.05 * big:
        return 0
    return 1 if b > a else -1
agree = n = 0
print("%-34s %14s %14s %14s %14s  %s" % ("row", "real dm=0", "real dm=1", "twin v6_15", "twin dm", "same way"))
for m, c in rows.items():
    try:
        r0, r1, t0, t1 = c["real:v6_15"], c["real:defrag_mode"], c["v6_15"], c["defrag_mode"]
    except KeyError:
        continue
    wr, wt = way(r0, r1), way(t0, t1)
    same = "n/a" if wr is None or wt is None else ("yes" if wr == wt else "no")
    if same != "n/a":
        n += 1
        agree += same == "yes"
    print("%-34s %14.6g %14.6g %14.6g %14.6g  %s" % (m, r0, r1, t0, t1, same))
print("same way: %d of %d rows" % (agree, n))
'
