"""The hugetlb pool that sizes the experiment's free memory, and its holder.

reserve(): vm.nr_hugepages is raised until the memory left is the free
target (MemAvailable less the target, in huge pages; the kernel takes free
2 MiB blocks first and reclaims or compacts for the rest, so the memory left
is already fragmented, as on a machine that has run for a while), then
real/hugetlb_hold maps every page of the pool, so it stays in use until
the holder is killed.  With a free zone (DMA32, Normal), the pool first
takes all it can, the holder gives back the pages whose frames are in that
zone (hugetlb_hold --release-pfn), and nr_hugepages is lowered by as many:
the free memory is in that zone.

The holder is always killed before nr_hugepages is lowered (pages in use
would otherwise turn into surplus pages, still held)."""
import os
import threading
import time

from .root import sysctl_path

NR_HUGEPAGES = sysctl_path("vm.nr_hugepages")
ZONE_MARGIN = 512 << 20     # what --free-zone leaves outside the pool while it picks pages


class PoolError(Exception):
    pass


class Pool:
    def __init__(self, h):
        self.h = h
        self.held = 0
        self.proc = None
        self.lock = threading.RLock()

    def hugepage_kb(self):
        return self.h.root.meminfo().get("Hugepagesize", 2048)

    def set_nr(self, n):
        self.h.change(NR_HUGEPAGES, str(int(n)))
        return int(self.h.root.setting(NR_HUGEPAGES))

    def holder_argv(self, pages, status, release=None):
        argv = [self.h.bin("hugetlb_hold"), "--pages", str(pages), "--status", status]
        if release:
            argv += ["--release-pfn", "%d-%d" % release[0], "--release-count", str(release[1])]
        return argv

    def target_pages(self):
        """the pool's first size: what leaves the free target, or with a
        free zone all but ZONE_MARGIN (for the plan, and reserve)"""
        mi = self.h.root.meminfo()
        left_kb = self.h.size("free") >> 10
        if self.h.s["free_zone"] != "any":
            left_kb = ZONE_MARGIN >> 10
        return max(0, (mi.get("MemAvailable", 0) - left_kb) // self.hugepage_kb())

    def release_plan(self):
        """with a free zone: (its PFN range, the pages to give back there)"""
        zone = self.h.s["free_zone"]
        if zone == "any":
            return None
        return self.zone_range(zone), (self.h.size("free") >> 10) // self.hugepage_kb()

    def zone_range(self, name):
        ranges = [(lo, hi) for _, z, lo, hi in self.h.root.zones() if z == name]
        if not ranges:
            raise PoolError("free_zone %s: no such zone in /proc/zoneinfo" % name)
        return min(r[0] for r in ranges), max(r[1] for r in ranges)

    def reserve(self, rundir):
        with self.lock:
            status = os.path.join(rundir, "hugetlb_hold.status")
            release = self.release_plan()
            got = self.set_nr(self.target_pages())
            self._start(self.holder_argv(got, status, release), status)
            if release:
                # the released pages are the pool's only free ones: lowering
                # by their count gives exactly them back (the holder keeps
                # the others in use)
                self.set_nr(self.held)
            return self.held

    def _start(self, argv, status):
        if os.path.exists(status):
            os.remove(status)
        self.proc = self.h.spawn("hugetlb_hold", argv)
        end = time.monotonic() + 600
        while time.monotonic() < end:
            if os.path.exists(status):
                with open(status) as f:
                    fields = dict(kv.split("=", 1) for kv in f.read().split())
                self.held = int(fields["held"])
                return
            if self.proc.poll():
                raise PoolError("hugetlb_hold exited (%s) before holding the pool: "
                                "see its log" % self.proc.exit_code())
            time.sleep(0.05)
        raise PoolError("hugetlb_hold: no status after 600 s")

    def kill_holder(self):
        if self.proc:
            self.h.kill(self.proc)
            self.proc = None

    def shrink(self, rundir, fraction=0.25):
        """the watchdog's first answer to a breach: a quarter of the pool
        back to the buddy allocator (holder killed, nr_hugepages lowered,
        holder restarted on what is left); returns the pages given back"""
        with self.lock:
            before = self.held
            self.kill_holder()
            keep = int(before * (1 - fraction))
            got = self.set_nr(keep)
            status = os.path.join(rundir, "hugetlb_hold.status")
            self.held = 0
            if got:
                self._start(self.holder_argv(got, status), status)
            return before - self.held

    def release(self):
        with self.lock:
            self.kill_holder()
            self.set_nr(0)
            self.held = 0
