# streamer.cmake - the real program real/streamer: run on tiny files in a
# scratch directory, it reads exactly the bytes its access sequence says
# (every block of every file once with --reread no, in seq and random
# order, with one and two processes), --prepare lays the files out and
# reads nothing, --rate bounds what it reads, and SIGTERM ends it with
# its counters printed.
#   cmake -DSTREAMER=<binary> -P streamer.cmake   (from a scratch directory)
if(NOT STREAMER)
	message(FATAL_ERROR "STREAMER not set")
endif()
set(dir "${CMAKE_CURRENT_BINARY_DIR}/files")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")

# run(OUT args...): the program's standard output in OUT, failing on a
# non-zero exit
function(run out)
	execute_process(COMMAND "${STREAMER}" --dir "${dir}" ${ARGN}
		OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR "streamer ${ARGN}: exit ${rc}\n${o}${e}")
	endif()
	set(${out} "${o}" PARENT_SCOPE)
endfunction()

# expect(OUTPUT NAME VALUE): the counter NAME is VALUE
function(expect output name value)
	string(REGEX MATCH "(^|\n)${name} ([0-9.]+)" m "${output}")
	if(NOT m OR NOT CMAKE_MATCH_2 STREQUAL "${value}")
		message(FATAL_ERROR "${name}: expected ${value}, got '${CMAKE_MATCH_2}'\n${output}")
	endif()
endfunction()

function(counter output name var)
	string(REGEX MATCH "(^|\n)${name} ([0-9.]+)" m "${output}")
	if(NOT m)
		message(FATAL_ERROR "no counter ${name}\n${output}")
	endif()
	set(${var} "${CMAKE_MATCH_2}" PARENT_SCOPE)
endfunction()

# 3 files of 40001 KiB: 10001 pages each, the last 4 KiB block 1 KiB long
set(size 40961024)
math(EXPR total "3 * ${size}")

# --prepare: the files laid out, nothing read
run(o --prepare --files 3 --file-size 40001K)
foreach(f 0 1 2)
	file(SIZE "${dir}/streamer.${f}" s)
	if(NOT s EQUAL size)
		message(FATAL_ERROR "streamer.${f}: ${s} bytes, expected ${size}")
	endif()
endforeach()
if(o)
	message(FATAL_ERROR "--prepare printed counters: ${o}")
endif()

# once, sequential: 313 reads of 128 KiB a file
run(o --files 3 --file-size 40001K --reread no)
expect("${o}" streamer_bytes_read ${total})
expect("${o}" streamer_reads 939)
expect("${o}" streamer_passes 1)
expect("${o}" streamer_layout_bytes 0)

# once, random, two processes: every 4 KiB block once
run(o --files 3 --file-size 40001K --reread no --pattern random --procs 2 --seed 9)
expect("${o}" streamer_bytes_read ${total})
expect("${o}" streamer_reads 30003)
expect("${o}" streamer_passes 2)

# layout written: the files written anew, then read
run(o --files 2 --file-size 1M --reread no --layout written)
expect("${o}" streamer_layout_bytes 2097152)
expect("${o}" streamer_bytes_read 2097152)

# a rate: 20 MiB/s for 0.5 s reads at most 10 MiB and a block
run(o --files 3 --file-size 40001K --rate 20 --duration 0.5)
counter("${o}" streamer_bytes_read b)
if(b GREATER 10616832 OR b LESS 2097152)
	message(FATAL_ERROR "--rate 20 for 0.5 s read ${b} bytes\n${o}")
endif()

# SIGTERM: reading over and over until told to stop, then the counters
execute_process(COMMAND timeout -s TERM 0.5 "${STREAMER}" --dir "${dir}" --files 3 --file-size 40001K
	OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(NOT rc EQUAL 124)
	message(FATAL_ERROR "streamer under timeout -s TERM: exit ${rc} (expected 124: stopped by the signal)\n${o}${e}")
endif()
counter("${o}" streamer_bytes_read b)
if(b EQUAL 0)
	message(FATAL_ERROR "nothing read before SIGTERM\n${o}")
endif()

# bad input: a clear message, exit 64
execute_process(COMMAND "${STREAMER}" --dir "${dir}" --pattern zigzag
	OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(NOT rc EQUAL 64 OR NOT e MATCHES "--pattern: bad value 'zigzag'")
	message(FATAL_ERROR "--pattern zigzag: exit ${rc}, '${e}'")
endif()
file(REMOVE_RECURSE "${dir}")
