"""The wake-ups of kswapd and kcompactd, and the stalls in direct reclaim and
compaction, over a run's build, counted from the kernel's own tracepoints
(real/README.md, "wakes.tsv").

/proc/vmstat counts what the daemons did (pageoutrun, compact_daemon_wake)
and how often tasks stalled (allocstall_*, compact_stall), but not who
asked, for which order, with which gfp flags, nor how often an allocation
fell back to another migratetype's blocks.  Seven tracepoints say it:

  vmscan/mm_vmscan_wakeup_kswapd         wakeup_kswapd() woke a sleeping
                                         kswapd: the asker, order, gfp_flags
  vmscan/mm_vmscan_kswapd_wake           kswapd left its sleep to run
                                         balance_pgdat() at this order
  compaction/mm_compaction_wakeup_kcompactd
                                         wakeup_kcompactd() woke kcompactd
                                         (it passed kcompactd_node_suitable)
  compaction/mm_compaction_kcompactd_wake
                                         kcompactd ran kcompactd_do_work()
  vmscan/mm_vmscan_direct_reclaim_begin  a task entered direct reclaim
                                         (order, gfp_flags)
  compaction/mm_compaction_try_to_compact_pages
                                         a task entered direct compaction
                                         (order, gfp_mask, priority)
  kmem/mm_page_alloc_extfrag             an allocation fell back to another
                                         migratetype's free list: the types,
                                         whether it fragments (the fallback
                                         page is below pageblock order) and
                                         whether the block changed owner

The harness enables them through tracefs (each enable file a journaled
change, restored at the end; tracefs mounted and journaled if it was not),
and a thread reads trace_pipe while the build runs.  No hist triggers (this
kernel has none), no trace-cmd: a reader of the text format, which is
stable ABI for these events (nid=, order=, gfp_flags=, highest_zoneidx=).

A marker written to trace_marker opens and closes the build's window: the
events between the two markers are counted; the timeline's t is seconds
since the opening marker, on the trace clock."""
import os
import re
import select
import threading
import time

from .rundir import write_atomic

TRACEFS = "/sys/kernel/tracing"
EVENTS = [("vmscan", "mm_vmscan_wakeup_kswapd"),
          ("vmscan", "mm_vmscan_kswapd_wake"),
          ("compaction", "mm_compaction_wakeup_kcompactd"),
          ("compaction", "mm_compaction_kcompactd_wake"),
          ("vmscan", "mm_vmscan_direct_reclaim_begin"),
          ("compaction", "mm_compaction_try_to_compact_pages"),
          ("kmem", "mm_page_alloc_extfrag")]
TIMELINE_BIN_S = 10
MARK = "mmsim-harness"

# "<comm>-<pid> [(tgid)] [cpu] <flags> <timestamp>: <event>: <fields>"
LINE = re.compile(r"^\s*(?P<task>.*?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]\s+"
                  r"(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<event>\w+):\s?(?P<rest>.*)$")
LOST = re.compile(r"\[LOST (\d+) EVENTS\]")
FIELD = re.compile(r"(\w+)=(\S*)")


def enable_path(system, event):
    return "%s/events/%s/%s/enable" % (TRACEFS, system, event)


def comm_class(task):
    """a task's name as counted: per-CPU and numbered kernel threads by
    their kind (kworker/u4:2 -> kworker), the rest as they are"""
    if task.startswith("kworker/"):
        return "kworker"
    return task.strip() or "<...>"


def detail_of(event, fields):
    """the gfp flags of a request (with the compaction priority), or the
    highest zone kcompactd is to compact (6.1 and 6.18 print it as
    classzone_idx; highest_zoneidx is its field's name)"""
    if event in ("mm_vmscan_wakeup_kswapd", "mm_vmscan_direct_reclaim_begin"):
        return fields.get("gfp_flags", "?")
    if event == "mm_compaction_try_to_compact_pages":
        return "%s;priority=%s" % (fields.get("gfp_mask", "?"), fields.get("priority", "?"))
    if event in ("mm_compaction_wakeup_kcompactd", "mm_compaction_kcompactd_wake"):
        return fields.get("highest_zoneidx", fields.get("classzone_idx", "?"))
    if event == "mm_page_alloc_extfrag":
        # the migratetypes as the kernel numbers them (the order of
        # /proc/pagetypeinfo's columns), the one asked for first
        return "%s<-%s;fragmenting=%s;change_ownership=%s" % (
            fields.get("alloc_migratetype", "?"), fields.get("fallback_migratetype", "?"),
            fields.get("fragmenting", "?"), fields.get("change_ownership", "?"))
    return "-"


def order_of(event, fields):
    """the order a line is counted at: the request's"""
    if event == "mm_page_alloc_extfrag":
        return fields.get("alloc_order", "?")
    return fields.get("order", "?")


