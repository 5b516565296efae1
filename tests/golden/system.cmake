# system.cmake - [system] profile through mmsim run: a bad profile ends the
# run before anything is booted with exit 78 and a message naming the
# scenario's line and the profile's file, line and key; the resolved
# scenario shows the [system] section only when a profile is set; a run
# with the headless profile records the boot in its metrics.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

set(OUT "${CMAKE_CURRENT_BINARY_DIR}/out.db")
file(REMOVE "${OUT}")

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

set(BASE "[workload]\nnames = thp_faulter\n[run]\nduration = 2\n")
file(WRITE s-none.ini "${BASE}")

# ---- bad profiles: 78, the scenario's line, the profile's file:line and key
file(WRITE p-key.ini "[kernel]\nkernel_threads = 4\nvmallocc = 1M\n")
file(WRITE s-key.ini "${BASE}[system]\nprofile = ./p-key.ini\n")
expect_exact(78 "s-key.ini:6: [system] profile: ./p-key.ini:3: unknown key 'vmallocc' in [kernel] (valid: kernel_threads, vmalloc, percpu, kmalloc_large)"
	run s-key.ini -o ${OUT})
file(WRITE p-slab.ini "[slab]\ndentry = 192 21 3 10 10 reclaimable\n")
file(WRITE s-slab.ini "${BASE}[system]\nprofile = ./p-slab.ini\n")
expect_exact(78 "s-slab.ini:6: [system] profile: ./p-slab.ini:2: [slab] dentry: '192 21 3 10 10 reclaimable': PAGESPERSLAB: not a power of two (a slab is one buddy allocation)"
	run s-slab.ini -o ${OUT})
file(WRITE p-daemon.ini "[daemon.syslog]\nanon = 1M\nlog = lots\n")
file(WRITE s-daemon.ini "${BASE}[system]\nprofile = ./p-daemon.ini\n")
expect_exact(78 "s-daemon.ini:6: [system] profile: ./p-daemon.ini:3: [daemon.syslog] log: 'lots' is not a size in 0..16T (K/M/G/T suffix)"
	run s-daemon.ini -o ${OUT})
file(WRITE p-section.ini "[kernel]\npercpu = 1M\n[daemons]\nx = 1\n")
file(WRITE s-section.ini "${BASE}[system]\nprofile = ./p-section.ini\n")
expect_exact(78 "s-section.ini:6: [system] profile: ./p-section.ini:4: unknown section [daemons] (valid: [kernel], [slab], [daemon.NAME])"
	run s-section.ini -o ${OUT})
file(WRITE p-churn.ini "[daemon.indexer]\ninterval = 1\nchurn = kmalloc-64:2, dentry:4\n")
file(WRITE s-churn.ini "${BASE}[system]\nprofile = ./p-churn.ini\n")
expect_exact(78 "s-churn.ini:6: [system] profile: ./p-churn.ini:3: [daemon.indexer] churn: 'dentry' objects belong to the shrinker's LRU; churn another cache"
	run s-churn.ini -o ${OUT})
expect_exact(78 "--set system.profile: no profile 'nosuch': no configs/system/nosuch.ini in the source tree (${SRC}), the current directory or above the executable"
	run s-none.ini --set system.profile=nosuch -o ${OUT})
file(WRITE s-named.ini "[workload]\nnames = system, thp_faulter\n[run]\nduration = 2\n")
expect_exact(78 "s-named.ini:2: [workload] names: workload 'system' is not named here: its own section starts it ([system] profile)"
	run s-named.ini -o ${OUT})

# ---- the resolved scenario: [system] only with a profile
mmsim_run(r run s-none.ini --dump-config)
if(r_OUT MATCHES "\\[system\\]")
	golden_fail("a scenario without a profile shows a [system] section")
endif()
mmsim_run(r run s-none.ini --dump-config --set system.profile=headless)
if(NOT r_OUT MATCHES "\n\\[system\\]\nprofile = headless\n\n\\[policy\\]")
	golden_fail("--set system.profile=headless: no [system] section before [policy]: ${r_OUT}${r_ERR}")
endif()

# ---- a run: the boot in the metrics
find_program(SQLITE3 sqlite3)
mmsim_run(r run s-none.ini --set system.profile=headless -o ${OUT})
if(NOT r_RC STREQUAL "0")
	golden_fail("headless run: exit ${r_RC}: ${r_ERR}")
elseif(SQLITE3)
	execute_process(COMMAND "${SQLITE3}" "${OUT}"
		"SELECT (SELECT value FROM metrics WHERE name = 'system_daemons') > 0, (SELECT value FROM metrics WHERE name = 'system_slab_reclaimable_pages') > 0, (SELECT workload FROM runs)"
		OUTPUT_VARIABLE n OUTPUT_STRIP_TRAILING_WHITESPACE)
	if(NOT n STREQUAL "1|1|system+thp_faulter")
		golden_fail("headless run: '${n}', expected '1|1|system+thp_faulter'")
	else()
		message(STATUS "ok: a headless run records its boot")
	endif()
endif()
file(REMOVE "${OUT}")

golden_finish()
