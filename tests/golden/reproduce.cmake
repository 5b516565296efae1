# reproduce.cmake - mmsim reproduce on configs/mini.ini with one seed (two
# runs of about 1.5 s each): the table has the cover letter's 25 rows in
# order with two columns, vanilla then hugealloc_rfc; the plots are drawn; run
# again, it runs nothing and prints the same table.  The numbers are
# checked against the database reproduce wrote, not against recorded
# values (tests/scenario/scenario_regression.c pins those): the table is
# `mmsim compare` on that database, line for line, and rows taken straight
# from counters equal the runs' /proc/vmstat counters in it (THP fault
# alloc and fallback, Direct compact stall and success, Pages kswapd
# scanned, Swap out and in) with the two rates recomputed from them by
# sqlite (THP fault fail rate %, Direct compact success rate %).
#
# Also: how the default scenario is found (checked with a bad --set, which
# stops every run before it starts: the default configs/hugealloc.ini must
# not be run here), and the usage errors.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

find_program(GNUPLOT gnuplot)
if(NOT GNUPLOT)
	message(FATAL_ERROR "golden reproduce: needs gnuplot in PATH; install it with scripts/install-deps.sh")
endif()

set(DIR "${CMAKE_CURRENT_BINARY_DIR}/out/reproduce")
file(REMOVE_RECURSE "${CMAKE_CURRENT_BINARY_DIR}/out")
set(REPRODUCE reproduce "${SRC}/configs/mini.ini" --seeds 1 -j 2 -o "${DIR}")

set(ROWS ${COVER_LETTER_ROWS})

# check_table(OUT): OUT is the header, the Runs line (1 run a column),
# the 25 rows in order with two "value (change%)" columns, and where the
# database and the plots are
function(check_table out)
	set(cell "[-0-9.]+ \\( *[-+]([0-9.]+|inf)%\\)")
	string(REPLACE "\n" ";" lines "${out}")
	list(GET lines 0 header)
	list(GET lines 1 runs)
	if(NOT header MATCHES "^ +HUGEALLOC-VANILLA +HUGEALLOC-HUGEALLOC_RFC$")
		golden_fail("the header is '${header}', expected HUGEALLOC-VANILLA then HUGEALLOC-HUGEALLOC_RFC")
	endif()
	if(NOT runs MATCHES "^Runs +1 +1$")
		golden_fail("the Runs line is '${runs}', expected one run a column")
	endif()
	set(i 2)
	golden_check_rows(lines i 2 cell)
	list(GET lines ${i} blank)
	if(NOT blank STREQUAL "")
		golden_fail("after the 25 rows: '${blank}', expected the end of the table")
	endif()
	if(NOT out MATCHES "\nDatabase: ${DIR}/sweep.db " OR NOT out MATCHES "\nPlots: +${DIR}/plots/\n")
		golden_fail("stdout does not say where the database and the plots are:\n${out}")
	endif()
	# the HTML report beside the plots, its path printed
	if(NOT out MATCHES "\nReport: +${DIR}/report.html\n" OR NOT EXISTS "${DIR}/report.html")
		golden_fail("stdout does not name ${DIR}/report.html, or it was not written:\n${out}")
	endif()
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()

# ---- the reproduction
mmsim_run(r ${REPRODUCE})
if(NOT r_RC STREQUAL "0")
	golden_fail("mmsim reproduce: exit '${r_RC}': ${r_ERR}")
	golden_finish()
endif()
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/first.stdout" "${r_OUT}")
check_table("${r_OUT}")
if(NOT r_ERR MATCHES "2 runs \\(2 run now, 0 already complete\\)")
	golden_fail("the first reproduce did not run both runs: ${r_ERR}")
endif()
foreach(plot thp_success blocks blockmap-vanilla-seed1 blockmap-hugealloc_rfc-seed1)
	foreach(ext png svg dat gp)
		if(NOT EXISTS "${DIR}/plots/${plot}.${ext}")
			golden_fail("no ${DIR}/plots/${plot}.${ext}")
		endif()
	endforeach()
	if(NOT r_OUT MATCHES "${DIR}/plots/${plot}.png\n")
		golden_fail("stdout does not list ${plot}.png")
	endif()
endforeach()
if(GOLDEN_FAILURES EQUAL 0)
	message(STATUS "ok: the table (25 rows, vanilla and hugealloc_rfc) and the plots")
endif()

# ---- the numbers: the table is `mmsim compare` on the database ...
mmsim_run(c compare "${DIR}/sweep.db")
string(REPLACE "\n" ";" r_lines "${r_OUT}")
string(REPLACE "\n" ";" c_lines "${c_OUT}")
list(LENGTH ROWS nrows)
math(EXPR last "${nrows} + 1")          # the header, Runs, the rows
if(NOT c_RC STREQUAL "0")
	golden_fail("mmsim compare ${DIR}/sweep.db: exit '${c_RC}': ${c_ERR}")
