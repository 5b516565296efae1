# golden_results_cli.cmake - mmsim merge and mmsim compare on bad input: the
# documented exit codes (64 usage, 65 bad database, 66 missing input, 73
# cannot create the output), a message naming the file, nothing on stdout,
# and no output file left behind.  (The tables themselves are tested in
# tests/unit/test_compare.c.)
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

file(WRITE garbage.db "not an SQLite database, though long enough to have a header\n")
file(REMOVE out.db missing.db)


golden_expect_error(64 "usage: mmsim merge" merge --bogus)
golden_expect_error(64 "no output file" merge garbage.db)
golden_expect_error(64 "no input files" merge -o out.db)
golden_expect_error(66 "missing.db: No such file" merge -o out.db missing.db)
golden_expect_error(65 "garbage.db: not an mmsim results database" merge -o out.db garbage.db)
if(EXISTS out.db)
	golden_fail("mmsim merge -o out.db garbage.db left out.db behind")
endif()
golden_expect_error(73 "/nonexistent/dir/out.db" merge -o /nonexistent/dir/out.db garbage.db)
golden_expect_error(65 "garbage.db: exists and is not an mmsim results database" merge -o garbage.db garbage.db)

golden_expect_error(64 "no database given" compare)
golden_expect_error(64 "usage: mmsim compare" compare garbage.db --bogus)
golden_expect_error(66 "missing.db: No such file" compare missing.db)
golden_expect_error(65 "garbage.db: not an mmsim results database" compare garbage.db)

foreach(verb merge compare)
	mmsim_run(r ${verb} --help)
	if(NOT r_RC STREQUAL "0" OR NOT r_OUT MATCHES "^usage: mmsim ${verb}" OR NOT r_ERR STREQUAL "")
		golden_fail("mmsim ${verb} --help: exit '${r_RC}', stdout '${r_OUT}', stderr '${r_ERR}'")
	else()
		message(STATUS "ok (0): mmsim ${verb} --help")
	endif()
endforeach()

golden_finish()
