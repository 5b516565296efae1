#!/usr/bin/env bash
# fuzz.sh - fuzz the scenario parser with libFuzzer for a long run.
#
#   scripts/fuzz.sh [RUNS] [libFuzzer options...]
#
# Builds build/fuzz with clang (-fsanitize=fuzzer,address,undefined; the
# Debian packages clang and libclang-rt-14-dev, which
# `scripts/install-deps.sh --fuzz` installs if missing) and
# runs tests/fuzz/fuzz_scenario.c's target for RUNS executions (default
# 1000000) from the seeds configs/*.ini, with the language's dictionary
# tests/fuzz/scenario.dict.  The corpus grows in build/fuzz/corpus (kept
# between runs); a crash, a leak, a sanitizer report or an input that runs
# longer than 10 s stops the run with libFuzzer's report and the input in
# build/fuzz/ (crash-*, leak-*, timeout-*), and the exit status is not 0.
# The test suite runs the same target for a fixed number of executions
# with a seeded mutation driver (ctest -R fuzz_scenario); docs/testing.md.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
me=${0##*/}
runs=${1:-1000000}
[[ $runs =~ ^[0-9]+$ ]] || { echo "$me: error: RUNS must be a number, not '$runs'" >&2; exit 64; }
shift $(($# > 0 ? 1 : 0))

scripts/install-deps.sh --fuzz

flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
cmake -S . -B build/fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DMMSIM_FUZZ=ON -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build build/fuzz -j "$(nproc 2>/dev/null || echo 2)" --target fuzz_scenario_libfuzzer

mkdir -p build/fuzz/corpus
cp -n configs/*.ini build/fuzz/corpus/ 2>/dev/null || true
cd build/fuzz
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
start=$(date +%s)
./tests/fuzz_scenario_libfuzzer -runs="$runs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
	-dict=../../tests/fuzz/scenario.dict -print_final_stats=1 "$@" corpus
echo "$me: $runs executions in $(($(date +%s) - start)) s, no crash" >&2