else()
	foreach(i RANGE 0 ${last})
		list(GET r_lines ${i} rl)
		list(GET c_lines ${i} cl)
		if(NOT rl STREQUAL cl)
			golden_fail("line ${i}: reproduce printed '${rl}', mmsim compare on its database '${cl}'")
		endif()
	endforeach()
endif()

# ... and its counter rows are the runs' vmstat counters
find_program(SQLITE3 sqlite3)
if(NOT SQLITE3)
	golden_fail("sqlite3 (the command-line shell) is needed to read the database")
	golden_finish()
endif()
# cell(ROW COLUMN OUT): the value (before its change) of ROW in column 1 or 2
function(cell row col out)
	foreach(line IN LISTS r_lines)
		if(line MATCHES "^${row}  +([-0-9.]+) \\( *[-+][0-9.inf]+%\\) +([-0-9.]+) \\(")
			set(${out} "${CMAKE_MATCH_${col}}" PARENT_SCOPE)
			return()
		endif()
	endforeach()
	set(${out} "missing" PARENT_SCOPE)
endfunction()
function(db_value policy expr out)
	execute_process(COMMAND "${SQLITE3}" "${DIR}/sweep.db"
		"SELECT ${expr} FROM runs r WHERE r.policy = '${policy}' AND r.status = 'ok'"
		RESULT_VARIABLE rc OUTPUT_VARIABLE v ERROR_VARIABLE e OUTPUT_STRIP_TRAILING_WHITESPACE)
	if(NOT rc STREQUAL "0")
		set(v "sqlite3 failed: ${e}")
	endif()
	set(${out} "${v}" PARENT_SCOPE)
endfunction()
set(V "(SELECT value FROM vmstat v WHERE v.run_id = r.run_id AND v.name = '%s')")
set(CHECKS
	"THP fault alloc=printf('%.2f', thp_fault_alloc)"
	"THP fault fallback=printf('%.2f', thp_fault_fallback)"
	"THP fault fail rate %=printf('%.2f', 100.0 * thp_fault_fallback / (thp_fault_alloc + thp_fault_fallback))"
	"Direct compact stall=printf('%.2f', compact_stall)"
	"Direct compact success=printf('%.2f', compact_success)"
	"Direct compact success rate %=printf('%.2f', 100.0 * compact_success / compact_stall)"
	"Pages kswapd scanned=printf('%.2f', pgscan_kswapd)"
	"Swap out=printf('%.2f', pswpout)"
	"Swap in=printf('%.2f', pswpin)")
set(nchecked 0)
foreach(check IN LISTS CHECKS)
	string(REGEX MATCH "^([^=]+)=(.*)$" m "${check}")
	set(row "${CMAKE_MATCH_1}")
	set(expr "${CMAKE_MATCH_2}")
	# each vmstat name in the expression becomes its subquery
	foreach(name thp_fault_alloc thp_fault_fallback compact_stall compact_success pgscan_kswapd pswpout pswpin)
		string(REPLACE "%s" "${name}" sub "${V}")
		string(REGEX REPLACE "([^a-z_])${name}([^a-z_])" "\\1${sub}\\2" expr "${expr}")
	endforeach()
	foreach(col 1 2)
		if(col EQUAL 1)
			set(policy vanilla)
		else()
			set(policy hugealloc_rfc)
		endif()
		cell("${row}" ${col} shown)
		db_value(${policy} "${expr}" want)
		if(NOT shown STREQUAL want)
			golden_fail("${row}, ${policy}: the table says '${shown}', the database's vmstat '${want}'")
		else()
			math(EXPR nchecked "${nchecked} + 1")
		endif()
	endforeach()
endforeach()
if(GOLDEN_FAILURES EQUAL 0)
	message(STATUS "ok: the table is mmsim compare on its database; ${nchecked} cells equal its vmstat")
endif()

# ---- again: nothing runs, the same table
set(first "${r_OUT}")
file(TIMESTAMP "${DIR}/run-0001.db" t1)
mmsim_run(r ${REPRODUCE})
file(TIMESTAMP "${DIR}/run-0001.db" t2)
if(NOT r_RC STREQUAL "0" OR NOT r_ERR MATCHES "2 runs \\(0 run now, 2 already complete\\)"
		OR NOT t1 STREQUAL t2)
	golden_fail("the second reproduce: exit '${r_RC}', run-0001.db ${t1} -> ${t2}, stderr: ${r_ERR}")
elseif(NOT r_OUT STREQUAL first)
	file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/second.stdout" "${r_OUT}")
	golden_fail("the second reproduce printed another table (first.stdout, second.stdout)")
else()
	message(STATUS "ok: run again, reproduce skips both runs and prints the same table")
endif()

