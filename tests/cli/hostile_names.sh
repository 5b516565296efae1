#!/usr/bin/env bash
# hostile_names.sh - text from a results database never runs as code.
#
#   tests/cli/hostile_names.sh MMSIM SRC WORKDIR       (ctest: cli_hostile_names)
#
# A results database is input like any other (merge accepts any), and its
# policy names, run ids and parameter keys reach gnuplot scripts (plot,
# report) and HTML (report).  The hand-written plot fixture
# (tests/golden/plot-fixture.sql) is given hostile names: gnuplot's
# backquote command substitution, sh's $( ), both quotes, a newline
# followed by a gnuplot command, a trailing backslash (a comment line
# continued), a NUL byte, HTML markup; the database itself lives in a
# directory whose name is as hostile.  Then:
#   1. mmsim plot draws every plot (exit 0), and redrawing each script by
#      hand as its header says does too;
#   2. mmsim report writes its page, the markup escaped;
#   3. no command ran: no file named PWNED* appears anywhere, and the
#      hostile text is in the figures as text (the blockmap's title and
#      the sweep's axis label carry it literally).
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
need sqlite3 gnuplot

# a directory name that is itself an attack on a comment line of a script
dir=$'db`touch PWNED_dir`$(touch PWNED_dir2)\'"\nsystem "touch PWNED_nl" #'
mkdir -p "$dir" || exit 1
db="$dir/f.db"
sqlite3 -bail "$db" < "$SRC/results/schema.sql" && sqlite3 -bail "$db" < "$SRC/tests/golden/plot-fixture.sql" ||
	{ echo "FAIL: cannot build the fixture"; exit 1; }

# SQL literals: '' is a quote; char(10) a newline, char(0) a NUL
pol_v="'v\`touch PWNED_pol\`' || char(10) || 'system \"touch PWNED_pol_nl\"' || char(10) || '<b>x</b>\\'"
pol_h="'''h''''\"\$(touch PWNED_h)' || char(0) || '\`touch PWNED_nul\`'"
key="'k\`touch PWNED_key\`' || char(10) || 'system ''touch PWNED_key_nl'''"
run="'r\`touch PWNED_run\`'"
tables=$(sqlite3 "$db" "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p
                        WHERE m.type = 'table' AND p.name = 'run_id'")
{
	echo "PRAGMA foreign_keys = OFF; BEGIN;"
	echo "UPDATE runs SET policy = $pol_v WHERE policy = 'vanilla';"
	echo "UPDATE runs SET policy = $pol_h WHERE policy = 'hygiene';"
	echo "UPDATE params SET key = $key WHERE key = 'vm.watermark_scale_factor';"
	for t in $tables; do echo "UPDATE $t SET run_id = $run WHERE run_id = 'v10s1';"; done
	echo "COMMIT;"
} | sqlite3 -bail "$db" || { echo "FAIL: cannot rename in the fixture"; exit 1; }

# 1. plot
out=$("$MMSIM" plot "$db" -o plots --format svg 2>err.txt)
rc=$?
[[ $rc == 0 ]] || fail "mmsim plot: exit $rc: $(cat err.txt)"
n=$(ls plots/*.svg 2>/dev/null | wc -l)
[[ $n -ge 5 ]] && ok "mmsim plot drew $n SVGs" || fail "mmsim plot drew $n SVGs (expected 5 or more): $out"
cat plots/blockmap-*.svg 2>/dev/null | grep -qF '`touch PWNED_pol`' && ok "the blockmap's title has the policy's name as text" ||
	fail "the blockmap's title lacks the policy's name"
cat plots/sweep-*.svg 2>/dev/null | grep -qF '`touch PWNED_key`' && ok "the sweep's axis label has the key as text" ||
	fail "the sweep's axis label lacks the key"
for gp in plots/*.gp; do
	(cd plots && gnuplot -e "fmt='svg'" "${gp#plots/}" 2>>../err.txt) || fail "redrawing $gp by hand failed"
done

# 2. report
"$MMSIM" report "$db" -o report --allow-mixed >out.txt 2>err.txt
rc=$?
[[ $rc == 0 ]] || fail "mmsim report: exit $rc: $(cat err.txt)"
if grep -q '<b>x</b>' report/report.html; then
	fail "report.html has the policy's markup unescaped"
elif grep -q '&lt;b&gt;x&lt;/b&gt;' report/report.html; then
	ok "report.html has the policy's markup escaped"
else
	fail "report.html lacks the policy's name"
fi

# 3. nothing ran
pwned=$(find . -name 'PWNED*' | tr '\n' ' ')
[[ -z $pwned ]] && ok "no command ran" || fail "commands ran: $pwned"

exit $FAILED
