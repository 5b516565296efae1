# regression.cmake - the cover letter's table on a small fixed-seed
# scenario, pinned: `mmsim reproduce configs/mini.ini --seeds 1` (vanilla
# and hugealloc_rfc, seed 1, a few seconds each) must print the header, the Runs
# line and the 25 rows of results/compare.c exactly as recorded in
# tests/golden/regression-mini-seed1.txt.  The counters are exact; the
# three time rows and the percentages are computed from the same seed's
# deterministic run and printed to 0.01, so they are pinned as printed.
#
# A change that moves these numbers updates the file, and its commit
# message traces the reason (which mechanism moved which rows, and why
# that is right).  Regenerate with
#   mmsim reproduce configs/mini.ini --seeds 1 -o NEW-DIR | head -n 27 \
#       > tests/golden/regression-mini-seed1.txt
# and read the diff before committing it.  configs/mini.ini pins
# kbuild.tree = synthetic (the generator, small enough for a test): a
# change of the generator moves every row and re-records the file.
#
# No headline direction is asserted on this scenario: it is too small
# and one seed too few for either.  THP fault fail rate % is not lower for
# hugealloc_rfc here (2.17 against 2.04 when first recorded), and Direct
# compact success rate %, higher for hugealloc_rfc on seed 1 until the
# dcache model (commit "dcache: ..."), is lower since (15.90 against
# 31.79): on the code before that change the same rate was already lower
# for hugealloc_rfc on seed 2 (16.08 against 36.10) and equal on seed 3
# (32.98 against 32.48; `mmsim run configs/mini.ini --seed N --policy P`),
# so the seed-1 direction was one draw, not a property of the policy.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

set(EXPECTED "${GOLDEN_DIR}/regression-mini-seed1.txt")
set(DIR "${CMAKE_CURRENT_BINARY_DIR}/out")
file(REMOVE_RECURSE "${DIR}")
mmsim_run(r reproduce "${SRC}/configs/mini.ini" --seeds 1 -j 2 -o "${DIR}")
if(NOT r_RC STREQUAL "0")
	golden_fail("mmsim reproduce configs/mini.ini --seeds 1: exit '${r_RC}': ${r_ERR}")
	golden_finish()
endif()
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/table.actual" "${r_OUT}")

file(STRINGS "${EXPECTED}" want_lines)
string(REPLACE "\n" ";" got_lines "${r_OUT}")
list(LENGTH want_lines n)
if(NOT n EQUAL 27)
	golden_fail("${EXPECTED} has ${n} lines, expected 27 (header, Runs, 25 rows)")
	golden_finish()
endif()
math(EXPR last "${n} - 1")
set(moved 0)
foreach(i RANGE 0 ${last})
	list(GET want_lines ${i} want)
	list(GET got_lines ${i} got)
	if(NOT got STREQUAL want)
		golden_fail("line ${i} moved:\n  recorded: ${want}\n  now:      ${got}")
		math(EXPR moved "${moved} + 1")
	endif()
endforeach()
if(moved EQUAL 0)
	message(STATUS "ok: the 25 rows of both policies equal the recorded values")
endif()

golden_finish()
