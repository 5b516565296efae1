# golden_errors.cmake - bad input gives a clear message and the documented
# exit code (sysexits: 64 bad usage, 78 bad configuration value), never a
# crash.  Every refusal is pinned whole (golden_expect_error in
# _common.cmake): the exit code, an empty stdout, and the exact text on
# stderr, which starts with "mmsim: error: " and names what was wrong;
# after a mistake in the options getopt_long()'s own line and the verb's
# usage (its --help text, golden_help).  None of these messages holds a
# part that varies from run to run.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

# expect_ok(STDOUT_REGEX ARGS...): exit 0, stdout matches, stderr empty.
function(expect_ok regex)
	string(REPLACE ";" " " shown "${ARGN}")
	set(before ${GOLDEN_FAILURES})
	mmsim_run(r ${ARGN})
	if(NOT r_RC STREQUAL "0")
		golden_fail("mmsim ${shown}: exit '${r_RC}', expected 0; stderr: ${r_ERR}")
	endif()
	if(NOT r_OUT MATCHES "${regex}")
		golden_fail("mmsim ${shown}: stdout does not match '${regex}': '${r_OUT}'")
	endif()
	if(NOT r_ERR STREQUAL "")
		golden_fail("mmsim ${shown}: unexpected stderr: '${r_ERR}'")
	endif()
	if(GOLDEN_FAILURES EQUAL before)
		message(STATUS "ok (0): mmsim ${shown}")
	endif()
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()

# ---- the machine: 78, naming the option
golden_expect_error(78 "mmsim: error: --ram: machine RAM 0 bytes is too small (at least 64M)"
	demo --ram 0)
golden_expect_error(78 "mmsim: error: --ram: machine RAM 32M is too small (at least 64M)"
	demo --ram 32M)
golden_expect_error(78 "mmsim: error: --ram: '12Q' is not a size (e.g. 2G, 512M)" demo --ram 12Q)
golden_expect_error(78 "mmsim: error: --ram: machine RAM 5T is too large (at most 4T)"
	demo --ram 5T)
golden_expect_error(78 "mmsim: error: --ram: '99999999999999999999' is not a size (e.g. 2G, 512M)"
	demo --ram 99999999999999999999)
golden_expect_error(78 "mmsim: error: --ram: '17179869184G' is not a size (e.g. 2G, 512M)"
	demo --ram 17179869184G)
golden_expect_error(78 "mmsim: error: --ram: '-2G' is not a size (e.g. 2G, 512M)" demo --ram -2G)
golden_expect_error(78 "mmsim: error: --cpus: '0' is not a number of CPUs (1..1024)" demo --cpus 0)
golden_expect_error(78 "mmsim: error: --cpus: '1025' is not a number of CPUs (1..1024)"
	demo --cpus 1025)
golden_expect_error(78 "mmsim: error: --cpus: 'four' is not a number of CPUs (1..1024)"
	demo --cpus four)

# ---- policies: 78, listing the valid ones
golden_expect_error(78 "mmsim: error: unknown policy 'hygeine' (valid: vanilla, hugealloc_rfc, v6_15, defrag_mode, tao)"
	demo --policy hygeine)
golden_expect_error(78 "mmsim: error: unknown policy 'hygeine' (valid: vanilla, hugealloc_rfc, v6_15, defrag_mode, tao)"
	show buddyinfo --policy hygeine)

# ---- --set: 78, naming the key; unknown switches list the valid ones
golden_expect_error(78 "mmsim: error: --set hygiene.bogus: policy hugealloc_rfc has no switch 'bogus' (valid: bdev_cache_movable, nofs_compact_reserves, capture_claim_block, capture_larger, migrate_free, compact_retry_three_outcomes, compaction_suitable_movable, zonelist_suitable_targets_only, kswapd_compaction_suitable, compaction_ready_before_zones, wmark_free_blocks, no_highatomic, no_watermark_boost, no_fallback, last_resort_fallback, kswapd_balance_free_blocks)"
	demo --set hygiene.bogus=yes --policy hygiene)
golden_expect_error(78 "mmsim: error: --set vm.watermark_scale_factor: '0' is not an integer in 1..3000"
	demo --set vm.watermark_scale_factor=0)
