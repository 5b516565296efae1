# run.cmake - mmsim run: the resolved scenario (--dump-config) byte for
# byte, exact messages and exit codes for bad scenarios (78: bad value,
# 66: no such file, 64: bad usage, 70: a run that fails), nothing written
# at the target on any error, and two runs of one seed giving identical
# vmstat and metrics rows.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

set(SMOKE "${SRC}/configs/smoke.ini")
set(OUT "${CMAKE_CURRENT_BINARY_DIR}/out.db")
file(REMOVE "${OUT}")

# ---- the resolved scenario
golden_compare(run-dump-smoke.txt run ${SMOKE} --dump-config)
# --policy and --set by the RFC policy's old name (an alias): the resolved
# text names it as new runs do
golden_compare(run-dump-smoke-hugealloc_rfc.txt run ${SMOKE} --dump-config --policy hygiene --seed 5
	--set vm.watermark_scale_factor=200 --set hygiene.no_fallback=no)

# expect_exact(RC MESSAGE ARGS...): golden_expect_error of "mmsim: error:
# MESSAGE" (exit RC, stdout empty, the whole stderr), nothing at ${OUT}
function(expect_exact rc message)
	golden_expect_error(${rc} "mmsim: error: ${message}" ${ARGN})
	if(EXISTS "${OUT}")
		string(REPLACE ";" " " shown "${ARGN}")
		golden_fail("mmsim ${shown}: left ${OUT} behind")
		file(REMOVE "${OUT}")
	endif()
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()

# ---- bad scenario files: 78, FILE:LINE and the key
file(WRITE bad-key.ini "[machine]\nram = 1G\n[vm]\nwatermark_scale = 10\n")
expect_exact(78 "bad-key.ini:4: unknown key 'watermark_scale' in [vm]" run bad-key.ini -o ${OUT})
file(WRITE bad-section.ini "[machine]\nram = 1G\n\n[vmm]\nswappiness = 10\n")
expect_exact(78 "bad-section.ini:5: unknown section [vmm]" run bad-section.ini -o ${OUT})
file(WRITE bad-value.ini "[vm]\nswappiness = 300\n")
expect_exact(78 "bad-value.ini:2: [vm] swappiness: '300' is not an integer in 0..200" run bad-value.ini -o ${OUT})
file(WRITE bad-workload.ini "[workload]\nnames = thp_faulter, kbiuld\n")
expect_exact(78 "bad-workload.ini:2: [workload] names: unknown workload 'kbiuld' (valid: kbuild, thp_faulter, streamer)"
	run bad-workload.ini -o ${OUT})
file(WRITE bad-param.ini "[workload]\nnames = thp_faulter\n[workload.thp_faulter]\nregoin = 1G\n")
expect_exact(78 "bad-param.ini:4: unknown key 'regoin' in [workload.thp_faulter] (valid: region, hold, pause, touch_ns)"
	run bad-param.ini -o ${OUT})
file(WRITE bad-policy.ini "[policy]\nname = hygeine\n")
expect_exact(78 "bad-policy.ini:2: [policy] name: unknown policy 'hygeine' (valid: vanilla, hugealloc_rfc, v6_15, defrag_mode, tao)"
	run bad-policy.ini -o ${OUT})
# a bad value of a policy switch (in the section of the policy's old name,
# an alias), of a workload parameter and of a base-system profile: 78, the
# file, the line and the key, from the one parameter table of each
file(WRITE bad-switch.ini "[policy]\nname = hygiene\n\n[policy.hygiene]\nno_fallback = maybe\n")
expect_exact(78 "bad-switch.ini:5: [policy.hugealloc_rfc] no_fallback: 'maybe' is not a boolean (yes or no)"
	run bad-switch.ini -o ${OUT})
file(WRITE bad-wparam.ini "[workload]\nnames = kbuild\n[workload.kbuild]\nunits = 100\njobs = 2.5\n")
expect_exact(78 "bad-wparam.ini:5: [workload.kbuild] jobs: '2.5' is not auto or an integer in 1..4096"
	run bad-wparam.ini -o ${OUT})
file(WRITE bad-size.ini "[workload]\nnames = thp_faulter\n[workload.thp_faulter]\nregion = 1M\n[run]\nduration = 1\n")
expect_exact(78 "bad-size.ini:4: [workload.thp_faulter] region: '1M' is not a size in 2M..4T (K/M/G/T suffix)"
	run bad-size.ini -o ${OUT})
file(WRITE bad-profile.ini "[system]\nprofile = nosuchprofile\n")
expect_exact(78 "bad-profile.ini:2: [system] profile: no profile 'nosuchprofile': no configs/system/nosuchprofile.ini in the source tree (${SRC}), the current directory or above the executable"
	run bad-profile.ini -o ${OUT})
expect_exact(78 "--set kbuild.rss_mean: '1K' is not a size in 4K..16T (K/M/G/T suffix)"
	run ${SMOKE} --set kbuild.rss_mean=1K -o ${OUT})
file(WRITE no-duration.ini "[workload]\nnames = thp_faulter\n")
expect_exact(78 "no-duration.ini: [run] duration: 'auto' needs a measured workload (such as kbuild); give a number of seconds"
	run no-duration.ini -o ${OUT})
