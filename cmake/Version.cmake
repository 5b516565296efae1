# Version.cmake - generate <mmsim/version.h> in the build tree.
#
# MMSIM_VERSION comes from project(VERSION); MMSIM_GIT_REVISION is
# `git describe --always --dirty` taken at configure time, or "unknown"
# outside a git checkout (or with no commit yet).  CMake re-runs the
# configure step when HEAD or the index changes, so the revision follows
# commits; edits to tracked files alone do not refresh "-dirty" until the
# next configure.
#
# Sets MMSIM_GENERATED_INCLUDE_DIR: add it to a target's include path.

include_guard(GLOBAL)

set(MMSIM_GIT_REVISION "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
	execute_process(
		COMMAND "${GIT_EXECUTABLE}" describe --always --dirty
		WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
		RESULT_VARIABLE _mmsim_git_rc
		OUTPUT_VARIABLE _mmsim_git_rev
		OUTPUT_STRIP_TRAILING_WHITESPACE
		ERROR_QUIET)
	if(_mmsim_git_rc EQUAL 0 AND NOT _mmsim_git_rev STREQUAL "")
		set(MMSIM_GIT_REVISION "${_mmsim_git_rev}")
	endif()

	# Re-configure when a commit is made or the index changes.
	execute_process(
		COMMAND "${GIT_EXECUTABLE}" rev-parse --absolute-git-dir
		WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
		RESULT_VARIABLE _mmsim_git_rc
		OUTPUT_VARIABLE _mmsim_git_dir
		OUTPUT_STRIP_TRAILING_WHITESPACE
		ERROR_QUIET)
	if(_mmsim_git_rc EQUAL 0)
		foreach(_f HEAD index)
			if(EXISTS "${_mmsim_git_dir}/${_f}")
				set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND
					PROPERTY CMAKE_CONFIGURE_DEPENDS "${_mmsim_git_dir}/${_f}")
			endif()
		endforeach()
	endif()
endif()

if(CMAKE_CONFIGURATION_TYPES)
	set(MMSIM_BUILD_TYPE "multi-config")
else()
	set(MMSIM_BUILD_TYPE "${CMAKE_BUILD_TYPE}")
endif()
# a run tells which binary ran it: profile-guided, or instrumented for it
if(MMSIM_PROFILE_USE)
	string(APPEND MMSIM_BUILD_TYPE "+pgo")
elseif(MMSIM_PROFILE_GENERATE)
	string(APPEND MMSIM_BUILD_TYPE "+pgo-generate")
endif()

set(MMSIM_GENERATED_INCLUDE_DIR "${PROJECT_BINARY_DIR}/generated")
configure_file("${CMAKE_CURRENT_LIST_DIR}/version.h.in"
	"${MMSIM_GENERATED_INCLUDE_DIR}/mmsim/version.h" @ONLY)
