#!/usr/bin/env bash
# input_edit.sh - a run's identity covers the files it reads (issue 26):
# a sweep killed after its first run, its [system] profile then edited
# (the scenario's text unchanged), is refused on resume, and a line run
# on its own is refused too: the two would mix runs of two profiles.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash" "$@"
need sqlite3

cp "$SRC/configs/smoke.ini" scenario.ini
cp "$SRC/configs/system/headless.ini" profile.ini
SWEEP=(sweep scenario.ini --set "system.profile=$PWD/profile.ini" --seeds 2 -j 1 -o sw)

# (in the background: the shell says nothing of the kill it makes)
MMSIM_SWEEP_KILL_AFTER=1 "$MMSIM" "${SWEEP[@]}" >/dev/null 2>&1 &
wait $! 2>/dev/null
n1=$(ls sw/run-*.db 2>/dev/null | wc -l)
[ "$n1" -ge 1 ] || fail "the killed sweep left no run"
# the profile edited: one more kernel thread
sed -i 's/^kernel_threads = \([0-9]*\)/kernel_threads = 1\1/' profile.ini
grep -q '^kernel_threads = 1' profile.ini || fail "the edit did not take"
out=$("$MMSIM" "${SWEEP[@]}" 2>&1); rc=$?
n2=$(ls sw/run-*.db 2>/dev/null | wc -l)
if [ "$rc" = 64 ] && [[ "$out" == *"has changed"* ]] && [ "$n2" = "$n1" ] && [ ! -e sw/sweep.db ]; then
	ok "resume after a profile edit refused: $out"
else
	fail "resume after a profile edit: exit $rc, $n2 run files (were $n1): $out"
fi
out=$("$MMSIM" run --manifest sw/manifest --index 2 2>&1); rc=$?
if [ "$rc" = 78 ] && [[ "$out" == *"has changed"* ]]; then
	ok "a line run on its own after the edit refused: $out"
else
	fail "run --manifest --index 2 after the edit: exit $rc: $out"
fi
# two sweeps of one scenario file edited between them, each complete,
# merged: every run is kept (their lines are not one sweep's)
cp "$SRC/configs/smoke.ini" s2.ini
"$MMSIM" sweep s2.ini --seeds 2 -j 1 -o a >/dev/null 2>&1 || fail "sweep a"
sed -i 's/^region = 128M/region = 64M/' s2.ini
"$MMSIM" sweep s2.ini --seeds 2 -j 1 -o b >/dev/null 2>&1 || fail "sweep b"
"$MMSIM" merge -o ab.db a/sweep.db b/sweep.db >/dev/null 2>&1 || fail "merge"
n=$(sqlite3 ab.db "SELECT count(*) FROM runs")
[ "$n" = 4 ] && ok "two sweeps of an edited scenario merged: 4 runs" || fail "merged $n runs of 4"
exit $FAILED
