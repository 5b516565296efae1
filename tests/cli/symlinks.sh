#!/usr/bin/env bash
# symlinks.sh - no file is written through a link planted under its name.
#
#   tests/cli/symlinks.sh MMSIM SRC WORKDIR       (ctest: cli_symlinks)
#
# Every file sweep, plot and report create is written as a temporary file
# created with O_EXCL | O_NOFOLLOW and renamed over its name, or created
# afresh (a run's log); the sweep's lock is created with O_EXCL or opened
# with O_NOFOLLOW and refused unless a regular file with one link
# (<mmsim/outfile.h>, sim/experiment/lock.c).  Planted as the victim's links:
#   1. DIR/lock a symbolic link, then a hard link: the sweep is refused;
#   2. DIR/run-0001.log, DIR/sweep.id, and the temporary files of the
#      manifest and sweep.id (NAME.tmp.PID: planted by a shell that then
#      execs mmsim, so that the pid is known): the sweep replaces the
#      links with its own files;
#   3. a plot's .dat, .gp and .svg, and temporary files: plot replaces them;
#   4. the report's report.html and its temporary file: replaced; its
#      plots/ a link to another directory: the report is refused.
# After each, the victims hold what they held and the names are regular
# files (or, refused, still the links).
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
need sqlite3

victim() { printf 'precious %s\n' "$1" > "victim-$1"; }
intact() {     # intact NAME...: the victims were not written
	for v in "$@"; do
		[[ $(cat "victim-$v") == "precious $v" ]] && ok "victim-$v untouched" ||
			fail "victim-$v was written: '$(head -c 200 "victim-$v")'"
	done
}
regular() {    # regular FILE...: a regular file, not a link
	for f in "$@"; do
		[[ -f $f && ! -L $f ]] && ok "$f is a file of its own" || fail "$f is not a regular file: $(ls -l "$f" 2>&1)"
	done
}
SWEEP=(sweep "$SRC/configs/smoke.ini" --set run.duration=1)

# 1. the lock: a symbolic link, then a hard link
victim lock; victim hard
mkdir -p sw1 && ln -s ../victim-lock sw1/lock
"$MMSIM" "${SWEEP[@]}" -o sw1 >out.txt 2>err.txt
rc=$?
[[ $rc != 0 ]] && grep -q 'sw1/lock.*symbolic link' err.txt && ok "lock a symbolic link: refused ($rc): $(cat err.txt)" ||
	fail "lock a symbolic link: exit $rc: $(cat err.txt)"
[[ -L sw1/lock ]] || fail "sw1/lock was replaced"
mkdir -p sw2 && ln victim-hard sw2/lock
"$MMSIM" "${SWEEP[@]}" -o sw2 >out.txt 2>err.txt
rc=$?
[[ $rc != 0 ]] && grep -q 'sw2/lock.*hard links' err.txt && ok "lock a hard link: refused ($rc): $(cat err.txt)" ||
	fail "lock a hard link: exit $rc: $(cat err.txt)"
intact lock hard

# 2. the run's log, the manifest, the sweep's identity
victim log; victim id
mkdir -p sw3 && ln -s ../victim-log sw3/run-0001.log && ln -s ../victim-id sw3/sweep.id
# planted(DIR FILE... -- COMMAND...): run COMMAND (exec'ed, so with the
# shell's pid) after planting DIR/FILE.tmp.PID as links to victim-tmp
planted() {
	bash -c 'd=$1; shift; while [[ $1 != -- ]]; do ln -s ../victim-tmp "$d/$1.tmp.$$"; shift; done
		shift; exec "$@"' planted "$@"
}
victim tmp
planted sw3 manifest.new sweep.id -- "$MMSIM" "${SWEEP[@]}" -o sw3 >out.txt 2>err.txt
rc=$?
[[ $rc == 0 ]] && ok "sweep with planted links: exit 0" || fail "sweep with planted links: exit $rc: $(cat err.txt)"
regular sw3/run-0001.log sw3/lock sw3/manifest sw3/sweep.id sw3/sweep.db
intact log id tmp

# 3. a plot's files
victim dat; victim gp; victim svg
mkdir -p plots && ln -s ../victim-dat plots/thp_success.dat && ln -s ../victim-gp plots/thp_success.gp &&
	ln -s ../victim-svg plots/thp_success.svg
planted plots thp_success.gp thp_success.dat blocks.svg -- \
	"$MMSIM" plot sw3/sweep.db -o plots --format svg >out.txt 2>err.txt
rc=$?
[[ $rc == 0 ]] && ok "plot with planted links: exit 0" || fail "plot with planted links: exit $rc: $(cat err.txt)"
regular plots/thp_success.dat plots/thp_success.gp plots/thp_success.svg
intact dat gp svg tmp
ls plots | grep -q '\.tmp\.' && fail "plot left temporary files: $(ls plots)"

# 4. the report
victim html
mkdir -p rep && ln -s ../victim-html rep/report.html
planted rep report.html -- "$MMSIM" report sw3/sweep.db -o rep >out.txt 2>err.txt
rc=$?
[[ $rc == 0 ]] && ok "report with report.html planted: exit 0" || fail "report: exit $rc: $(cat err.txt)"
regular rep/report.html
intact html tmp
mkdir -p elsewhere rep2 && ln -s ../elsewhere rep2/plots
"$MMSIM" report sw3/sweep.db -o rep2 >out.txt 2>err.txt
rc=$?
[[ $rc == 73 ]] && grep -q 'rep2/plots' err.txt && ok "report with plots/ a link: refused (73)" ||
	fail "report with plots/ a link: exit $rc: $(cat err.txt)"
[[ -z $(ls elsewhere) ]] && ok "nothing written through rep2/plots" || fail "written through rep2/plots: $(ls elsewhere)"

exit $FAILED