file(WRITE syntax.ini "[vm]\nswappiness 10\n")
expect_exact(78 "syntax.ini:2: syntax error (expected [SECTION] or KEY = VALUE)" run syntax.ini -o ${OUT})

# ---- bad overrides: 78, naming the --set key
expect_exact(78 "--set vm.watermark_scale: unknown key 'watermark_scale' in [vm]"
	run ${SMOKE} --set vm.watermark_scale=10 -o ${OUT})
expect_exact(78 "--set run.duration: 'soon' is not auto or a number of seconds in (0, 1e+07]"
	run ${SMOKE} --set run.duration=soon -o ${OUT})
expect_exact(78 "--set transparent_hugepage.enabled: 'sometimes' is not one of always, madvise, never"
	run ${SMOKE} --set transparent_hugepage.enabled=sometimes -o ${OUT})
expect_exact(78 "--set hygiene.migrate_free: 'maybe' is not a boolean (yes or no)"
	run ${SMOKE} --set hygiene.migrate_free=maybe -o ${OUT})
expect_exact(78 "--policy: unknown policy 'hygeine' (valid: vanilla, hugealloc_rfc, v6_15, defrag_mode, tao)"
	run ${SMOKE} --policy hygeine -o ${OUT})
expect_exact(78 "--seed: 'minus' is not a non-negative integer" run ${SMOKE} --seed minus -o ${OUT})
expect_exact(78 "${SMOKE}: [policy.hugealloc_rfc]: policy hugealloc_rfc: wmark_free_blocks (RFC 22/26) needs migrate_free (RFC 11/26)"
	run ${SMOKE} --policy hygiene --set hygiene.migrate_free=no -o ${OUT})

# ---- missing input 66, bad usage 64
expect_exact(66 "cannot open nosuch.ini: No such file or directory" run nosuch.ini -o ${OUT})
expect_exact(64 "run: no output file (-o RUN.db)" run ${SMOKE})
expect_exact(64 "--index: '0' is not a line number (from 1)" run --manifest m --index 0)

# (a run that fails after the engine started leaves nothing at the
# target: results_abort(); covered by tests/unit/test_results.c, since no
# scenario that passes validation fails to start any more)

# ---- two runs of one seed: identical counters and metrics
find_program(SQLITE3 sqlite3)
foreach(i 1 2)
	file(REMOVE "${CMAKE_CURRENT_BINARY_DIR}/same${i}.db")
	mmsim_run(r run ${SMOKE} --seed 3 -o "${CMAKE_CURRENT_BINARY_DIR}/same${i}.db")
	if(NOT r_RC STREQUAL "0")
		golden_fail("run ${SMOKE} --seed 3: exit '${r_RC}': ${r_ERR}")
	endif()
endforeach()
if(NOT SQLITE3)
	golden_fail("sqlite3 (the command-line shell) is needed to read the run files")
else()
	foreach(q
			"SELECT name, value FROM vmstat ORDER BY name"
			"SELECT name, value FROM metrics WHERE name <> 'sim_wall_ratio' ORDER BY name"
			"SELECT name, t, value FROM samples ORDER BY name, t"
			"SELECT t, migratetype, blocks, mixed_blocks FROM block_census ORDER BY t, migratetype"
			"SELECT key, value FROM params ORDER BY key"
			"SELECT config_hash, seed, status, sim_seconds FROM runs")
		foreach(i 1 2)
			execute_process(COMMAND "${SQLITE3}" "${CMAKE_CURRENT_BINARY_DIR}/same${i}.db" "${q}"
				OUTPUT_VARIABLE rows${i} RESULT_VARIABLE qrc)
		endforeach()
		if(NOT rows1 STREQUAL rows2 OR rows1 STREQUAL "")
			golden_fail("two runs of seed 3 differ (or are empty) in: ${q}")
		else()
			message(STATUS "ok: same seed, same rows: ${q}")
		endif()
	endforeach()
	execute_process(COMMAND "${SQLITE3}" "${CMAKE_CURRENT_BINARY_DIR}/same1.db"
		"SELECT count(*) FROM vmstat WHERE name = 'thp_fault_alloc' AND value > 0"
		OUTPUT_VARIABLE n OUTPUT_STRIP_TRAILING_WHITESPACE)
	if(NOT n STREQUAL "1")
		golden_fail("the smoke run faulted no THP")
	endif()
	execute_process(COMMAND "${SQLITE3}" "${CMAKE_CURRENT_BINARY_DIR}/same1.db"
		"SELECT (SELECT count(*) FROM runs WHERE status = 'ok'), (SELECT count(DISTINCT t) FROM block_census), (SELECT count(*) FROM params), (SELECT count(DISTINCT grp) FROM blockmap)"
		OUTPUT_VARIABLE n OUTPUT_STRIP_TRAILING_WHITESPACE)
	# one run; censuses at 0, 1, 2, 3, 4 s (the last when the window closes
	# at its duration, 4 s); every key; 16 rows of map
	if(NOT n STREQUAL "1|5|41|16")
		golden_fail("smoke run contents: '${n}', expected '1|5|41|16'")
	endif()
endif()

golden_finish()
