# _common.cmake - helpers for the golden tests (include()d, not a test).
#
# The scripts run as `cmake -DMMSIM=<mmsim> -DSRC=<source dir> -P FILE` from
# a scratch directory of their own (build/tests/golden/<name>/), where they
# leave what mmsim printed for a look after a failure.

cmake_minimum_required(VERSION 3.18)

if(NOT DEFINED MMSIM OR NOT EXISTS "${MMSIM}")
	message(FATAL_ERROR "golden: -DMMSIM=<path to the mmsim executable> is required (got '${MMSIM}')")
endif()
if(NOT DEFINED SRC OR NOT IS_DIRECTORY "${SRC}/tests/golden")
	message(FATAL_ERROR "golden: -DSRC=<source directory> is required (got '${SRC}')")
endif()

set(GOLDEN_DIR "${SRC}/tests/golden")
set(GOLDEN_FAILURES 0)

# The output must not depend on the caller's locale.
set(ENV{LC_ALL} C)

# golden_fail(MESSAGE...): record a failure and go on (golden_finish() ends
# the test), so that one run reports every mismatch.
macro(golden_fail)
	message(SEND_ERROR "FAIL: " ${ARGN})
	math(EXPR GOLDEN_FAILURES "${GOLDEN_FAILURES} + 1")
endmacro()

# golden_check_rows(LINES INDEX NCOL CELL): the lines of the list LINES from
# line ${INDEX} on are the cover letter's rows (COVER_LETTER_ROWS), in order,
# each followed by NCOL cells matching the regex in the variable CELL; leaves
# INDEX past the last row.  A macro, so that golden_fail counts in the
# caller's scope; the names of variables are passed, not their values (a
# macro's argument is substituted as text, and would lose the regex's
# backslashes).
macro(golden_check_rows _gcr_lines _gcr_index _gcr_ncol _gcr_cell)
	string(REPEAT " +${${_gcr_cell}}" ${_gcr_ncol} _gcr_cells)
	foreach(_gcr_row IN LISTS COVER_LETTER_ROWS)
		list(GET ${_gcr_lines} ${${_gcr_index}} _gcr_line)
		string(REGEX MATCH "^(.*[^ ])${_gcr_cells}$" _gcr_m "${_gcr_line}")
		if(NOT _gcr_m OR NOT CMAKE_MATCH_1 STREQUAL _gcr_row)
			golden_fail("line ${${_gcr_index}} is '${_gcr_line}', expected the row '${_gcr_row}' with ${_gcr_ncol} cells")
		endif()
		math(EXPR ${_gcr_index} "${${_gcr_index}} + 1")
	endforeach()
endmacro()

# mmsim_run(PREFIX ARGS...): run mmsim with ARGS; sets PREFIX_RC (the exit
# code, or the text CMake gives for a signal such as "Child aborted"),
# PREFIX_OUT and PREFIX_ERR.
function(mmsim_run prefix)
	execute_process(
		COMMAND "${MMSIM}" ${ARGN}
		RESULT_VARIABLE rc
		OUTPUT_VARIABLE out
		ERROR_VARIABLE err
		TIMEOUT 300)
	set(${prefix}_RC "${rc}" PARENT_SCOPE)
	set(${prefix}_OUT "${out}" PARENT_SCOPE)
	set(${prefix}_ERR "${err}" PARENT_SCOPE)
endfunction()

# golden_compare(EXPECTED_FILE ARGS...): run mmsim with ARGS, require exit
# code 0 and an empty stderr (or the text of GOLDEN_EXPECT_STDERR if set),
# and compare stdout byte for byte with
# tests/golden/EXPECTED_FILE.  The output is kept as EXPECTED_FILE.actual in
# the working directory; a mismatch prints a unified diff when diff(1) is
# around.  Regenerate a file after a deliberate change with
#   mmsim ARGS > tests/golden/EXPECTED_FILE
# and read the diff before committing it.
function(golden_compare expected)
	set(actual "${CMAKE_CURRENT_BINARY_DIR}/${expected}.actual")
	set(errfile "${CMAKE_CURRENT_BINARY_DIR}/${expected}.stderr")
	string(REPLACE ";" " " shown "${ARGN}")
	execute_process(
		COMMAND "${MMSIM}" ${ARGN}
		RESULT_VARIABLE rc
		OUTPUT_FILE "${actual}"
		ERROR_FILE "${errfile}"
		TIMEOUT 300)
	if(NOT rc STREQUAL "0")
		file(READ "${errfile}" err)
		golden_fail("mmsim ${shown}: exit ${rc}, stderr: ${err}")
		set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
		return()
	endif()
	file(READ "${errfile}" err)
	if(NOT err STREQUAL "${GOLDEN_EXPECT_STDERR}")
		golden_fail("mmsim ${shown}: stderr '${err}', expected '${GOLDEN_EXPECT_STDERR}'")
	endif()
	if(NOT EXISTS "${GOLDEN_DIR}/${expected}")
		golden_fail("missing ${GOLDEN_DIR}/${expected} (mmsim ${shown} printed ${actual})")
		set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
		return()
	endif()
	execute_process(
		COMMAND "${CMAKE_COMMAND}" -E compare_files "${GOLDEN_DIR}/${expected}" "${actual}"
		RESULT_VARIABLE same)
	if(NOT same EQUAL 0)
		find_program(DIFF diff)
		if(DIFF)
			execute_process(COMMAND "${DIFF}" -u "${GOLDEN_DIR}/${expected}" "${actual}"
				OUTPUT_VARIABLE d)
			message(STATUS "diff -u expected actual:\n${d}")
		endif()
		golden_fail("mmsim ${shown}: stdout differs from tests/golden/${expected} (see ${actual})")
	else()
		message(STATUS "ok: mmsim ${shown} == ${expected}")
	endif()
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()

