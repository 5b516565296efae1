#!/usr/bin/env bash
# mixed.sh - compare does not average runs of two scenarios into one
# column without a word (issue 26): two runs of one policy on different
# watermark_scale_factor, merged, are refused with the key they differ in
# (65); --by that key separates them; --allow-mixed averages them anyway.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash" "$@"

"$MMSIM" run "$SRC/configs/smoke.ini" -o a.db 2>/dev/null || fail "run a"
"$MMSIM" run "$SRC/configs/smoke.ini" --set vm.watermark_scale_factor=200 --seed 2 -o b.db 2>/dev/null || fail "run b"
"$MMSIM" merge -o m.db a.db b.db >/dev/null 2>&1 || fail "merge"
out=$("$MMSIM" compare m.db 2>&1 >/dev/null); rc=$?
if [ "$rc" = 65 ] && [[ "$out" == *"holds runs of different scenarios"* ]] &&
   [[ "$out" == *"vm.watermark_scale_factor=10,"* ]] && [[ "$out" == *"--by vm.watermark_scale_factor"* ]]; then
	ok "a mixed column refused: $out"
else
	fail "compare of a mixed column: exit $rc: $out"
fi
out=$("$MMSIM" compare m.db --by vm.watermark_scale_factor 2>&1)
[[ "$out" == *HUGEALLOC-10*HUGEALLOC-200* ]] && ok "--by separates them" || fail "--by: $out"
out=$("$MMSIM" compare m.db --allow-mixed 2>&1)
[[ "$out" == *"Runs"*"2"* ]] && ok "--allow-mixed averages them" || fail "--allow-mixed: $out"
# two seeds of one scenario are one column, as ever
"$MMSIM" run "$SRC/configs/smoke.ini" --seed 3 -o c.db 2>/dev/null || fail "run c"
"$MMSIM" merge -o s.db a.db c.db >/dev/null 2>&1 || fail "merge seeds"
"$MMSIM" compare s.db >/dev/null 2>&1 && ok "seeds of one scenario compare" || fail "seeds of one scenario refused"
exit $FAILED
