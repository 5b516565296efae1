"""real/harness on a fake /proc and /sys tree with a fake runner (fakes.py):
the dry run, every refusal, a run directory in the documented format, the
watchdog's breach, the hard timeout, an OOM kill, and the restore of the
journal a SIGKILLed harness left.  Nothing here reads or writes the
machine's /proc/sys, swap or hugetlb pool: every Harness is built by
make() below, on a fake root, with the fake runner."""
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import fakes  # noqa: E402
from harnesslib import rundir as rd  # noqa: E402
from harnesslib.harness import Harness  # noqa: E402
from harnesslib.runner import TOKEN_VAR  # noqa: E402
from harnesslib.tracer import EVENTS, TRACEFS, Counts, enable_path  # noqa: E402

# small and quick: one run per setting, no caches dropped in a fake tree
FAST = dict(runs="1", swap="64M", min_swap_free="16M", timeout="60", sample_interval="0.2",
            faulter_region="8M")

REQUIRED_PROVENANCE = [
    "kernel.release", "kernel.cmdline", "cpu.model", "cpu.count", "mem.total_kb",
    "sysctl.vm.defrag_mode", "sysctl.vm.swappiness", "sysctl.vm.min_free_kbytes",
    "sysctl.vm.watermark_scale_factor", "sysctl.vm.watermark_boost_factor",
    "thp.enabled", "thp.defrag", "hugetlb.nr_hugepages", "swap.bytes", "build.jobs",
    "build.tree", "faulter.region", "faulter.hold", "faulter.pause", "harness.version",
    "run.label", "run.seq", "run.started_at", "run.finished_at", "policy"]


class HarnessTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="mmsim-harness-test-")
        self.dir = self.tmp.name
        self.root = fakes.build_fake_root(os.path.join(self.dir, "root"))
        self.before = fakes.snapshot_tree(self.root.prefix)
        self.series = os.path.join(self.dir, "series")
        self.out = []

    def tearDown(self):
        # no process of any test may outlive it
        left = [pid for pid in os.listdir("/proc") if pid.isdigit() and self._ours(pid)]
        for pid in left:
            try:
                os.killpg(int(pid), signal.SIGKILL)
            except OSError:
                pass
        self.tmp.cleanup()
        self.assertEqual(left, [], "processes left by the test")

    def _ours(self, pid):
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                env = f.read()
            with open("/proc/%s/stat" % pid) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        return TOKEN_VAR.encode() in env and self.dir.encode() in env and state != "Z"

    def make(self, settings=None, runner=None, change=True, env=None, guard_as_real=False, **rk):
        s = dict(FAST)
        s.update(settings or {})
        self.runner = runner or fakes.FakeRunner(self.root, **rk)
        self.assertFalse(self.root.is_real)
        # the series' directory in the env marks the tests' own processes
        env = dict(env or {}, MMSIM_TEST_DIR=self.dir)
        return Harness(self.series, s, self.root, self.runner, env=env, change=change,
                       guard_as_real=guard_as_real, out=self.out.append)

    def journal_entries(self):
        d = os.path.join(self.series, "journals")
        out = []
        for n in sorted(os.listdir(d)):
            with open(os.path.join(d, n)) as f:
                out += [json.loads(x) for x in f if x.strip()]
        return out

    def assert_restored(self):
        now = fakes.snapshot_tree(self.root.prefix)
        thp = ["sys/kernel/mm/transparent_hugepage/enabled", "sys/kernel/mm/transparent_hugepage/defrag"]
        for rel in self.before:
            if rel in thp:
                # a choice file: the bracketed word is the setting
                self.assertEqual(self.root.setting("/" + rel), re.search(r"\[(.*)\]", self.before[rel]).group(1))
            elif rel not in ("proc/sys/vm/drop_caches", "proc/sys/vm/compact_memory",
                             "sys/kernel/tracing/trace_marker"):
                # triggers, written to, no state
                self.assertEqual(now[rel], self.before[rel], rel)
        self.assertEqual(sorted(now), sorted(self.before), "files appeared or went")
        self.assertFalse(os.path.exists(os.path.join(self.series, "swapfile")))
        self.assertFalse(os.path.exists(os.path.join(self.series, "journal")))
        with open(os.path.join(self.series, "restore.log")) as f:
            self.assertIn("machine as before", f.read())

    # ------------------------------------------------------------ dry run
    def dry_run_then_run(self, settings):
        """the plan, then the run's first run: what the run journaled and
        started and ran; each must have been in the plan"""
        h = self.make(settings)
        self.assertEqual(h.plan(), 0)
        plan = "\n".join(self.out)
        self.assertFalse(os.path.exists(self.series), "the dry run wrote the series directory")
        self.assertEqual(fakes.snapshot_tree(self.root.prefix), self.before, "the dry run changed the tree")
        self.out.clear()
        h = self.make(settings)
        self.assertEqual(h.run(max_runs=1), 0, "\n".join(self.out))
        self.assertEqual(rd.read_status(os.path.join(self.series, "runs", "0001-dm0")), "ok")
        entries = self.journal_entries()
        written = {e["path"] for e in entries if e["op"] == "write"}
        self.assertEqual(written, {"/proc/sys/vm/defrag_mode", "/proc/sys/vm/nr_hugepages",
                                   "/sys/kernel/mm/transparent_hugepage/enabled",
                                   "/sys/kernel/mm/transparent_hugepage/defrag"}
                         | {enable_path(*e) for e in EVENTS})
        for path in written:
            self.assertIn(path, plan)
        spawned = [e for e in entries if e["op"] == "spawn"]
        for e in spawned:
            self.assertIn(shlex.join(e["argv"]), plan, e["name"])
        ran = [c[1] for c in self.runner.calls if c[0] == "run"]
        for argv in ran:
            if argv[0] != "sync":
                self.assertIn(shlex.join(argv), plan)
        self.assertIn("/proc/sys/vm/drop_caches", plan)
        self.assertIn("/proc/sys/vm/compact_memory", plan)
        # compacted after the caches are dropped, before the pool
        seq = [e["text"] if e["op"] == "note" else "spawn " + e["name"]
               for e in entries if e["op"] in ("note", "spawn")]
        self.assertLess(seq.index("drop_caches 3"), seq.index("compact_memory 1"))
        self.assertLess(seq.index("compact_memory 1"), seq.index("spawn hugetlb_hold"))
        self.assertEqual(self.root.read("/proc/sys/vm/compact_memory"), "1\n")
        self.assertIn("expected duration:", plan)
        return entries, ran

    def test_dry_run_prints_every_setting_and_process(self):
        entries, _ = self.dry_run_then_run({})
        self.assertEqual(sorted(e["name"] for e in entries if e["op"] == "spawn"),
                         ["hugetlb_hold", "make", "thp_faulter"])

    def test_dry_run_with_streamer_and_free_zone(self):
        entries, ran = self.dry_run_then_run(dict(streamer="on", free_zone="DMA32"))
        self.assertEqual(sorted(e["name"] for e in entries if e["op"] == "spawn"),
                         ["hugetlb_hold", "make", "streamer", "thp_faulter"])
        self.assertTrue(any("--prepare" in argv for argv in ran))
        # the zone's pool: all but 512M first, the DMA32 pages of the free
        # target (2.5G: 1280 pages) given back by the holder, the pool lowered
        hold = [e["argv"] for e in entries if e["op"] == "spawn" and e["name"] == "hugetlb_hold"][0]
        self.assertEqual(hold[-4:], ["--release-pfn", "4096-1048576", "--release-count", "1280"])
        nr = [e["new"] for e in entries if e["op"] == "write" and e["path"] == "/proc/sys/vm/nr_hugepages"]
        first = (6291456 - 524288) // 2048
        self.assertEqual(nr, [str(first), str(first - 1280), "0"])
        self.assert_restored()

    # ------------------------------------------------------------ refusals
    def assert_refused(self, h, text):
        self.out.clear()
        self.assertEqual(h.run(), 2)
        refusals = [x for x in self.out if x.startswith("refused: ")]
        self.assertTrue(any(text in x for x in refusals), (text, self.out))
        # nothing changed: no journal, the tree as it was
        self.assertFalse(os.path.exists(os.path.join(self.series, "journal")))
        self.assertEqual(fakes.snapshot_tree(self.root.prefix), self.before)
        self.assertFalse([c for c in self.runner.calls if c[0] != "kill"], self.runner.calls)

    def test_refuses_without_change_this_machine(self):
        self.assert_refused(self.make(change=False), "--change-this-machine")

    def test_refuses_when_ci_is_set(self):
        self.assert_refused(self.make(env={"CI": "true"}, guard_as_real=True), "CI is set")

    def test_refuses_under_ctest(self):
        self.assert_refused(self.make(env={"DASHBOARD_TEST_FROM_CTEST": "3.25"}, guard_as_real=True),
                            "under ctest")

    def test_refuses_when_panic_on_oom(self):
        self.root = fakes.build_fake_root(self.root.prefix, **{"proc/sys/vm/panic_on_oom": "1\n"})
        self.before = fakes.snapshot_tree(self.root.prefix)
        self.assert_refused(self.make(), "vm.panic_on_oom is 1")

    def test_refuses_when_nr_hugepages(self):
        self.root = fakes.build_fake_root(self.root.prefix, **{"proc/sys/vm/nr_hugepages": "16\n"})
        self.before = fakes.snapshot_tree(self.root.prefix)
        self.assert_refused(self.make(), "vm.nr_hugepages is 16")

    def test_refuses_when_swap_is_on(self):
        swaps = fakes.FILES["proc/swaps"] + "/dev/vdb partition\t\t1048572\t\t0\t\t-2\n"
        self.root = fakes.build_fake_root(self.root.prefix, **{"proc/swaps": swaps})
        self.before = fakes.snapshot_tree(self.root.prefix)
        self.assert_refused(self.make(), "a swap device is on (/dev/vdb)")

    def test_refuses_without_disk_room(self):
        self.assert_refused(self.make(disk_free=2 << 30), "not enough disk room")

    def test_refuses_while_a_journal_exists(self):
        os.makedirs(self.series)
        with open(os.path.join(self.series, "journal"), "w") as f:
            f.write('{"op": "begin"}\n')
        h = self.make()
        self.out.clear()
        self.assertEqual(h.run(), 2)
        self.assertTrue(any("a journal exists" in x for x in self.out), self.out)
        self.assertEqual(fakes.snapshot_tree(self.root.prefix), self.before)
        self.assertEqual(self.runner.calls, [])

    def test_refuses_without_defrag_mode(self):
        os.remove(self.root.path("/proc/sys/vm/defrag_mode"))
        self.before = fakes.snapshot_tree(self.root.prefix)
        self.assert_refused(self.make(), "no vm.defrag_mode")

    def test_real_runner_refuses_a_fake_root(self):
        from harnesslib.runner import RealRunner
        with self.assertRaises(ValueError):
            Harness(self.series, {}, self.root, RealRunner(self.root), env={}, change=True)

    # ------------------------------------------------------------ a run
    def test_run_directory_format(self):
        h = self.make()
        self.assertEqual(h.run(), 0, "\n".join(self.out))
        for seq, label, mode in ((1, "dm0", "0"), (2, "dm1", "1")):
            d = os.path.join(self.series, "runs", "%04d-%s" % (seq, label))
            self.assertEqual(rd.read_status(d), "ok")
            prov = rd.read_provenance(d)
            for k in REQUIRED_PROVENANCE:
                self.assertIn(k, prov)
            self.assertEqual(prov["sysctl.vm.defrag_mode"], mode)
            self.assertEqual(prov["policy"], "v6_15" if mode == "0" else "defrag_mode")
            self.assertEqual(prov["run.seq"], str(seq))
            self.assertEqual(prov["thp.enabled"], "madvise")
            self.assertEqual(prov["kernel.cmdline"], "console=ttyS0 page_reporting.page_reporting_order=0")
            self.assertEqual(prov["cpu.model"], "Fake CPU 9000")
            # the pool: MemAvailable 6 GiB less 2.5G free, in 2 MiB pages
            self.assertEqual(prov["hugetlb.nr_hugepages"], str((6291456 - 2621440) // 2048))
            # verbatim copies of the fake files (meminfo with the series' swap on)
            meminfo = re.sub(r"(Swap(Total|Free):\s+)0", r"\g<1>65536", self.before["proc/meminfo"])
            for name in ("vmstat", "meminfo", "buddyinfo", "pagetypeinfo", "zoneinfo", "stat"):
                for when in ("before", "after"):
                    with open(os.path.join(d, "%s.%s" % (name, when))) as f:
                        self.assertEqual(f.read(), meminfo if name == "meminfo" else self.before["proc/" + name])
            with open(os.path.join(d, "times")) as f:
                self.assertRegex(f.read(), r"^real=\d+\.\d\d user=\d+\.\d\d sys=\d+\.\d\d exit=0\n$")
            with open(os.path.join(d, "samples.tsv")) as f:
                lines = f.read().splitlines()
            self.assertEqual(lines[0].split("\t"), [
                "t", "nr_free_pages", "nr_file_pages", "nr_anon_pages", "nr_active_file",
                "nr_inactive_file", "nr_active_anon", "nr_inactive_anon", "MemAvailable_kB", "SwapFree_kB"])
            self.assertGreaterEqual(len(lines), 2)
            self.assertEqual(lines[1].split("\t")[1:], ["1750000", "125000", "3000", "4000", "3000",
                                                        "2000", "1000", "6291456", "65536"])
            with open(os.path.join(d, "faulter.log")) as f:
                self.assertIn("total cycles=", f.read())
            self.assertEqual(prov["trace.wakes"], "yes")
            self.assertEqual(prov["trace.events"], ",".join(e for _, e in EVENTS))
            self.assert_wakes(d)
        self.assert_restored()
        # tracefs was mounted for the series and is unmounted after it
        ran = [c[1] for c in self.runner.calls if c[0] == "run"]
        self.assertIn(["mount", "-t", "tracefs", "nodev", self.root.path(TRACEFS)], ran)
        self.assertIn(["umount", self.root.path(TRACEFS)], ran)
        self.assertFalse(os.path.exists(self.root.path(TRACEFS + "/trace_pipe")))
        # each event enabled during each build, disabled after it: 0,1,0,1,0
        for sysname, ev in EVENTS:
            news = [e["new"] for e in self.journal_entries()
                    if e["op"] == "write" and e["path"] == enable_path(sysname, ev)]
            self.assertEqual(news, ["1", "0", "1", "0"], ev)
        # complete runs are skipped: nothing left to run
        self.out.clear()
        h = self.make()
        self.assertEqual(h.run(), 0)
        self.assertIn("every run is complete", "\n".join(self.out))

    def assert_wakes(self, d):
        """wakes.tsv and wakes-timeline.tsv of fakes.TRACE_PIPE, exactly"""
        with open(os.path.join(d, "wakes.tsv")) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[1], "# enabled: " + " ".join("%s/%s" % e for e in EVENTS))
        self.assertEqual(lines[2], "# lines 10, lost_events 3, unparsed 0, markers none")
        self.assertEqual(lines[3:], [
            "event\torder\tdetail\ttask\tcount",
            "mm_compaction_kcompactd_wake\t9\tNormal\tkcompactd0\t1",
            "mm_compaction_try_to_compact_pages\t9\tGFP_TRANSHUGE_LIGHT;priority=2\tthp_faulter\t1",
            "mm_compaction_wakeup_kcompactd\t9\tNormal\tkswapd0\t1",
            "mm_vmscan_direct_reclaim_begin\t2\tGFP_HIGHUSER_MOVABLE|__GFP_NOWARN|__GFP_NORETRY\tcc1\t1",
            "mm_vmscan_kswapd_wake\t0\t-\tkswapd0\t1",
            "mm_vmscan_wakeup_kswapd\t0\tGFP_HIGHUSER_MOVABLE|__GFP_COMP\tcc1\t2",
            "mm_vmscan_wakeup_kswapd\t2\tGFP_KERNEL|__GFP_COMP|__GFP_NOWARN|__GFP_NORETRY\tkworker\t1",
            "mm_vmscan_wakeup_kswapd\t9\tGFP_TRANSHUGE_LIGHT\tthp_faulter\t1"])
        with open(os.path.join(d, "wakes-timeline.tsv")) as f:
            self.assertEqual(f.read().splitlines(), [
                "t\tevent\tcount",
                "0\tmm_vmscan_kswapd_wake\t1", "0\tmm_vmscan_wakeup_kswapd\t3",
                "10\tmm_compaction_kcompactd_wake\t1", "10\tmm_compaction_try_to_compact_pages\t1",
                "10\tmm_compaction_wakeup_kcompactd\t1", "10\tmm_vmscan_direct_reclaim_begin\t1",
                "10\tmm_vmscan_wakeup_kswapd\t1"])

    def test_tracefs_already_mounted_is_left_mounted(self):
        fakes.mount_fake_tracefs(self.root)
        self.before = fakes.snapshot_tree(self.root.prefix)
        h = self.make(settings=dict(modes="1"))
        self.assertEqual(h.run(), 0, "\n".join(self.out))
        ran = [c[1][0] for c in self.runner.calls if c[0] == "run"]
        self.assertNotIn("mount", ran)
        self.assertNotIn("umount", ran)
        # the enable files written back to 0, tracefs still mounted
        self.assert_restored()
        self.assertTrue(os.path.exists(self.root.path(TRACEFS + "/trace_pipe")))
        self.assert_wakes(os.path.join(self.series, "runs", "0001-dm1"))

    def test_series_planned_before_tracing_runs_without_it(self):
        # a series.conf written before trace_wakes existed: run as planned
        os.makedirs(self.series)
        from harnesslib import settings as st
        conf = dict(st.DEFAULTS, **FAST)
        conf["jobs"] = "6"
        with open(os.path.join(self.series, "series.conf"), "w") as f:
            f.writelines("%s=%s\n" % (k, v) for k, v in conf.items() if k != "trace_wakes")
        h = self.make(settings=dict(trace_wakes=None))
        self.assertEqual(h.run(max_runs=1), 0, "\n".join(self.out))
        d = os.path.join(self.series, "runs", "0001-dm0")
        self.assertEqual(rd.read_provenance(d)["trace.wakes"], "no")
        self.assertFalse(os.path.exists(os.path.join(d, "wakes.tsv")))
        self.assertNotIn("mount", [c[1][0] for c in self.runner.calls if c[0] == "run"])
        self.assert_restored()
        # and asking it to trace is the error a changed setting is
        from harnesslib.settings import SettingsError
        with self.assertRaises(SettingsError):
            self.make(settings=dict(trace_wakes="yes")).run()

    def test_refuses_tracing_without_tracefs(self):
        os.rmdir(self.root.path(TRACEFS))
        self.before = fakes.snapshot_tree(self.root.prefix)
        self.assert_refused(self.make(), "no /sys/kernel/tracing")
        self.assertEqual(self.make(settings=dict(trace_wakes="no")).run(max_runs=1), 0, "\n".join(self.out))

    def test_resume_runs_one_at_a_time(self):
        h = self.make(settings=dict(runs="2"))
        self.assertEqual(h.run(max_runs=1), 0)
        self.assertEqual(sorted(os.listdir(os.path.join(self.series, "runs"))), ["0001-dm0"])
        # an incomplete run directory (no status) is done again
        os.makedirs(os.path.join(self.series, "runs", "0002-dm1"))
        h = self.make(settings=dict(runs="2"))
        self.assertEqual(h.run(max_runs=2), 0, "\n".join(self.out))
        self.assertEqual(sorted(os.listdir(os.path.join(self.series, "runs"))),
                         ["0001-dm0", "0002-dm1", "0003-dm1"])      # abba
        self.assertEqual(rd.read_status(os.path.join(self.series, "runs", "0002-dm1")), "ok")
        # a setting that differs from the series' is an error
        from harnesslib.settings import SettingsError
        with self.assertRaises(SettingsError):
            self.make(settings=dict(free="3G")).run()

    def test_timeout_marks_the_run_invalid(self):
        h = self.make(settings=dict(timeout="1", modes="1"), build_seconds=(60,))
        t0 = time.monotonic()
        self.assertEqual(h.run(), 0)
        self.assertLess(time.monotonic() - t0, 30)
        st = rd.read_status(os.path.join(self.series, "runs", "0001-dm1"))
        self.assertEqual(st, "invalid timeout after 1 s")
        self.assert_restored()

    def test_oom_kill_marks_the_run_invalid(self):
        h = self.make(settings=dict(modes="0"),
                      on_spawn={"make": lambda root: fakes.bump_vmstat(root, "oom_kill", 1)})
        self.assertEqual(h.run(), 0)
        st = rd.read_status(os.path.join(self.series, "runs", "0001-dm0"))
        self.assertEqual(st, "invalid oom_kill 1 during the run")

    # ------------------------------------------------------------ watchdog
    def test_watchdog_breach_shrinks_the_pool_then_kills(self):
        timers = []

        def breach_soon(root):
            timers.append(threading.Timer(0.5, fakes.set_meminfo, (root, "MemAvailable", 1000)))
            timers[-1].start()
        h = self.make(settings=dict(modes="1"), build_seconds=(60,), on_spawn={"make": breach_soon})
        t0 = time.monotonic()
        self.assertEqual(h.run(), 0, "\n".join(self.out))
        timers[0].join()
        self.assertLess(time.monotonic() - t0, 30, "the build was not killed")
        d = os.path.join(self.series, "runs", "0001-dm1")
        self.assertEqual(rd.read_status(d), "invalid watchdog: MemAvailable 1000 kB < 65536 kB")
        fakes.set_meminfo(self.root, "MemAvailable", 6291456)
        calls = self.runner.calls
        holds = [i for i, c in enumerate(calls) if c[0] == "spawn" and c[1] == "hugetlb_hold"]
        self.assertEqual(len(holds), 2, "the holder was not restarted smaller")
        first = int(calls[holds[0]][2][2])
        second = int(calls[holds[1]][2][2])
        self.assertEqual(second, int(first * 0.75))
        kill_hold = [i for i, c in enumerate(calls) if c[0] == "kill" and c[2] == "hugetlb_hold"]
        kill_make = [i for i, c in enumerate(calls) if c[0] == "kill" and c[2] == "make"]
        # the holder killed, restarted smaller, and only then the build killed
        self.assertTrue(kill_hold and kill_make)
        self.assertLess(kill_hold[0], holds[1])
        self.assertLess(holds[1], kill_make[0])
        # nr_hugepages lowered (journaled) before the build was killed
        writes = [e["new"] for e in self.journal_entries()
                  if e["op"] == "write" and e["path"] == "/proc/sys/vm/nr_hugepages"]
        self.assertEqual(writes[:2], [str(first), str(second)])
        self.assert_restored()

    def test_breach_before_the_build_starts_no_build(self):
        # memory already short when the pool is reserved: the watchdog's
        # first sample breaches, and the build is never started
        fakes.set_meminfo(self.root, "MemAvailable", 1000)
        self.before = fakes.snapshot_tree(self.root.prefix)
        h = self.make(settings=dict(modes="0"), build_seconds=(60,))
        self.assertEqual(h.run(), 0, "\n".join(self.out))
        d = os.path.join(self.series, "runs", "0001-dm0")
        self.assertEqual(rd.read_status(d), "invalid watchdog: MemAvailable 1000 kB < 65536 kB")
        self.assertEqual([c[1] for c in self.runner.calls if c[0] == "spawn"], [])
        with open(os.path.join(d, "times")) as f:
            self.assertEqual(f.read(), "real=0.00 user=0.00 sys=0.00 exit=-1\n")
        self.assert_restored()

    # ------------------------------------------------------------ restore
    def test_journal_of_a_killed_harness_is_restored_exactly(self):
        script = r"""
import sys
sys.path[:0] = %r
import fakes
from harnesslib.harness import Harness
from harnesslib.root import Root
root = Root(%r)
runner = fakes.FakeRunner(root, build_seconds=(0.2, 600))
h = Harness(%r, %r, root, runner, env={"MMSIM_TEST_DIR": %r}, change=True, out=lambda x: None)
h.run()
""" % ([HERE, os.path.dirname(HERE)], self.root.prefix, self.series, FAST, self.dir)
        p = subprocess.Popen([sys.executable, "-c", script])
        journal = os.path.join(self.series, "journal")
        # wait for the second run's build: defrag_mode is 1, swap on, pool held
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if os.path.exists(journal):
                with open(journal) as f:
                    started = [e for e in map(json.loads, f) if e["op"] == "started" and e["name"] == "make"]
                if len(started) == 2:
                    break
            time.sleep(0.05)
        else:
            p.kill()
            p.wait()
            self.fail("the harness never started the second build")
        p.send_signal(signal.SIGKILL)
        p.wait()
        # the killed harness left its changes and its processes
        self.assertEqual(self.root.setting("/proc/sys/vm/defrag_mode"), "1")
        self.assertNotEqual(self.root.setting("/proc/sys/vm/nr_hugepages"), "0")
        self.assertEqual(len(self.root.swaps()), 1)
        with open(journal) as f:
            token = json.loads(f.readline())["token"]
        self.runner = fakes.FakeRunner(self.root)
        self.assertTrue(self.runner.find_ours(token), "no process left to kill: the test tests nothing")
        # a new run refuses while the journal is there
        self.assertEqual(self.make(runner=self.runner).run(), 2)
        h = self.make(runner=self.runner)
        self.assertEqual(h.restore(), 0, "\n".join(self.out))
        self.assertEqual(self.runner.find_ours(token), {})
        self.assertIn(["swapoff", os.path.join(self.series, "swapfile")],
                      [c[1] for c in self.runner.calls if c[0] == "run"])
        self.assert_restored()
        # the incomplete second run is done again by the next run
        self.assertIsNone(rd.read_status(os.path.join(self.series, "runs", "0002-dm1")))
        self.assertEqual(rd.read_status(os.path.join(self.series, "runs", "0001-dm0")), "ok")


class CountsTest(unittest.TestCase):
    """the trace_pipe reader's counting between the harness's markers"""

    def test_markers_open_and_close_the_window(self):
        c = Counts("0003-dm0")
        for line in [
            "   cc1-1 [000] d..1.  90.000000: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_KERNEL",
            "  python3-9 [001] .....  100.000000: tracing_mark_write: mmsim-harness start 0003-dm0",
            "   cc1-1 [000] d..1.  105.000000: mm_vmscan_wakeup_kswapd: nid=0 order=3 gfp_flags=GFP_KERNEL",
            "   ld-2 (    2) [000] d..1.  112.500000: mm_vmscan_wakeup_kswapd: nid=0 order=3 gfp_flags=GFP_KERNEL",
            "   cc1-1 [000] d..1.  113.000000: mm_page_alloc: page=0 pfn=0x1 order=0",
            "  python3-9 [001] .....  120.000000: tracing_mark_write: mmsim-harness end 0003-dm0",
            "   cc1-1 [000] d..1.  121.000000: mm_vmscan_wakeup_kswapd: nid=0 order=3 gfp_flags=GFP_KERNEL",
            "garbage"]:
            c.feed(line)
        # the event before the opening marker is the enable's edge, counted;
        # after the closing one nothing; other events ignored
        self.assertEqual(c.by_key, {("mm_vmscan_wakeup_kswapd", "0", "GFP_KERNEL", "cc1"): 1,
                                    ("mm_vmscan_wakeup_kswapd", "3", "GFP_KERNEL", "cc1"): 1,
                                    ("mm_vmscan_wakeup_kswapd", "3", "GFP_KERNEL", "ld"): 1})
        self.assertEqual(c.timeline, {(0, "mm_vmscan_wakeup_kswapd"): 2, (10, "mm_vmscan_wakeup_kswapd"): 1})
        self.assertEqual((c.t0, c.closed, c.unparsed, c.lines), (100.0, True, 1, 8))
        self.assertEqual(c.totals()["mm_vmscan_wakeup_kswapd"], 3)

    def test_extfrag_counted_by_types(self):
        """mm_page_alloc_extfrag: at the request's order (alloc_order), by
        the two migratetypes and whether it fragments and changes owner"""
        c = Counts("0001-dm0")
        for line in [
            "  python3-9 [001] .....  100.000000: tracing_mark_write: mmsim-harness start 0001-dm0",
            "   cc1-1 [000] d..1.  101.000000: mm_page_alloc_extfrag: page=0000000 pfn=0x1200 alloc_order=0 "
            "fallback_order=3 pageblock_order=9 alloc_migratetype=0 fallback_migratetype=1 fragmenting=1 "
            "change_ownership=0",
            "   cc1-1 [000] d..1.  102.000000: mm_page_alloc_extfrag: page=0000000 pfn=0x1400 alloc_order=0 "
            "fallback_order=3 pageblock_order=9 alloc_migratetype=0 fallback_migratetype=1 fragmenting=1 "
            "change_ownership=0",
            "   kworker/0:1-5 [000] d..1.  103.000000: mm_page_alloc_extfrag: page=0000000 pfn=0x2000 alloc_order=1 "
            "fallback_order=10 pageblock_order=9 alloc_migratetype=2 fallback_migratetype=1 fragmenting=0 "
            "change_ownership=1",
            "  python3-9 [001] .....  120.000000: tracing_mark_write: mmsim-harness end 0001-dm0"]:
            c.feed(line)
        self.assertEqual(c.by_key, {
            ("mm_page_alloc_extfrag", "0", "0<-1;fragmenting=1;change_ownership=0", "cc1"): 2,
            ("mm_page_alloc_extfrag", "1", "2<-1;fragmenting=0;change_ownership=1", "kworker"): 1})


class PlanTest(unittest.TestCase):
    def test_run_orders(self):
        from harnesslib import settings as st
        s = dict(st.DEFAULTS, runs="3")
        self.assertEqual([m for _, _, m in st.plan_runs(s)], ["0", "1", "1", "0", "0", "1"])
        self.assertEqual([lab for _, lab, _ in st.plan_runs(s)], ["dm0", "dm1", "dm1", "dm0", "dm0", "dm1"])
        s["run_order"] = "alternate"
        self.assertEqual([m for _, _, m in st.plan_runs(s)], ["0", "1", "0", "1", "0", "1"])
        self.assertEqual([q for q, _, _ in st.plan_runs(s)], [1, 2, 3, 4, 5, 6])


class JournalAndCliTest(unittest.TestCase):
    def test_journal_cut_last_line_is_skipped(self):
        from harnesslib.journal import Journal, JournalExists
        with tempfile.TemporaryDirectory() as d:
            j = Journal(os.path.join(d, "journal"))
            j.create(dict(token="t", before={}))
            j.append(dict(op="write", path="/proc/sys/vm/defrag_mode", old="0", new="1"))
            with self.assertRaises(JournalExists):
                Journal(j.path).create(dict(token="u"))
            with open(j.path, "a") as f:
                f.write('{"op": "write", "path": "/proc/sys/vm/nr_hug')     # a crash mid-line
            self.assertEqual([e["op"] for e in j.entries()], ["begin", "write"])
            # a cut line that is not the last is damage, not a crash
            with open(j.path, "a") as f:
                f.write('\n{"op": "note", "text": "x"}\n')
            with self.assertRaises(ValueError):
                j.entries()

    def test_cli_plan_on_a_fake_root_reads_only(self):
        with tempfile.TemporaryDirectory() as d:
            root = fakes.build_fake_root(os.path.join(d, "root"))
            before = fakes.snapshot_tree(root.prefix)
            series = os.path.join(d, "series")
            r = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "harness"), "plan",
                                "--root", root.prefix, "--series", series, "--runs", "3"],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("6 runs planned (0001-dm0, 0002-dm1, 0003-dm1, 0004-dm0, ...)", r.stdout)
            self.assertIn("/sys/kernel/mm/transparent_hugepage/enabled: always -> madvise", r.stdout)
            self.assertIn("nothing is changed without --change-this-machine", r.stdout)
            self.assertFalse(os.path.exists(series))
            self.assertEqual(fakes.snapshot_tree(root.prefix), before)
            # a bad setting: a clear error naming it
            r = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "harness"), "plan",
                                "--root", root.prefix, "--series", series, "--free", "lots"],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 2)
            self.assertIn("free: 'lots' is not a size", r.stderr)


