#!/usr/bin/env bash
# equiv.sh - bench/equiv.py, issue 27's equivalence rule for a change that
# alters results: two sweeps of the same binary, scenario and seeds have
# every mean equal (0 outside, exit 0); a sweep of a machine with twice the
# RAM moves the pressure rows beyond the rule (some outside, vanilla's swap
# among them) and turns some rows' directions against vanilla (on this
# small machine the RFC's lead or lag changes with the RAM: listed as
# flipped), exit 1; no arguments is a usage error (exit 2).
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash" "$@"
need python3 sqlite3

# the first 10 s of mini.ini (already swapping): three sweeps of four runs
# took 165 s in the sanitizer build whole, 60 s so
S=("$MMSIM" sweep "$SRC/configs/mini.ini" --vary policy.name=vanilla,hugealloc_rfc --seeds 2 -j 2
	--set run.census_interval=0 --set run.duration=10)
"${S[@]}" -o a >/dev/null 2>&1 || fail "sweep a"
"${S[@]}" -o b >/dev/null 2>&1 || fail "sweep b"
"${S[@]}" --set machine.ram=1G -o double >/dev/null 2>&1 || fail "sweep of twice the RAM"

E=(python3 "$SRC/bench/equiv.py")
out=$("${E[@]}" a b "$MMSIM"); rc=$?
first=${out%%$'\n'*}
n=$(sed -n 's/^\([0-9]*\) means compared, 0 outside; [0-9]* directions against vanilla, 0 flipped$/\1/p' <<<"$first")
[ "$rc" = 0 ] && [ -n "$n" ] && [ "$n" -ge 40 ] && ok "the same sweep twice: $first" \
	|| fail "the same sweep twice: exit $rc, '$first'"
out=$("${E[@]}" a double "$MMSIM"); rc=$?
first=${out%%$'\n'*}
bad=$(sed -n 's/^[0-9]* means compared, \([0-9]*\) outside;.*/\1/p' <<<"$first")
flipped=$(grep -c "^  direction '" <<<"$out")
[ "$rc" = 1 ] && [ -n "$bad" ] && [ "$bad" -gt 0 ] && grep -q "^  mean 'Swap out', vanilla" <<<"$out" &&
	[ "$first" = "${first% 0 flipped}" ] && [ "$flipped" -gt 0 ] \
	&& ok "twice the RAM: $first" || fail "twice the RAM: exit $rc, '$first'"
"${E[@]}" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "no arguments: exit 2" || fail "no arguments: exit $rc"
exit $FAILED
