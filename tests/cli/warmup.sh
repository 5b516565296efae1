#!/usr/bin/env bash
# warmup.sh - [run] warmup, drop_caches and nr_hugepages (what real/harness
# does between runs, docs/scenario.md): the warmup build has no window, the
# pool is reserved before the measured build and its size stored, the
# window starts after that work (none of it in the window's counters).
# With prepare_first the same work comes before the warmup build too, which
# then runs under the pool: its first sample has the pool's pages less free.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash" "$@"
need sqlite3

M=("$MMSIM" run "$SRC/configs/mini.ini" --set run.sample_interval=0.5)
"${M[@]}" -o plain.db 2>/dev/null || fail "the plain run"
"${M[@]}" --set run.warmup=1 --set run.drop_caches=3 --set run.nr_hugepages=8 -o warm.db 2>/dev/null \
	|| fail "the run with a warmup"
q() { sqlite3 "$1" "$2"; }
st=$(q warm.db "SELECT status FROM runs")
pool=$(q warm.db "SELECT value FROM metrics WHERE name = 'hugetlb_pool_pages'")
iters=$(q warm.db "SELECT count(*) FROM iterations")
win=$(q warm.db "SELECT value FROM metrics WHERE name = 'window_seconds'")
sim=$(q warm.db "SELECT value FROM metrics WHERE name = 'sim_seconds'")
wplain=$(q plain.db "SELECT value FROM metrics WHERE name = 'window_seconds'")
htlb=$(q warm.db "SELECT coalesce(sum(value), 0) FROM vmstat WHERE name IN ('htlb_buddy_alloc_success', 'drop_pagecache', 'drop_slab')")
[ "$st" = ok ] && ok "status ok" || fail "status '$st'"
[ "$pool" = 8.0 ] && ok "the pool: $pool pages" || fail "hugetlb_pool_pages '$pool', not 8"
[ "$iters" = 0 ] && ok "one measured build, no iteration rows" || fail "$iters iteration rows"
# the window is the measured build's: the run is longer by the warmup
# build before it (at least half a plain build: the warmup ran at once
# after boot, as the plain run's build did)
python3 -c "import sys; w, s, p = map(float, sys.argv[1:]); sys.exit(0 if s - w > 0.5 * p else 1)" \
	"$win" "$sim" "$wplain" && ok "window $win s of $sim s (plain: $wplain s)" \
	|| fail "window $win s, run $sim s, plain window $wplain s"
[ "$htlb" = 0 ] && ok "the harness's work outside the window's counters" || fail "in the window: $htlb"

"${M[@]}" --set run.warmup=1 --set run.drop_caches=3 --set run.nr_hugepages=8 --set run.prepare_first=yes \
	-o first.db 2>/dev/null || fail "the run with prepare_first"
free0() { q "$1" "SELECT value FROM samples WHERE name = 'nr_free_pages' ORDER BY t LIMIT 1"; }
fw=$(free0 warm.db)
ff=$(free0 first.db)
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if a - b >= 8 * 512 * 0.9 else 1)" "$fw" "$ff" \
	&& ok "prepare_first: the warmup under the pool (free at its start $ff, without $fw)" \
	|| fail "prepare_first: free at the warmup's start $ff, without it $fw: no pool of 8 huge pages"
pf=$(q first.db "SELECT value FROM metrics WHERE name = 'hugetlb_pool_pages'")
[ "$pf" = 8.0 ] && ok "prepare_first: the measured build's pool, $pf pages" || fail "prepare_first: pool '$pf'"
exit $FAILED
