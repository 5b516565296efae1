#!/usr/bin/env bash
# validate.sh - the experiment issue's acceptance check: `mmsim reproduce`
# with SEEDS seeds per policy on the default scenario and on three
# variants (RAM 25 % smaller, 25 % larger, half the quantum), then, for
# each, the per-seed ranges (min..max) of the four headline rows and
# whether the baseline's (vanilla's) and the other policy's ranges overlap;
# then, paired by seed, in how many seeds the other policy is the better of
# the two on each row.  The rows are computed by mmsim itself
# (`mmsim compare --format values`: the one definition in
# results/metrics.c), never by a formula of this script.
#
#   scripts/validate.sh                 10 seeds, all CPUs, into out/validate
#   scripts/validate.sh 3 out/quick     3 seeds, into out/quick
#
# Each set is a resumable `mmsim reproduce` into OUT/<name>: run again, it
# only runs what is missing.  Needs a built build/release/mmsim.  One seed
# took about 6 minutes on a shared 2-core machine (three builds a run).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

case ${1-} in
	-h|--help) sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac

seeds=${1:-10}
out=${2:-out/validate}
mmsim=build/release/mmsim
[[ -x $mmsim ]] || { echo "validate.sh: build first (scripts/reproduce.sh or cmake)" >&2; exit 1; }

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

# the four headline rows, per policy and seed, as mmsim compare computes
# them (the baseline policy first): "metric,column,seed,value" lines
values() {
	"$mmsim" compare "$1" --format values |
		awk -F, 'NR > 1 && ($1 == "THP fault fail rate %" || $1 == "Direct compact success rate %" ||
		         $1 == "Compact migrate scanned daemon %" || $1 == "Alloc stall")'
}

# per policy (in compare's order: the baseline first): runs, then min and
# max of each row, as "policy|n|fmin|fmax|smin|smax|dmin|dmax|amin|amax"
ranges() {
	values "$1" | awk -F, '
		{ k = $1 SUBSEP $2
		  if (!(k in min) || $4 < min[k]) min[k] = $4
		  if (!(k in max) || $4 > max[k]) max[k] = $4
		  if ($1 == "Alloc stall") n[$2]++
		  if (!($2 in seen)) { seen[$2] = 1; order[++np] = $2 } }
		END { split("THP fault fail rate %|Direct compact success rate %|Compact migrate scanned daemon %|Alloc stall", m, "|")
		      for (i = 1; i <= np; i++) {
			p = order[i]; line = p "|" n[p]
			for (j = 1; j <= 4; j++) line = line "|" min[m[j] SUBSEP p] "|" max[m[j] SUBSEP p]
			print line } }'
}

# paired by seed, the second policy against the first: seeds, then in how
# many it is better on each row (fail rate lower, a third or less;
# success rate higher; kcompactd share higher; stalls lower)
paired() {
	values "$1" | awk -F, '
		{ if (!($2 in seen)) { seen[$2] = 1; order[++np] = $2 }
		  v[$1 SUBSEP $2 SUBSEP $3] = $4; seeds[$3] = 1 }
		END { b = order[1]; o = order[2]; n = f = f3 = s = d = a = 0
		      for (x in seeds) {
			if (!(("Alloc stall" SUBSEP b SUBSEP x) in v) || !(("Alloc stall" SUBSEP o SUBSEP x) in v)) continue
			n++
			bf = v["THP fault fail rate %" SUBSEP b SUBSEP x]; of = v["THP fault fail rate %" SUBSEP o SUBSEP x]
			f += of < bf; f3 += 3 * of <= bf
			s += v["Direct compact success rate %" SUBSEP o SUBSEP x] > v["Direct compact success rate %" SUBSEP b SUBSEP x]
			d += v["Compact migrate scanned daemon %" SUBSEP o SUBSEP x] > v["Compact migrate scanned daemon %" SUBSEP b SUBSEP x]
			a += v["Alloc stall" SUBSEP o SUBSEP x] < v["Alloc stall" SUBSEP b SUBSEP x] }
		      print n "|" f "|" f3 "|" s "|" d "|" a }'
}

# one row's ranges: LABEL FORMAT VMIN VMAX HMIN HMAX lower|higher (which
# way the second policy should differ); separate when its range lies
# beyond the baseline's on that side
range_line() {
	local verdict
	if [[ $7 == lower ]]; then
		verdict=$(awk -v vmin="$3" -v hmax="$6" 'BEGIN { print (hmax < vmin) ? "separate" : "overlap" }')
	else
		verdict=$(awk -v vmax="$4" -v hmin="$5" 'BEGIN { print (hmin > vmax) ? "separate" : "overlap" }')
	fi
	printf "  %-34s $base $2 .. %-10s $other $2 .. %-10s %s\n" "$1" "$3" "$(printf "$2" "$4")" \
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
	mapfile -t rows < <(ranges "$out/$name/sweep.db")
	(( ${#rows[@]} >= 2 )) || { echo "validate.sh: $name: fewer than two policies in $out/$name/sweep.db" >&2; exit 1; }
	IFS='|' read -r base vn vf0 vf1 vs0 vs1 vd0 vd1 va0 va1 <<<"${rows[0]}"
	IFS='|' read -r other hn hf0 hf1 hs0 hs1 hd0 hd1 ha0 ha1 <<<"${rows[1]}"
	echo "  seeds: $base $vn, $other $hn"
	range_line "THP fault fail rate %" "%10.3f" "$vf0" "$vf1" "$hf0" "$hf1" lower
	range_line "Direct compact success rate %" "%10.3f" "$vs0" "$vs1" "$hs0" "$hs1" higher
	range_line "Compact migrate scanned daemon %" "%10.3f" "$vd0" "$vd1" "$hd0" "$hd1" higher
	range_line "Alloc stall" "%10.0f" "$va0" "$va1" "$ha0" "$ha1" lower
	IFS='|' read -r pn pf pf3 ps pd pa < <(paired "$out/$name/sweep.db")
	echo "  paired by seed, $other better in: fail rate $pf of $pn (a third or less: $pf3)," \
		"success rate $ps, kcompactd share $pd, stalls $pa"
done
