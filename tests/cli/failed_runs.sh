#!/usr/bin/env bash
# failed_runs.sh - failed runs are named, never reported as done (issue 26).
#
#   tests/cli/failed_runs.sh MMSIM SRC WORKDIR   (ctest: cli_failed_runs)
#
# A run fails deterministically when every compile job of its build needs
# more memory than the machine and swap have (kbuild.rss_mean=2G on a 512M
# machine without swap): the OOM killer takes each, no unit is built, and
# the run is stored with status 'failed' (docs/scenario.md).  A run whose
# process fails is made by planting a directory where its file goes.
#  - sweep: exits 70 and names each failed manifest line with its policy,
#    seed, log and the run's error, on a first sweep and on its resume;
#  - compare: one line on stderr per column dropped (or runs left out);
#  - reproduce: names the failed runs and their logs, exits 70.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
has() { grep -qF -- "$1" "$2"; }
MINI=$SRC/configs/mini.ini
OOM=(--set workload.names=kbuild --set machine.swap=0 --set machine.ram=512M --set kbuild.rss_sigma=0)
SW=sw

# 1. a sweep whose line 1 fails (stored 'failed'), line 2 ok
sweep() { "$MMSIM" sweep "$MINI" --vary kbuild.rss_mean=2G,20M "${OOM[@]}" -o sw >out.txt 2>err.txt; }
sweep
rc=$?
want="manifest line 1: policy vanilla, seed 1, log $SW/run-0001.log: stored as failed: kbuild: no unit built"
if [[ $rc == 70 ]] && has "$want" err.txt && has "run 1/2 FAILED: kbuild: no unit built" err.txt &&
	! has "run 1/2 done" err.txt && ! has "merged into" err.txt; then
	ok "sweep with a failed run: exit 70, line 1 named"
else
	fail "sweep with a failed run: exit $rc (want 70), want '$want' and no 'done': $(cat err.txt)"
fi

# 2. its resume: the failed run is complete (skipped), still named, still 70
sweep
rc=$?
[[ $rc == 70 ]] && has "$want" err.txt && ok "resume: exit 70, line 1 named again" ||
	fail "resume: exit $rc (want 70): $(cat err.txt)"

# 3. a line whose process fails: named with the error from its log
rm -f sw/run-0002.db sw/run-0002.log && mkdir sw/run-0002.db
sweep
rc=$?
want2="manifest line 2: policy vanilla, seed 1, log $SW/run-0002.log: no complete run: $SW/run-0002.db: exists and is not a regular file"
[[ $rc == 70 ]] && has "$want" err.txt && has "$want2" err.txt && has "run 2/2 FAILED (exit 73)" err.txt &&
	ok "a failed process: exit 70, line 2 named with its log's error" ||
	fail "a failed process: exit $rc (want 70), want '$want2': $(cat err.txt)"
rmdir sw/run-0002.db

# 4. compare says what it leaves out
"$MMSIM" compare sw/sweep.db --by workload.kbuild.rss_mean >out.txt 2>err.txt
rc=$?
want="mmsim: compare: workload.kbuild.rss_mean 2G dropped: its 1 run with status 'failed' (kbuild: no unit built"
[[ $rc == 0 ]] && has "$want" err.txt && [[ $(wc -l <err.txt) == 1 ]] &&
	ok "compare --by: the dropped column named" || fail "compare --by: exit $rc, want '$want': $(cat err.txt)"
"$MMSIM" compare sw/sweep.db >out.txt 2>err.txt
rc=$?
want="mmsim: compare: policy vanilla: 1 of its 2 runs left out, status 'failed' (kbuild: no unit built"
[[ $rc == 0 ]] && has "$want" err.txt && ok "compare: the runs left out named" ||
	fail "compare: exit $rc, want '$want': $(cat err.txt)"
"$MMSIM" compare sw/sweep.db --where "status = 'ok'" >out.txt 2>err.txt
[[ ! -s err.txt ]] && ok "compare --where: runs the filter excludes are not named" ||
	fail "compare --where \"status = 'ok'\": unexpected stderr: $(cat err.txt)"

# 5. reproduce: every run fails
"$MMSIM" reproduce "$MINI" "${OOM[@]}" --set kbuild.rss_mean=2G --seeds 1 -j 2 -o rp >out.txt 2>err.txt
rc=$?
if [[ $rc == 70 ]] &&
	has "manifest line 1: policy vanilla, seed 1, log rp/run-0001.log: stored as failed: kbuild" err.txt &&
	has "manifest line 2: policy hugealloc_rfc, seed 1, log rp/run-0002.log: stored as failed: kbuild" err.txt &&
	has "reproduce: no table" err.txt; then
	ok "reproduce: exit 70, both runs and their logs named"
else
	fail "reproduce: exit $rc (want 70): $(cat err.txt)"
fi

exit $FAILED
