#!/bin/sh
# cmp-runs.sh A.db B.db: are two runs' results identical?  Compares every
# result table (vmstat, metrics, samples, block_census, blockmap) and the
# simulated duration, ignoring run ids and wall-clock fields.  Exit 0 if
# identical; prints the differing rows otherwise.  Used to check that an
# implementation-only speedup changed nothing simulated.
set -e
a=$1 b=$2
q() {
	sqlite3 -readonly "$1" "
	  SELECT 'sim_seconds', printf('%.17g', sim_seconds) FROM runs;
	  SELECT 'vmstat', name, value FROM vmstat ORDER BY name;
	  SELECT 'metrics', name, printf('%.17g', value) FROM metrics WHERE name NOT LIKE '%wall%' ORDER BY name;
	  SELECT 'samples', printf('%.17g', t), name, printf('%.17g', value) FROM samples ORDER BY name, t;
	  SELECT 'census', printf('%.17g', t), migratetype, blocks, mixed_blocks, pages_lru, pages_slab, pages_kmem, pages_other FROM block_census ORDER BY t, migratetype;
	  SELECT 'blockmap', printf('%.17g', t), grp, migratetype FROM blockmap ORDER BY t, grp;"
}
ta=$(mktemp) tb=$(mktemp)
q "$a" >"$ta"; q "$b" >"$tb"
if cmp -s "$ta" "$tb"; then
	echo "identical: $(wc -l <"$ta") rows (vmstat $(grep -c '^vmstat' "$ta"), metrics $(grep -c '^metrics' "$ta"), samples $(grep -c '^samples' "$ta"))"
	rm -f "$ta" "$tb"; exit 0
fi
diff "$ta" "$tb" | head -40; rm -f "$ta" "$tb"; exit 1
