-- schema.sql - the results database (docs/schema.md explains every column).
-- A run file and a merged file have the same schema; every row carries its
-- run_id, so merging is INSERT OR IGNORE and idempotent.
PRAGMA user_version = 3;

CREATE TABLE IF NOT EXISTS runs (
  run_id        TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  sweep_id      TEXT,
  policy        TEXT NOT NULL,
  workload      TEXT NOT NULL,
  seed          INTEGER NOT NULL,
  config        TEXT NOT NULL,          -- the fully resolved scenario (re-runnable)
  config_hash   TEXT NOT NULL,
  mmsim_version TEXT NOT NULL,
  git_commit    TEXT,
  build_type    TEXT,
  started_at    TEXT,
  finished_at   TEXT,
  wall_seconds  REAL,
  sim_seconds   REAL,
  status        TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'bug')),
  error         TEXT,
  sweep_line    INTEGER,                -- the line of the sweep's manifest (NULL: not a sweep's run)
  -- version 3: 'sim' (a simulation) or 'real' (a real kernel's run,
  -- mmsim import); a version-2 file is read as all 'sim' (db.c)
  source        TEXT NOT NULL DEFAULT 'sim' CHECK (source IN ('sim', 'real'))
) STRICT;

-- a sweep's line is in a database once, whatever reruns happened: merge
-- keeps the run that finished last (merge.c)
CREATE UNIQUE INDEX IF NOT EXISTS runs_sweep_line ON runs (sweep_id, sweep_line)
  WHERE sweep_line IS NOT NULL;

-- the resolved scenario as key/value pairs (section.key), for filtering
-- and for the sweep plots' x axis
CREATE TABLE IF NOT EXISTS params (
  run_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
) STRICT;

-- /proc/vmstat counters: delta over the measured window
CREATE TABLE IF NOT EXISTS vmstat (
  run_id TEXT NOT NULL, name TEXT NOT NULL, value INTEGER NOT NULL,
  PRIMARY KEY (run_id, name)
) STRICT;

-- workload results: real_time, user_time, system_time (seconds), ...
CREATE TABLE IF NOT EXISTS metrics (
  run_id TEXT NOT NULL, name TEXT NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (run_id, name)
) STRICT;

-- time series on the virtual clock: counters (cumulative since boot) and
-- gauges (nr_free_pages, ...), by their /proc/vmstat names
CREATE TABLE IF NOT EXISTS samples (
  run_id TEXT NOT NULL, t REAL NOT NULL, name TEXT NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (run_id, name, t)
) STRICT, WITHOUT ROWID;

-- the cover letter's block analysis at time t, per migratetype
CREATE TABLE IF NOT EXISTS block_census (
  run_id TEXT NOT NULL, t REAL NOT NULL, migratetype TEXT NOT NULL,
  blocks INTEGER NOT NULL, mixed_blocks INTEGER NOT NULL,
  pages_lru INTEGER NOT NULL, pages_slab INTEGER NOT NULL,
  pages_kmem INTEGER NOT NULL, pages_other INTEGER NOT NULL,
  PRIMARY KEY (run_id, t, migratetype)
) STRICT;

-- the pageblock map: the migratetype of each group of blocks at time t
CREATE TABLE IF NOT EXISTS blockmap (
  run_id TEXT NOT NULL, t REAL NOT NULL, grp INTEGER NOT NULL, migratetype TEXT NOT NULL,
  PRIMARY KEY (run_id, t, grp)
) STRICT, WITHOUT ROWID;

-- Added in version 2 (files of version 1 lack these tables and are read
-- as runs of one iteration).  [run] iterations > 1: the measured
-- workloads ran that many times on one booted machine; each iteration's
-- window (consecutive: the vmstat table is their sum) and its counters
-- and workload metrics.  Runs of one iteration have no rows here.
CREATE TABLE IF NOT EXISTS iterations (
  run_id TEXT NOT NULL, iteration INTEGER NOT NULL,      -- from 1
  t_start REAL NOT NULL, t_end REAL NOT NULL,
  PRIMARY KEY (run_id, iteration)
) STRICT;

CREATE TABLE IF NOT EXISTS iteration_vmstat (
  run_id TEXT NOT NULL, iteration INTEGER NOT NULL, name TEXT NOT NULL, value INTEGER NOT NULL,
  PRIMARY KEY (run_id, iteration, name)
) STRICT;

CREATE TABLE IF NOT EXISTS iteration_metrics (
  run_id TEXT NOT NULL, iteration INTEGER NOT NULL, name TEXT NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (run_id, iteration, name)
) STRICT;

-- Added in version 3.  Text captured beside a run, kept verbatim: for a
-- real run (mmsim import) the /proc files of the run directory
-- (pagetypeinfo.before, buddyinfo.after, vmstat.before, ...), by file name.
CREATE TABLE IF NOT EXISTS snapshots (
  run_id TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (run_id, name)
) STRICT;