golden_expect_error(78 "mmsim: error: --set: 'nokey' is not KEY=VALUE" demo --set nokey)
golden_expect_error(78 "mmsim: error: --set vm.nosuch: unknown key 'nosuch' in [vm]"
	demo --set vm.nosuch=1)
golden_expect_error(78 "mmsim: error: --set hygiene.migrate_free: 'maybe' is not a boolean (yes or no)"
	demo --policy hygiene --set hygiene.migrate_free=maybe)
golden_expect_error(78 "mmsim: error: policy hugealloc_rfc: wmark_free_blocks (RFC 22/26) needs migrate_free (RFC 11/26)"
	demo --policy hygiene --set hygiene.migrate_free=no)
golden_expect_error(78 "mmsim: error: --set vm.lowmem_reserve_ratio: '1' is not four non-negative integers"
	show buddyinfo --set vm.lowmem_reserve_ratio=1)
golden_expect_error(78 "mmsim: error: --set vm.percpu_pagelist_high_fraction: '4' must be 0 or at least 8 (as the kernel requires)"
	show buddyinfo --set vm.percpu_pagelist_high_fraction=4)
golden_expect_error(78 "mmsim: error: --set transparent_hugepage.enabled: 'sometimes' is not one of always, madvise, never"
	show buddyinfo --set transparent_hugepage.enabled=sometimes)

# ---- load parameters: 78
golden_expect_error(78 "mmsim: error: --ops: '0' is not a positive number" demo --ops 0)
golden_expect_error(78 "mmsim: error: --ops: '-1' is not a positive number" demo --ops -1)
golden_expect_error(78 "mmsim: error: --ops: 'lots' is not a number" show vmstat --ops lots)
golden_expect_error(78 "mmsim: error: --occupancy: '1.5' is not a fraction between 0 and 1"
	demo --occupancy 1.5)
golden_expect_error(78 "mmsim: error: --occupancy: '0' is not a fraction between 0 and 1"
	demo --occupancy 0)
# a hex float (strtod reads it; no input of mmsim means one)
golden_expect_error(78 "mmsim: error: --occupancy: '0x0.8' is not a fraction between 0 and 1"
	demo --occupancy 0x0.8)
golden_expect_error(78 "mmsim: error: --seed: '-1' is not a number" demo --seed -1)
golden_expect_error(78 "mmsim: error: --check-every: 'x' is not a number" demo --check-every x)

# ---- commands: 64
golden_expect_error(64 "mmsim: error: 'frobnicate' is not an mmsim command (see 'mmsim --help')"
	frobnicate)
golden_expect_error(64 "mmsim: error: show: unknown file 'nosuchfile' (valid: pagetypeinfo, buddyinfo, vmstat, zoneinfo, census)"
	show nosuchfile)
golden_expect_error(64 "mmsim: error: list: unknown list 'bogus' (valid: policies, workloads, postings)"
	list bogus)
golden_expect_error(64 "mmsim: error: help: 'bogus' is not an mmsim command (see 'mmsim --help')"
	help bogus)
golden_expect_error(64 "mmsim: error: demo: unexpected argument 'extra'" demo extra)

# ---- the options getopt_long() refuses: 64, its line (the verb's name,
# not "mmsim: error: ", is what glibc's getopt prints), then the usage
golden_help(MMSIM_HELP)
golden_help(DEMO_HELP demo)
golden_help(SHOW_HELP show)
golden_expect_error(64 "demo: unrecognized option '--bogus'\n${DEMO_HELP}" demo --bogus)
golden_expect_error(64 "show: option '--ram' requires an argument\n${SHOW_HELP}"
	show buddyinfo --ram)
# and a verb's missing or stray argument: 64, the message alone
golden_expect_error(64 "mmsim: error: show: unexpected argument 'extra'" show buddyinfo extra)
golden_expect_error(64 "mmsim: error: show: no file given (valid: pagetypeinfo, buddyinfo, vmstat, zoneinfo, census)"
	show)
golden_expect_error(64 "mmsim: error: list: no list given (valid: policies, workloads, postings)" list)
# `mmsim` alone: 64, the usage (what --help prints) on stderr
golden_expect_error(64 "${MMSIM_HELP}")

