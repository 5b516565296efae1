#!/usr/bin/env bash
# calib-targets.sh - the pressure issue's calibration targets, one line per
# run of a results database (a sweep's sweep.db or a run's file): swap out
# and file refaults per build, kswapd's reclaimed/scanned, the THP fault
# fail rate, the median of nr_free_pages inside the measured windows, and
# the last census's blocks (docs/experiment.md, "Calibration").  Counters
# are iteration sums divided by the iterations (per build), as the cover
# letter gives them.  The parameters a sweep varied are printed first.
#
#   scripts/calib-targets.sh out/calib/sweep.db [SQL-WHERE]
#
# Only runs with status 'ok'.  Needs sqlite3.
set -euo pipefail

case ${1-} in
	-h|--help|'') sed -n '2,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac
db=$1
where=${2:-1}
[[ -r $db ]] || { echo "calib-targets.sh: $db: cannot read" >&2; exit 66; }

sqlite3 -separator $'\t' -header "$db" "
WITH r AS (
  SELECT run_id, seed,
         (SELECT COUNT(*) FROM iterations i WHERE i.run_id = runs.run_id) AS nit
  FROM runs WHERE status = 'ok' AND source = 'sim' AND ($where)
),
v AS (
  SELECT r.run_id, r.seed, MAX(r.nit, 1) AS nit,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'pswpout') AS pswpout,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'workingset_refault_file') AS refault,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'pgscan_kswapd') AS kscan,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'pgsteal_kswapd') AS ksteal,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'pgsteal_file') AS stfile,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'pgsteal_anon') AS stanon,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'thp_fault_alloc') AS ta,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'thp_fault_fallback') AS tf,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'compact_stall') AS cst,
    (SELECT value FROM vmstat WHERE run_id = r.run_id AND name = 'compact_success') AS csu
  FROM r
),
lastc AS (SELECT run_id, MAX(t) AS t FROM block_census GROUP BY run_id),
c AS (
  SELECT b.run_id,
    SUM(CASE WHEN b.migratetype IN ('Unmovable', 'Reclaimable') THEN b.blocks ELSE 0 END) AS ur
  FROM block_census b JOIN lastc l ON l.run_id = b.run_id AND l.t = b.t GROUP BY b.run_id
),
m AS (
  SELECT run_id,
    MAX(CASE WHEN name = 'nr_free_pages_median' THEN value END) AS median_free,
    MAX(CASE WHEN name = 'census_Movable_slab_blocks' THEN value END) AS mslab,
    MAX(CASE WHEN name = 'census_Reclaimable_foreign_pages' THEN value END) AS foreignp,
    MAX(CASE WHEN name = 'census_kernel_blocks' THEN value END) AS kb,
    MAX(CASE WHEN name = 'census_kernel_pages' THEN value END) AS kp,
    MAX(CASE WHEN name = 'census_blocks' THEN value END) AS cb,
    MAX(CASE WHEN name = 'census_pages' THEN value END) AS cp
  FROM metrics WHERE run_id IN (SELECT run_id FROM r) GROUP BY run_id
)
SELECT
  (SELECT COALESCE(GROUP_CONCAT(p.key || '=' || p.value, ' '), '')
     FROM params p WHERE p.run_id = v.run_id
     AND p.key IN (SELECT key FROM params WHERE run_id IN (SELECT run_id FROM r)
                   GROUP BY key HAVING COUNT(DISTINCT value) > 1 AND key != 'run.seed')) AS varied,
  v.seed,
  ROUND(v.pswpout * 1.0 / v.nit) AS swapout_per_build,
  ROUND(v.refault * 1.0 / v.nit) AS file_refaults_per_build,
  ROUND(100.0 * v.ksteal / MAX(v.kscan, 1), 1) AS kswapd_steal_pct,
  ROUND(v.stfile * 1.0 / MAX(v.stanon, 1), 2) AS steal_file_over_anon,
  ROUND(100.0 * v.tf / MAX(v.ta + v.tf, 1), 2) AS thp_fail_pct,
  ROUND(100.0 * v.csu / MAX(v.cst, 1), 1) AS compact_success_pct,
  m.median_free,
  c.ur AS ur_blocks,
  m.mslab AS movable_slab_blocks,
  ROUND((m.kb * 1.0 / m.cb) / (m.kp * 1.0 / m.cp), 2) AS spread,
  m.foreignp AS reclaimable_foreign_pages
FROM v LEFT JOIN c ON c.run_id = v.run_id
LEFT JOIN m ON m.run_id = v.run_id
ORDER BY varied, v.seed"
