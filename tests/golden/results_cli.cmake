# golden_results_cli.cmake - mmsim merge and mmsim compare on bad input: the
# documented exit codes (64 usage, 65 bad database, 66 missing input, 73
# cannot create the output), a message naming the file (each pinned whole:
# golden_expect_error; the files are relative, so no part varies), nothing
# on stdout, and no output file left behind.  (The tables themselves are
# tested in tests/unit/test_compare.c.)
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

file(WRITE garbage.db "not an SQLite database, though long enough to have a header\n")
file(REMOVE out.db missing.db)
golden_help(MERGE_HELP merge)
golden_help(COMPARE_HELP compare)

golden_expect_error(64 "merge: unrecognized option '--bogus'\n${MERGE_HELP}" merge --bogus)
golden_expect_error(64 "mmsim: error: merge: no output file (-o OUT.db)" merge garbage.db)
golden_expect_error(64 "mmsim: error: merge: no input files" merge -o out.db)
golden_expect_error(66 "mmsim: error: merge: missing.db: No such file or directory"
	merge -o out.db missing.db)
golden_expect_error(65 "mmsim: error: merge: garbage.db: not an mmsim results database (file is not a database)"
	merge -o out.db garbage.db)
if(EXISTS out.db)
	golden_fail("mmsim merge -o out.db garbage.db left out.db behind")
endif()
golden_expect_error(73 "mmsim: error: merge: /nonexistent/dir/out.db: cannot create or write: No such file or directory"
	merge -o /nonexistent/dir/out.db garbage.db)
golden_expect_error(65 "mmsim: error: merge: garbage.db: exists and is not an mmsim results database (file is not a database); not overwritten (remove it or choose another name)"
	merge -o garbage.db garbage.db)

golden_expect_error(64 "mmsim: error: compare: no database given" compare)
golden_expect_error(64 "compare: unrecognized option '--bogus'\n${COMPARE_HELP}"
	compare garbage.db --bogus)
golden_expect_error(66 "mmsim: error: compare: missing.db: No such file or directory"
	compare missing.db)
golden_expect_error(65 "mmsim: error: compare: garbage.db: not an mmsim results database (file is not a database)"
	compare garbage.db)

foreach(verb merge compare)
	mmsim_run(r ${verb} --help)
	if(NOT r_RC STREQUAL "0" OR NOT r_OUT MATCHES "^usage: mmsim ${verb}" OR NOT r_ERR STREQUAL "")
		golden_fail("mmsim ${verb} --help: exit '${r_RC}', stdout '${r_OUT}', stderr '${r_ERR}'")
	else()
		message(STATUS "ok (0): mmsim ${verb} --help")
	endif()
endforeach()

golden_finish()
