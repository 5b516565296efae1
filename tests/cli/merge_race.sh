#!/usr/bin/env bash
# merge_race.sh - parallel and killed merges lose no run and leave the
# output readable.
#
#   tests/cli/merge_race.sh MMSIM SRC WORKDIR       (ctest: cli_merge_race)
#
# mmsim merge writes a copy of its output and renames it into place,
# under the lock OUT.lock (results/merge.c).  Inputs: one run of
# configs/smoke.ini cloned under other run ids (sqlite3), and a big input
# of 600 runs so that a merge lasts long enough to be killed midway.
#   1. ten merges started at once into one new output, and ten more into
#      that existing output: every merge exits 0 (or 75, another merge held
#      the lock too long, named in its message), and the output holds
#      every run of every merge that succeeded;
#   2. merges killed with SIGKILL at random moments (seeded, printed;
#      spread over the length of an uninterrupted merge),
#      into an existing output and into a new one: after each kill the
#      output is the old file (or absent, if new) or the complete new one,
#      passes PRAGMA integrity_check, has no journal beside it and is read
#      by mmsim compare; the same merge run again completes and leaves no
#      temporary file.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
need sqlite3

"$MMSIM" run "$SRC/configs/smoke.ini" --set run.duration=1 -o base.db 2>/dev/null ||
	{ echo "FAIL: cannot make a run file"; exit 1; }
tables=$(sqlite3 base.db "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p
                          WHERE m.type = 'table' AND p.name = 'run_id'")
id=$(sqlite3 base.db "SELECT run_id FROM runs")
# clone NAME ID: base.db as NAME with its run's id ID
clone() {
	cp base.db "$1" && for t in $tables; do echo "UPDATE $t SET run_id = '$2';"; done | sqlite3 "$1"
}
runs() { sqlite3 "$1" "SELECT count(*) FROM runs" 2>&1; }

# 1. parallel merges
for i in $(seq 1 20); do clone "x$i.db" "x$i" || exit 1; done
par() {        # par OUT FIRST LAST: merges of xFIRST..xLAST into OUT at once
	local pids=() i
	for i in $(seq "$2" "$3"); do
		"$MMSIM" merge -o "$1" "x$i.db" >"m$i.out" 2>"m$i.err" & pids+=($!)
	done
	want=0
	for i in $(seq "$2" "$3"); do
		wait "${pids[$((i - $2))]}"; rc=$?
		if [[ $rc == 0 ]]; then
			want=$((want + 1))
		elif [[ $rc == 75 ]] && grep -q "$1.lock" "m$i.err"; then
			echo "note: merge $i refused (75): $(cat "m$i.err")"
		else
			fail "merge $i into $1: exit $rc: $(cat "m$i.err")"
		fi
	done
}
par par.db 1 10
n=$(runs par.db)
[[ $n == "$want" && $want -ge 1 ]] && ok "10 merges into a new output: $want succeeded, $n runs" ||
	fail "10 merges into a new output: $want succeeded, the output holds '$n' runs"
have=$n
par par.db 11 20
n=$(runs par.db)
[[ $n == $((have + want)) ]] && ok "10 merges into an existing output: $want succeeded, $n runs" ||
	fail "10 merges into an existing output: $want succeeded, the output holds '$n' runs (expected $((have + want)))"

# 2. killed merges
N=600
cp base.db big.db
for t in $tables; do
	cols=$(sqlite3 base.db "SELECT group_concat(CASE name WHEN 'run_id' THEN 'run_id || ''-'' || k'
	                        ELSE '\"' || name || '\"' END, ', ') FROM pragma_table_info('$t')")
	echo "INSERT INTO $t SELECT $cols FROM $t, (WITH RECURSIVE c(k) AS (SELECT 1 UNION ALL
	      SELECT k + 1 FROM c WHERE k < $N) SELECT k FROM c) WHERE run_id = '$id';"
done | sqlite3 -bail big.db || { echo "FAIL: cannot make the big input"; exit 1; }
big=$(runs big.db)
clone old.db old
start=$(date +%s%N)
cp old.db timed.db && "$MMSIM" merge -o timed.db big.db || fail "the big merge failed"
dur=$((($(date +%s%N) - start) / 1000000))
after_existing=$(runs timed.db)
after_new=$big
echo "note: the big input has $big runs; merging it into a 1-run output takes $dur ms"

SEED=${MERGE_RACE_SEED:-$$}
RANDOM=$SEED
echo "note: kill moments seeded with $SEED (MERGE_RACE_SEED=$SEED to repeat)"
nold=0; nnew=0
for k in $(seq 1 12); do
	if ((k % 2)); then
		kind=existing; cp old.db out.db; before=1; new_n=$after_existing
	else
		kind=new; rm -f out.db; before=absent; new_n=$after_new
	fi
	# stratified: kill j of a kind at a random moment of the j-th sixth of
	# 1.2 times the merge's duration, so that every stage of it is hit
	span=$(((dur + dur / 5) / 6 + 1))
	ms=$(((k - 1) / 2 * span + RANDOM % span))
	"$MMSIM" merge -o out.db big.db >/dev/null 2>&1 & pid=$!
	sleep "$(printf '0.%03d' "$ms")" 2>/dev/null || sleep 0
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	if [[ ! -e out.db ]]; then
		state=absent
	else
		state=$(runs out.db)
	fi
	if [[ -e out.db-journal || -e out.db-wal ]]; then
		fail "kill $k ($kind, at $ms ms): a journal is left beside the output"
	elif [[ $state != "$before" && $state != "$new_n" ]]; then
		fail "kill $k ($kind, at $ms ms): the output holds '$state' runs, neither $before nor $new_n"
	elif [[ $state != absent ]] && [[ $(sqlite3 out.db "PRAGMA integrity_check") != ok ]]; then
		fail "kill $k ($kind, at $ms ms): integrity_check fails"
	elif [[ $state != absent ]] && ! "$MMSIM" compare out.db >/dev/null 2>cmp.err; then
		fail "kill $k ($kind, at $ms ms): mmsim compare refuses it: $(cat cmp.err)"
	else
		if [[ $state == "$before" ]]; then nold=$((nold + 1)); w=old; else nnew=$((nnew + 1)); w=new; fi
		ok "kill $k ($kind, at $ms ms): the output is the $w one ($state)"
	fi
	"$MMSIM" merge -o out.db big.db >/dev/null 2>resume.err || fail "kill $k: the merge run again: $(cat resume.err)"
	[[ $(runs out.db) == "$new_n" ]] || fail "kill $k: the merge run again gives $(runs out.db) runs, not $new_n"
	left=$(ls | grep -F 'out.db.tmp' | tr '\n' ' ')
	[[ -z $left ]] || fail "kill $k: temporary files left after the merge run again: $left"
done
echo "note: after the 12 kills the output was the old one $nold times, the new one $nnew times"

exit $FAILED
