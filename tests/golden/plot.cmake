# plot.cmake - `mmsim plot` on a hand-written database: the files it
# writes, the numbers in them (worked out in plot-fixture.sql), and the
# exit codes for a missing, foreign or incompatible database.
#
# The database is built here with the sqlite3 CLI from results/schema.sql
# and tests/golden/plot-fixture.sql.  gnuplot and sqlite3 are required:
# scripts/install-deps.sh installs them, so a missing one fails the test
# rather than skipping it.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

find_program(SQLITE3 sqlite3)
find_program(GNUPLOT gnuplot)
if(NOT SQLITE3 OR NOT GNUPLOT)
	message(FATAL_ERROR "golden plot: needs sqlite3 and gnuplot in PATH (sqlite3: '${SQLITE3}', "
		"gnuplot: '${GNUPLOT}'); install them with scripts/install-deps.sh")
endif()

# make_db(FILE SQL...): a fresh database from the SQL files, in order
function(make_db db)
	file(REMOVE "${db}")
	foreach(sql IN LISTS ARGN)
		execute_process(COMMAND "${SQLITE3}" -bail "${db}"
			INPUT_FILE "${sql}" RESULT_VARIABLE rc ERROR_VARIABLE err)
		if(NOT rc EQUAL 0)
			message(FATAL_ERROR "golden plot: sqlite3 ${db} < ${sql}: exit ${rc}: ${err}")
		endif()
	endforeach()
endfunction()

# data_of(VAR FILE): FILE without its comment lines (blank lines, which
# separate gnuplot's blocks, stay)
function(data_of var file)
	file(READ "${file}" text)
	string(REGEX REPLACE "\n#[^\n]*" "" text "\n${text}")
	string(REGEX REPLACE "^\n" "" text "${text}")
	set(${var} "${text}" PARENT_SCOPE)
endfunction()

# expect_data(FILE EXPECTED): the data lines of DIR/FILE are EXPECTED
function(expect_data file expected)
	if(NOT EXISTS "${file}")
		golden_fail("${file} was not written")
	else()
		data_of(got "${file}")
		if(NOT got STREQUAL expected)
			golden_fail("${file}: data lines differ\n--- expected\n${expected}--- got\n${got}---")
		else()
			message(STATUS "ok: ${file} has the hand-computed values")
		endif()
	endif()
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()

set(schema "${SRC}/results/schema.sql")
set(db "${CMAKE_CURRENT_BINARY_DIR}/fixture.db")
make_db("${db}" "${schema}" "${GOLDEN_DIR}/plot-fixture.sql")

# ---- the fixture, as SVG: every plot, and nothing but SVG
set(out "${CMAKE_CURRENT_BINARY_DIR}/out")
file(REMOVE_RECURSE "${out}")
mmsim_run(r plot "${db}" -o "${out}" --format svg)
if(NOT r_RC STREQUAL "0")
	golden_fail("mmsim plot fixture.db: exit '${r_RC}', stderr: ${r_ERR}")
endif()
if(r_ERR MATCHES "mmsim: error: ")
	golden_fail("mmsim plot fixture.db: an error on stderr: ${r_ERR}")
endif()
foreach(name thp_success blocks census blockmap-vanilla-seed1 blockmap-hygiene-seed1
		sweep-thp-fault-fail-rate-pct)
	foreach(ext dat gp svg)
		set(f "${out}/${name}.${ext}")
		if(NOT EXISTS "${f}")
			golden_fail("mmsim plot: ${name}.${ext} not written")
			continue()
		endif()
		file(SIZE "${f}" size)
		if(size EQUAL 0)
			golden_fail("mmsim plot: ${name}.${ext} is empty")
		endif()
		string(FIND "${r_OUT}" "${f}\n" listed)
		if(listed EQUAL -1)
			golden_fail("mmsim plot: ${name}.${ext} is not in the list printed: '${r_OUT}'")
		endif()
	endforeach()
	file(READ "${out}/${name}.svg" svg LIMIT 4096)
	if(NOT svg MATCHES "<svg")
		golden_fail("mmsim plot: ${name}.svg is not SVG")
	endif()
	if(EXISTS "${out}/${name}.png")
		golden_fail("mmsim plot --format svg wrote ${name}.png")
	endif()
