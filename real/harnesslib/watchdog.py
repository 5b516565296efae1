"""The watchdog: a thread that reads MemAvailable and SwapFree at least once a
second from the moment the pool is reserved until it is released, writes a
sample line of samples.tsv while the build runs, and on a breach (MemAvailable
below min_available, or SwapFree below min_swap_free when the series has
swap) calls the harness's breach handler once: shrink the pool first, then
kill the run's process groups and mark the run invalid."""
import threading
import time

SAMPLE_COLUMNS = ["nr_free_pages", "nr_file_pages", "nr_anon_pages", "nr_active_file",
                  "nr_inactive_file", "nr_active_anon", "nr_inactive_anon"]
SAMPLES_HEADER = "t\t" + "\t".join(SAMPLE_COLUMNS) + "\tMemAvailable_kB\tSwapFree_kB\n"


class Watchdog(threading.Thread):
    def __init__(self, root, interval, min_available_kb, min_swap_free_kb, on_breach):
        super().__init__(name="watchdog", daemon=True)
        self.root = root
        self.interval = min(1.0, interval)
        self.min_available_kb = min_available_kb
        self.min_swap_free_kb = min_swap_free_kb     # None: no swap, not checked
        self.on_breach = on_breach
        self.stop_ev = threading.Event()
        self.lock = threading.Lock()
        self.samples = None         # open samples.tsv while the build runs
        self.t0 = None
        self.breached = None
        self.lowest_available = None
        self.lowest_swap_free = None
        self.error = None

    def start_samples(self, path):
        with self.lock:
            self.samples = open(path, "w")
            self.samples.write(SAMPLES_HEADER)
            self.t0 = time.monotonic()
        self.sample_once()

    def stop_samples(self):
        with self.lock:
            if self.samples:
                self.samples.close()
                self.samples = None

    def stop(self):
        self.stop_ev.set()
        self.join()
        self.stop_samples()

    def sample_once(self):
        mi = self.root.meminfo()
        avail, swap_free = mi.get("MemAvailable", 0), mi.get("SwapFree", 0)
        with self.lock:
            if self.samples:
                vm = self.root.vmstat()
                t = time.monotonic() - self.t0
                self.samples.write("%.3f\t%s\t%d\t%d\n" % (
                    t, "\t".join(str(vm.get(k, 0)) for k in SAMPLE_COLUMNS), avail, swap_free))
                self.samples.flush()
        self.lowest_available = avail if self.lowest_available is None else min(self.lowest_available, avail)
        self.lowest_swap_free = swap_free if self.lowest_swap_free is None else min(self.lowest_swap_free, swap_free)
        return avail, swap_free

    def check(self, avail, swap_free):
        if avail < self.min_available_kb:
            return "MemAvailable %d kB < %d kB" % (avail, self.min_available_kb)
        if self.min_swap_free_kb is not None and swap_free < self.min_swap_free_kb:
            return "SwapFree %d kB < %d kB" % (swap_free, self.min_swap_free_kb)
        return None

    def start(self):
        # the first check in the caller's thread: a machine already short of
        # memory is seen before the pool is reserved
        self.watch_once()
        super().start()

    def watch_once(self):
        try:
            reason = self.check(*self.sample_once())
            if reason and not self.breached:
                self.breached = reason
                self.on_breach(reason)
        except Exception as e:          # noqa: BLE001 - reported by the harness
            # a watchdog that cannot read is a breach: nothing watches
            self.error = "watchdog: %s" % e
            if not self.breached:
                self.breached = self.error
                try:
                    self.on_breach(self.error)
                except Exception:       # noqa: BLE001
                    pass

    def run(self):
        while not self.stop_ev.wait(self.interval):
            self.watch_once()
