#!/usr/bin/env bash
# posting.sh - a posting's table as data (configs/postings/, results/posting.c)
# and mmsim reproduce --posting: every shipped posting reads (mmsim list
# postings); a malformed file is refused naming its file, line and key, and
# nothing runs; on configs/mini.ini, a posting varying a switch prints its
# table beside the simulated one, each simulated cell the mean the database
# holds for its column; reproduce without --posting prints the 2023 RFC's.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash" "$@"
need sqlite3 python3

# the shipped postings all read
out=$("$MMSIM" list postings 2>&1) && ok "mmsim list postings" || fail "mmsim list postings: $out"
for p in rfc-2023 grouping-2007 frag-avoid-2018; do
	grep -q "^$p\$" <<<"$out" && ok "lists $p" || fail "$p not listed"
done

# malformed files: the error names the file, the line and the key; exit 78
header="title: t
scenario: $SRC/configs/mini.ini
vary: kernel.group_by_mobility=no,yes
columns: A | B"
bad() {   # NAME EXPECTED-MESSAGE-PART LINE...
	local name=$1 want=$2
	shift 2
	printf '%s\n' "$@" >"$name.posting"
	local msg rc
	msg=$("$MMSIM" reproduce --posting "./$name.posting" --seeds 1 -o "out-$name" 2>&1)
	rc=$?
	if [ "$rc" = 78 ] && grep -qF -- "$want" <<<"$msg" && [ ! -e "out-$name" ]; then
		ok "$name: refused ($want)"
	else
		fail "$name: exit $rc, message: $msg"
	fi
}
bad unknown_key "unknown_key.posting:5: colour: unknown key" "$header" "colour: red"
bad row_first "row_first.posting:2: row: comes after vary: and columns:" "title: t" "row: x | - | 1 | 2"
bad few_values "few_values.posting:5: row: 3 fields" "$header" "row: x | - | 1"
bad not_a_number "not_a_number.posting:5: row: 'x': value 'lots'" "$header" "row: x | - | 1 | lots"
bad no_such_row "no_such_row.posting:5: row: no row 'Not a row'" "$header" "row: x | row:Not a row | 1 | 2"
bad one_value "one_value.posting:3: vary: two values at least" "title: t" "scenario: x.ini" "vary: policy.name=vanilla"
bad no_rows "no_rows.posting: row: none given" "$header"

# --posting and --policies together: usage
"$MMSIM" reproduce --posting rfc-2023 --policies vanilla,tao -o out-both >/dev/null 2>&1
[ $? = 64 ] && ok "--posting with --policies refused" || fail "--posting with --policies accepted"

# a posting on mini.ini: grouping off and on, the pool at rest
cat >mini.posting <<EOF
title: mini's grouping
compares: grouping off against on
scenario: $SRC/configs/mini.ini
vary: kernel.group_by_mobility=no,yes
columns: OFF | ON
set: run.hugepages_at_rest=yes
seeds: 1
row: huge pages at rest | metric:hugepages_at_rest | 10 | 20
row: THP fault alloc     | row:THP fault alloc       | 5  | 5
row: movable blocks      | census:Movable:blocks     | 9  | 1
row: page faults         | vmstat:pgfault            | -  | 3
row: latency             | -                         | 1  | 2
EOF
"$MMSIM" reproduce --posting ./mini.posting -j 2 -o rp >rp.out 2>rp.err || fail "reproduce --posting: $(cat rp.err)"
grep -q "^The posting: mini's grouping" rp.out && ok "the posting's table printed" || fail "no posting table: $(cat rp.out)"
grep -q "kernel.group_by_mobility = no (1 run), yes (1 run)" rp.out && ok "one run a column" \
	|| fail "runs per column: $(grep '^mmsim:' rp.out)"
# each simulated cell is the database's value for its column
for g in no yes; do
	v=$(sqlite3 rp/sweep.db "SELECT m.value FROM metrics m JOIN params p ON p.run_id = m.run_id
		AND p.key = 'kernel.group_by_mobility' WHERE m.name = 'hugepages_at_rest' AND p.value = '$g'")
	eval "pool_$g=\$v"
done
line=$(grep "^huge pages at rest" rp.out)
python3 - "$line" "$pool_no" "$pool_yes" <<'PY' && ok "pool at rest: $pool_no, $pool_yes in the table" || fail "pool row: $line"
import sys
f = sys.argv[1].split()
# label (4 words), posted A, posted B, change, sim A, sim B, change, verdict
a, b = float(f[7]), float(f[8])
sys.exit(0 if (a, b) == (float(sys.argv[2]), float(sys.argv[3])) else 1)
PY
want=$(python3 -c "import sys; a,b=map(float,sys.argv[1:]); print('yes' if (b>a and abs(b-a)>=0.05*max(a,b)) else 'no')" \
	"$pool_no" "$pool_yes")
grep "^huge pages at rest" rp.out | grep -q " $want" && ok "pool row's way: $want" || fail "pool row's way (want $want)"
grep "^latency" rp.out | grep -q "not modelled" && ok "a row without a measure: not modelled" || fail "latency row"
grep "^page faults" rp.out | grep -q "n/a" && ok "a row without the posting's baseline: n/a" || fail "page faults row"
grep -q "^Same way: [0-9] of 3 rows" rp.out && ok "$(grep '^Same way' rp.out | cut -c1-40)" \
	|| fail "summary: $(grep '^Same way' rp.out)"

# reproduce without --posting prints the 2023 cover letter's table
"$MMSIM" reproduce "$SRC/configs/mini.ini" --seeds 1 -j 2 -o rfc >rfc.out 2>rfc.err || fail "reproduce: $(cat rfc.err)"
grep -q "^The posting: \[RFC PATCH 00/26\] mm: reliable huge page allocator" rfc.out \
	&& ok "reproduce prints the RFC's table" || fail "no RFC table"
grep -q "^THP fault fail rate %  *9.80  *1.12" rfc.out && ok "the letter's fail rate row" || fail "fail rate row"
"$MMSIM" reproduce "$SRC/configs/mini.ini" --policies vanilla,hugealloc_rfc --seeds 1 -j 2 -o rfc >rfc2.out 2>/dev/null
grep -q "^The posting:" rfc2.out && fail "--policies printed a posting" || ok "--policies: no posting's table"
exit $FAILED
