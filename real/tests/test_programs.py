"""real/thp_faulter and real/hugetlb_hold, run for real but small: a few
cycles of an 8 MiB region (no root needed), and the holder's argument
checks and a pool of zero pages (it never asks the kernel for one).

The programs are the ones CMake built (MMSIM_REAL_BIN, set by
real/CMakeLists.txt), or compiled here with cc."""
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.dirname(HERE)


class ProgramsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="mmsim-real-programs-")
        cls.bin = os.environ.get("MMSIM_REAL_BIN")
        if not cls.bin:
            cls.bin = cls.tmp.name
            for name in ("thp_faulter", "hugetlb_hold"):
                subprocess.check_call(["cc", "-O2", "-Wall", "-o", os.path.join(cls.bin, name),
                                       os.path.join(REAL, name + ".c")])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def prog(self, name):
        return os.path.join(self.bin, name)

    def test_faulter_cycles(self):
        r = subprocess.run([self.prog("thp_faulter"), "--region", "8M", "--hold", "0",
                            "--pause", "0", "--cycles", "3"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 4, r.stdout)
        thp = 0
        for n, line in enumerate(lines[:3], 1):
            m = re.fullmatch(r"cycle=(\d+) ranges=(\d+) thp=(\d+) touch_s=[0-9.]+", line)
            self.assertTrue(m, line)
            self.assertEqual(int(m.group(1)), n)
            self.assertEqual(int(m.group(2)), 4)            # 8 MiB: four 2 MiB ranges
            self.assertLessEqual(int(m.group(3)), 4)
            thp += int(m.group(3))
        self.assertEqual(lines[3], "total cycles=3 ranges=12 thp=%d" % thp)

    def test_faulter_stops_on_sigterm_while_holding(self):
        p = subprocess.Popen([self.prog("thp_faulter"), "--region", "4M", "--hold", "30", "--pause", "0"],
                             stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)                 # touched, holding for 30 s
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=10)
        self.assertLess(time.monotonic() - t0, 5)
        self.assertEqual(p.returncode, 0)
        # the held cycle counts (unmapped, as the workload does)
        self.assertRegex(out, r"cycle=1 ranges=2 .*\ntotal cycles=1 ranges=2 thp=\d\n$")

    def test_faulter_bad_arguments(self):
        for args in (["--region", "1M"], ["--region", "lots"], ["--hold", "-1"], ["--bogus", "1"]):
            r = subprocess.run([self.prog("thp_faulter")] + args, capture_output=True, text=True, timeout=10)
            self.assertEqual(r.returncode, 2, args)
            self.assertTrue(r.stderr, args)

    def test_holder_zero_pages(self):
        status = os.path.join(self.tmp.name, "hold.status")
        r = subprocess.run([self.prog("hugetlb_hold"), "--pages", "0", "--status", status, "--once"],
                           capture_output=True, text=True, timeout=10)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(status) as f:
            self.assertRegex(f.read(), r"^held=0 released=0 hugepage_kb=\d+\n$")

    def test_holder_bad_arguments(self):
        for args in (["--pages", "x"], [], ["--pages", "0", "--release-count", "2"],
                     ["--pages", "0", "--release-pfn", "9-3"]):
            r = subprocess.run([self.prog("hugetlb_hold")] + args, capture_output=True, text=True, timeout=10)
            self.assertEqual(r.returncode, 2, args)



