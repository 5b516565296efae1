#!/usr/bin/env bash
# where_bound.sh - a --where that never ends is stopped (issue 26).
#
#   tests/cli/where_bound.sh MMSIM SRC WORKDIR   (ctest: cli_where_bound)
#
# --where is SQL pasted into compare's (and report's) query: a recursive
# CTE without an end ran forever.  The filter's queries are stopped after
# 200 million SQLite instructions (results/compare.c, FILTER_MAX_OPS):
# exit 65 with a message naming --where, within seconds (each command
# here under `timeout 60`: 124 is the hang).  A recursive CTE with an end
# still works.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
"$MMSIM" run "$SRC/configs/smoke.ini" -o r.db 2>err.txt || { cat err.txt; exit 1; }

ENDLESS="seed < (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c)"
for verb in compare report; do
	args=(r.db --where "$ENDLESS")
	[[ $verb == report ]] && args+=(-o rep)
	timeout 60 "$MMSIM" $verb "${args[@]}" >out.txt 2>err.txt
	rc=$?
	if [[ $rc == 65 ]] && grep -qF -- "--where '$ENDLESS': stopped after 200 million SQLite instructions" err.txt; then
		ok "$verb --where ENDLESS: exit 65: $(cat err.txt)"
	else
		fail "$verb --where with an endless recursive CTE: exit $rc (want 65; 124 is a hang): $(cat err.txt)"
	fi
done

ENDED="seed IN (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 100000) SELECT x FROM c)"
timeout 60 "$MMSIM" compare r.db --where "$ENDED" >out.txt 2>err.txt
rc=$?
[[ $rc == 0 ]] && grep -q "^Runs  *1$" out.txt && ok "compare --where with a CTE that ends: exit 0, 1 run" ||
	fail "compare --where with a CTE that ends: exit $rc: $(cat err.txt) $(head -3 out.txt)"

exit $FAILED
