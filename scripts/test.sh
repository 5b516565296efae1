#!/usr/bin/env bash
# test.sh - install dependencies, build, and run every test twice:
#   build/release  Release build, profile-guided (scripts/pgo-build.sh)
#   build/asan     Debug build with -DMMSIM_SANITIZE=ON (ASan + UBSan, MMSIM_DEBUG_VM)
# Extra arguments are passed to ctest (e.g. `scripts/test.sh -L unit`).
# MMSIM_TEST_TIMEOUT_FACTOR (a whole number, default 1) multiplies every
# test's time limit, for a slower or busier machine (docs/testing.md).
# Ends with the line "N passed, M failed", summed over both builds; a build
# that fails to configure or compile counts as one failure.  Exit status 0
# only if everything passed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-deps.sh

jobs=$(nproc 2>/dev/null || echo 2)
factor=${MMSIM_TEST_TIMEOUT_FACTOR:-1}
if [[ ! $factor =~ ^[1-9][0-9]*$ ]]; then
	echo "test.sh: error: MMSIM_TEST_TIMEOUT_FACTOR='$factor': a whole number >= 1" >&2
	exit 64
fi
passed=0
failed=0

# build_dir NAME DIR CMAKE-ARGS...: configure and build.  The release build
# is the binary scripts/reproduce.sh builds, profile-guided (its results
# are the plain build's, which the golden tests hold).
build_dir() {
	local name=$1 dir=$2
	shift 2
	if [[ $name == release ]]; then
		scripts/pgo-build.sh "$dir" "$@"
	else
		cmake -S . -B "$dir" "$@" && cmake --build "$dir" -j "$jobs"
	fi
}

# run_build NAME CMAKE-ARGS...
run_build() {
	local name=$1 dir=build/$1 log status=0 line total nfail
	shift
	printf '\n=== %s: configure and build ===\n' "$name"
	if ! build_dir "$name" "$dir" -DMMSIM_TEST_TIMEOUT_FACTOR="$factor" "$@"; then
		printf '=== %s: BUILD FAILED ===\n' "$name"
		failed=$((failed + 1))
		return 0
	fi

	printf '\n=== %s: ctest ===\n' "$name"
	log=$dir/test-sh-ctest.log
	(cd "$dir" && ctest --output-on-failure -j2 "${ctest_args[@]}") 2>&1 | tee "$log" || status=$?

	# "100% tests passed, 0 tests failed out of 12"
	line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)
	if [[ $line =~ ([0-9]+)\ tests?\ failed\ out\ of\ ([0-9]+) ]]; then
		nfail=${BASH_REMATCH[1]}
		total=${BASH_REMATCH[2]}
		passed=$((passed + total - nfail))
		failed=$((failed + nfail))
		if ((status != 0 && nfail == 0)); then
			failed=$((failed + 1))   # ctest failed without a failing test
		fi
	elif ((status != 0)); then
		printf '=== %s: ctest failed (exit %d) ===\n' "$name" "$status"
		failed=$((failed + 1))
	fi
}

ctest_args=("$@")
run_build release -DCMAKE_BUILD_TYPE=Release -DMMSIM_SANITIZE=OFF
run_build asan    -DCMAKE_BUILD_TYPE=Debug   -DMMSIM_SANITIZE=ON

echo
echo "$passed passed, $failed failed"
((failed == 0))
