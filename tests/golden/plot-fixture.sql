-- plot-fixture.sql - hand-written rows for tests/golden/plot.cmake, loaded
-- after results/schema.sql (sqlite3 DB < schema.sql; sqlite3 DB < this).
--
-- 2 policies x 2 seeds x vm.watermark_scale_factor in {10, 200}: 8 runs
-- with status 'ok', plus a failed vanilla run whose rows would change every
-- mean if `mmsim plot` read it.  The expected values are worked out in
-- the comments and checked by plot.cmake.

INSERT INTO runs (run_id, name, policy, workload, seed, config, config_hash,
                  mmsim_version, status) VALUES
  ('v10s1',  'kbuild-vanilla-s1',  'vanilla', 'kbuild+thp_faulter', 1, '', 'x', '0.1.0', 'ok'),
  ('v10s2',  'kbuild-vanilla-s2',  'vanilla', 'kbuild+thp_faulter', 2, '', 'x', '0.1.0', 'ok'),
  ('v200s1', 'kbuild-vanilla-s1',  'vanilla', 'kbuild+thp_faulter', 1, '', 'x', '0.1.0', 'ok'),
  ('v200s2', 'kbuild-vanilla-s2',  'vanilla', 'kbuild+thp_faulter', 2, '', 'x', '0.1.0', 'ok'),
  ('h10s1',  'kbuild-hygiene-s1',  'hygiene', 'kbuild+thp_faulter', 1, '', 'x', '0.1.0', 'ok'),
  ('h10s2',  'kbuild-hygiene-s2',  'hygiene', 'kbuild+thp_faulter', 2, '', 'x', '0.1.0', 'ok'),
  ('h200s1', 'kbuild-hygiene-s1',  'hygiene', 'kbuild+thp_faulter', 1, '', 'x', '0.1.0', 'ok'),
  ('h200s2', 'kbuild-hygiene-s2',  'hygiene', 'kbuild+thp_faulter', 2, '', 'x', '0.1.0', 'ok'),
  ('v10s0',  'kbuild-vanilla-s0',  'vanilla', 'kbuild+thp_faulter', 0, '', 'x', '0.1.0', 'failed');

-- params: the swept key, seed and policy (never the sweep), a constant,
-- and a key that only follows the policy (not a sweep either)
INSERT INTO params VALUES
  ('v10s1', 'vm.watermark_scale_factor', '10'),  ('v10s2', 'vm.watermark_scale_factor', '10'),
  ('v200s1', 'vm.watermark_scale_factor', '200'), ('v200s2', 'vm.watermark_scale_factor', '200'),
  ('h10s1', 'vm.watermark_scale_factor', '10'),  ('h10s2', 'vm.watermark_scale_factor', '10'),
  ('h200s1', 'vm.watermark_scale_factor', '200'), ('h200s2', 'vm.watermark_scale_factor', '200'),
  ('v10s0', 'vm.watermark_scale_factor', '10'),
  ('v10s1', 'run.seed', '1'), ('v10s2', 'run.seed', '2'), ('v200s1', 'run.seed', '1'),
  ('v200s2', 'run.seed', '2'), ('h10s1', 'run.seed', '1'), ('h10s2', 'run.seed', '2'),
  ('h200s1', 'run.seed', '1'), ('h200s2', 'run.seed', '2'), ('v10s0', 'run.seed', '0'),
  ('v10s1', 'policy.name', 'vanilla'), ('v10s2', 'policy.name', 'vanilla'),
  ('v200s1', 'policy.name', 'vanilla'), ('v200s2', 'policy.name', 'vanilla'),
  ('h10s1', 'policy.name', 'hygiene'), ('h10s2', 'policy.name', 'hygiene'),
  ('h200s1', 'policy.name', 'hygiene'), ('h200s2', 'policy.name', 'hygiene'),
  ('v10s0', 'policy.name', 'vanilla'),
  ('v10s1', 'machine.ram', '2G'), ('v10s2', 'machine.ram', '2G'), ('v200s1', 'machine.ram', '2G'),
  ('v200s2', 'machine.ram', '2G'), ('h10s1', 'machine.ram', '2G'), ('h10s2', 'machine.ram', '2G'),
  ('h200s1', 'machine.ram', '2G'), ('h200s2', 'machine.ram', '2G'), ('v10s0', 'machine.ram', '2G'),
  ('v10s1', 'policy.migrate_free', 'no'), ('v10s2', 'policy.migrate_free', 'no'),
  ('v200s1', 'policy.migrate_free', 'no'), ('v200s2', 'policy.migrate_free', 'no'),
  ('h10s1', 'policy.migrate_free', 'yes'), ('h10s2', 'policy.migrate_free', 'yes'),
  ('h200s1', 'policy.migrate_free', 'yes'), ('h200s2', 'policy.migrate_free', 'yes'),
  ('v10s0', 'policy.migrate_free', 'no');

