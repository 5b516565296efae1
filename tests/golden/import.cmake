# import.cmake - `mmsim import` of tests/fixtures/real/series (copies of a
# real machine's /proc files; tests/fixtures/real/README.md): what it says,
# that a second import adds nothing, the documented exit codes for bad
# input, and the compare table with a real column as the baseline beside
# two simulations (tests/golden/import-sim.sql), pinned in
# tests/golden/import-compare.txt; report and plot read the same database.
# (The stored values themselves: tests/unit/test_import_real.c.)
# Regenerate the table after a deliberate change with
#   mmsim compare all.db --baseline real:v6_15 --extra-rows cadence --spread \
#       > tests/golden/import-compare.txt
# in this test's directory (build/release/tests/golden/import/).
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

find_program(SQLITE3 sqlite3)
find_program(GNUPLOT gnuplot)
if(NOT SQLITE3 OR NOT GNUPLOT)
	message(FATAL_ERROR "golden import: needs sqlite3 and gnuplot in PATH (sqlite3: '${SQLITE3}', "
		"gnuplot: '${GNUPLOT}'); install them with scripts/install-deps.sh")
endif()

set(SERIES "${SRC}/tests/fixtures/real/series")
set(W "${CMAKE_CURRENT_BINARY_DIR}")
file(REMOVE_RECURSE "${W}/real.db" "${W}/sim.db" "${W}/all.db" "${W}/bad" "${W}/report" "${W}/plots")


# ---- bad input: usage 64, missing 66, malformed 65; nothing written.
# Each message pinned whole (golden_expect_error): ${W} stands for this
# test's scratch directory, ${IMPORT_HELP} for the usage (mmsim import
# --help) printed after getopt's line.
golden_help(IMPORT_HELP import)
golden_expect_error(64 "mmsim: error: import: no output database (-o DB)" import "${SERIES}")
golden_expect_error(64 "import: unrecognized option '--bogus'\n${IMPORT_HELP}" import --bogus)
golden_expect_error(66 "mmsim: error: import: ${W}/missing: No such file or directory"
	import "${W}/missing" -o "${W}/real.db")
file(COPY "${SERIES}/runs/0001-dm0" DESTINATION "${W}/bad")
file(WRITE "${W}/bad/0001-dm0/times" "real=4.46 user=1.23 sys=x exit=0\n")
golden_expect_error(65 "mmsim: error: import: ${W}/bad/0001-dm0/times:1: sys: 'x' is not a number of seconds"
	import "${W}/bad/0001-dm0" -o "${W}/real.db")
file(REMOVE "${W}/bad/0001-dm0/status")
golden_expect_error(66 "mmsim: error: import: ${W}/bad/0001-dm0/status: No such file or directory (the run is not complete)"
	import "${W}/bad/0001-dm0" -o "${W}/real.db")
if(EXISTS "${W}/real.db")
	golden_fail("a failed import left ${W}/real.db behind")
endif()

# ---- the series, twice
foreach(pass 3 0)
	mmsim_run(r import "${SERIES}" -o "${W}/real.db")
	set(want "${SERIES}: 3 runs (1 marked invalid: status failed), ${pass} new in ${W}/real.db; 1 incomplete skipped\n")
	if(NOT r_RC STREQUAL "0" OR NOT r_OUT STREQUAL want OR
	   NOT r_ERR STREQUAL "mmsim: import: ${SERIES}/runs/0004-dm1: no status file (not complete): skipped\n")
		golden_fail("mmsim import ${SERIES}: exit '${r_RC}', stdout '${r_OUT}' (expected '${want}'), stderr '${r_ERR}'")
	else()
		message(STATUS "ok: import, ${pass} new")
	endif()
endforeach()

# ---- beside simulations: the table with real:v6_15 as the baseline
execute_process(COMMAND "${SQLITE3}" -bail "${W}/sim.db" INPUT_FILE "${SRC}/results/schema.sql"
	RESULT_VARIABLE rc1)
execute_process(COMMAND "${SQLITE3}" -bail "${W}/sim.db" INPUT_FILE "${GOLDEN_DIR}/import-sim.sql"
	RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
	message(FATAL_ERROR "golden import: cannot build sim.db (${rc1}, ${rc2})")
endif()
mmsim_run(r merge -o "${W}/all.db" "${W}/real.db" "${W}/sim.db")
if(NOT r_RC STREQUAL "0")
	golden_fail("mmsim merge: exit '${r_RC}', stderr '${r_ERR}'")
endif()
# the run marked invalid is left out of its column, and compare says so
set(GOLDEN_EXPECT_STDERR "mmsim: compare: policy real:v6_15: 1 of its 2 runs left out, status 'failed' (watchdog breach: MemAvailable below the limit, group killed)\n")
golden_compare(import-compare.txt compare "${W}/all.db" --baseline real:v6_15 --extra-rows cadence --spread)
unset(GOLDEN_EXPECT_STDERR)
golden_expect_error(64 "mmsim: error: compare: unknown --extra-rows 'cadance' (valid: cadence, wakes)"
	compare "${W}/all.db" --extra-rows cadance)

# ---- report and plot take the real columns
mmsim_run(r report "${W}/all.db" -o "${W}/report" --baseline real:v6_15 --extra-rows cadence)
if(NOT r_RC STREQUAL "0")
	golden_fail("mmsim report: exit '${r_RC}', stderr '${r_ERR}'")
else()
	file(READ "${W}/report/report.html" html)
	foreach(s "data-column=\"real:v6_15\"" "data-column=\"real:defrag_mode\""
	          "Block census: n/a (a real kernel's run)" "<summary>pagetypeinfo.before</summary>"
	          "data-metric=\"pageoutrun\"")
		string(FIND "${html}" "${s}" at)
		if(at EQUAL -1)
			golden_fail("report.html has no '${s}'")
		endif()
	endforeach()
	message(STATUS "ok: report")
endif()
mmsim_run(r plot "${W}/all.db" -o "${W}/plots" --format svg)
if(NOT r_RC STREQUAL "0")
	golden_fail("mmsim plot: exit '${r_RC}', stderr '${r_ERR}'")
endif()

golden_finish()
