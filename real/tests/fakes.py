"""A fake /proc and /sys tree and a fake runner, for real/harness's tests.

The fake tree is a directory the test builds; the fake runner records every
command instead of running it (mkswap, swapon, make clean, tar, cc ...) and
plays its effect on the fake tree (swapon adds a line to the fake
/proc/swaps).  The processes the harness starts are real, harmless shell
loops and sleeps in their own process groups, so that starting, finding and
killing groups is tested for real; they carry the series' token and nothing
else of the machine is touched."""
import os
import re
import shutil
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from harnesslib.root import Root  # noqa: E402
from harnesslib.runner import RealRunner  # noqa: E402
from harnesslib.tracer import EVENTS, TRACEFS  # noqa: E402

# what the fake trace_pipe holds once the fake tracefs is mounted: lines as
# this machine's 6.18 kernel prints them (comm-pid, cpu, flags, timestamp)
TRACE_PIPE = """\
              cc1-4242    [001] d..1.  1200.000100: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_COMP
      thp_faulter-4100    [000] d..1.  1200.500000: mm_vmscan_wakeup_kswapd: nid=0 order=9 gfp_flags=GFP_TRANSHUGE_LIGHT
              cc1-4243    [000] d..1.  1201.000000: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_COMP
          kswapd0-52      [001] .....  1201.000200: mm_vmscan_kswapd_wake: nid=0 order=0
          kswapd0-52      [001] d..1.  1215.000000: mm_compaction_wakeup_kcompactd: nid=0 order=9 highest_zoneidx=Normal
       kcompactd0-53      [000] .....  1215.000300: mm_compaction_kcompactd_wake: nid=0 order=9 highest_zoneidx=Normal
 kworker/u4:2-77      [000] d..1.  1215.500000: mm_vmscan_wakeup_kswapd: nid=0 order=2 gfp_flags=GFP_KERNEL|__GFP_COMP|__GFP_NOWARN|__GFP_NORETRY
      thp_faulter-4100    [000] .....  1216.000000: mm_compaction_try_to_compact_pages: order=9 gfp_mask=GFP_TRANSHUGE_LIGHT priority=2
              cc1-4242    [001] .....  1216.100000: mm_vmscan_direct_reclaim_begin: order=2 gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_NOWARN|__GFP_NORETRY
CPU:1 [LOST 3 EVENTS]
"""

MEMINFO = """MemTotal:        8388608 kB
MemFree:         7000000 kB
MemAvailable:    6291456 kB
Buffers:           10000 kB
Cached:           500000 kB
SwapTotal:             0 kB
SwapFree:              0 kB
AnonHugePages:         0 kB
HugePages_Total:       0
HugePages_Free:        0
Hugepagesize:       2048 kB
"""

VMSTAT = """nr_free_pages 1750000
nr_inactive_anon 1000
nr_active_anon 2000
nr_inactive_file 3000
nr_active_file 4000
nr_anon_pages 3000
nr_file_pages 125000
pgfault 1000
oom_kill 0
pageoutrun 10
compact_daemon_wake 3
"""

ZONEINFO = """Node 0, zone      DMA
  pages free     3840
        spanned  4095
  start_pfn:           1
Node 0, zone    DMA32
  pages free     700000
        spanned  1044480
  start_pfn:           4096
Node 0, zone   Normal
  pages free     1000000
        spanned  1048576
  start_pfn:           1048576
"""

