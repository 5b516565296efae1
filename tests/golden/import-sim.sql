-- import-sim.sql - two simulated runs (v6_15 and defrag_mode, seed 1) for
-- tests/golden/import.cmake, loaded after results/schema.sql: the columns
-- the real runs of tests/fixtures/real/series stand beside.  Numbers are
-- made up; the cadence counters differ between the policies.
INSERT INTO runs (run_id, name, policy, workload, seed, config, config_hash,
                  mmsim_version, status) VALUES
  ('s-v615', 'kbuild-v6_15-s1', 'v6_15', 'kbuild+thp_faulter', 1, '', 'x', '0.1.0', 'ok'),
  ('s-dm', 'kbuild-defrag_mode-s1', 'defrag_mode', 'kbuild+thp_faulter', 1, '', 'x', '0.1.0', 'ok');

INSERT INTO metrics VALUES
  ('s-v615', 'real_time', 5.00), ('s-v615', 'user_time', 1.50), ('s-v615', 'system_time', 1.00),
  ('s-dm', 'real_time', 5.50), ('s-dm', 'user_time', 1.50), ('s-dm', 'system_time', 1.20);

INSERT INTO vmstat VALUES
  ('s-v615', 'thp_fault_alloc', 12), ('s-v615', 'thp_fault_fallback', 3),
  ('s-v615', 'pgscan_kswapd', 4000), ('s-v615', 'workingset_refault_file', 100),
  ('s-v615', 'pageoutrun', 10), ('s-v615', 'kswapd_low_wmark_hit_quickly', 2),
  ('s-v615', 'kswapd_high_wmark_hit_quickly', 1), ('s-v615', 'compact_daemon_wake', 3),
  ('s-v615', 'kswapd_inodesteal', 0),
  ('s-dm', 'thp_fault_alloc', 14), ('s-dm', 'thp_fault_fallback', 1),
  ('s-dm', 'pgscan_kswapd', 5000), ('s-dm', 'workingset_refault_file', 200),
  ('s-dm', 'pageoutrun', 40), ('s-dm', 'kswapd_low_wmark_hit_quickly', 12),
  ('s-dm', 'kswapd_high_wmark_hit_quickly', 2), ('s-dm', 'compact_daemon_wake', 420),
  ('s-dm', 'kswapd_inodesteal', 0);

INSERT INTO samples VALUES
  ('s-v615', 0, 'nr_free_pages', 900000), ('s-v615', 1, 'nr_free_pages', 880000),
  ('s-dm', 0, 'nr_free_pages', 900000), ('s-dm', 1, 'nr_free_pages', 870000);
