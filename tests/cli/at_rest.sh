#!/usr/bin/env bash
# at_rest.sh - [run] hugepages_at_rest: after the last window the caches are
# dropped, memory compacted (if the kernel has compaction) and vm.nr_hugepages
# raised as far as it goes; the pool reached is stored (hugepages_at_rest,
# hugepages_at_rest_pct).  On configs/mini.ini, seed 1: without compaction, as
# in 2007, grouping by mobility leaves more huge pages allocatable than no
# grouping (the 2007 series' headline measure); with compaction, more again.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash" "$@"
need sqlite3

M=("$MMSIM" run "$SRC/configs/mini.ini")
q() { sqlite3 "$1" "SELECT value FROM metrics WHERE name = '$2'"; }
"${M[@]}" -o plain.db 2>/dev/null || fail "the plain run"
[ -z "$(q plain.db hugepages_at_rest)" ] && ok "no at-rest metric without the key" \
	|| fail "an at-rest metric without the key"
for g in yes no; do
	for c in yes no; do
		"${M[@]}" --set run.hugepages_at_rest=yes --set kernel.group_by_mobility=$g \
			--set kernel.config_compaction=$c -o "r-$g-$c.db" 2>/dev/null || fail "the run grouping=$g compaction=$c"
	done
done
n() { q "r-$1-$2.db" hugepages_at_rest; }
gy=$(n yes no); gn=$(n no no); cy=$(n yes yes)
ram=$("$MMSIM" run "$SRC/configs/mini.ini" --dump-config | sed -n 's/^ram = //p')
[ "$ram" = 512M ] || fail "mini.ini's RAM is '$ram', the test assumes 512M"
pct=$(q r-yes-yes.db hugepages_at_rest_pct)
python3 -c "import sys; n, p = map(float, sys.argv[1:]); sys.exit(0 if 0 < n <= 256 and abs(p - n * 2 / 512 * 100) < 1e-9 else 1)" \
	"$cy" "$pct" && ok "pool at rest $cy of 256 huge pages, $pct % of RAM" || fail "pool '$cy', '$pct' %"
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if a > b else 1)" "$gy" "$gn" \
	&& ok "without compaction: grouping $gy huge pages, no grouping $gn" \
	|| fail "without compaction: grouping $gy, no grouping $gn"
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if a > b else 1)" "$cy" "$gy" \
	&& ok "compaction adds: $cy against $gy" || fail "compaction: $cy against $gy"
exit $FAILED