class FoliosTest(unittest.TestCase):
    """real/folios on a file of its own: every cached page is counted once,
    as order-0 or as part of a large folio; a file with no cached page
    has none"""

    @unittest.skipUnless(os.access("/proc/kpageflags", os.R_OK), "needs root (/proc/kpageflags)")
    def test_cached_pages_add_up(self):
        # on disk, not tmpfs: a page cache that fadvise can drop
        with tempfile.TemporaryDirectory(prefix="mmsim-folios-", dir="/var/tmp") as d:
            path = os.path.join(d, "data")
            with open(path, "wb") as f:
                f.write(os.urandom(1 << 20))
            with open(path, "rb") as f:         # in the page cache now
                f.read()
            r = subprocess.run([sys.executable, os.path.join(REAL, "folios"), path],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            head, row = r.stdout.splitlines()
            self.assertEqual(head.split("\t")[:5], ["file", "resident", "mapped", "order0", "large_pages"])
            c = row.split("\t")
            resident, mapped, order0, large = map(int, c[1:5])
            self.assertEqual(resident, 256)     # just written and read: all of it cached
            self.assertEqual(mapped, resident)
            self.assertEqual(order0 + large, mapped)
            # dropped from the cache: nothing resident, nothing counted
            fd = os.open(path, os.O_RDONLY)
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
            r = subprocess.run([sys.executable, os.path.join(REAL, "folios"), path],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.stdout.splitlines()[1].split("\t")[1:5], ["0", "0", "0", "0"])

    @unittest.skipUnless(os.access("/proc/kpageflags", os.R_OK), "needs root (/proc/kpageflags)")
    def test_missing_file_is_an_error(self):
        r = subprocess.run([sys.executable, os.path.join(REAL, "folios"), "/nonexistent/file"],
                           capture_output=True, text=True, timeout=60)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("/nonexistent/file", r.stderr)



def write_fake_proc(d):
    """one zone of four blocks in d (TestBlocks): a wholly free block, a
    block of LRU pages with one slab page and one free page, a block of
    slab pages, and half a free block beside LRU pages and one unflagged
    page"""
    LRU, SLAB, BUDDY = 1 << 5, 1 << 7, 1 << 10
    flags = [0] * 2048
    flags[0] = BUDDY                        # block 0: order 9 free
    for i in range(512, 1024):              # block 1
        flags[i] = LRU
    flags[600] = SLAB
    flags[601] = BUDDY                      # order 0 (602 is LRU)
    for i in range(1024, 1536):             # block 2: slab
        flags[i] = SLAB
    flags[1536] = BUDDY                     # block 3: order 8, 1537..1791 unflagged
    for i in range(1792, 2047):
        flags[i] = LRU
    # 2047: unflagged, allocated: kernel memory
    with open(os.path.join(d, "kpageflags"), "wb") as f:
        f.write(struct.pack("<%dQ" % len(flags), *flags))
    with open(os.path.join(d, "zoneinfo"), "w") as f:
        f.write("Node 0, zone   Normal\n  pages free     769\n        spanned  2048\n"
                "        present  2048\n  start_pfn:           0\n")
    with open(os.path.join(d, "buddyinfo"), "w") as f:
        f.write("Node 0, zone   Normal      1      0      0      0      0      0      0      0"
                "      1      1      0\n")


class TestBlocks(unittest.TestCase):
    """real/blocks on a fake /proc of one zone of four blocks: a wholly free
    block, a block of LRU pages with one slab page and one free page, a
    block of slab pages, and half a free block beside LRU pages and one
    unflagged page: one mixed block (one slab page), one with an unflagged
    page"""

    def test_fake_zone(self):
        with tempfile.TemporaryDirectory(prefix="mmsim-blocks-", dir="/var/tmp") as d:
            write_fake_proc(d)
            r = subprocess.run([sys.executable, os.path.join(REAL, "blocks"), "--proc", d, "--hist"],
                               capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Normal: 4 blocks, 1 wholly free; pages free 769, lru 765, slab 513, other 1", r.stdout)
        self.assertIn("free pages: 769 counted here, 769 in /proc/buddyinfo", r.stdout)
        self.assertIn("mixed blocks (slab or page-table pages beside free or LRU pages): 1, holding 1 of them",
                      r.stdout)
        self.assertIn("blocks with unflagged pages beside free or LRU pages, and no slab or page table: 1",
                      r.stdout)
        self.assertIn("slab and page-table pages per mixed block: <=1: 1", r.stdout)

    def test_unreadable_kpageflags_is_an_error(self):
        with tempfile.TemporaryDirectory(prefix="mmsim-blocks-", dir="/var/tmp") as d:
            r = subprocess.run([sys.executable, os.path.join(REAL, "blocks"), "--proc", d],
                               capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("kpageflags", r.stderr)

    def test_run_snapshot(self):
        """the harness's snapshot of a run directory has blocks.WHEN beside
        the /proc copies where kpageflags can be read, and none where not"""
        sys.path.insert(0, REAL)
        from harnesslib import rundir
        from harnesslib.root import Root
        with tempfile.TemporaryDirectory(prefix="mmsim-blocks-", dir="/var/tmp") as d:
            os.makedirs(os.path.join(d, "root", "proc"))
            os.makedirs(os.path.join(d, "run"))
            write_fake_proc(os.path.join(d, "root", "proc"))
            rundir.snapshot(Root(os.path.join(d, "root")), os.path.join(d, "run"), "before")
            with open(os.path.join(d, "run", "blocks.before")) as f:
                text = f.read()
            self.assertTrue(os.path.exists(os.path.join(d, "run", "buddyinfo.before")))
            os.remove(os.path.join(d, "root", "proc", "kpageflags"))
            rundir.snapshot(Root(os.path.join(d, "root")), os.path.join(d, "run"), "after")
            self.assertFalse(os.path.exists(os.path.join(d, "run", "blocks.after")))
        self.assertIn("mixed blocks (slab or page-table pages beside free or LRU pages): 1, holding 1 of them", text)
        self.assertIn("slab and page-table pages per mixed block: <=1: 1", text)


class RunsTableTest(unittest.TestCase):
    """real/runs-table on the import's fixture series: the start state from
    buddyinfo.before (free pages, and free 2 MiB blocks: order 9 counts 1,
    order 10 counts 2) and the counters' deltas, run by run"""

    def test_fixture_series(self):
        series = os.path.join(os.path.dirname(REAL), "tests", "fixtures", "real", "series")
        r = subprocess.run([sys.executable, os.path.join(REAL, "runs-table"), series, "pgfault"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [x.split("\t") for x in r.stdout.splitlines()]
        self.assertEqual(lines[0], ["run", "status", "real_s", "user_s", "DMA32_free", "DMA32_blocks",
                                    "Normal_free", "Normal_blocks", "pgfault"])
        # 0001-dm0's buddyinfo.before: DMA32 0 4 2 2 1 2 0 3 3 1 753,
        # Normal 161 5056 2040 1297 1013 402 184 49 50 7 70
        self.assertEqual(lines[1], ["0001-dm0", "ok", "4.46", "1.23", "772848", "1507", "163993",
                                    "147", "198149"])
        # the invalid run has no times and no vmstat.after
        self.assertEqual(lines[3][:4], ["0003-dm0", "invalid", "-", "-"])
        self.assertEqual(lines[3][-1], "-")
        r = subprocess.run([sys.executable, os.path.join(REAL, "runs-table"), "/nonexistent"],
                           capture_output=True, text=True, timeout=60)
        self.assertNotEqual(r.returncode, 0)

if __name__ == "__main__":
    sys.exit(unittest.main())
