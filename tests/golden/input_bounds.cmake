# input_bounds.cmake - input that used to be accepted and must not be
# (issue 12): each case exits with its documented code, says what is
# wrong (file, line, key) and how to go on, and leaves no file behind.
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

set(W "${CMAKE_CURRENT_BINARY_DIR}")
set(SMOKE "${SRC}/configs/smoke.ini")
file(REMOVE_RECURSE "${W}/out")
file(MAKE_DIRECTORY "${W}/out")

# expect(RC MESSAGE ARGS...): golden_expect_error (the whole stderr; ${W},
# ${SMOKE}, ${MINI} for this run's paths), and nothing left in out/
function(expect rc message)
	golden_expect_error(${rc} "${message}" ${ARGN})
	file(GLOB left "${W}/out/*")
	if(left)
		string(REPLACE ";" " " shown "${ARGN}")
		golden_fail("mmsim ${shown}: left '${left}'")
	endif()
	set(GOLDEN_FAILURES ${GOLDEN_FAILURES} PARENT_SCOPE)
endfunction()

# ---- a directory as the scenario (ran the defaults and exited 0)
expect(66 "mmsim: error: cannot read ${W}: Is a directory" run "${W}" -o "${W}/out/r.db")
expect(66 "mmsim: error: cannot read ${W}: Is a directory" run "${W}" --dump-config)

# ---- time series: a bound on the records (1e-9 hung, 1e-5 wrote 846 MB)
expect(78 "mmsim: error: --set run.sample_interval: [run] sample_interval: '0.001' over a duration of 1000 s is 1000000 records, more than 100000; a longer interval, or MMSIM_MAX_SAMPLES=N in the environment to allow more on purpose"
	run "${SMOKE}" --set run.sample_interval=0.001 --set run.duration=1000 -o "${W}/out/r.db")
# ... and a floor on every period (PARAM_PERIOD_FLOOR, one jiffy): below
# it, a sample interval, a census interval, make's poll or a daemon's
# interval cost events without end (kbuild.poll=1e-300 hung with
# duration=1, issue 26)
expect(78 "mmsim: error: --set run.sample_interval: '1e-9' is not 0 or a number of seconds in 0.001..1e+06"
	run "${SMOKE}" --set run.sample_interval=1e-9 -o "${W}/out/r.db")
expect(78 "mmsim: error: --set run.census_interval: '1e-5' is not 0 or a number of seconds in 0.001..1e+06"
	run "${SMOKE}" --set run.census_interval=1e-5 -o "${W}/out/r.db")
foreach(v 1e-300 1e-12 1e-7)
	expect(78 "mmsim: error: --set kbuild.poll: '${v}' is not wait or a number of seconds in 0.001..10"
		run "${SRC}/configs/mini.ini" --set kbuild.poll=${v} --set run.duration=1 -o "${W}/out/r.db")
endforeach()
file(WRITE "${W}/daemon.ini" "[daemon.d]\nanon = 1M\ninterval = 1e-300\n")
expect(78 "mmsim: error: --set system.profile: ${W}/daemon.ini:3: [daemon.d] interval: '1e-300' is not 0 or a number of seconds in 0.001..1e+06"
	run "${SMOKE}" --set "system.profile=${W}/daemon.ini" -o "${W}/out/r.db")
# an "auto" duration is bounded as the run goes: the run stops at the bound
set(ENV{MMSIM_MAX_SAMPLES} 20)
golden_expect_error(78 "mmsim: error: the sampler would record more than 20 times (every 0.01 s of virtual time): [run] sample_interval or census_interval too short for this run; a longer interval, or MMSIM_MAX_SAMPLES=N in the environment to allow more on purpose"
	run "${SRC}/configs/mini.ini" --set run.sample_interval=0.01 -o "${W}/out/auto.db")
unset(ENV{MMSIM_MAX_SAMPLES})
file(GLOB left "${W}/out/auto.db.tmp.*")
if(EXISTS "${W}/out/auto.db")
	golden_fail("auto duration, MMSIM_MAX_SAMPLES=20: the stopped run left ${W}/out/auto.db")
endif()
# the engine returns the error and the command line ends the run as any
# failed one: its temporary file is removed (leftovers of a killed
# writer, which the next write of that name removes: sweep_identity.cmake)
mmsim_run(r run "${SMOKE}" -o "${W}/out/auto.db")
file(GLOB left2 "${W}/out/auto.db.tmp.*")
if(left OR left2 OR NOT r_RC STREQUAL "0")
	golden_fail("the stopped run's leftover: before '${left}', after '${left2}', exit '${r_RC}': ${r_ERR}")
