#!/usr/bin/env bash
# sweep.sh - mmsim sweep --slurm through a real single-node Slurm.
#
#   tests/slurm/sweep.sh MMSIM SRC       (ctest: slurm_sweep; exit 77 = skipped)
#
# Starts munged, slurmctld and slurmd from a temporary directory (a
# generated slurm.conf, its own munge key and socket, its own ports;
# nothing in /etc, /run or /var is used), then:
#   1. submits a sweep (mini.ini shrunk, 2 policies x 2 seeds) with
#      --slurm --no-wait (a local sweep on its directory meanwhile is
#      refused, 75; the same --slurm sweep submits nothing), and kills
#      line 2's mmsim while it runs;
#   2. mmsim sweep --collect waits, merges 3 runs and names line 2 with
#      its log and its task's state (exit 70);
#   3. the same sweep command submits line 2 alone, waits, merges 4 runs;
#      run again it submits nothing;
#   4. the merged database equals the same sweep run locally: the same
#      runs (line, policy, seed, scenario hash, status), parameters, vmstat
#      counters, workload metrics (wall-clock ones aside), samples and
#      censuses, each line once.
# The daemons (and any task left) are stopped by PID whatever happens.
# Without root or without Debian's slurmctld, slurmd, slurm-client and
# munge (scripts/install-deps.sh installs them), or when the daemons do
# not start, the test says why and exits 77 (skipped).
set -uo pipefail

MMSIM=${1:?usage: sweep.sh MMSIM SRC}
SRC=${2:?usage: sweep.sh MMSIM SRC}
SKIP=77

skip() { echo "SKIP: $*"; exit $SKIP; }
fail() { echo "FAIL: $*"; FAILED=1; }
FAILED=0

# ---- the cluster (D, CONF, H, sl, node_ok; stopped at exit)
source "$(dirname "${BASH_SOURCE[0]}")/cluster.bash"

# ---- the sweep: mini.ini with 1% of the kernel build, 2 policies x 2 seeds
S=$D/sw
L=$D/local
SWEEP=(sweep "$SRC/configs/mini.ini" --set workload.kbuild.scale=0.01
	--vary policy.name=vanilla,hygiene --seeds 2)
export MMSIM_SLURM_POLL=1

# The task of line 2 is caught with certainty, whatever the load: the
# nodes run mmsim through a wrapper (--mmsim) that stops line 2's first
# task (SIGSTOP) before it execs mmsim, so the test finds it stopped and
# kills it; every other task, and line 2's rerun, execs mmsim at once.
WRAP=$D/mmsim-wrap
cat >"$WRAP" <<EOF
#!/bin/bash
if [[ " \$* " == *" --index 2 "* && ! -e $D/line2-stopped ]]; then
	touch $D/line2-stopped
	kill -STOP \$\$
fi
exec "$MMSIM" "\$@"
EOF
chmod +x "$WRAP"

# 1. submitted (one task at a time, so that line 2 runs alone), line 2 killed
sl "$MMSIM" "${SWEEP[@]}" -j 1 -o "$S" --slurm --mmsim "$WRAP" --no-wait 2>"$D/submit.err"
rc=$?
JID=$(awk '{print $1}' "$S/slurm.job" 2>/dev/null)
if [[ $rc != 0 || -z $JID || ! -x $S/sweep.sbatch ]]; then
	fail "sweep --slurm --no-wait: exit $rc, job '$JID': $(cat "$D/submit.err")"
	exit 1
fi
echo "ok: submitted job $JID: $(grep -v '^$' "$D/submit.err" | tail -1)"
grep -q -- "--array=1-4%1" "$S/sweep.sbatch" || fail "the array is not 1-4%1: $(cat "$S/sweep.sbatch")"
# while the job is queued, a local sweep on the directory is refused
sl "$MMSIM" "${SWEEP[@]}" -j 1 -o "$S" 2>"$D/busy.err"
rc=$?
if [[ $rc != 75 ]] || ! grep -q "Slurm job $JID still has tasks in the queue" "$D/busy.err"; then
	fail "a local sweep while job $JID is queued: exit $rc (want 75): $(cat "$D/busy.err")"
else
	echo "ok (75): $(cat "$D/busy.err")"
fi
# ... and the same --slurm sweep submits nothing: the queued job is its job
sl "$MMSIM" "${SWEEP[@]}" -j 1 -o "$S" --slurm --no-wait 2>"$D/twice.err"
rc=$?
if [[ $rc != 0 || $(awk '{print $1}' "$S/slurm.job") != "$JID" ]] ||
	! grep -q "Slurm job $JID of this sweep is still in the queue: nothing submitted" "$D/twice.err"; then
	fail "--slurm again while job $JID is queued: exit $rc, slurm.job '$(cat "$S/slurm.job")': $(cat "$D/twice.err")"
else
	echo "ok: --slurm again while job $JID is queued submits nothing"
fi
victim=
deadline=$((SECONDS + 60))
while [[ -z $victim ]] && ((SECONDS < deadline)); do
	victim=$(pgrep -f -x -- ".* run --manifest $S/manifest --index 2" | head -1)
	[[ -n $victim ]] || sleep 0.02
	node_ok || break