FILES = {
    "proc/sys/vm/defrag_mode": "0\n",
    "proc/sys/vm/panic_on_oom": "0\n",
    "proc/sys/vm/nr_hugepages": "0\n",
    "proc/sys/vm/nr_overcommit_hugepages": "0\n",
    "proc/sys/vm/drop_caches": "",
    "proc/sys/vm/compact_memory": "",
    "proc/sys/vm/swappiness": "60\n",
    "proc/sys/vm/min_free_kbytes": "67584\n",
    "proc/sys/vm/watermark_scale_factor": "10\n",
    "proc/sys/vm/watermark_boost_factor": "15000\n",
    "proc/sys/kernel/osrelease": "6.18.0-fake\n",
    "proc/cmdline": "console=ttyS0 page_reporting.page_reporting_order=0\n",
    "proc/cpuinfo": "processor\t: 0\nmodel name\t: Fake CPU 9000\n\nprocessor\t: 1\nmodel name\t: Fake CPU 9000\n",
    "proc/meminfo": MEMINFO,
    "proc/vmstat": VMSTAT,
    "proc/swaps": "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n",
    "proc/buddyinfo": "Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3\n",
    "proc/pagetypeinfo": "Page block order: 9\nPages per block:  512\n",
    "proc/zoneinfo": ZONEINFO,
    "proc/stat": "cpu  3947098 251860 1548401 634761 14917 0 5990 0 0 0\ncpu0 1 2 3 4 5 0 6 0 0 0\n",
    "proc/slabinfo": "slabinfo - version: 2.1\n# name <active_objs> ...\n",
    # the harness sets madvise: the fake starts elsewhere, so restore shows
    "sys/kernel/mm/transparent_hugepage/enabled": "[always] madvise never\n",
    "sys/kernel/mm/transparent_hugepage/defrag": "always defer defer+madvise madvise [never]\n",
}


def build_fake_root(d, **changes):
    """the fake tree under d; changes: {relative path: content}"""
    files = dict(FILES)
    files.update(changes)
    for rel, text in files.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
    # tracefs's mount point, empty until mounted (as on this machine)
    os.makedirs(os.path.join(d, TRACEFS.lstrip("/")), exist_ok=True)
    return Root(d)


def mount_fake_tracefs(root, pipe_text=TRACE_PIPE):
    """what mounting tracefs shows: the event enable files, tracing_on,
    trace_marker, and a trace_pipe (a regular file: read to its end, the
    reader sees no more)"""
    t = root.path(TRACEFS)
    for sysname, ev in EVENTS:
        os.makedirs(os.path.join(t, "events", sysname, ev), exist_ok=True)
        with open(os.path.join(t, "events", sysname, ev, "enable"), "w") as f:
            f.write("0\n")
    for name, text in (("tracing_on", "1\n"), ("trace_marker", ""), ("trace_pipe", pipe_text)):
        with open(os.path.join(t, name), "w") as f:
            f.write(text)


def umount_fake_tracefs(root):
    t = root.path(TRACEFS)
    for n in os.listdir(t):
        p = os.path.join(t, n)
        if os.path.isdir(p):
            shutil.rmtree(p)
        else:
            os.remove(p)


def snapshot_tree(d):
    out = {}
    for top, _, names in os.walk(d):
        for n in names:
            p = os.path.join(top, n)
            with open(p) as f:
                out[os.path.relpath(p, d)] = f.read()
    return out


def set_meminfo(root, key, kb):
    """one value of the fake meminfo; the rest of the text as it was, so
    that setting the old value back gives the same bytes"""
    p = root.path("/proc/meminfo")
    lines = []
    with open(p) as f:
        for line in f:
            if line.startswith(key + ":"):
                line = re.sub(r"^(\S+:\s+)\d+", lambda m: m.group(1) + str(kb), line)
            lines.append(line)
    with open(p + ".tmp", "w") as f:
        f.writelines(lines)
    os.rename(p + ".tmp", p)


def bump_vmstat(root, key, by):
    p = root.path("/proc/vmstat")
    with open(p) as f:
        d = [line.split() for line in f]
    with open(p + ".tmp", "w") as f:
        for k, v in d:
            f.write("%s %d\n" % (k, int(v) + (by if k == key else 0)))
    os.rename(p + ".tmp", p)


# the fake processes: a loop that answers SIGTERM as the programs do
FAULTER = "trap 'echo total cycles=0 ranges=0 thp=0; exit 0' TERM; while :; do sleep 0.05; done"
IDLE = "trap 'exit 0' TERM; while :; do sleep 0.05; done"


