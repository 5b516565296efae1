# ablate.cmake - mmsim ablate: a policy's switches one at a time.
#
# First the bad input, which runs nothing, each message pinned whole: an
# unknown policy and a policy without a switch to turn off (78, the
# message naming them), no --policy, a --set of what ablate sets itself
# (64), a missing scenario (66); and the variants of hugealloc_rfc as
# ablate announces them before a bad --set stops the sweep's check (one
# per switch on by default, the switches that need another turned off
# with it, said in the legend).
#
# Then an ablation of defrag_mode on configs/mini.ini, one seed: its
# variants all, baseline (defrag_mode off: v6_15), -compaction_suitable_wmark, -nofragment, -kswapd_pageblock,
# -free_blocks_wmark, -fix_retry_oom, -fix_kswapd_exit run; the table is
# printed in blocks of four variants beside "all", 25 rows each, one
# column per variant, one run a column; every variant's stored scenario
# has its switch off and the others on; the baseline column is v6_15: its
# /proc/vmstat counters equal those of a plain v6_15 run of the same seed
# (mm_policy_is_base() is a claim about the decisions, checked here on
# the numbers); --format csv names the same columns; run again, it runs
# nothing and prints the same table.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

find_program(SQLITE3 sqlite3)
if(NOT SQLITE3)
	message(FATAL_ERROR "golden ablate: sqlite3 (the command-line shell) is needed to read the database")
endif()

set(OUT "${CMAKE_CURRENT_BINARY_DIR}/out")
file(REMOVE_RECURSE "${OUT}")
set(MINI "${SRC}/configs/mini.ini")

# ---- bad input: each refusal whole (golden_expect_error); ${MINI} and
# ${OUT} stand for this run's scenario path and scratch directory, and
# ${ABLATE_HELP} for the usage (mmsim ablate --help) printed after a
# mistake in the options
golden_help(ABLATE_HELP ablate)
golden_expect_error(78 "mmsim: error: ablate: unknown policy 'nosuch' (valid: vanilla, hugealloc_rfc, v6_15, defrag_mode, tao)"
	ablate "${MINI}" --policy nosuch -o "${OUT}/bad")
golden_expect_error(78 "mmsim: error: ablate: policy vanilla has no switch that is on by default: nothing to turn off (policies with switches: hugealloc_rfc, defrag_mode, tao; see 'mmsim list policies')"
	ablate "${MINI}" --policy vanilla -o "${OUT}/bad")
golden_expect_error(78 "mmsim: error: ablate: policy v6_15 has no switch that is on by default: nothing to turn off (policies with switches: hugealloc_rfc, defrag_mode, tao; see 'mmsim list policies')"
	ablate "${MINI}" --policy v6_15 -o "${OUT}/bad")
golden_expect_error(64 "mmsim: error: ablate: no policy (--policy P)\n${ABLATE_HELP}"
	ablate "${MINI}" -o "${OUT}/bad")
golden_expect_error(64 "mmsim: error: ablate: give one scenario file\n${ABLATE_HELP}"
	ablate --policy defrag_mode -o "${OUT}/bad")
golden_expect_error(64 "mmsim: error: ablate: --set policy.name=vanilla: policy.name is set by ablate (--policy)"
	ablate "${MINI}" --policy defrag_mode --set policy.name=vanilla -o "${OUT}/bad")
golden_expect_error(64 "mmsim: error: ablate: --set defrag_mode.nofragment=no: defrag_mode's switches are set by ablate (their defaults, then each one off)"
	ablate "${MINI}" --policy defrag_mode --set defrag_mode.nofragment=no -o "${OUT}/bad")
golden_expect_error(64 "mmsim: error: ablate: unknown format 'xml' (valid: text, csv, json, html, values)"
	ablate "${MINI}" --policy defrag_mode --format xml -o "${OUT}/bad")
golden_expect_error(66 "mmsim: error: cannot open ${OUT}/none.ini: No such file or directory"
	ablate "${OUT}/none.ini" --policy defrag_mode -o "${OUT}/bad")
