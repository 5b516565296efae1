# golden_errors.cmake - bad input gives a clear message and the documented
# exit code (sysexits: 64 bad usage, 78 bad configuration value), never a
# crash.  Every error goes to stderr, starts with "mmsim: error: " and
# names what was wrong; nothing is printed on stdout.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

# expect_error(RC SUBSTRING ARGS...): mmsim ARGS exits with RC, prints
# nothing on stdout, and its stderr starts with "mmsim: error: " and
# contains SUBSTRING.
function(expect_error rc substring)
	string(REPLACE ";" " " shown "${ARGN}")
	set(before ${GOLDEN_FAILURES})
	mmsim_run(r ${ARGN})
	if(NOT r_RC STREQUAL "${rc}")
		golden_fail("mmsim ${shown}: exit '${r_RC}', expected ${rc}; stderr: ${r_ERR}")
	endif()
	string(FIND "${r_ERR}" "mmsim: error: " at)
	if(NOT at EQUAL 0)
		golden_fail("mmsim ${shown}: stderr does not start with 'mmsim: error: ': '${r_ERR}'")
	endif()
	string(FIND "${r_ERR}" "${substring}" at)
	if(at EQUAL -1)
		golden_fail("mmsim ${shown}: stderr lacks '${substring}': '${r_ERR}'")
	endif()
	if(NOT r_OUT STREQUAL "")
		golden_fail("mmsim ${shown}: printed on stdout: '${r_OUT}'")
	endif()
	if(GOLDEN_FAILURES EQUAL before)
		string(STRIP "${r_ERR}" e)
		message(STATUS "ok (${r_RC}): mmsim ${shown}: ${e}")
	endif()
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()

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
expect_error(78 "--ram" demo --ram 0)
expect_error(78 "--ram" demo --ram 32M)
expect_error(78 "--ram" demo --ram 12Q)
expect_error(78 "'12Q'" demo --ram 12Q)
expect_error(78 "--ram" demo --ram 5T)
expect_error(78 "--ram" demo --ram 99999999999999999999)
expect_error(78 "--ram" demo --ram 17179869184G)
expect_error(78 "--ram" demo --ram -2G)
expect_error(78 "--cpus" demo --cpus 0)
expect_error(78 "--cpus" demo --cpus 1025)
expect_error(78 "--cpus" demo --cpus four)

# ---- policies: 78, listing the valid ones
expect_error(78 "hygeine" demo --policy hygeine)
expect_error(78 "vanilla, hugealloc_rfc" demo --policy hygeine)
expect_error(78 "vanilla, hugealloc_rfc" show buddyinfo --policy hygeine)

# ---- --set: 78, naming the key; unknown switches list the valid ones
expect_error(78 "bogus" demo --set hygiene.bogus=yes --policy hygiene)
expect_error(78 "bdev_cache_movable, nofs_compact_reserves, capture_claim_block, capture_larger, migrate_free, compact_retry_three_outcomes, compaction_suitable_movable, zonelist_suitable_targets_only, kswapd_compaction_suitable, compaction_ready_before_zones, wmark_free_blocks, no_highatomic, no_watermark_boost, no_fallback, last_resort_fallback, kswapd_balance_free_blocks"
	demo --set hygiene.bogus=yes --policy hygiene)
expect_error(78 "vm.watermark_scale_factor" demo --set vm.watermark_scale_factor=0)
expect_error(78 "'nokey'" demo --set nokey)
expect_error(78 "KEY=VALUE" demo --set nokey)
expect_error(78 "vm.nosuch" demo --set vm.nosuch=1)
expect_error(78 "not a boolean" demo --policy hygiene --set hygiene.migrate_free=maybe)
expect_error(78 "needs migrate_free" demo --policy hygiene --set hygiene.migrate_free=no)
expect_error(78 "vm.lowmem_reserve_ratio" show buddyinfo --set vm.lowmem_reserve_ratio=1)
expect_error(78 "vm.percpu_pagelist_high_fraction" show buddyinfo --set vm.percpu_pagelist_high_fraction=4)
expect_error(78 "transparent_hugepage.enabled" show buddyinfo --set transparent_hugepage.enabled=sometimes)

# ---- load parameters: 78
expect_error(78 "--ops" demo --ops 0)
expect_error(78 "--ops" demo --ops -1)
expect_error(78 "--ops" show vmstat --ops lots)
expect_error(78 "--occupancy" demo --occupancy 1.5)
expect_error(78 "--occupancy" demo --occupancy 0)
expect_error(78 "--seed" demo --seed -1)
expect_error(78 "--check-every" demo --check-every x)

# ---- commands: 64
expect_error(64 "frobnicate" frobnicate)
expect_error(64 "nosuchfile" show nosuchfile)
expect_error(64 "pagetypeinfo, buddyinfo, vmstat, zoneinfo, census" show nosuchfile)
expect_error(64 "bogus" list bogus)
expect_error(64 "bogus" help bogus)
expect_error(64 "extra" demo extra)

# `mmsim` alone is bad usage too (64); it prints the usage text, which is
# its message, on stderr.
mmsim_run(r)
if(NOT r_RC STREQUAL "64")
	golden_fail("mmsim (no arguments): exit '${r_RC}', expected 64")
endif()
if(NOT r_ERR MATCHES "^usage: mmsim " OR NOT r_OUT STREQUAL "")
	golden_fail("mmsim (no arguments): expected the usage on stderr only; stdout '${r_OUT}', stderr '${r_ERR}'")
else()
	message(STATUS "ok (${r_RC}): mmsim (no arguments) prints the usage on stderr")
endif()

# Option errors found by getopt_long() and stray arguments of `show` are
# bad usage (64) too, but today they print getopt's "demo: unrecognized
# option '--bogus'" or only the usage text, without the "mmsim: error: "
# prefix: only the exit code, the usage on stderr and an empty stdout are
# pinned here.
foreach(case "demo;--bogus" "show;buddyinfo;--ram" "show;buddyinfo;extra" "list")
	string(REPLACE ";" " " shown "${case}")
	mmsim_run(r ${case})
	if(NOT r_RC STREQUAL "64" OR NOT r_OUT STREQUAL "" OR NOT r_ERR MATCHES "usage: mmsim ")
		golden_fail("mmsim ${shown}: exit '${r_RC}' (expected 64), stdout '${r_OUT}', stderr '${r_ERR}'")
	else()
		message(STATUS "ok (64): mmsim ${shown} (no 'mmsim: error: ' line)")
	endif()
endforeach()

# ---- help and version: 0, on stdout
expect_ok("^usage: mmsim .*Exit codes: 0 success, 64 bad usage, 65 bad database, 66 missing input,\n70 internal error or invariant violation, 73 cannot create the output,\n74 cannot write the output \\(standard output included\\), 75 busy \\(another\nsweep on the directory\\), 78 bad configuration value" --help)
expect_ok("^mmsim 0\\.1\\.0[ \n]" --version)
expect_ok("^usage: mmsim demo" demo --help)
expect_ok("^usage: mmsim show" help show)
expect_ok("^vanilla\n" list policies)

golden_finish()
