#!/usr/bin/env bash
# validate.sh - the experiment issue's acceptance check: `mmsim reproduce`
# with SEEDS seeds per policy on the default scenario and on three
# variants (RAM 25 % smaller, 25 % larger, half the quantum), then, for
# each, the per-seed ranges (min..max) of the four headline rows and
# whether vanilla's and hugealloc_rfc's ranges overlap; then, paired by seed,
# in how many seeds hugealloc_rfc (the RFC, formerly 'hygiene') is the better of the two on each row.
#
#   scripts/validate.sh                 10 seeds, all CPUs, into out/validate
#   scripts/validate.sh 3 out/quick     3 seeds, into out/quick
#
# Each set is a resumable `mmsim reproduce` into OUT/<name>: run again, it
# only runs what is missing.  Needs a built build/release/mmsim and the
# sqlite3 shell (scripts/install-deps.sh installs it).  About 6 minutes
# for 10 seeds on a 2-core machine.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

case ${1-} in
	-h|--help) sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac

seeds=${1:-10}
out=${2:-out/validate}
mmsim=build/release/mmsim
[[ -x $mmsim ]] || { echo "validate.sh: build first (scripts/reproduce.sh or cmake)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "validate.sh: the sqlite3 shell is missing (scripts/install-deps.sh)" >&2; exit 1; }

# the default RAM, from the scenario as mmsim resolves it
ram=$("$mmsim" run configs/hugealloc.ini --dump-config | sed -n 's/^ram = //p')
ram_mib=$(numfmt --from=iec "$ram")
ram_mib=$((ram_mib / 1048576))
quantum=$("$mmsim" run configs/hugealloc.ini --dump-config | sed -n 's/^quantum = //p')
half_quantum=$(awk -v q="$quantum" 'BEGIN { printf "%g", q / 2 }')

sets=(
	"default:"
	"ram-25:--set machine.ram=$((ram_mib * 3 / 4))M"
	"ram+25:--set machine.ram=$((ram_mib * 5 / 4))M"
	"half-quantum:--set run.quantum=$half_quantum"
)

# the four headline rows of every complete run, as the cover letter
# computes them (one table expression for both queries below)
per_run="
with r as (
  select runs.seed as seed,
    -- runs stored before the rename name the RFC policy 'hygiene'
    case runs.policy when 'hygiene' then 'hugealloc_rfc' else runs.policy end as policy,
    100.0 * (select value from vmstat v where v.run_id = runs.run_id and name = 'thp_fault_fallback') /
      max(1, (select sum(value) from vmstat v where v.run_id = runs.run_id
              and name in ('thp_fault_alloc', 'thp_fault_fallback'))) as fail,
    100.0 * (select value from vmstat v where v.run_id = runs.run_id and name = 'compact_success') /
      max(1, (select value from vmstat v where v.run_id = runs.run_id and name = 'compact_stall')) as succ,
    100.0 * (select value from vmstat v where v.run_id = runs.run_id and name = 'compact_daemon_migrate_scanned') /
      max(1, (select value from vmstat v where v.run_id = runs.run_id and name = 'compact_migrate_scanned')) as daemon,
    (select sum(value) from vmstat v where v.run_id = runs.run_id and name like 'allocstall_%') as stalls
  from runs where status = 'ok')"

# per policy: min and max over the runs of each row
ranges_sql="$per_run
select policy, count(*), min(fail), max(fail), min(succ), max(succ), min(daemon), max(daemon),
       min(stalls), max(stalls) from r group by policy;"

# paired by seed: in how many seeds hugealloc_rfc is the better of the two
paired_sql="$per_run
select count(*), sum(h.fail < v.fail), sum(3 * h.fail <= v.fail), sum(h.succ > v.succ),
       sum(h.daemon > v.daemon), sum(h.stalls < v.stalls)
from r v join r h on h.seed = v.seed and v.policy = 'vanilla' and h.policy = 'hugealloc_rfc';"

# one row's ranges: LABEL FORMAT VMIN VMAX HMIN HMAX lower|higher (which
# way hugealloc_rfc should differ); separate when its range lies beyond
# vanilla's on that side
range_line() {
	local verdict
	if [[ $7 == lower ]]; then
		verdict=$(awk -v vmin="$3" -v hmax="$6" 'BEGIN { print (hmax < vmin) ? "separate" : "overlap" }')
	else
		verdict=$(awk -v vmax="$4" -v hmin="$5" 'BEGIN { print (hmin > vmax) ? "separate" : "overlap" }')
	fi
	printf "  %-34s vanilla $2 .. %-10s rfc $2 .. %-10s %s\n" "$1" "$3" "$(printf "$2" "$4")" \
		"$5" "$(printf "$2" "$6")" "$verdict"
}

for s in "${sets[@]}"; do
	name=${s%%:*}
	args=${s#*:}
	# shellcheck disable=SC2086
	"$mmsim" reproduce --seeds "$seeds" -o "$out/$name" $args > "$out-$name.table" 2> "$out-$name.log" ||
		{ echo "validate.sh: $name: mmsim reproduce failed (exit $?; $out-$name.log)" >&2; exit 1; }
done

for s in "${sets[@]}"; do
	name=${s%%:*}
	args=${s#*:}
	echo "$name (${args:-the scenario as committed}):"
	declare -A row=()
	while IFS='|' read -r pol n f0 f1 s0 s1 d0 d1 a0 a1; do
		row[$pol]="$n $f0 $f1 $s0 $s1 $d0 $d1 $a0 $a1"
	done < <(sqlite3 "$out/$name/sweep.db" "$ranges_sql")
	read -r vn vf0 vf1 vs0 vs1 vd0 vd1 va0 va1 <<<"${row[vanilla]}"
	read -r hn hf0 hf1 hs0 hs1 hd0 hd1 ha0 ha1 <<<"${row[hugealloc_rfc]}"
	echo "  runs: vanilla $vn, hugealloc_rfc $hn"
	range_line "THP fault fail rate %" "%10.3f" "$vf0" "$vf1" "$hf0" "$hf1" lower
	range_line "Direct compact success rate %" "%10.3f" "$vs0" "$vs1" "$hs0" "$hs1" higher
	range_line "Compact migrate scanned daemon %" "%10.3f" "$vd0" "$vd1" "$hd0" "$hd1" higher
	range_line "Alloc stall" "%10.0f" "$va0" "$va1" "$ha0" "$ha1" lower
	IFS='|' read -r pn pf pf3 ps pd pa < <(sqlite3 "$out/$name/sweep.db" "$paired_sql")
	echo "  paired by seed, hugealloc_rfc better in: fail rate $pf of $pn (a third or less: $pf3)," \
		"success rate $ps, kcompactd share $pd, stalls $pa"
	unset row
done