# ---- --policies: defrag_mode against its own baseline (its cover letter's
# comparison), the first policy the baseline column; an alias is stored
# under its canonical name
set(DIR2 "${CMAKE_CURRENT_BINARY_DIR}/out/defrag")
mmsim_run(r reproduce "${SRC}/configs/mini.ini" --policies v6_15,defrag_mode --seeds 1 -j 2 -o "${DIR2}")
string(REPLACE "\n" ";" d_lines "${r_OUT}")
list(GET d_lines 0 d_header)
if(NOT r_RC STREQUAL "0" OR NOT d_header MATCHES "^ +HUGEALLOC-V6_15 +HUGEALLOC-DEFRAG_MODE$"
		OR NOT r_ERR MATCHES "policies v6_15 and defrag_mode, seeds 1..1: 2 runs")
	golden_fail("reproduce --policies v6_15,defrag_mode: exit '${r_RC}', header '${d_header}', stderr: ${r_ERR}")
else()
	execute_process(COMMAND "${SQLITE3}" "${DIR2}/sweep.db" "SELECT group_concat(policy) FROM (SELECT policy FROM runs ORDER BY policy)"
		OUTPUT_VARIABLE stored OUTPUT_STRIP_TRAILING_WHITESPACE)
	if(NOT stored STREQUAL "defrag_mode,v6_15")
		golden_fail("reproduce --policies v6_15,defrag_mode stored the policies '${stored}'")
	else()
		message(STATUS "ok: --policies v6_15,defrag_mode: v6_15 the baseline column, defrag_mode beside it")
	endif()
endif()

# ---- the default scenario: the source tree's configs/hugealloc.ini.  The
# bad value stops the sweep while it checks the runs: nothing runs and
# nothing is written.  Refusals from here on are pinned whole
# (golden_expect_error): ${W} stands for this test's scratch directory,
# ${REPRODUCE_HELP} for the usage (mmsim reproduce --help).
set(W "${CMAKE_CURRENT_BINARY_DIR}")
golden_expect_error(78 "mmsim: reproduce: ${SRC}/configs/hugealloc.ini, policies vanilla and hugealloc_rfc, seeds 1..1: 2 runs, 1 at a time, in ${W}/out/default\nmmsim: error: --set vm.swappiness: '999' is not an integer in 0..200"
	reproduce --set vm.swappiness=999 --seeds 1 -j 1 -o "${W}/out/default")
if(EXISTS "${W}/out/default")
	golden_fail("reproduce without a scenario wrote ${W}/out/default")
endif()

# ---- usage errors: 64, nothing on stdout
golden_help(REPRODUCE_HELP reproduce)
golden_expect_error(64 "mmsim: error: reproduce: --set policy.name=hygiene: policy.name (--policies) and run.seed (1..N) are set by reproduce"
	reproduce --set policy.name=hygiene)
golden_expect_error(64 "mmsim: error: reproduce: --set run.seed=2: policy.name (--policies) and run.seed (1..N) are set by reproduce"
	reproduce --set run.seed=2)
golden_expect_error(64 "mmsim: error: reproduce: one scenario file at most\n${REPRODUCE_HELP}"
	reproduce a.ini b.ini)
golden_expect_error(64 "mmsim: error: --seeds: '0' is not a number of seeds (1..100000)" reproduce --seeds 0)
golden_expect_error(64 "mmsim: error: -j: '0' is not a number of jobs (1..1024)" reproduce -j 0)
golden_expect_error(64 "reproduce: unrecognized option '--bogus'\n${REPRODUCE_HELP}" reproduce --bogus)
golden_expect_error(64 "mmsim: error: --policies: 'vanilla': two policies at least (the first is the baseline)"
	reproduce --policies vanilla)
golden_expect_error(64 "mmsim: error: --policies: unknown policy 'nope' (valid: vanilla, hugealloc_rfc, v6_15, defrag_mode, tao)"
	reproduce --policies vanilla,nope)
golden_expect_error(64 "mmsim: error: --policies: hugealloc_rfc is named twice"
	reproduce --policies hygiene,hugealloc_rfc)
golden_expect_error(64 "mmsim: error: --policies: ',': two policies at least (the first is the baseline)"
	reproduce --policies ,)
golden_expect_error(66 "mmsim: error: cannot open ${W}/no-such.ini: No such file or directory"
	reproduce "${W}/no-such.ini" -o "${W}/out/none")
if(EXISTS "${W}/out/none")
	golden_fail("reproduce of a missing scenario wrote ${W}/out/none")
endif()
mmsim_run(r reproduce --help)
if(NOT r_RC STREQUAL "0" OR NOT r_OUT MATCHES "^usage: mmsim reproduce ")
	golden_fail("reproduce --help: exit '${r_RC}', stdout: ${r_OUT}")
endif()

golden_finish()
