# golden_demo.cmake - the demonstration end to end.
#
# `mmsim demo --brief --ops 200000 --seed 1` exits 0 and prints a section
# for each policy; vanilla falls back into other types' blocks (extfrag
# events), hugealloc_rfc (formerly hygiene) leaves no movable block with non-LRU pages in the census.
# A second run prints the same bytes (determinism end to end), and so does a
# run with the invariant checker on (--check-every: it only reads).
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

set(args demo --brief --ops 200000 --seed 1)
string(REPLACE ";" " " shown "${args}")

mmsim_run(a ${args})
if(NOT a_RC STREQUAL "0")
	golden_fail("mmsim ${shown}: exit '${a_RC}'; stderr: ${a_ERR}")
endif()
if(NOT a_ERR STREQUAL "")
	golden_fail("mmsim ${shown}: unexpected stderr: ${a_ERR}")
endif()
file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/demo.actual" "${a_OUT}")

# the sections, in mm_policy_table order: vanilla, hugealloc_rfc, then
# v6_15 and defrag_mode (checked for presence below)
string(FIND "${a_OUT}" "==== policy vanilla: 2048 MiB RAM, 4 CPUs, seed 1, 200000 allocation attempts ====" v)
string(FIND "${a_OUT}" "==== policy hugealloc_rfc: 2048 MiB RAM, 4 CPUs, seed 1, 200000 allocation attempts ====" h)
if(v EQUAL -1 OR h EQUAL -1 OR NOT v LESS h)
	golden_fail("mmsim ${shown}: expected a vanilla then a hugealloc_rfc section (at ${v} and ${h})")
else()
	math(EXPR vlen "${h} - ${v}")
	string(SUBSTRING "${a_OUT}" ${v} ${vlen} vanilla)
	# up to the next policy's section (v6_15, defrag_mode follow it)
	string(SUBSTRING "${a_OUT}" ${h} -1 rest)
	string(FIND "${rest}" "==== policy v6_15:" next)
	string(SUBSTRING "${rest}" 0 ${next} hugealloc_rfc)

	foreach(policy vanilla hugealloc_rfc)
		set(text "${${policy}}")
		foreach(want "---- fallbacks (mm_page_alloc_extfrag)" "---- block census"
		             "movable blocks with non-LRU pages: " "live pages ")
			string(FIND "${text}" "${want}" at)
			if(at EQUAL -1)
				golden_fail("${policy} section lacks '${want}'")
			endif()
		endforeach()
		foreach(class anon file slab_reclaimable slab_unmovable pagetable atomic thp)
			if(NOT text MATCHES "\n${class} +attempts +[0-9]+ failed +[0-9]+ \\([0-9.]+%\\)\n")
				golden_fail("${policy} section lacks the '${class}' line")
			endif()
		endforeach()
	endforeach()

	# vanilla: v6.2 falls back into other types' blocks
	if(NOT vanilla MATCHES "extfrag events ([0-9]+) ")
		golden_fail("vanilla section: no 'extfrag events N' line")
	elseif(CMAKE_MATCH_1 EQUAL 0)
		golden_fail("vanilla section: no fallback (extfrag) events")
	else()
		message(STATUS "ok: vanilla has ${CMAKE_MATCH_1} fallback events")
	endif()
	if(NOT vanilla MATCHES "  (Unmovable|Reclaimable) <- Movable: [1-9]")
		golden_fail("vanilla section: no unmovable or reclaimable fallback into movable blocks")
	endif()

	# hugealloc_rfc: no movable block holds non-LRU pages; fallbacks only into free blocks
	if(NOT hugealloc_rfc MATCHES "\nmovable blocks with non-LRU pages: 0 \\(\\{'slab': 0, 'kmem': 0, 'other': 0\\} pages\\)\n")
		golden_fail("hugealloc_rfc section: the census shows movable blocks with non-LRU pages")
	else()
		message(STATUS "ok: hugealloc_rfc census: movable blocks with non-LRU pages: 0")
	endif()
	if(hugealloc_rfc MATCHES "  [A-Za-z]+ <- (Unmovable|Movable|Reclaimable|HighAtomic):")
		golden_fail("hugealloc_rfc section: a fallback into a block of another type: ${CMAKE_MATCH_0}")
	endif()
	if(NOT hugealloc_rfc MATCHES "\nfree [1-9][0-9]*\n")
		golden_fail("hugealloc_rfc section: the census shows no free blocks")
	endif()
endif()

# the same bytes again
mmsim_run(b ${args})
if(NOT b_RC STREQUAL "0" OR NOT b_OUT STREQUAL a_OUT)
	file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/demo-again.actual" "${b_OUT}")
	golden_fail("mmsim ${shown}, run twice: the outputs differ (demo.actual, demo-again.actual)")
else()
	string(LENGTH "${a_OUT}" n)
	message(STATUS "ok: a second run printed the same ${n} bytes")
endif()

# and with the invariant checker running every 10000 allocator operations
mmsim_run(c ${args} --check-every 10000)
if(NOT c_RC STREQUAL "0" OR NOT c_ERR STREQUAL "" OR NOT c_OUT STREQUAL a_OUT)
	file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/demo-checked.actual" "${c_OUT}")
	golden_fail("mmsim ${shown} --check-every 10000: exit '${c_RC}', stderr '${c_ERR}', "
	            "output differs: ${c_OUT} (demo-checked.actual)")
else()
	message(STATUS "ok: with --check-every 10000 the output is the same and no check failed")
endif()

golden_finish()
