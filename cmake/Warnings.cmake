# Warnings.cmake - compiler warnings for every mmsim target (C only).
#
# Included from the top-level CMakeLists.txt before any target is defined, so
# the options reach the library, the CLI and the tests alike.

include_guard(GLOBAL)

if(NOT CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
	message(WARNING "mmsim: warning flags are written for GCC/Clang; "
		"compiler '${CMAKE_C_COMPILER_ID}' may reject them")
endif()

add_compile_options(
	-Wall
	-Wextra
	-Wshadow
	-Wstrict-prototypes
	-Werror=implicit-function-declaration
)