class Counts:
    """what the reader saw between the markers: counts by (event, order,
    detail, task) and by 10 s bin; lost events as the ring buffer says"""

    def __init__(self, run_name):
        self.start_mark = "%s start %s" % (MARK, run_name)
        self.end_mark = "%s end %s" % (MARK, run_name)
        self.t0 = None
        self.first_ts = None
        self.open = False           # between the markers (or no marker seen yet)
        self.closed = False
        self.by_key = {}
        self.timeline = {}
        self.lost = 0
        self.lines = 0
        self.unparsed = 0

    def feed(self, line):
        if not line.strip():
            return
        self.lines += 1
        m = LOST.search(line)
        if m:
            self.lost += int(m.group(1))
            return
        m = LINE.match(line)
        if not m:
            self.unparsed += 1
            return
        ev, rest, ts = m.group("event"), m.group("rest"), float(m.group("ts"))
        if ev in ("tracing_mark_write", "print"):
            text = rest.strip()
            if text == self.start_mark:
                self.t0, self.open = ts, True
            elif text == self.end_mark:
                self.open, self.closed = False, True
            return
        if self.closed or ev not in [e for _, e in EVENTS]:
            return
        if self.first_ts is None:
            self.first_ts = ts
        fields = dict(FIELD.findall(rest))
        key = (ev, order_of(ev, fields), detail_of(ev, fields), comm_class(m.group("task")))
        self.by_key[key] = self.by_key.get(key, 0) + 1
        t0 = self.t0 if self.t0 is not None else self.first_ts
        b = int(max(0.0, ts - t0) // TIMELINE_BIN_S) * TIMELINE_BIN_S
        self.timeline[(b, ev)] = self.timeline.get((b, ev), 0) + 1

    def totals(self):
        out = {e: 0 for _, e in EVENTS}
        for (ev, _, _, _), n in self.by_key.items():
            out[ev] += n
        return out

    def write(self, d, enabled):
        """wakes.tsv and wakes-timeline.tsv in the run directory"""
        lines = ["# real/harness: tracepoint counts over the build (real/README.md, wakes.tsv)\n",
                 "# enabled: %s\n" % (" ".join(enabled) or "none"),
                 "# lines %d, lost_events %d, unparsed %d, markers %s\n"
                 % (self.lines, self.lost, self.unparsed,
                    "both" if self.t0 is not None and self.closed else
                    "start only" if self.t0 is not None else "none"),
                 "event\torder\tdetail\ttask\tcount\n"]
        for key in sorted(self.by_key, key=lambda k: (k[0], int(k[1]) if k[1].isdigit() else 99, k[2], k[3])):
            lines.append("%s\t%s\t%s\t%s\t%d\n" % (key + (self.by_key[key],)))
        write_atomic(os.path.join(d, "wakes.tsv"), "".join(lines))
        tl = ["t\tevent\tcount\n"]
        for (b, ev) in sorted(self.timeline):
            tl.append("%d\t%s\t%d\n" % (b, ev, self.timeline[(b, ev)]))
        write_atomic(os.path.join(d, "wakes-timeline.tsv"), "".join(tl))


class Tracer(threading.Thread):
    """reads trace_pipe into Counts until stopped.  The enable files are
    the harness's to write (journaled); the tracer only reads, and writes
    the two markers."""

    def __init__(self, root, run_name):
        super().__init__(name="tracer", daemon=True)
        self.root = root
        self.counts = Counts(run_name)
        self.stop_ev = threading.Event()
        self.fd = None
        self.error = None

    def open(self):
        self.fd = os.open(self.root.path(TRACEFS + "/trace_pipe"), os.O_RDONLY | os.O_NONBLOCK)

    def mark(self, text):
        p = self.root.path(TRACEFS + "/trace_marker")
        try:
            fd = os.open(p, os.O_WRONLY | os.O_APPEND)
            try:
                os.write(fd, (text + "\n").encode())
            finally:
                os.close(fd)
        except OSError as e:
            self.error = "trace_marker: %s" % e

    def start_window(self):
        self.open()
        super().start()
        self.mark(self.counts.start_mark)

    def end_window(self, drain_s=3.0):
        """the closing marker, then the pipe read until it is seen (or
        drain_s passes: a marker lost in an overrun; a pipe that never
        showed the opening marker, as the tests' fake, gets a short wait)"""
        self.mark(self.counts.end_mark)
        end = time.monotonic() + (drain_s if self.counts.t0 is not None else 0.3)
        while not self.counts.closed and time.monotonic() < end and self.is_alive():
            time.sleep(0.05)
        self.stop_ev.set()
        self.join()
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def run(self):
        buf = b""
        try:
            while not self.stop_ev.is_set():
                r, _, _ = select.select([self.fd], [], [], 0.25)
                if not r:
                    continue
                try:
                    chunk = os.read(self.fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    time.sleep(0.05)        # a regular file at its end (the tests' fake)
                    continue
                buf += chunk
                *whole, buf = buf.split(b"\n")
                for line in whole:
                    self.counts.feed(line.decode(errors="replace"))
        except Exception as e:      # noqa: BLE001 - reported in wakes.tsv's absence
            self.error = "trace_pipe: %s" % e
