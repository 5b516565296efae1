#!/usr/bin/env bash
# scale.sh - what a machine scaled k times needs (issue 27): kbuild's
# builds = N runs N whole builds side by side, each its own tree and make
# (the build's rows the sums, its real time until the last ends, over
# iterations too); [run] cpu_sharing = heap shares the CPUs as SimGrid's
# model does (the engine's own processor sharing, sim/engine/cpu.c):
# every counter the same on a run with more runnable processes than CPUs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash" "$@"
need sqlite3

M=("$MMSIM" run "$SRC/configs/mini.ini")
q() { sqlite3 "$1" "$2"; }
metric() { q "$1" "SELECT value FROM metrics WHERE name = '$2'"; }

"${M[@]}" -o one.db 2>/dev/null || fail "one build"
# the machine scaled with them (three times the RAM and CPUs), as bench/scale.sh does
S3=(--set machine.ram=1536M --set machine.swap=1536M --set machine.cpus=6 --set thp_faulter.region=384M)
"${M[@]}" --set kbuild.builds=3 "${S3[@]}" -o three.db 2>/dev/null || fail "three builds"
u1=$(metric one.db units); u3=$(metric three.db units); d3=$(metric three.db units_done)
j3=$(metric three.db jobs); st=$(q three.db "SELECT status FROM runs")
[ "$st" = ok ] && ok "three builds: status ok" || fail "three builds: status '$st'"
python3 -c "import sys; a, b, d = map(float, sys.argv[1:]); sys.exit(0 if b == 3 * a and d == b else 1)" \
	"$u1" "$u3" "$d3" && ok "units $u3 = 3 x $u1, all built" || fail "units $u3 (done $d3), one build's $u1"
[ "$j3" = 12.0 ] && ok "jobs: 3 makes of -j4" || fail "jobs '$j3', not 12"
# the real time is until the last build ends: no shorter than one build's
r1=$(metric one.db real_time); r3=$(metric three.db real_time)
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if 0.5 * a < b < 2 * a else 1)" "$r1" "$r3" \
	&& ok "real time $r3 s against one build's $r1 s" || fail "real time $r3 s, one build's $r1 s"
# each build has its own tree: on the same machine, three builds read
# in three times what one reads (one copy of the files cached would not)
"${M[@]}" "${S3[@]}" -o one3.db 2>/dev/null || fail "one build on the larger machine"
p1=$(q one3.db "SELECT value FROM vmstat WHERE name = 'pgpgin'"); p3=$(q three.db "SELECT value FROM vmstat WHERE name = 'pgpgin'")
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if b > 2.5 * a else 1)" "$p1" "$p3" \
	&& ok "pgpgin $p3 against $p1" || fail "pgpgin $p3, one build's $p1: the trees are shared?"
# iterations: each restarts every build
"${M[@]}" --set kbuild.builds=2 --set run.iterations=2 --set machine.ram=1G --set machine.swap=1G \
	--set machine.cpus=4 -o iter.db 2>/dev/null || fail "two builds, two iterations"
n=$(q iter.db "SELECT count(*) FROM iterations"); st=$(q iter.db "SELECT status FROM runs")
ud=$(q iter.db "SELECT group_concat(value) FROM iteration_metrics WHERE name = 'units_done' ORDER BY iteration")
[ "$st" = ok ] && [ "$n" = 2 ] && ok "two iterations of two builds: units_done $ud" \
	|| fail "status '$st', $n iterations"
[ "$ud" = "$(python3 -c "print(','.join([str(2 * $u1)] * 2))")" ] && ok "both iterations built both trees" \
	|| fail "units_done per iteration '$ud', not twice $u1 twice"
# the measured tree: names in each build's own root
"$MMSIM" run "$SRC/configs/smoke.ini" --set workload.names=kbuild --set kbuild.tree=linux-6.1-defconfig \
	--set kbuild.scale=0.02 --set kbuild.builds=2 -o measured.db 2>err || { cat err; fail "a measured tree, two builds"; }
[ "$(q measured.db "SELECT status FROM runs")" = ok ] && ok "a measured tree built twice" || fail "measured: $(cat err)"

# the CPUs shared by the engine: more runnable processes (4 jobs, the
# faulter, kswapd) than CPUs (2); every counter as SimGrid's model gives
"${M[@]}" --set run.cpu_sharing=simgrid -o sg.db 2>/dev/null || fail "cpu_sharing = simgrid"
"${M[@]}" --set run.cpu_sharing=heap -o heap.db 2>/dev/null || fail "cpu_sharing = heap"
c1=$(q sg.db "SELECT group_concat(name || '=' || value) FROM vmstat ORDER BY name")
ch=$(q heap.db "SELECT group_concat(name || '=' || value) FROM vmstat ORDER BY name")
[ -n "$c1" ] && [ "$c1" = "$ch" ] && ok "cpu_sharing = heap: every vmstat counter as with simgrid" \
	|| fail "cpu_sharing = heap: the counters differ"
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) < 1e-6 * a else 1)" \
	"$(metric sg.db real_time)" "$(metric heap.db real_time)" && ok "and the build's real time" \
	|| fail "real time $(metric heap.db real_time) against $(metric sg.db real_time)"
expect_bad=$("${M[@]}" --set run.cpu_sharing=fair -o bad.db 2>&1); rc=$?
[ "$rc" = 78 ] && [[ "$expect_bad" == *"run.cpu_sharing"* ]] && ok "cpu_sharing = fair refused: $expect_bad" \
	|| fail "cpu_sharing = fair: exit $rc: $expect_bad"
exit $FAILED
