#!/usr/bin/env bash
# pgo-build.sh DIR [CMAKE-ARGS...] - the Release build in DIR, with
# profile-guided optimisation (docs/benchmarks.md, "Profile-guided
# optimisation"; 1.08 to 1.13 times as fast on the default run, the results
# the same to the last digit):
#   1. DIR configured with MMSIM_PROFILE_GENERATE=DIR/pgo-data and mmsim
#      built instrumented;
#   2. the training: configs/hugealloc.ini's one iteration under each of
#      the experiment's four policies, as many at a time as there are CPUs
#      (their profiles add up in DIR/pgo-data);
#   3. DIR configured with MMSIM_PROFILE_USE=DIR/pgo-data, everything built.
# Steps 1 and 2 run again only when a source, CMakeLists.txt, cmake/, the
# training's scenario or a system profile (configs/system/) is newer than
# the last training (DIR/pgo-data/trained);
# otherwise DIR is configured and built as it stands.  CMAKE-ARGS go to
# every configure (as -DMMSIM_TEST_TIMEOUT_FACTOR=2 from scripts/test.sh).
# MMSIM_PGO=0 in the environment: a plain Release build (-O2), no profile.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
dir=${1:?usage: scripts/pgo-build.sh DIR [CMAKE-ARGS...]}
shift
jobs=$(nproc 2>/dev/null || echo 2)
data=$(mkdir -p "$dir" && cd "$dir" && pwd)/pgo-data
base=(-DCMAKE_BUILD_TYPE=Release -DMMSIM_SANITIZE=OFF "$@")

if [[ ${MMSIM_PGO:-1} == 0 ]]; then
	cmake -S . -B "$dir" "${base[@]}" -DMMSIM_PROFILE_GENERATE= -DMMSIM_PROFILE_USE= >/dev/null
	exec cmake --build "$dir" -j "$jobs"
fi

stale() {
	[[ ! -e $data/trained ]] && return 0
	# the training's scenario and the system profile it names
	# (configs/system/headless.ini) are read by the training
	[[ -n $(find sim workloads policies results cmake CMakeLists.txt configs/hugealloc.ini configs/system \
		-newer "$data/trained" -print -quit) ]]
}

if stale; then
	echo "pgo-build.sh: $dir: instrumented build and training" >&2
	rm -rf "$data"
	mkdir -p "$data"
	cmake -S . -B "$dir" "${base[@]}" -DMMSIM_PROFILE_USE= -DMMSIM_PROFILE_GENERATE="$data" >/dev/null
	cmake --build "$dir" -j "$jobs" --target mmsim >/dev/null
	runs=$(mktemp -d)
	trap 'rm -rf "$runs"' EXIT
	printf '%s\n' vanilla hugealloc_rfc v6_15 defrag_mode |
		xargs -P "$jobs" -I{} "$dir/mmsim" run configs/hugealloc.ini --set run.iterations=1 \
			--set policy.name={} -o "$runs/{}.db" >"$runs/log" 2>&1 ||
		{ cat "$runs/log" >&2; echo "pgo-build.sh: the training failed" >&2; exit 1; }
	touch "$data/trained"
fi
# from the instrumented build, the switch of compile flags makes CMake
# compile every object again, now with the new profiles
cmake -S . -B "$dir" "${base[@]}" -DMMSIM_PROFILE_GENERATE= -DMMSIM_PROFILE_USE="$data" >/dev/null
cmake --build "$dir" -j "$jobs"
