#!/usr/bin/env bash
# blame.sh - an error names what was given wrong (issue 26): the key where
# it was set (the file's line, or the --set), not another key; a
# malformed environment limit before any key; numbers in decimal only;
# sizes in the messages never rounded to a 0 that is not one.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash" "$@"

SMOKE="$SRC/configs/smoke.ini"

# expect CODE TEXT CMD...: the command exits CODE and its stderr holds TEXT
expect() {
	local code=$1 text=$2 out rc
	shift 2
	out=$("$@" 2>&1 >/dev/null); rc=$?
	if [ "$rc" != "$code" ]; then
		fail "$* exited $rc, not $code: $out"
	elif [[ "$out" != *"$text"* ]]; then
		fail "$*: '$text' not in: $out"
	else
		ok "$*: $out"
	fi
}

# the reservation that does not fit is blamed, where it was given
expect 78 "--set machine.kernel_reserved: [machine] kernel_reserved: '200000' pages" \
	"$MMSIM" run "$SMOKE" --set machine.kernel_reserved=200000 -o x.db
printf '[machine]\nram = 512M\nkernel_reserved = 200000\n' > kr.ini
expect 78 "kr.ini:3: [machine] kernel_reserved: '200000' pages" "$MMSIM" run kr.ini --dump-config
# a --set value is blamed on the --set, not on the file
expect 78 "--set machine.ram: [machine] ram: '64K'" "$MMSIM" run "$SMOKE" --set machine.ram=64K -o x.db
# a malformed limit: refused before any key is read, none blamed
for v in 0 abc -1; do
	expect 78 "MMSIM_HOST_MEMORY='$v' in the environment is not a size" \
		env MMSIM_HOST_MEMORY="$v" "$MMSIM" run "$SMOKE" --dump-config
done
for v in 2 no; do
	expect 78 "MMSIM_CHECK_AT_END='$v' in the environment is neither 0 nor 1" \
		env MMSIM_CHECK_AT_END="$v" "$MMSIM" run "$SMOKE" --dump-config
done
# MMSIM_CHECK_AT_END=0 skips a check and changes no result
"$MMSIM" run "$SMOKE" -o c1.db >/dev/null 2>&1 && MMSIM_CHECK_AT_END=0 "$MMSIM" run "$SMOKE" -o c0.db >/dev/null 2>&1 &&
	"$SRC/scripts/cmp-runs.sh" c1.db c0.db >/dev/null && ok "MMSIM_CHECK_AT_END=0: the same results" ||
	fail "MMSIM_CHECK_AT_END=0 changed the results or failed"
rm -f c0.db c1.db
# a tiny limit: the figures are not '0 MiB'
out=$(MMSIM_HOST_MEMORY=1 "$MMSIM" run "$SMOKE" -o x.db 2>&1)
if [[ "$out" == *"0 MiB"* ]] || [[ "$out" != *"1 bytes allowed"* ]]; then
	fail "MMSIM_HOST_MEMORY=1: $out"
else
	ok "MMSIM_HOST_MEMORY=1: $out"
fi
# strtod's hex floats and inf are no decimal numbers
expect 78 "--set run.duration: '0x10' is not auto or a number" "$MMSIM" run "$SMOKE" --set run.duration=0x10 -o x.db
expect 78 "--set thp_faulter.hold: 'inf'" "$MMSIM" run "$SMOKE" --set thp_faulter.hold=inf -o x.db
[ ! -e x.db ] || fail "a refused run left x.db"
exit $FAILED
