#!/usr/bin/env bash
# check-floors.sh - every #include goes down the floors of docs/architecture.md.
#
#   scripts/check-floors.sh [SRC]          (ctest: floors)
#
# Each header belongs to a floor (the table below); each source directory
# may include the headers of the floors listed for it, and nothing above.
# An include outside that list is printed as DIR/FILE: "HEADER" (FLOOR)
# and the script exits 1.  There are no exceptions: a floor reaches a
# higher one only through a table the higher one defines.
set -u
src=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$src" || exit 2

# floor of a header, by its name as included
floor_of() {
	case "$1" in
	mmsim/limits.h|mmsim/msg.h|mmsim/parse.h) echo util ;;
	mmsim/census.h|mmsim/dcache.h|mmsim/debug_vm.h|mmsim/gfp.h|mmsim/hugetlb.h|mmsim/i915_gem.h|\
	mmsim/kernel_pages.h|mmsim/mm.h|mmsim/mm_host.h|mmsim/mm_types.h|mmsim/mmzone.h|mmsim/page.h|\
	mmsim/policy.h|mmsim/show_mem.h|mmsim/shrinker.h|mmsim/slab.h|mmsim/vmstat_items.def|internal.h) echo mm ;;
	policies.h) echo policies ;;
	mmsim/engine.h|engine_internal.h) echo engine ;;
	mmsim/ini.h|mmsim/param.h|mmsim/scenario.h|mmsim/scenario_modules.h) echo config ;;
	mmsim/machine.h|mmsim/run.h) echo run ;;
	results.h|results_int.h|stats.h|metrics.h|query.h|import_real.h|posting.h|mmsim/results_schema.h) echo results ;;
	mmsim/experiment.h|mmsim/outfile.h|mmsim/quote.h|experiment_int.h) echo experiment ;;
	workload.h|exec.h|kbuild.h|kbuild_data.h|kbuild_int.h|random_alloc.h|simple.h|streamer_pattern.h|\
	system_profile.h) echo workloads ;;
	mmsim/version.h) echo any ;;
	*) echo "?" ;;
	esac
}

# the floors a directory may include (its own included)
allowed() {
	case "$1" in
	sim/util)       echo "util" ;;
	sim/mm)         echo "util mm" ;;
	policies)       echo "util mm policies" ;;
	sim/engine)     echo "util mm engine" ;;
	results)        echo "util results" ;;
	sim/config)     echo "util mm config" ;;
	workloads)      echo "util mm engine config workloads" ;;
	sim/run)        echo "util mm engine config workloads results run" ;;
	sim/experiment) echo "util mm config results run experiment" ;;
	sim/cli)        echo "util mm policies engine config workloads results run experiment cli" ;;
	esac
}

bad=0
for dir in sim/util sim/mm policies sim/engine results sim/config workloads sim/run sim/experiment sim/cli; do
	ok=" $(allowed "$dir") any "
	for f in "$dir"/*.c "$dir"/*.h; do
		[[ -e $f ]] || continue
		while IFS= read -r h; do
			# a header of the same directory is the directory's own
			if [[ $h != */* && -e $dir/$h ]]; then
				continue
			fi
			fl=$(floor_of "$h")
			[[ $dir == sim/cli && $fl == "?" && -e sim/cli/$h ]] && fl=cli
			if [[ $ok != *" $fl "* ]]; then
				echo "$f: \"$h\" ($fl) is above $dir's floor"
				bad=1
			fi
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	done
done
if ((bad)); then
	echo "check-floors: includes across floors (docs/architecture.md)"
	exit 1
fi
echo "check-floors: every include goes down the floors"