# the RFC's variants, announced before a bad value stops every run (the
# switches that need another turned off with it said in the legend)
golden_expect_error(78 "mmsim: ablate: ${MINI}, policy hugealloc_rfc, 15 variants (all -bdev_cache_movable -nofs_compact_reserves -capture_claim_block -capture_larger -migrate_free -compact_retry_three_outcomes -compaction_suitable_movable -zonelist_suitable_targets_only -kswapd_compaction_suitable -compaction_ready_before_zones -wmark_free_blocks -no_highatomic -no_watermark_boost -no_fallback), seeds 1..3: 45 runs, 1 at a time, in ${OUT}/bad\nmmsim: ablate: -migrate_free: migrate_free off, and with it wmark_free_blocks, no_highatomic, no_watermark_boost, no_fallback (policy hugealloc_rfc: wmark_free_blocks (RFC 22/26) needs migrate_free (RFC 11/26))\nmmsim: ablate: -wmark_free_blocks: wmark_free_blocks off, and with it no_highatomic, no_watermark_boost (policy hugealloc_rfc: no_highatomic (RFC 23/26) and no_watermark_boost (RFC 24/26) need wmark_free_blocks (RFC 22/26))\nmmsim: error: --set machine.ram: 'lots' is not a size (e.g. 2G, 512M)\nmmsim: error: ablate: variant 'all' is refused (see above)"
	ablate "${MINI}" --policy hugealloc_rfc --set machine.ram=lots -o "${OUT}/bad")
if(EXISTS "${OUT}/bad")
	golden_fail("a refused ablation created ${OUT}/bad")
endif()
if(GOLDEN_FAILURES EQUAL 0)
	message(STATUS "ok: bad input refused, nothing run")
endif()

# ---- the ablation of defrag_mode
set(DIR "${OUT}/ablate")
set(ABLATE ablate "${MINI}" --policy defrag_mode --seeds 1 -j 2 -o "${DIR}")
set(VARIANTS all baseline -compaction_suitable_wmark -nofragment -kswapd_pageblock
	-free_blocks_wmark -fix_retry_oom -fix_kswapd_exit)

mmsim_run(a ${ABLATE})
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/ablate.stdout" "${a_OUT}")
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/ablate.stderr" "${a_ERR}")
if(NOT a_RC STREQUAL "0")
	golden_fail("mmsim ablate: exit '${a_RC}': ${a_ERR}")
	golden_finish()
endif()
if(NOT a_ERR MATCHES "8 runs \\(8 run now, 0 already complete\\)")
	golden_fail("the ablation did not run its 8 variants: ${a_ERR}")
endif()

# the text: a title line, then blocks (all + 4, all + 3), each a header,
# Runs and the 25 rows, one cell per column
set(cell "[-0-9.]+ \\( *[-+]([0-9.]+|inf)%\\)")
string(REPLACE "\n" ";" lines "${a_OUT}")
list(GET lines 0 title)
if(NOT title MATCHES "^Ablation of defrag_mode on .*mini.ini")
	golden_fail("the first line is '${title}'")
endif()
set(i 2)
foreach(block "all;baseline;-compaction_suitable_wmark;-nofragment;-kswapd_pageblock"
              "all;-free_blocks_wmark;-fix_retry_oom;-fix_kswapd_exit")
	list(LENGTH block ncol)
	# the header: one or two lines (a label longer than its cell goes on
	# over the second, bottom-aligned); cell k is 24 characters from 40
	set(header "")
	set(names "")
	list(GET lines ${i} l)
	while(NOT l MATCHES "^Runs")
		list(APPEND header "${l}")
		math(EXPR i "${i} + 1")
		list(GET lines ${i} l)
	endwhile()
	math(EXPR last "${ncol} - 1")
	foreach(k RANGE 0 ${last})
		set(name "")
		foreach(h IN LISTS header)
			math(EXPR at "40 + 24 * ${k}")
			string(SUBSTRING "${h}          " ${at} 24 part)
			string(STRIP "${part}" part)
			string(APPEND name "${part}")
		endforeach()
		list(APPEND names "${name}")
	endforeach()
	if(NOT names STREQUAL block)
		golden_fail("line ${i}: the header '${header}' names the columns '${names}', expected ${block}")
	endif()
	list(GET lines ${i} runs)
	string(REPEAT " +1" ${ncol} ones)
	if(NOT runs MATCHES "^Runs${ones}$")
		golden_fail("line ${i}: '${runs}', expected one run in each of ${ncol} columns")
	endif()
	math(EXPR i "${i} + 1")
	golden_check_rows(lines i ${ncol} cell)
	math(EXPR i "${i} + 1")         # the blank line after a block
endforeach()
if(NOT a_OUT MATCHES "\nbaseline: defrag_mode off: the policy decides as its base, v6_15\n")
	golden_fail("no legend line for the baseline column:\n${a_OUT}")