class RunnerTest(unittest.TestCase):
    """the runner's process handling, for real (harmless shell loops)"""

    def test_spawn_group_oom_score_adj_and_kill(self):
        from harnesslib.root import Root
        from harnesslib.runner import RealRunner
        runner = RealRunner(Root("/"))
        token = "test-%d" % os.getpid()
        env = dict(os.environ, **{TOKEN_VAR: token})
        # a child that starts a grandchild: both must die with the group
        p = runner.spawn("loop", ["/bin/sh", "-c", "sleep 600 & sleep 600 & wait"], env=env)
        try:
            end = time.monotonic() + 10
            while len(runner.find_ours(token)) < 3 and time.monotonic() < end:
                time.sleep(0.05)
            ours = runner.find_ours(token)
            self.assertEqual(len(ours), 3, ours)            # sh and its two sleeps
            self.assertEqual(set(ours.values()), {p.pid})   # one group, led by the process
            self.assertEqual(os.getpgid(p.pid), p.pid)
            for pid in ours:
                with open("/proc/%d/oom_score_adj" % pid) as f:
                    self.assertEqual(f.read().strip(), "1000")
            self.assertTrue(runner.kill_group(p.pgid, grace=2, proc=p))
            self.assertEqual(runner.find_ours(token), {})
            self.assertTrue(p.poll())
            self.assertEqual(p.exit_code(), 128 + signal.SIGTERM)
        finally:
            for pid in list(runner.find_ours(token)) + [p.pid]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            p.poll()


if __name__ == "__main__":
    unittest.main()