class FakeRunner(RealRunner):
    def __init__(self, fake_root, build_seconds=(0.3,), build_exit=0, disk_free=1 << 50,
                 missing=(), on_spawn=None, trace_pipe=TRACE_PIPE):
        assert not fake_root.is_real, "the fake runner is for a fake tree only"
        # the processes are real: found and killed through the real /proc
        super().__init__(Root("/"))
        self.fake = fake_root
        self.build_seconds = list(build_seconds)
        self.build_exit = build_exit
        self.free = disk_free
        self.missing = set(missing)
        self.on_spawn = on_spawn or {}
        self.calls = []
        self.lock = threading.Lock()
        self.swap_kb = {}
        self.trace_pipe = trace_pipe

    def record(self, *call):
        with self.lock:
            self.calls.append(call)

    def run(self, argv, cwd=None, env=None, stdout=None, check=True):
        self.record("run", list(argv))
        name = os.path.basename(argv[0])
        swaps = self.fake.path("/proc/swaps")
        if name == "fallocate":
            with open(argv[-1], "w") as f:
                f.write("fake swap file\n")
            self.swap_kb[argv[-1]] = int(argv[2]) >> 10
        elif name == "swapon":
            kb = self.swap_kb.get(argv[-1], 4)
            with open(swaps, "a") as f:
                f.write("%s file\t\t%d\t\t0\t\t-2\n" % (argv[-1], kb))
            set_meminfo(self.fake, "SwapTotal", kb)
            set_meminfo(self.fake, "SwapFree", kb)
        elif name == "swapoff":
            with open(swaps) as f:
                lines = [x for x in f if not x.startswith(argv[-1] + " ")]
            with open(swaps, "w") as f:
                f.writelines(lines)
            set_meminfo(self.fake, "SwapTotal", 0)
            set_meminfo(self.fake, "SwapFree", 0)
        elif name == "tar":
            os.makedirs(os.path.join(argv[2], "linux-source-6.1"), exist_ok=True)
        elif name == "mount" and argv[-1] == self.fake.path(TRACEFS):
            mount_fake_tracefs(self.fake, self.trace_pipe)
        elif name == "umount" and argv[-1] == self.fake.path(TRACEFS):
            umount_fake_tracefs(self.fake)
        if stdout:
            with open(stdout, "a") as f:
                f.write("fake: %s\n" % " ".join(argv))
        return 0

    def capture(self, argv, cwd=None):
        return "fake-%s" % os.path.basename(argv[0])

    def which(self, name):
        return None if name in self.missing else "/usr/bin/" + name

    def has_file(self, path):
        return path not in self.missing

    def disk_free(self, path):
        return self.free

    def spawn(self, name, argv, cwd=None, env=None, stdout=None):
        self.record("spawn", name, list(argv))
        base = os.path.basename(argv[0])
        if base == "hugetlb_hold":
            a = dict(zip(argv[1::2], argv[2::2]))
            held = int(a["--pages"]) - int(a.get("--release-count", 0))
            status = a["--status"]
            script = ("printf 'held=%d released=%s hugepage_kb=2048\\n' > %s.tmp && mv %s.tmp %s; %s"
                      % (held, a.get("--release-count", 0), status, status, status, IDLE))
        elif base == "make":
            secs = self.build_seconds.pop(0) if len(self.build_seconds) > 1 else self.build_seconds[0]
            script = "trap 'exit 143' TERM; sleep %s & wait; exit %d" % (secs, self.build_exit)
        elif base == "thp_faulter":
            script = FAULTER
        else:
            script = IDLE
        proc = super().spawn(name, ["/bin/sh", "-c", script], env=env, stdout=stdout)
        if name in self.on_spawn:
            self.on_spawn[name](self.fake)
        return proc

    def kill_group(self, pgid, grace=5.0, proc=None):
        self.record("kill", pgid, proc.name if proc else None)
        return super().kill_group(pgid, grace, proc)