endforeach()
# vanilla's second seed and the failed run have maps, but only the first
# seed of each policy is drawn
file(GLOB maps "${out}/blockmap-*.dat")
list(LENGTH maps n)
if(NOT n EQUAL 2)
	golden_fail("expected 2 blockmaps (first seed of each policy), got: ${maps}")
endif()

# the success rate per interval, mean min max runs (the failed run's 0%
# would show if it were read)
expect_data("${out}/thp_success.dat" [=[1 62.5 50 75 2
2 100 100 100 1
3 61.6667 40 83.3333 2


1 75 50 100 2
2 100 100 100 2
3 100 100 100 2
]=])
expect_data("${out}/blocks.dat" [=[0 42 3 2
10 25 7 2


0 40 0 1
10 35 1 1
]=])
# blocks holding foreign pages per type over time: vanilla unmovable t0
# 1, 3 -> 2 (1..3), t10 3, 5 -> 4 (3..5); movable t0 2, 0 -> 1 (0..2),
# t10 4, 2 -> 3 (2..4); no reclaimable rows (0); hygiene's one run
expect_data("${out}/census.dat" [=[0 2 1 3 0 0 0 1 0 2 2
10 4 3 5 0 0 0 3 2 4 2


0 0 0 0 0 0 0 0 0 0 1
10 1 1 1 0 0 0 0 0 0 1
]=])
# per-run fail rates, then the mean: vanilla at 10 is 17.5, not 20/140
expect_data("${out}/sweep-thp-fault-fail-rate-pct.dat" [=[10 17.5 10 25 2 "10"
200 4 3 5 2 "200"


10 1.5 1 2 2 "10"
200 0.5 0 1 2 "200"
]=])
# irregular times 0, 10, 30: a 10 s grid, t = 20 repeats t = 10; the
# missing cell is "no data" (6); "Movable mixed" is 8
expect_data("${out}/blockmap-hygiene-seed1.dat" [=[0 0 0
0 1 4
0 2 4

10 0 0
10 1 8
10 2 5

20 0 0
20 1 8
20 2 5

30 0 0
30 1 1
30 2 6

]=])

# ---- another metric (a metrics name) against a named parameter, as PNG
set(out2 "${CMAKE_CURRENT_BINARY_DIR}/out-real_time")
file(REMOVE_RECURSE "${out2}")
mmsim_run(r plot "${db}" -o "${out2}" --format png --metric real_time
	--param vm.watermark_scale_factor)
if(NOT r_RC STREQUAL "0" OR NOT EXISTS "${out2}/sweep-real_time.png")
	golden_fail("mmsim plot --metric real_time: exit '${r_RC}', no sweep-real_time.png; stderr: ${r_ERR}")
elseif(EXISTS "${out2}/sweep-real_time.svg")
	golden_fail("mmsim plot --format png wrote sweep-real_time.svg")
else()
	message(STATUS "ok: mmsim plot --metric real_time --format png")
endif()
expect_data("${out2}/sweep-real_time.dat" [=[10 101 100 102 2 "10"
200 103 103 103 2 "200"


10 102 101 103 2 "10"
200 104 104 104 2 "200"
]=])

# ---- the zero-denominator rule, the same in the table and the plot: the
# fixture has no compact_stall, so every run's success rate is 0/0, which
# the one definition (results/metrics.c) makes 0; the plot draws it as 0
# for every run (it used to drop them all and skip the plot) and
# `mmsim compare --format values` gives the same 0 per seed
set(out3 "${CMAKE_CURRENT_BINARY_DIR}/out-zero")
file(REMOVE_RECURSE "${out3}")
mmsim_run(r plot "${db}" -o "${out3}" --format svg --metric "Direct compact success rate %")
if(NOT r_RC STREQUAL "0")
	golden_fail("mmsim plot --metric 'Direct compact success rate %': exit '${r_RC}'; stderr: ${r_ERR}")
endif()
expect_data("${out3}/sweep-direct-compact-success-rate-pct.dat" [=[10 0 0 0 2 "10"
200 0 0 0 2 "200"


10 0 0 0 2 "10"
200 0 0 0 2 "200"
]=])
# (the sweep's two watermark_scale_factors in one column per policy, as the plot's x axis has them)
mmsim_run(r compare "${db}" --format values --allow-mixed)
string(REGEX MATCHALL "Direct compact success rate %,[a-z_]+,[0-9]+,[-+.0-9a-z]+" zero "${r_OUT}")
list(LENGTH zero nzero)
list(FILTER zero EXCLUDE REGEX ",0$")
list(LENGTH zero nonzero)
math(EXPR nzeros "${nzero} - ${nonzero}")
if(NOT r_RC STREQUAL "0" OR NOT nzero EQUAL 4 OR NOT nzeros EQUAL 4)
	golden_fail("mmsim compare --format values: success rate per seed '${zero}' (expected 4 seeds of 0)")
