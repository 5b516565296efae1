# sweep_identity.cmake - a sweep cannot mix or duplicate (issue 12):
#  - a sweep killed, its scenario edited, then resumed: refused (64), the
#    old runs kept apart; --force-new moves them aside and starts again;
#  - a resume, or a manifest line, run by another binary: refused;
#  - two sweeps at once on one directory: one runs, the other exits 75;
#  - a complete line run again (run --manifest F --index N) is merged once;
#  - leftovers of killed writers (*.tmp.PID) are removed by the next sweep;
#  - --vary KEY twice, --vary run.seed, a key both --set and --vary: 64.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

find_program(SQLITE3 sqlite3)
if(NOT SQLITE3)
	message(FATAL_ERROR "sqlite3 (the command-line shell) is needed to read the sweep's database")
endif()
function(query out db q)
	execute_process(COMMAND "${SQLITE3}" "${db}" "${q}" OUTPUT_VARIABLE r OUTPUT_STRIP_TRAILING_WHITESPACE)
	set(${out} "${r}" PARENT_SCOPE)
endfunction()

set(W "${CMAKE_CURRENT_BINARY_DIR}")
set(DIR "${W}/sw")
set(SCN "${W}/scenario.ini")
file(REMOVE_RECURSE "${DIR}")
configure_file("${SRC}/configs/smoke.ini" "${SCN}" COPYONLY)
set(SWEEP sweep "${SCN}" --vary vm.watermark_scale_factor=10,200 --seeds 2 -j 2 -o "${DIR}")

# ---- killed after its first run, the scenario edited, resumed: refused
set(ENV{MMSIM_SWEEP_KILL_AFTER} 1)
mmsim_run(r ${SWEEP})
unset(ENV{MMSIM_SWEEP_KILL_AFTER})
file(GLOB done1 "${DIR}/run-*.db")
list(LENGTH done1 n1)
if(n1 LESS 1 OR EXISTS "${DIR}/sweep.db")
	golden_fail("the killed sweep: ${n1} run files, sweep.db exists: ${r_ERR}")
endif()
file(READ "${SCN}" text)
string(REPLACE "region = 128M" "region = 64M" text "${text}")
file(WRITE "${SCN}" "${text}")
# The refusals from here on are pinned whole (golden_expect_error): ${DIR}
# is this run's directory; the scenario hashes (of text that holds this
# run's paths) are masked as HASH, the binaries' identities (a hash of the
# executable) as BINARY
set(GOLDEN_ERROR_MASK "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]" "HASH"
	"mmsim [0-9][^ ]* \\([^)]*\\) exe HASH" "BINARY")
golden_expect_error(64 "mmsim: error: ${DIR}: the resolved scenario of manifest line 1 has changed since the sweep was started (hash HASH, now HASH: the scenario or a file it reads was edited?): its runs and the new ones would be merged into one comparison; use another -o DIR, or --force-new to move the old sweep aside and start again"
	${SWEEP})
file(GLOB done2 "${DIR}/run-*.db")
list(LENGTH done2 n2)
if(EXISTS "${DIR}/sweep.db" OR NOT n2 EQUAL n1)
	golden_fail("resume after an edit: ${n2} run files (were ${n1}), sweep.db written")
endif()
# a line of it run on its own (as on a cluster) is refused too, nothing written
golden_expect_error(78 "mmsim: error: ${DIR}/manifest:4: the resolved scenario has changed since the sweep was started (hash HASH, now HASH: the scenario or a file it reads was edited?); start the sweep again (mmsim sweep --force-new) or restore the scenario"
	run --manifest "${DIR}/manifest" --index 4)
if(EXISTS "${DIR}/run-0004.db")
	golden_fail("run --manifest --index 4 after an edit wrote run-0004.db")
endif()

# ---- leftovers of killed writers, then --force-new
file(WRITE "${DIR}/run-0004.db.tmp.999999" "half a run")
file(WRITE "${DIR}/sweep.db.tmp.999998" "half a merge")
mmsim_run(r ${SWEEP} --force-new)
file(GLOB aside "${DIR}/superseded-*/run-*.db")
list(LENGTH aside na)
query(runs "${DIR}/sweep.db" "SELECT count(*), count(DISTINCT sweep_line), count(DISTINCT config_hash) FROM runs")
query(region "${DIR}/sweep.db" "SELECT count(*) FROM params WHERE key = 'workload.thp_faulter.region' AND value = '64M'")
if(NOT r_RC STREQUAL "0" OR NOT na EQUAL n1 OR NOT runs STREQUAL "4|4|4" OR NOT region STREQUAL "4")
	golden_fail("--force-new: exit '${r_RC}', ${na} old runs aside (expected ${n1}), runs '${runs}', region '${region}': ${r_ERR}")
else()
	message(STATUS "ok: --force-new moved ${na} runs aside and ran 4 on the edited scenario")
endif()
if(EXISTS "${DIR}/run-0004.db.tmp.999999" OR EXISTS "${DIR}/sweep.db.tmp.999998")
	golden_fail("the leftovers *.tmp.PID of dead writers are still there")
endif()