# golden_finish(): fail the test if anything failed.
macro(golden_finish)
	if(GOLDEN_FAILURES GREATER 0)
		message(FATAL_ERROR "${GOLDEN_FAILURES} check(s) failed")
	endif()
	message(STATUS "all checks passed")
endmacro()

# the 25 rows of `mmsim compare` (results/metrics.c), in their order
set(COVER_LETTER_ROWS
	"Real time" "User time" "System time"
	"THP fault alloc" "THP fault fallback" "THP fault fail rate %"
	"Direct compact stall" "Direct compact fail" "Direct compact success"
	"Direct compact success rate %"
	"Compact daemon scanned migrate" "Compact daemon scanned free"
	"Compact direct scanned migrate" "Compact direct scanned free"
	"Compact migrate scanned daemon %" "Compact free scanned daemon %"
	"Alloc stall"
	"Pages kswapd scanned" "Pages kswapd reclaimed"
	"Pages direct scanned" "Pages direct reclaimed" "Pages scanned kswapd %"
	"Swap out" "Swap in" "File refaults")

# golden_expect_error(RC MESSAGE ARGS...): mmsim ARGS refuses: it exits
# RC, prints nothing on its standard output, and its standard error is
# exactly MESSAGE and one newline: the whole text, every line of it, not a
# part (as SQLite's tests assert an error message), so that a message
# that loses its file, line or key name, or gains a doubled word, fails.
# MESSAGE is a CMake quoted argument: write '"' as \", '\' as \\, '$' as
# \$ and a line break as \n (';' needs nothing).  A part that differs from
# one run to the next (the test's own scratch directory) is written as the
# variable holding it (${W}, ${OUT}: it expands to this run's value); a
# part that depends on the host (its memory) is masked: GOLDEN_ERROR_MASK,
# if set, is a list REGEX;REPLACEMENT;... applied to the actual text (only
# that part: string(REGEX REPLACE)) before the comparison.  The caller's
# comment says which.
function(golden_expect_error rc message)
	string(REPLACE ";" " " shown "${ARGN}")
	set(before ${GOLDEN_FAILURES})
	mmsim_run(r ${ARGN})
	set(mask ${GOLDEN_ERROR_MASK})
	while(mask)
		list(POP_FRONT mask regex replacement)
		string(REGEX REPLACE "${regex}" "${replacement}" r_ERR "${r_ERR}")
	endwhile()
	if(NOT r_RC STREQUAL "${rc}")
		golden_fail("mmsim ${shown}: exit '${r_RC}', expected ${rc}; stderr: ${r_ERR}")
	endif()
	if(NOT r_ERR STREQUAL "${message}\n")
		# the texts unwrapped (message(SEND_ERROR) would fold them)
		message("mmsim ${shown}: stderr, expected then actual:\n${message}\n--\n${r_ERR}--")
		golden_fail("mmsim ${shown}: stderr is not the expected message (above)")
	endif()
	if(NOT r_OUT STREQUAL "")
		golden_fail("mmsim ${shown}: printed on stdout: '${r_OUT}'")
	endif()
	if(GOLDEN_FAILURES EQUAL before)
		message(STATUS "ok (${r_RC}): mmsim ${shown}")
	endif()
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()

# golden_help(VAR ARGS...): what `mmsim ARGS --help` prints on stdout (a
# verb's usage), without its final newline, in VAR: the text a refusal
# prints after its message when the mistake was in the options (getopt's
# "demo: unrecognized option '--bogus'", ablate's "no policy").  A help
# that fails, or prints on stderr, fails the test.
function(golden_help var)
	mmsim_run(h ${ARGN} --help)
	string(REPLACE ";" " " shown "${ARGN}")
	if(NOT h_RC STREQUAL "0" OR NOT h_ERR STREQUAL "" OR NOT h_OUT MATCHES "^usage: mmsim .*\n$")
		golden_fail("mmsim ${shown} --help: exit '${h_RC}', stdout '${h_OUT}', stderr '${h_ERR}'")
	endif()
	string(REGEX REPLACE "\n$" "" h_OUT "${h_OUT}")
	set(${var} "${h_OUT}" PARENT_SCOPE)
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()
