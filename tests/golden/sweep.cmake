# sweep.cmake - mmsim sweep survives a kill: a 2 x 2 sweep (two values of
# a key, two seeds) on configs/smoke.ini is killed after its first
# completed run (MMSIM_SWEEP_KILL_AFTER=1: the sweep SIGKILLs itself, as
# an operator would; its running children die with it), then run again:
# it completes with exactly the four runs, each once; a third sweep runs
# nothing and merging again changes nothing.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

set(DIR "${CMAKE_CURRENT_BINARY_DIR}/sw")
file(REMOVE_RECURSE "${DIR}")
set(SWEEP sweep "${SRC}/configs/smoke.ini" --vary vm.watermark_scale_factor=10,200 --seeds 2 -j 2 -o "${DIR}")
find_program(SQLITE3 sqlite3)
if(NOT SQLITE3)
	message(FATAL_ERROR "sqlite3 (the command-line shell) is needed to read the sweep's database")
endif()

function(query out db q)
	execute_process(COMMAND "${SQLITE3}" "${db}" "${q}" OUTPUT_VARIABLE r OUTPUT_STRIP_TRAILING_WHITESPACE)
	set(${out} "${r}" PARENT_SCOPE)
endfunction()

# ---- bad input: nothing is written
golden_expect_error(78 "mmsim: error: --set vm.swappiness: '999' is not an integer in 0..200"
	sweep "${SRC}/configs/smoke.ini" --vary vm.swappiness=10,999 -o "${DIR}")
if(EXISTS "${DIR}")
	golden_fail("sweep with a bad value wrote ${DIR}")
endif()

# ---- killed after the first completed run
set(ENV{MMSIM_SWEEP_KILL_AFTER} 1)
mmsim_run(r ${SWEEP})
unset(ENV{MMSIM_SWEEP_KILL_AFTER})
if(r_RC STREQUAL "0" OR EXISTS "${DIR}/sweep.db")
	golden_fail("the killed sweep: exit '${r_RC}', sweep.db exists (it should have died before merging)")
endif()
file(GLOB done1 "${DIR}/run-*.db")
list(LENGTH done1 n1)
if(n1 LESS 1 OR n1 GREATER 3)
	golden_fail("after the kill: ${n1} run files, expected 1 to 3")
else()
	message(STATUS "ok: killed with ${n1} of 4 runs complete")
endif()
file(READ "${DIR}/manifest" manifest)
string(REGEX MATCHALL "\n" lines "${manifest}")
list(LENGTH lines nlines)
if(NOT nlines EQUAL 4)
	golden_fail("the manifest has ${nlines} lines, expected 4")
endif()

# ---- run again: completes, skipping what was done
mmsim_run(r ${SWEEP})
if(NOT r_RC STREQUAL "0")
	golden_fail("the resumed sweep: exit '${r_RC}': ${r_ERR}")
endif()
if(NOT r_ERR MATCHES "4 runs \\(([0-9]) run now, ([0-9]) already complete\\)")
	golden_fail("the resumed sweep's summary: '${r_ERR}'")
else()
	math(EXPR skipped "${CMAKE_MATCH_2}")
	if(NOT skipped EQUAL n1)
		golden_fail("the resumed sweep skipped ${skipped} runs, ${n1} were complete")
	endif()
endif()
file(GLOB done2 "${DIR}/run-*.db")
list(LENGTH done2 n2)
query(runs "${DIR}/sweep.db" "SELECT count(*), count(DISTINCT run_id), count(DISTINCT seed || '/' || config_hash), count(DISTINCT sweep_id) FROM runs")
query(pairs "${DIR}/sweep.db" "SELECT group_concat(v || ':' || seed, ' ') FROM (SELECT p.value AS v, r.seed FROM runs r JOIN params p ON p.run_id = r.run_id AND p.key = 'vm.watermark_scale_factor' ORDER BY 1, 2)")
if(NOT n2 EQUAL 4 OR NOT runs STREQUAL "4|4|4|1" OR NOT pairs STREQUAL "10:1 10:2 200:1 200:2")
	golden_fail("after resuming: ${n2} files, runs '${runs}' (expected 4|4|4|1), combinations '${pairs}'")
else()
	message(STATUS "ok: 4 run files, 4 distinct runs in sweep.db: ${pairs}")
endif()

# ---- once more: nothing to run, and the merge changes nothing
query(before "${DIR}/sweep.db" "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM vmstat), (SELECT count(*) FROM samples), (SELECT count(*) FROM block_census), (SELECT count(*) FROM params)")
file(TIMESTAMP "${DIR}/run-0001.db" t1)
mmsim_run(r ${SWEEP})
query(after "${DIR}/sweep.db" "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM vmstat), (SELECT count(*) FROM samples), (SELECT count(*) FROM block_census), (SELECT count(*) FROM params)")
file(TIMESTAMP "${DIR}/run-0001.db" t2)
if(NOT r_RC STREQUAL "0" OR NOT r_ERR MATCHES "\\(0 run now, 4 already complete\\)"
		OR NOT before STREQUAL after OR NOT t1 STREQUAL t2)
	golden_fail("a third sweep: exit '${r_RC}', '${r_ERR}', rows ${before} -> ${after}")
else()
	message(STATUS "ok: a finished sweep runs nothing; merging again keeps ${after} rows")
endif()

# ---- a manifest line runs on its own (as on a cluster), into its file
file(REMOVE "${DIR}/run-0003.db")
mmsim_run(r run --manifest "${DIR}/manifest" --index 3)
query(seed3 "${DIR}/run-0003.db" "SELECT seed FROM runs")
if(NOT r_RC STREQUAL "0" OR NOT seed3 STREQUAL "1")
	golden_fail("run --manifest --index 3: exit '${r_RC}' '${r_ERR}', seed '${seed3}'")
endif()

# ---- another sweep into the same directory is refused
# (the message pinned whole: golden_expect_error, ${DIR} this run's path)
golden_expect_error(64 "mmsim: error: ${DIR} holds another sweep's manifest (another scenario path, --vary, --set or --seeds); use another -o DIR, or --force-new to move the old sweep aside and start again"
	sweep "${SRC}/configs/smoke.ini" --seeds 3 -o "${DIR}")

golden_finish()