endif()
file(REMOVE "${W}/out/auto.db")

# ---- sizes the host cannot hold (region=100T aborted and left a .tmp)
expect(78 "mmsim: error: --set thp_faulter.region: '100T' is not a size in 2M..4T (K/M/G/T suffix)"
	run "${SMOKE}" --set thp_faulter.region=100T -o "${W}/out/r.db")
set(ENV{MMSIM_HOST_MEMORY} 16M)
expect(78 "mmsim: error: --set machine.ram: [machine] ram: '4G' needs about 46 MiB of host memory for the model's state, more than the 16 MiB allowed (MMSIM_HOST_MEMORY); a smaller value, or MMSIM_HOST_MEMORY=SIZE in the environment to allow more on purpose"
	run "${SMOKE}" --set machine.ram=4G -o "${W}/out/r.db")
expect(78 "mmsim: error: --set machine.swap: [machine] swap: '4G' needs about 22 MiB of host memory for the model's state, more than the 16 MiB allowed (MMSIM_HOST_MEMORY); a smaller value, or MMSIM_HOST_MEMORY=SIZE in the environment to allow more on purpose"
	run "${SMOKE}" --set machine.swap=4G -o "${W}/out/r.db")
expect(78 "mmsim: error: --set thp_faulter.region: '1T' needs about 1.2 GiB of host memory for the model's state, more than the 16 MiB allowed (MMSIM_HOST_MEMORY); a smaller value, or MMSIM_HOST_MEMORY=SIZE in the environment to allow more on purpose"
	run "${SMOKE}" --set thp_faulter.region=1T -o "${W}/out/r.db")
# ... and the verbs that boot a machine from options (machine_boot checks)
expect(78 "mmsim: error: --ram: needs about 46 MiB of host memory for the model's state, more than the 16 MiB allowed (MMSIM_HOST_MEMORY); a smaller value, or MMSIM_HOST_MEMORY=SIZE in the environment to allow more on purpose"
	demo --ram 4G)
expect(78 "mmsim: error: --ram: needs about 46 MiB of host memory for the model's state, more than the 16 MiB allowed (MMSIM_HOST_MEMORY); a smaller value, or MMSIM_HOST_MEMORY=SIZE in the environment to allow more on purpose"
	show buddyinfo --ram 4G)
expect(78 "mmsim: error: --swap: needs about 22 MiB of host memory for the model's state, more than the 16 MiB allowed (MMSIM_HOST_MEMORY); a smaller value, or MMSIM_HOST_MEMORY=SIZE in the environment to allow more on purpose"
	bench --ram 512M --swap 4G)
unset(ENV{MMSIM_HOST_MEMORY})
# the default bound, half of the host's memory: 4T needs about 38 GiB
cmake_host_system_information(RESULT host_mib QUERY TOTAL_PHYSICAL_MEMORY)
if(host_mib LESS 70000)
	# the bound is half of this host's memory: masked as HALF
	set(GOLDEN_ERROR_MASK "the [0-9.]+ [KMGT]iB allowed \\(half of" "the HALF allowed (half of")
	expect(78 "mmsim: error: --set machine.ram: [machine] ram: '4T' needs about 38.0 GiB of host memory for the model's state, more than the HALF allowed (half of this host's memory); a smaller value, or MMSIM_HOST_MEMORY=SIZE in the environment to allow more on purpose"
		run "${SMOKE}" --set machine.ram=4T --dump-config)
	unset(GOLDEN_ERROR_MASK)
endif()

# ---- -o onto a file that is not a results database: refused, untouched
configure_file("${SMOKE}" "${W}/scenario.ini" COPYONLY)
golden_expect_error(73 "mmsim: error: ${W}/scenario.ini: exists and is not an mmsim results database (file is not a database); not overwritten (remove it or choose another name)"
	run "${W}/scenario.ini" -o "${W}/scenario.ini")
file(READ "${W}/scenario.ini" after)
file(READ "${SMOKE}" before)
file(GLOB left "${W}/scenario.ini.tmp.*")
if(NOT after STREQUAL before OR left)
	golden_fail("run -o SCENARIO: scenario changed or leftover '${left}'")
endif()

