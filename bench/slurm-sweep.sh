#!/usr/bin/env bash
# slurm-sweep.sh - one sweep's manifest run three ways on this host: one
# local worker (-j 1), two (-j 2), and through a private single-node Slurm
# (--slurm -j 2: an array of at most two tasks at once), as root.
#
#   bench/slurm-sweep.sh MMSIM CONFIG [SWEEP ARGS...]
#   e.g. bench/slurm-sweep.sh build/release/mmsim configs/hugealloc.ini \
#            --vary policy.name=vanilla,hugealloc_rfc,v6_15,defrag_mode --seeds 2
#
# Prints, for each way: the sweep's wall time, the sum of its runs' own
# wall times (runs.wall_seconds: the host's speed drifts, docs/benchmarks.md),
# the load average after it, and the ratios of the wall times to -j 1's.
# SLURM_SWEEP_ORDER (default "j1 j2 slurm") runs the ways in another order,
# so that two invocations bracket the host's drift.
# The Slurm cluster is tests/slurm/cluster.bash's (started here, stopped
# at exit, nothing in /etc touched).  Needs root, sqlite3 and Debian's
# slurmctld, slurmd, slurm-client and munge (scripts/install-deps.sh).
set -uo pipefail

MMSIM=$(realpath "${1:?usage: slurm-sweep.sh MMSIM CONFIG [SWEEP ARGS...]}")
CONFIG=$(realpath "${2:?usage: slurm-sweep.sh MMSIM CONFIG [SWEEP ARGS...]}")
shift 2
skip() { echo "slurm-sweep.sh: cannot run: $*" >&2; exit 77; }
fail() { echo "slurm-sweep.sh: $*" >&2; FAILED=1; }
FAILED=0
source "$(dirname "${BASH_SOURCE[0]}")/../tests/slurm/cluster.bash"

export MMSIM_SLURM_POLL=1
declare -A WALL
way() {                 # way NAME SWEEP-OPTIONS...
	local name=$1 t0 t1 rc
	shift
	t0=$(date +%s.%N)
	sl "$MMSIM" sweep "$CONFIG" "$@" -o "$D/$name" 2>"$D/$name.err"
	rc=$?
	t1=$(date +%s.%N)
	if ((rc)); then
		fail "$name: exit $rc: $(tail -3 "$D/$name.err")"
		return
	fi
	WALL[$name]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	printf '%-6s wall %7.1f s   runs %s, their wall times summed %s s   load average after: %s\n' \
		"$name" "${WALL[$name]}" \
		"$(sqlite3 "$D/$name/sweep.db" "SELECT count(*) FROM runs WHERE status = 'ok'")" \
		"$(sqlite3 "$D/$name/sweep.db" "SELECT printf('%.1f', sum(wall_seconds)) FROM runs")" \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for w in ${SLURM_SWEEP_ORDER:-j1 j2 slurm}; do
	case $w in
	j1) way j1 "$@" -j 1 ;;
	j2) way j2 "$@" -j 2 ;;
	slurm) way slurm "$@" -j 2 --slurm ;;
	*) echo "slurm-sweep.sh: SLURM_SWEEP_ORDER: '$w' is not j1, j2 or slurm" >&2; exit 64 ;;
	esac
done
[[ -n ${WALL[j1]:-} && -n ${WALL[j2]:-} && -n ${WALL[slurm]:-} ]] || exit 1
((FAILED)) && exit 1
awk -v a="${WALL[j1]}" -v b="${WALL[j2]}" -v c="${WALL[slurm]}" \
	'BEGIN { printf "-j 1 / -j 2: %.2f   -j 1 / Slurm: %.2f   Slurm / -j 2: %.2f\n", a / b, a / c, c / b }'