endif()
if(NOT a_OUT MATCHES "\nDatabase: ${DIR}/sweep.db\n")
	golden_fail("stdout does not name the database")
endif()

# every variant's stored switches: its own off, the others at their
# defaults (all on); one run each
function(switches_off variant expected)
	execute_process(COMMAND "${SQLITE3}" "${DIR}/sweep.db"
		"SELECT group_concat(substr(key, 20), ',') FROM (SELECT key FROM params JOIN runs USING (run_id)
		 WHERE key LIKE 'policy.defrag_mode.%' AND value = 'no' AND sweep_line = ${variant}
		 ORDER BY key)"
		OUTPUT_VARIABLE got OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
	if(NOT rc EQUAL 0 OR NOT got STREQUAL "${expected}")
		golden_fail("manifest line ${variant}: the switches stored off are '${got}', expected '${expected}'")
	endif()
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()
switches_off(1 "")
switches_off(2 "defrag_mode")
switches_off(3 "compaction_suitable_wmark")
switches_off(4 "nofragment")
switches_off(5 "kswapd_pageblock")
switches_off(6 "free_blocks_wmark")
switches_off(7 "fix_retry_oom")
switches_off(8 "fix_kswapd_exit")
execute_process(COMMAND "${SQLITE3}" "${DIR}/sweep.db"
	"SELECT count(*), count(DISTINCT config_hash), min(policy), max(policy) FROM runs WHERE status = 'ok'"
	OUTPUT_VARIABLE got OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT got STREQUAL "8|8|defrag_mode|defrag_mode")
	golden_fail("the database holds '${got}', expected 8 runs of defrag_mode with 8 scenarios")
endif()

# the baseline column is v6_15: the same counters as a v6_15 run of seed 1
mmsim_run(v run "${MINI}" --set policy.name=v6_15 -o "${OUT}/v6_15.db")
if(NOT v_RC STREQUAL "0")
	golden_fail("mmsim run v6_15: exit '${v_RC}': ${v_ERR}")
else()
	set(q "SELECT group_concat(name || '=' || value, ' ') FROM (SELECT vmstat.name AS name, vmstat.value AS value FROM vmstat
	       JOIN runs USING (run_id) WHERE %s ORDER BY name)")
	string(REPLACE "%s" "sweep_line = 2" qa "${q}")
	string(REPLACE "%s" "1" qv "${q}")
	execute_process(COMMAND "${SQLITE3}" "${DIR}/sweep.db" "${qa}" OUTPUT_VARIABLE base)
	execute_process(COMMAND "${SQLITE3}" "${OUT}/v6_15.db" "${qv}" OUTPUT_VARIABLE v615)
	execute_process(COMMAND "${SQLITE3}" "${DIR}/sweep.db"
		"SELECT count(*) FROM vmstat JOIN runs USING (run_id) WHERE sweep_line = 1 AND
		 value <> (SELECT v.value FROM vmstat v JOIN runs r USING (run_id)
		           WHERE r.sweep_line = 2 AND v.name = vmstat.name)"
		OUTPUT_VARIABLE differ OUTPUT_STRIP_TRAILING_WHITESPACE)
	if(base STREQUAL "" OR NOT base STREQUAL v615)
		golden_fail("the baseline variant's counters differ from v6_15's:\n${base}\n${v615}")
	elseif(differ EQUAL 0)
		golden_fail("defrag_mode with every switch on counts as v6_15 does: the ablation would show nothing")
	else()
		message(STATUS "ok: the baseline column is v6_15, counter for counter; all differs in ${differ} counters")
	endif()
endif()

# csv: the same columns, by name
mmsim_run(c ${ABLATE} --format csv)
if(NOT c_RC STREQUAL "0")
	golden_fail("mmsim ablate --format csv: exit '${c_RC}': ${c_ERR}")
else()
	foreach(v IN LISTS VARIANTS)
		if(NOT c_OUT MATCHES ",${v},")
			golden_fail("--format csv has no column '${v}':\n${c_OUT}")
		endif()
	endforeach()
endif()

# again: nothing run, the same table
mmsim_run(b ${ABLATE})
if(NOT b_RC STREQUAL "0" OR NOT b_ERR MATCHES "8 runs \\(0 run now, 8 already complete\\)")
	golden_fail("the second ablation: exit '${b_RC}': ${b_ERR}")
elseif(NOT b_OUT STREQUAL a_OUT)
	golden_fail("the second ablation printed another table:\n${b_OUT}")
endif()

golden_finish()