# ---- write errors on standard output: 74 (compare's formats too: they
# said 65, a bad database)
file(REMOVE "${W}/full-src.db")
mmsim_run(r run "${SMOKE}" -o "${W}/full-src.db")
foreach(args "list;policies" "run;${SMOKE};--dump-config" "compare;${W}/full-src.db"
		"compare;${W}/full-src.db;--format;json" "compare;${W}/full-src.db;--format;csv"
		"compare;${W}/full-src.db;--format;html" "compare;${W}/full-src.db;--format;values")
	execute_process(COMMAND "${MMSIM}" ${args} OUTPUT_FILE /dev/full ERROR_VARIABLE err RESULT_VARIABLE rc)
	if(NOT rc STREQUAL "74" OR NOT err STREQUAL "mmsim: error: cannot write standard output: No space left on device\n")
		golden_fail("mmsim ${args} > /dev/full: exit '${rc}', '${err}'")
	else()
		message(STATUS "ok (74): mmsim ${args} > /dev/full")
	endif()
endforeach()

# ---- a write to the results file that fails (a full disk; here the file
# size limit, 100 KiB: sh counts 512-byte blocks; SIGXFSZ ignored so that
# write() fails with EFBIG): 74, as
# the docs say, not 73 (the file was created); nothing left at the target
file(REMOVE "${W}/full.db")
execute_process(COMMAND sh -c "trap '' XFSZ; ulimit -f 200; exec \"$1\" run \"$2\" -o \"$3\"" sh
		"${MMSIM}" "${SMOKE}" "${W}/full.db"
	ERROR_VARIABLE err RESULT_VARIABLE rc)
file(GLOB left "${W}/full.db*")
# the message whole but for SQLite's words after the file (which of its
# writes meets the limit first is SQLite's business)
string(REGEX REPLACE "full.db: [^\n]*" "full.db: SQLITE" err_masked "${err}")
if(NOT rc STREQUAL "74" OR NOT err_masked STREQUAL "mmsim: error: ${W}/full.db: SQLITE\n" OR left)
	golden_fail("run -o FILE over the file size limit: exit '${rc}' (want 74), '${err}', left '${left}'")
else()
	message(STATUS "ok (74): run -o FILE over the file size limit: ${err}")
endif()

# ---- a malformed MMSIM_HOST_MEMORY is refused naming the variable (it
# was ignored, and then cited as the limit's source)
foreach(v abc -1)
	set(ENV{MMSIM_HOST_MEMORY} "${v}")
	expect(78 "mmsim: error: MMSIM_HOST_MEMORY='${v}' in the environment is not a size (a positive number with an optional K, M, G or T suffix, e.g. 16G): unset it to allow half of this host's memory"
		run "${SMOKE}" --dump-config)
endforeach()
unset(ENV{MMSIM_HOST_MEMORY})

# ---- duplicate keys and sections, indented lines: file, line, key
file(WRITE "${W}/dupkey.ini" "[machine]\nram = 1G\ncpus = 2\nram = 2G\n")
expect(78 "mmsim: error: ${W}/dupkey.ini:4: [machine] ram: set twice (first at line 2)"
	run "${W}/dupkey.ini" --dump-config)
file(WRITE "${W}/dupsec.ini" "[machine]\nram = 1G\n\n[run]\nseed = 2\n[machine]\ncpus = 2\n")
expect(78 "mmsim: error: ${W}/dupsec.ini:6: section [machine] appears twice (first at line 1): give each key once, in one section"
	run "${W}/dupsec.ini" --dump-config)
file(WRITE "${W}/indent.ini" "[machine]\nram = 1G\n  cpus = 2\n")
expect(78 "mmsim: error: ${W}/indent.ini:3: an indented line (inih would append it to the value of 'ram'); values are one line: remove the indentation"
	run "${W}/indent.ini" --dump-config)