-- vmstat: THP fail rate per run = fallback / (alloc + fallback) * 100
--   vanilla 10:  10/100 = 10%, 10/40 = 25%   -> mean 17.5 (not 20/140 = 14.3), min 10, max 25
--   vanilla 200: 5/100 = 5%,   3/100 = 3%    -> mean 4, min 3, max 5
--   hygiene 10:  1/100 = 1%,   2/100 = 2%    -> mean 1.5
--   hygiene 200: 0/100 = 0%,   1/100 = 1%    -> mean 0.5
--   the failed run: 100%, not counted
INSERT INTO vmstat VALUES
  ('v10s1', 'thp_fault_alloc', 90),   ('v10s1', 'thp_fault_fallback', 10),
  ('v10s2', 'thp_fault_alloc', 30),   ('v10s2', 'thp_fault_fallback', 10),
  ('v200s1', 'thp_fault_alloc', 95),  ('v200s1', 'thp_fault_fallback', 5),
  ('v200s2', 'thp_fault_alloc', 97),  ('v200s2', 'thp_fault_fallback', 3),
  ('h10s1', 'thp_fault_alloc', 99),   ('h10s1', 'thp_fault_fallback', 1),
  ('h10s2', 'thp_fault_alloc', 98),   ('h10s2', 'thp_fault_fallback', 2),
  ('h200s1', 'thp_fault_alloc', 100), ('h200s1', 'thp_fault_fallback', 0),
  ('h200s2', 'thp_fault_alloc', 99),  ('h200s2', 'thp_fault_fallback', 1),
  ('v10s0', 'thp_fault_alloc', 0),    ('v10s0', 'thp_fault_fallback', 100);

-- metrics: real_time (s); vanilla 10 -> 101, vanilla 200 -> 103,
-- hygiene 10 -> 102, hygiene 200 -> 104
INSERT INTO metrics VALUES
  ('v10s1', 'real_time', 100), ('v10s2', 'real_time', 102),
  ('v200s1', 'real_time', 103), ('v200s2', 'real_time', 103),
  ('h10s1', 'real_time', 101), ('h10s2', 'real_time', 103),
  ('h200s1', 'real_time', 104), ('h200s2', 'real_time', 104),
  ('v10s0', 'real_time', 1);

-- samples (cumulative) of the wsf=10 runs at t = 0, 1, 2, 3.
-- success rate of each interval = d(alloc) / (d(alloc) + d(fallback)):
--   v10s1: alloc 0 3 3 8,   fallback 0 1 1 2  -> t1 75,  t2 none, t3 5/6 = 83.3333
--   v10s2: alloc 0 1 4 6,   fallback 0 1 1 4  -> t1 50,  t2 100,  t3 2/5 = 40
--   vanilla means: t1 62.5 (2 runs), t2 100 (1 run), t3 61.6667 (2 runs)
--   h10s1: alloc 0 4 8 12,  fallback 0 0 0 0  -> 100 100 100
--   h10s2: alloc 0 2 4 6,   fallback 0 2 2 2  -> t1 50, t2 100, t3 100
--   hygiene means: t1 75, t2 100, t3 100
--   v10s0 (failed): all fallbacks, 0%: not counted
INSERT INTO samples VALUES
  ('v10s1', 0, 'thp_fault_alloc', 0), ('v10s1', 1, 'thp_fault_alloc', 3),
  ('v10s1', 2, 'thp_fault_alloc', 3), ('v10s1', 3, 'thp_fault_alloc', 8),
  ('v10s1', 0, 'thp_fault_fallback', 0), ('v10s1', 1, 'thp_fault_fallback', 1),
  ('v10s1', 2, 'thp_fault_fallback', 1), ('v10s1', 3, 'thp_fault_fallback', 2),
  ('v10s2', 0, 'thp_fault_alloc', 0), ('v10s2', 1, 'thp_fault_alloc', 1),
  ('v10s2', 2, 'thp_fault_alloc', 4), ('v10s2', 3, 'thp_fault_alloc', 6),
  ('v10s2', 0, 'thp_fault_fallback', 0), ('v10s2', 1, 'thp_fault_fallback', 1),
  ('v10s2', 2, 'thp_fault_fallback', 1), ('v10s2', 3, 'thp_fault_fallback', 4),
  ('h10s1', 0, 'thp_fault_alloc', 0), ('h10s1', 1, 'thp_fault_alloc', 4),
  ('h10s1', 2, 'thp_fault_alloc', 8), ('h10s1', 3, 'thp_fault_alloc', 12),
  ('h10s1', 0, 'thp_fault_fallback', 0), ('h10s1', 1, 'thp_fault_fallback', 0),
  ('h10s1', 2, 'thp_fault_fallback', 0), ('h10s1', 3, 'thp_fault_fallback', 0),
  ('h10s2', 0, 'thp_fault_alloc', 0), ('h10s2', 1, 'thp_fault_alloc', 2),
  ('h10s2', 2, 'thp_fault_alloc', 4), ('h10s2', 3, 'thp_fault_alloc', 6),
  ('h10s2', 0, 'thp_fault_fallback', 0), ('h10s2', 1, 'thp_fault_fallback', 2),
  ('h10s2', 2, 'thp_fault_fallback', 2), ('h10s2', 3, 'thp_fault_fallback', 2),
  ('v10s0', 0, 'thp_fault_alloc', 0), ('v10s0', 1, 'thp_fault_alloc', 0),
  ('v10s0', 2, 'thp_fault_alloc', 0), ('v10s0', 3, 'thp_fault_alloc', 0),
  ('v10s0', 0, 'thp_fault_fallback', 0), ('v10s0', 1, 'thp_fault_fallback', 10),
  ('v10s0', 2, 'thp_fault_fallback', 20), ('v10s0', 3, 'thp_fault_fallback', 30),
  ('v10s1', 3, 'nr_free_pages', 12345),