# ---- another binary: a copy of mmsim with one byte more
file(COPY "${MMSIM}" DESTINATION "${W}/other")
get_filename_component(exe "${MMSIM}" NAME)
set(OTHER "${W}/other/${exe}")
file(APPEND "${OTHER}" "x")
set(mmsim_self "${MMSIM}")
set(MMSIM "${OTHER}")
golden_expect_error(64 "mmsim: error: ${DIR} was started by another mmsim binary (BINARY; this one is BINARY): its runs and this binary's would be merged into one comparison; use another -o DIR, or --force-new to move the old sweep aside and start again"
	${SWEEP})
golden_expect_error(78 "mmsim: error: ${DIR}/manifest: the sweep was started by another mmsim binary (BINARY; this one is BINARY); run its lines with that binary, or start the sweep again (mmsim sweep --force-new)"
	run --manifest "${DIR}/manifest" --index 2)
set(MMSIM "${mmsim_self}")

# ---- a complete line run again, then merged: once
query(before "${DIR}/sweep.db" "SELECT run_id FROM runs WHERE sweep_line = 3")
mmsim_run(r run --manifest "${DIR}/manifest" --index 3)
query(line3 "${DIR}/run-0003.db" "SELECT run_id || '|' || sweep_line FROM runs")
mmsim_run(r2 ${SWEEP})
query(runs "${DIR}/sweep.db" "SELECT count(*), count(DISTINCT sweep_line) FROM runs")
query(after "${DIR}/sweep.db" "SELECT run_id || '|' || sweep_line FROM runs WHERE sweep_line = 3")
query(orphans "${DIR}/sweep.db" "SELECT count(*) FROM vmstat WHERE run_id = '${before}'")
if(NOT r_RC STREQUAL "0" OR NOT r2_RC STREQUAL "0" OR NOT runs STREQUAL "4|4"
		OR NOT after STREQUAL line3 OR NOT orphans STREQUAL "0")
	golden_fail("a line run again: exit '${r_RC}'/'${r2_RC}', runs '${runs}', line 3 '${after}' (file: '${line3}'), ${orphans} rows of the old run: ${r2_ERR}")
else()
	message(STATUS "ok: a line run again is in sweep.db once (${after})")
endif()

# ---- two sweeps at once on one directory: one runs, one is refused
set(D2 "${W}/two")
file(REMOVE_RECURSE "${D2}")
set(S2 sweep "${SRC}/configs/smoke.ini" --seeds 3 -j 1 -o "${D2}")
execute_process(COMMAND "${MMSIM}" ${S2} COMMAND "${MMSIM}" ${S2}
	RESULTS_VARIABLE rcs ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 300)
list(SORT rcs)
file(GLOB logs "${D2}/run-*.log")
query(runs "${D2}/sweep.db" "SELECT count(*), count(DISTINCT sweep_line) FROM runs")
# the refused one's message, whole but for the holder's pid, host and time
string(REGEX MATCH "mmsim: error: [^\n]*\n" refused "${err}")
string(REGEX REPLACE "\\(pid [0-9]+ on host [^,]*, since [0-9]+-[0-9]+-[0-9]+T[0-9:]+Z\\)" "(pid PID on host HOST, since TIME)"
	refused "${refused}")
set(want "mmsim: error: ${D2} is in use by another sweep (pid PID on host HOST, since TIME): two sweeps on one directory would both run every line; wait for it, or use another -o DIR\n")
if(NOT rcs STREQUAL "0;75" OR NOT refused STREQUAL want OR NOT runs STREQUAL "3|3")
	golden_fail("two sweeps at once: exit codes '${rcs}', runs '${runs}', '${err}'")
else()
	message(STATUS "ok (75): the second sweep on one directory is refused; 3 runs for 3 lines")
endif()

unset(GOLDEN_ERROR_MASK)

# ---- keys a sweep cannot take: 64, before anything is written; each
# case "ARGS|MESSAGE", the message pinned whole (golden_expect_error)
set(D3 "${W}/bad")
file(REMOVE_RECURSE "${D3}")
foreach(case
		"--vary;vm.swappiness=10;--vary;vm.swappiness=20|--vary vm.swappiness: the key is varied twice (--vary vm.swappiness too): give its values in one --vary KEY=V1,V2,..."
		"--vary;thp_faulter.region=64M;--vary;workload.thp_faulter.region=32M|--vary workload.thp_faulter.region: the key is varied twice (--vary thp_faulter.region too): give its values in one --vary KEY=V1,V2,..."
		"--vary;run.seed=1,2;--seeds;2|--vary run.seed: a sweep's seeds are --seeds N (seeds 1..N for every combination); run.seed cannot be varied"
		"--set;run.seed=3|--set run.seed=3: a sweep's seeds are --seeds N (seeds 1..N); run.seed cannot be set"
		"--vary;vm.swappiness=10,20;--set;vm.swappiness=30|--vary vm.swappiness: the key is also set (--set vm.swappiness=30): one would override the other"
		"--vary;vm.swappiness=10,10|--vary vm.swappiness: the value '10' is given twice")
	string(FIND "${case}" "|" bar)
	string(SUBSTRING "${case}" 0 ${bar} parts)
	math(EXPR bar "${bar} + 1")
	string(SUBSTRING "${case}" ${bar} -1 want)
	golden_expect_error(64 "mmsim: error: ${want}" sweep "${SRC}/configs/smoke.ini" ${parts} -o "${D3}")
	if(EXISTS "${D3}")
		golden_fail("sweep ${parts}: wrote ${D3}")
		file(REMOVE_RECURSE "${D3}")
	endif()
endforeach()

golden_finish()