# ---- special files as inputs (issue 26): /dev/zero and a FIFO as the
# scenario, a profile or a kbuild tree spun or blocked forever; a
# directory as a profile ran an empty one; as kbuild.tree it failed the
# run (70).  Refused before anything runs, naming the file.
file(REMOVE "${W}/fifo")
execute_process(COMMAND mkfifo "${W}/fifo" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	golden_fail("mkfifo ${W}/fifo: ${rc}")
endif()
file(MAKE_DIRECTORY "${W}/adir")
expect(66 "mmsim: error: cannot read /dev/zero: a device, not a regular file"
	run /dev/zero --dump-config)
expect(66 "mmsim: error: cannot read ${W}/fifo: a FIFO, not a regular file"
	run "${W}/fifo" --dump-config)
expect(78 "mmsim: error: --set system.profile: cannot read /dev/zero: a device, not a regular file"
	run "${SMOKE}" --set system.profile=/dev/zero --dump-config)
expect(78 "mmsim: error: --set system.profile: cannot read ${W}/fifo: a FIFO, not a regular file"
	run "${SMOKE}" --set "system.profile=${W}/fifo" --dump-config)
expect(78 "mmsim: error: --set system.profile: cannot read ${W}/adir: Is a directory"
	run "${SMOKE}" --set "system.profile=${W}/adir" --dump-config)
set(MINI "${SRC}/configs/mini.ini")
expect(78 "mmsim: error: --set kbuild.tree: [workload.kbuild] tree: cannot read /dev/zero: a device, not a regular file"
	run "${MINI}" --set kbuild.tree=/dev/zero --dump-config)
expect(78 "mmsim: error: --set kbuild.tree: [workload.kbuild] tree: cannot read ${W}/fifo: a FIFO, not a regular file"
	run "${MINI}" --set "kbuild.tree=${W}/fifo" --dump-config)
expect(78 "mmsim: error: --set kbuild.tree: [workload.kbuild] tree: cannot read ${W}/adir: Is a directory"
	run "${MINI}" --set "kbuild.tree=${W}/adir" -o "${W}/out/r.db")

# ---- a NUL byte: refused at its line (a NUL at a line's start dropped
# the line silently and put every later line number off by one)
execute_process(COMMAND printf "[machine]\\nram = 512M\\n\\0[run]\\nseed = 3\\n" OUTPUT_FILE "${W}/nul.ini")
expect(78 "mmsim: error: ${W}/nul.ini:3: a NUL byte (byte 1 of the line): not a text file"
	run "${W}/nul.ini" --dump-config)
execute_process(COMMAND printf "[daemon.d]\\nanon = 1M\\ninterval = 5\\0\\n" OUTPUT_FILE "${W}/nulprof.ini")
expect(78 "mmsim: error: --set system.profile: ${W}/nulprof.ini:3: a NUL byte (byte 13 of the line): not a text file"
	run "${SMOKE}" --set "system.profile=${W}/nulprof.ini" --dump-config)

# ---- lines of any length (the inih of Debian 12 cut lines at 200 bytes
# and read the rest as a line: a 199-character comment's tail was a
# setting).  A comment of each length hiding 'swappiness = 200' leaves
# swappiness at its default (215: the setting starts at byte 200, where
# the old reader cut the line and applied it); a value of 600 characters (a kbuild.tree
# path) reads back from --dump-config's text as it was.
foreach(len 150 198 199 200 201 214 215 216 400 4096)
	math(EXPR pad "${len} - 2 - 16")
	string(REPEAT "x" ${pad} xs)
	file(WRITE "${W}/long.ini" "[vm]\n; ${xs}swappiness = 200\n[workload]\nnames = thp_faulter\n[run]\nduration = 1\n")
	mmsim_run(r run "${W}/long.ini" --dump-config)
	if(NOT r_RC STREQUAL "0" OR NOT r_OUT MATCHES "\nswappiness = 60\n")
		golden_fail("a comment line of ${len} characters: exit '${r_RC}', '${r_ERR}', swappiness: '${r_OUT}'")
	else()
		message(STATUS "ok: a comment line of ${len} characters is a comment")
	endif()
endforeach()
string(REPEAT "d" 200 seg)
set(deep "${W}/${seg}/${seg}/${seg}")
file(MAKE_DIRECTORY "${deep}")
file(COPY_FILE "${SRC}/workloads/data/kbuild/linux-6.1-defconfig.tsv.gz" "${deep}/tree.tsv.gz")
file(WRITE "${W}/longval.ini" "[workload]\nnames = kbuild\n[workload.kbuild]\ntree = ${deep}/tree.tsv.gz\n[run]\nduration = 1\n")
mmsim_run(r1 run "${W}/longval.ini" --dump-config)
file(WRITE "${W}/dump.ini" "${r1_OUT}")
mmsim_run(r2 run "${W}/dump.ini" --dump-config)
string(FIND "${r1_OUT}" "\ntree = ${deep}/tree.tsv.gz\n" at)
if(NOT r1_RC STREQUAL "0" OR NOT r2_RC STREQUAL "0" OR at EQUAL -1 OR NOT r1_OUT STREQUAL r2_OUT)
	golden_fail("a ${deep} value: exits '${r1_RC}' '${r2_RC}' ('${r1_ERR}' '${r2_ERR}'), found at ${at}, dumps equal: "
		"'${r1_OUT}' vs '${r2_OUT}'")
else()
	message(STATUS "ok: a value of 600+ characters reads back from the dump as it was")
endif()

golden_finish()
