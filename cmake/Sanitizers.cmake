# Sanitizers.cmake - the MMSIM_SANITIZE build (ASan + UBSan).
#
# MMSIM_SANITIZE=ON compiles and links everything with AddressSanitizer and
# UndefinedBehaviorSanitizer; any UB report is fatal (-fno-sanitize-recover).
# It also turns on MMSIM_DEBUG_VM (see the top-level CMakeLists.txt), so the
# sanitizer build runs the model's own invariant checks too.
#
# The matching run-time options (ASAN_OPTIONS, UBSAN_OPTIONS) are set on each
# test in tests/CMakeLists.txt.

include_guard(GLOBAL)

if(MMSIM_SANITIZE)
	if(NOT CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
		message(FATAL_ERROR "mmsim: MMSIM_SANITIZE needs GCC or Clang "
			"(compiler is '${CMAKE_C_COMPILER_ID}')")
	endif()
	set(MMSIM_SANITIZER_FLAGS
		-fsanitize=address,undefined
		-fno-omit-frame-pointer
		-fno-sanitize-recover=undefined)
	add_compile_options(${MMSIM_SANITIZER_FLAGS})
	add_link_options(${MMSIM_SANITIZER_FLAGS})
endif()