# ---- the other verbs' refusals of their arguments, before any input is
# read: 64 bad usage, 66 a missing database, 78 a bad value
golden_help(RUN_HELP run)
golden_expect_error(64 "mmsim: error: run: no scenario file given\n${RUN_HELP}" run)
golden_expect_error(64 "mmsim: error: run: one scenario file, not 'b.ini' too\n${RUN_HELP}"
	run a.ini b.ini -o x.db)
golden_expect_error(64 "mmsim: error: --manifest FILE --index N takes no scenario, -o, --set, --seed or --policy (the manifest line has them)"
	run --manifest m --index 1 a.ini)
golden_expect_error(78 "mmsim: error: --check-every: 'x' is not a number" run a.ini --check-every x -o x.db)
golden_expect_error(64 "mmsim: error: --vary: 'swappiness' is not KEY=V1,V2,..."
	sweep a.ini --vary swappiness -o sw)
golden_expect_error(64 "mmsim: error: --vary: 'vm.swappiness=' is not KEY=V1,V2,..."
	sweep a.ini --vary vm.swappiness= -o sw)
golden_expect_error(64 "mmsim: error: --mmsim: 'rel/mmsim' is not an absolute path (the path the nodes see)"
	sweep a.ini --mmsim rel/mmsim -o sw)
golden_expect_error(64 "mmsim: error: --partition, --time, --sbatch-arg, --mmsim and --no-wait go with --slurm"
	sweep a.ini --partition p -o sw)
golden_expect_error(64 "mmsim: error: sweep --collect DIR takes no scenario, -o, --vary, --set, --slurm or --force-new (DIR has them)"
	sweep --collect sw a.ini)
golden_expect_error(64 "mmsim: error: report: no database given (mmsim report DB -o DIR)" report)
golden_expect_error(64 "mmsim: error: report: one database only (mmsim report DB -o DIR)"
	report a.db b.db -o r)
golden_expect_error(64 "mmsim: error: report: no output directory given (-o DIR)" report a.db)
golden_expect_error(66 "mmsim: error: report: missing.db: No such file or directory" report missing.db -o r)
golden_expect_error(64 "mmsim: error: report: unknown --extra-rows 'cadance' (valid: cadence, wakes)"
	report missing.db -o r --extra-rows cadance)
golden_expect_error(64 "mmsim: error: compare: unknown format 'xml' (valid: text, csv, json, html, values)"
	compare --format xml missing.db)
golden_expect_error(64 "mmsim: error: compare: one database only" compare a.db b.db)
golden_expect_error(78 "mmsim: error: --pairs: '1' is not a number of at least 64" bench --pairs 1)
golden_expect_error(78 "mmsim: error: --seconds: 'x' is not a duration in seconds" bench --seconds x)
golden_expect_error(78 "mmsim: error: --seconds: '0x1p-2' is not a duration in seconds" bench --seconds 0x1p-2)
golden_expect_error(78 "mmsim: error: --swap: '12Q' is not a size (e.g. 2G, 512M)" bench --swap 12Q)
golden_expect_error(78 "mmsim: error: --swap: '12Q' is not a size (e.g. 2G, 512M)" demo --swap 12Q)
golden_expect_error(78 "mmsim: error: --set: 'vm.swappiness' is not KEY=VALUE" demo --set vm.swappiness)
golden_expect_error(78 "mmsim: error: --set: unknown key 'nosection' (see 'mmsim help demo')"
	demo --set nosection=1)
foreach(f x.db sw r)
	if(EXISTS "${f}")
		golden_fail("a refused command wrote ${f}")
	endif()
endforeach()

# ---- help and version: 0, on stdout
expect_ok("^usage: mmsim .*Exit codes: 0 success, 64 bad usage, 65 bad database, 66 missing input,\n70 internal error or invariant violation, 73 cannot create the output,\n74 cannot write the output \\(standard output included\\), 75 busy \\(another\nsweep on the directory\\), 78 bad configuration value" --help)
expect_ok("^mmsim 0\\.1\\.0[ \n]" --version)
expect_ok("^usage: mmsim demo" demo --help)
expect_ok("^usage: mmsim show" help show)
expect_ok("^usage: mmsim list policies\\|workloads\\|postings\n$" list --help)
expect_ok("^vanilla\n" list policies)

golden_finish()