-- free_pageblocks (wholly free blocks, every policy), at t = 0 and 10;
-- they, not the census rows of the 'Free' type, are the blocks plot's
-- free line: vanilla means t0 (44 + 40) / 2 = 42, t10 (30 + 20) / 2 = 25
  ('v10s1', 0, 'free_pageblocks', 44), ('v10s1', 10, 'free_pageblocks', 30),
  ('v10s2', 0, 'free_pageblocks', 40), ('v10s2', 10, 'free_pageblocks', 20),
  ('h10s1', 0, 'free_pageblocks', 40), ('h10s1', 10, 'free_pageblocks', 35);

-- block_census at t = 0 and 10 (free = the 'Free' row, mixed = sum):
--   v10s1: t0 free 40 mixed 1+2 = 3;  t10 free 28 mixed 3+4 = 7
--   v10s2: t0 free 40 mixed 3+0 = 3;  t10 free 20 mixed 5+2 = 7
--   vanilla means: t0 40 3, t10 24 7 (2 runs)
--   h10s1: t0 free 40 mixed 0;  t10 free 35 mixed 1 (the only hygiene run)
INSERT INTO block_census VALUES
  ('v10s1', 0, 'Unmovable', 10, 1, 0, 0, 0, 0), ('v10s1', 0, 'Movable', 50, 2, 0, 0, 0, 0),
  ('v10s1', 0, 'Free', 40, 0, 0, 0, 0, 0),
  ('v10s1', 10, 'Unmovable', 12, 3, 0, 0, 0, 0), ('v10s1', 10, 'Movable', 60, 4, 0, 0, 0, 0),
  ('v10s1', 10, 'Free', 28, 0, 0, 0, 0, 0),
  ('v10s2', 0, 'Unmovable', 10, 3, 0, 0, 0, 0), ('v10s2', 0, 'Movable', 50, 0, 0, 0, 0, 0),
  ('v10s2', 0, 'Free', 40, 0, 0, 0, 0, 0),
  ('v10s2', 10, 'Unmovable', 14, 5, 0, 0, 0, 0), ('v10s2', 10, 'Movable', 66, 2, 0, 0, 0, 0),
  ('v10s2', 10, 'Free', 20, 0, 0, 0, 0, 0),
  ('h10s1', 0, 'Unmovable', 10, 0, 0, 0, 0, 0), ('h10s1', 0, 'Movable', 50, 0, 0, 0, 0, 0),
  ('h10s1', 0, 'Free', 40, 0, 0, 0, 0, 0),
  ('h10s1', 10, 'Unmovable', 11, 1, 0, 0, 0, 0), ('h10s1', 10, 'Movable', 54, 0, 0, 0, 0, 0),
  ('h10s1', 10, 'Free', 35, 0, 0, 0, 0, 0),
  ('v10s0', 0, 'Free', 1000, 0, 0, 0, 0, 0);

-- blockmap: 3 groups.  v10s1 (vanilla's first seed) at t = 0, 10, 20;
-- h10s1 (hygiene's first seed) at t = 0, 10, 30: irregular, so drawn on a
-- 10 s grid where t = 20 repeats the map of t = 10.  v10s2 is not drawn;
-- h10s1's group 2 at t = 30 has no row ("no data", code 6); its group 1
-- at t = 10 is "Movable mixed" (code 7 + 1 = 8).
INSERT INTO blockmap VALUES
  ('v10s1', 0, 0, 'Unmovable'), ('v10s1', 0, 1, 'Movable'), ('v10s1', 0, 2, 'Free'),
  ('v10s1', 10, 0, 'Unmovable'), ('v10s1', 10, 1, 'Movable'), ('v10s1', 10, 2, 'Movable'),
  ('v10s1', 20, 0, 'Unmovable'), ('v10s1', 20, 1, 'Reclaimable'), ('v10s1', 20, 2, 'HighAtomic'),
  ('v10s2', 0, 0, 'Unmovable'), ('v10s2', 0, 1, 'Movable'), ('v10s2', 0, 2, 'Free'),
  ('h10s1', 0, 0, 'Unmovable'), ('h10s1', 0, 1, 'Free'), ('h10s1', 0, 2, 'Free'),
  ('h10s1', 10, 0, 'Unmovable'), ('h10s1', 10, 1, 'Movable mixed'), ('h10s1', 10, 2, 'Isolate'),
  ('h10s1', 30, 0, 'Unmovable'), ('h10s1', 30, 1, 'Movable'),
  ('v10s0', 0, 0, 'Free');