done
if [[ -z $victim ]]; then
	fail "line 2's mmsim never ran; queue: $(sl squeue -h -t all -j "$JID" -o '%i %T' 2>&1)"
	exit 1
fi
kill -KILL "$victim"
[[ -e $S/run-0002.db ]] && fail "run-0002.db exists: line 2 finished before the kill"
echo "ok: killed line 2's task (pid $victim, stopped by the wrapper) mid-run"

# 2. collect: waits, merges 3 runs, names line 2 with its log and state
timeout 120 env SLURM_CONF="$CONF" "$MMSIM" sweep --collect "$S" 2>"$D/collect.err"
rc=$?
node_ok
n=$(sqlite3 "$S/sweep.db" "SELECT count(*) || '|' || group_concat(sweep_line) FROM (SELECT sweep_line FROM runs ORDER BY sweep_line)")
if [[ $rc != 70 || $n != "3|1,3,4" ]] ||
	! grep -q "manifest line 2: policy [a-z_0-9]*, seed [0-9]*, log $S/run-0002.log: no complete run; task ${JID}_2 FAILED" "$D/collect.err"; then
	fail "--collect after a killed task: exit $rc (want 70), runs '$n' (want 3|1,3,4): $(cat "$D/collect.err")"
else
	echo "ok (70): $(grep error "$D/collect.err")"
fi
for k in 1 3 4; do
	[[ -s $S/run-000$k.log ]] || fail "no log run-000$k.log"
done

# 3. the same command again: line 2 alone is submitted and merged
timeout 120 env SLURM_CONF="$CONF" "$MMSIM" "${SWEEP[@]}" -j 1 -o "$S" --slurm 2>"$D/rerun.err"
rc=$?
node_ok
JID2=$(awk '{print $1}' "$S/slurm.job")
LINES2=$(awk '{print $2}' "$S/slurm.job")
n=$(sqlite3 "$S/sweep.db" "SELECT count(*) || '|' || count(DISTINCT sweep_line) || '|' || count(DISTINCT run_id) FROM runs")
if [[ $rc != 0 || $JID2 == "$JID" || $LINES2 != 2 || $n != "4|4|4" ]]; then
	fail "the rerun: exit $rc, job $JID2 (first $JID), lines '$LINES2' (want 2), runs '$n' (want 4|4|4): $(cat "$D/rerun.err")"
else
	echo "ok: the rerun submitted line 2 alone (job $JID2): $(tail -1 "$D/rerun.err")"
fi
timeout 120 env SLURM_CONF="$CONF" "$MMSIM" "${SWEEP[@]}" -j 1 -o "$S" --slurm 2>"$D/again.err"
rc=$?
n=$(sqlite3 "$S/sweep.db" "SELECT count(*) FROM runs")
if [[ $rc != 0 || $(awk '{print $1}' "$S/slurm.job") != "$JID2" || $n != 4 ]] ||
	! grep -q "nothing submitted" "$D/again.err"; then
	fail "a complete sweep again: exit $rc, $n runs: $(cat "$D/again.err")"
fi

# 4. the same sweep here, without Slurm: the same database
"$MMSIM" "${SWEEP[@]}" -j 2 -o "$L" 2>"$D/local.err" || fail "the local sweep: $(cat "$D/local.err")"
dump() {
	sqlite3 "$1" "
	SELECT 'run', sweep_line, sweep_id, policy, workload, seed, config_hash, status, sim_seconds
	  FROM runs ORDER BY sweep_line;
	SELECT 'param', r.sweep_line, p.key, p.value FROM params p JOIN runs r USING (run_id)
	  ORDER BY 2, 3;
	SELECT 'vmstat', r.sweep_line, v.name, v.value FROM vmstat v JOIN runs r USING (run_id)
	  ORDER BY 2, 3;
	SELECT 'metric', r.sweep_line, m.name, m.value FROM metrics m JOIN runs r USING (run_id)
	  WHERE m.name NOT LIKE '%wall%' ORDER BY 2, 3;
	SELECT 'samples', r.sweep_line, count(*), total(s.value) FROM samples s JOIN runs r USING (run_id)
	  GROUP BY 2 ORDER BY 2;
	SELECT 'census', r.sweep_line, count(*), total(c.blocks + c.mixed_blocks + c.pages_lru)
	  FROM block_census c JOIN runs r USING (run_id) GROUP BY 2 ORDER BY 2;"
}
dump "$S/sweep.db" >"$D/slurm.dump"
dump "$L/sweep.db" >"$D/local.dump"
rows=$(grep -c '^vmstat' "$D/slurm.dump")
if ! cmp -s "$D/slurm.dump" "$D/local.dump" || ((rows < 4 * 50)); then
	fail "the Slurm sweep's database differs from the local one ($rows vmstat rows): $(diff "$D/local.dump" "$D/slurm.dump" | head -20)"
else
	echo "ok: the Slurm sweep's database equals the local sweep's ($(wc -l <"$D/slurm.dump") rows compared: runs, params, $rows vmstat, metrics, samples, censuses)"
fi

((FAILED)) && exit 1
echo "PASS"
exit 0
