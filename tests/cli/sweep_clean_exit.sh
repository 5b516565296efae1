#!/usr/bin/env bash
# sweep_clean_exit.sh - a run and a sweep of configs/smoke.ini exit 0
# with every run ok, in every build.
#
#   tests/cli/sweep_clean_exit.sh MMSIM SRC WORKDIR   (ctest: cli_sweep_clean_exit)
#
# Its point is the sanitizer build (ctest sets ASAN_OPTIONS=detect_leaks=1
# there, inherited by the sweep's runs): a leak at exit makes a run exit
# non-zero, and a sweep under ASan then marked every run failed (the
# engine's kswapd and kcompactd semaphores, issue 26).  In a Release
# build it checks the same exits and statuses without the leak check.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
need sqlite3
echo "note: ASAN_OPTIONS='${ASAN_OPTIONS:-}'"

"$MMSIM" run "$SRC/configs/smoke.ini" -o run.db >out.txt 2>err.txt
rc=$?
[[ $rc == 0 ]] && ok "mmsim run smoke.ini: exit 0" || fail "mmsim run smoke.ini: exit $rc: $(tail -5 err.txt)"

"$MMSIM" sweep "$SRC/configs/smoke.ini" --vary policy.name=vanilla,hugealloc_rfc --seeds 2 -j 2 -o sw \
	>out.txt 2>err.txt
rc=$?
n=$(sqlite3 sw/sweep.db "SELECT count(*) FROM runs WHERE status = 'ok'" 2>&1)
[[ $rc == 0 && $n == 4 ]] && ok "sweep of smoke.ini: exit 0, 4 runs ok" ||
	fail "sweep of smoke.ini: exit $rc, '$n' runs ok of 4: $(tail -5 err.txt) $(tail -5 sw/run-0001.log 2>/dev/null)"

exit $FAILED
