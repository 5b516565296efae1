#!/usr/bin/env bash
# twin.sh - the twin against the real series (docs/twin.md): import the
# real runs, sweep configs/twin-6.18.ini with v6_15 and defrag_mode on
# the same seeds, merge both and print the table with the real
# vm.defrag_mode=0 runs as the baseline.
#
#   scripts/twin.sh [SEEDS [OUT]]      defaults: 5, out/twin
#
# SERIES (default real/data/series-2026-12-05-streamer) names the real
# runs.  Resumable: the sweep skips runs already complete in OUT.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SEEDS=${1:-5}
OUT=${2:-out/twin}
SERIES=${SERIES:-real/data/series-2026-12-05-streamer}
M=build/release/mmsim

cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DMMSIM_SANITIZE=OFF >/dev/null
cmake --build build/release -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
mkdir -p "$OUT"
rm -f "$OUT/real.db" "$OUT/all.db"
"$M" import "$SERIES" -o "$OUT/real.db"
"$M" sweep configs/twin-6.18.ini --vary policy.name=v6_15,defrag_mode --seeds "$SEEDS" \
	-j "$(nproc 2>/dev/null || echo 2)" -o "$OUT/sweep"
"$M" merge -o "$OUT/all.db" "$OUT/real.db" "$OUT/sweep/sweep.db"
"$M" compare "$OUT/all.db" --baseline real:v6_15 --spread --extra-rows cadence