else()
	message(STATUS "ok: a 0/0 rate is 0 in the plot and in compare's per-seed values")
endif()

# ---- an empty database (the schema only): nothing to draw is no error
set(empty "${CMAKE_CURRENT_BINARY_DIR}/empty.db")
make_db("${empty}" "${schema}")
file(REMOVE_RECURSE "${CMAKE_CURRENT_BINARY_DIR}/out-empty")
mmsim_run(r plot "${empty}" -o "${CMAKE_CURRENT_BINARY_DIR}/out-empty")
file(GLOB written "${CMAKE_CURRENT_BINARY_DIR}/out-empty/*")
if(NOT r_RC STREQUAL "0" OR NOT r_OUT STREQUAL "" OR written OR NOT r_ERR MATCHES "skipped")
	golden_fail("mmsim plot empty.db: exit '${r_RC}', wrote '${written}', stdout '${r_OUT}', stderr '${r_ERR}'")
else()
	message(STATUS "ok (0): mmsim plot empty.db draws nothing and says why")
endif()

# ---- bad input: 66 missing, 65 not a results database, 64 bad usage;
# each message pinned whole (golden_expect_error), ${W} for this test's
# scratch directory
set(W "${CMAKE_CURRENT_BINARY_DIR}")
set(missing "${W}/no-such.db")
file(REMOVE "${missing}")
golden_expect_error(66 "mmsim: error: plot: ${W}/no-such.db: No such file or directory"
	plot "${missing}" -o "${W}/out-bad")

set(text "${W}/not-a.db")
file(WRITE "${text}" "this is not a database, it is text and longer than a header would be\n")
golden_expect_error(65 "mmsim: error: plot: ${W}/not-a.db: not an mmsim results database (file is not a database)"
	plot "${text}" -o "${W}/out-bad")

set(v99 "${W}/version99.db")
file(WRITE "${W}/version99.sql" "PRAGMA user_version = 99;\n")
make_db("${v99}" "${schema}" "${W}/version99.sql")
golden_expect_error(65 "mmsim: error: plot: ${W}/version99.db: not an mmsim results database (schema version 99, expected 1..3)"
	plot "${v99}" -o "${W}/out-bad")

set(noblockmap "${W}/noblockmap.db")
file(WRITE "${W}/noblockmap.sql" "DROP TABLE blockmap;\n")
make_db("${noblockmap}" "${schema}" "${W}/noblockmap.sql")
golden_expect_error(65 "mmsim: error: plot: ${W}/noblockmap.db: not an mmsim results database (no table 'blockmap')"
	plot "${noblockmap}" -o "${W}/out-bad")

golden_expect_error(64 "mmsim: error: plot: unknown metric 'bogus' (a compare row such as 'THP fault fail rate %', or a name in the vmstat or metrics table of ${W}/fixture.db)"
	plot "${db}" -o "${W}/out-bad" --metric bogus)
golden_expect_error(64 "mmsim: error: plot: unknown format 'pdf' (valid: png, svg, both)"
	plot "${db}" -o "${W}/out-bad" --format pdf)
golden_expect_error(64 "mmsim: error: plot: no output directory given (-o DIR)" plot "${db}")
golden_expect_error(64 "mmsim: error: plot: no run 'nosuchrun' in ${W}/fixture.db"
	plot "${db}" -o "${W}/out-bad" --run nosuchrun)
if(EXISTS "${CMAKE_CURRENT_BINARY_DIR}/out-bad")
	golden_fail("mmsim plot wrote out-bad/ although every call there was an error")
endif()

# ---- no gnuplot in PATH: 69, saying so
set(path "$ENV{PATH}")
set(ENV{PATH} /nonexistent)
golden_expect_error(69 "mmsim: error: plot: gnuplot not found in PATH (install gnuplot-nox: scripts/install-deps.sh)"
	plot "${db}" -o "${W}/out-nognuplot")
set(ENV{PATH} "${path}")

golden_finish()
