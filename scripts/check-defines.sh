#!/usr/bin/env bash
# check-defines.sh - a macro is #defined in one place (docs/architecture.md:
# "A constant is defined once").
#
#   scripts/check-defines.sh [SRC]          (ctest: defines)
#
# Reads every #define of sim/, results/, workloads/ and policies/ (*.c,
# *.h, *.def) and prints each macro defined in more than one file, with
# the files, and exits 1.  Not counted:
#   - include guards (a name ending in _H: every header's guard is so named);
#   - a macro defined twice in the same file (alternatives under #if/#else,
#     as VM_BUG_ON in mmsim/debug_vm.h): that is one place;
#   - feature-test macros (_GNU_SOURCE, ...), which each file asks of the
#     C library before its first #include;
#   - the per-file local macros listed below, each with the files it may be
#     defined in: another file defining one of them is reported.
# The exit codes are <sysexits.h>'s and defined nowhere in the tree
# (sim/cli/cli.h says why); a #define of EX_* or EXIT_* is reported even
# in one file.
set -u
src=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$src" || exit 2

# NAME: the files that may define it, and why
local_files() {
	case "$1" in
	# X-macros: vmstat_items.def gives empty defaults and #undefs them
	# after each use; mmzone.h makes the enums of them, vmstat.c the names
	ZONE_STAT|NODE_STAT|VM_EVENT)
		echo "sim/include/mmsim/vmstat_items.def sim/include/mmsim/mmzone.h sim/mm/vmstat.c" ;;
	# a policy's switch table entry, for its own struct
	SW) echo "policies/defrag_mode.c policies/hugealloc_rfc.c" ;;
	# the default of the compile definition CMakeLists.txt gives these
	# three files (the source tree, where their data files are read)
	MMSIM_SOURCE_DIR)
		echo "sim/experiment/reproduce.c workloads/kbuild_data.c workloads/system_profile.c" ;;
	esac
}

defs=$(grep -rnE --include='*.c' --include='*.h' --include='*.def' \
	'^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
	sim results workloads policies |
	sed -E 's/^([^:]*):[0-9]+:[[:space:]]*#[[:space:]]*define[[:space:]]+([A-Za-z_][A-Za-z0-9_]*).*/\2 \1/' |
	sort -u)

bad=0
# the exit codes: the system header's names only
while read -r name file; do
	[[ -n $name ]] || continue
	echo "$file: #define $name: the exit codes are <sysexits.h>'s (sim/cli/cli.h)"
	bad=1
done < <(awk '$1 ~ /^EXIT?_[A-Z]+$/ && $1 != "EXIT_SUCCESS" && $1 != "EXIT_FAILURE"' <<<"$defs")

while read -r name files; do
	[[ -n $name ]] || continue
	allowed=" $(local_files "$name") "
	if [[ $allowed != "  " ]]; then
		extra=""
		for f in $files; do
			[[ $allowed == *" $f "* ]] || extra+=" $f"
		done
		[[ -z $extra ]] && continue
		echo "$name: defined in$extra, beyond its listed files ($(local_files "$name"))"
	else
		echo "$name: defined in $files"
	fi
	bad=1
done < <(awk '$1 !~ /_H$/ && $1 !~ /^_(GNU|DEFAULT|POSIX_C|XOPEN|BSD)_SOURCE$/ {
		files[$1] = files[$1] " " $2; n[$1]++ }
	END { for (k in n) if (n[k] > 1) print k files[k] }' <<<"$defs" | sort)

if ((bad)); then
	echo "check-defines: a macro defined in two places (define it once, in the header of the lowest floor that uses it)"
	exit 1
fi
echo "check-defines: every macro is defined in one place"
