"""The harness: plan, run, restore and status of a series (real/README.md).

Everything it reads in /proc and /sys goes through self.root; every command
and process goes through self.runner; every change is journaled before it
is made.  The tests build a fake tree and a fake runner and run all of it."""
import os
import shlex
import shutil
import signal
import statistics
import threading
import time
import uuid

from . import rundir as rd
from . import settings as st
from .journal import Journal, JournalExists
from .pool import Pool, NR_HUGEPAGES
from .root import sysctl_path, thp_path
from .runner import RealRunner, TOKEN_VAR
from .tracer import EVENTS, TRACEFS, Tracer, enable_path
from .watchdog import Watchdog

HERE = os.path.dirname(os.path.abspath(__file__))
REAL_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(REAL_DIR)

DEFRAG_MODE = sysctl_path("vm.defrag_mode")
THP_ENABLED = thp_path("enabled")
THP_DEFRAG = thp_path("defrag")
DROP_CACHES = sysctl_path("vm.drop_caches")
COMPACT_MEMORY = sysctl_path("vm.compact_memory")
PANIC_ON_OOM = sysctl_path("vm.panic_on_oom")
OVERCOMMIT_HUGEPAGES = sysctl_path("vm.nr_overcommit_hugepages")
TRACING_ON = TRACEFS + "/tracing_on"
# every setting a series writes; the end check compares each with before
# (the tracefs files only where tracefs is mounted, before and after alike)
CHANGED = [DEFRAG_MODE, THP_ENABLED, THP_DEFRAG, NR_HUGEPAGES, TRACING_ON] + \
    [enable_path(*e) for e in EVENTS]
PROVENANCE_SYSCTLS = ["vm.defrag_mode", "vm.swappiness", "vm.min_free_kbytes",
                      "vm.watermark_scale_factor", "vm.watermark_boost_factor"]
TREE_NAME = "linux-source-6.1"
CTEST_VARS = ("DASHBOARD_TEST_FROM_CTEST", "MMSIM_UNDER_CTEST")
TOOLS = ["cc", "make", "tar", "mkswap", "swapon", "swapoff", "fallocate", "sync",
         "flex", "bison", "bc", "perl"]
HEADERS = ["/usr/include/libelf.h", "/usr/include/openssl/ssl.h"]
PROGRAMS = [("thp_faulter", "real/thp_faulter.c"), ("hugetlb_hold", "real/hugetlb_hold.c")]


class Interrupted(Exception):
    pass


class Harness:
    def __init__(self, series, cli_settings, root, runner, env=None, change=False,
                 guard_as_real=False, out=print):
        if type(runner) is RealRunner and not root.is_real and change:
            # a real runner would run swapon & co. for real on a fake tree's plan
            raise ValueError("a fake root (--root %s) needs the tests' fake runner" % root.prefix)
        self.series = os.path.abspath(series)
        self.cli = {k: str(v) for k, v in cli_settings.items() if v is not None}
        self.root = root
        self.runner = runner
        self.env = dict(os.environ if env is None else env)
        self.change_allowed = change
        # the tests check the refusals that apply to the machine's own tree
        self.guard_as_real = guard_as_real
        self.out = out
        self.s = None
        self.journal = Journal(self.p("journal"))
        self.token = None
        self.procs = {}
        self.procs_lock = threading.Lock()
        self.pool = Pool(self)
        self.invalid = None
        self.current_dir = None
        self.trace_events = []      # the EVENTS this kernel has, once tracefs is up

    # ------------------------------------------------------------ paths
    def p(self, *parts):
        return os.path.join(self.series, *parts)

    def bin(self, name):
        return self.p("bin", name)

    def tree(self):
        return self.p("build", TREE_NAME)

    def size(self, key):
        return st.parse_size(self.s[key], key)

    def log(self, text):
        line = "%s %s" % (rd.iso_now(), text)
        self.out(line)
        if os.path.isdir(self.series):
            with open(self.p("harness.log"), "a") as f:
                f.write(line + "\n")

    # ------------------------------------------------------------ settings
    def resolve(self):
        """the series' settings: stored ones, the command line's, defaults"""
        stored = st.load_conf(self.p("series.conf")) if os.path.exists(self.p("series.conf")) else {}
        if stored:
            for k, v in st.ADDED_LATER.items():
                stored.setdefault(k, v)
        for k, v in self.cli.items():
            if k not in st.DEFAULTS:
                raise st.SettingsError("unknown setting %r" % k)
            if k in stored and stored[k] != v:
                raise st.SettingsError(
                    "%s: the series %s was planned with %s=%s, not %s (a series is one "
                    "experiment: start another series directory)" % (k, self.series, k, stored[k], v))
        s = dict(st.DEFAULTS)
        s.update(stored)
        s.update(self.cli)
        _, ncpu = self.root.cpuinfo()
        self.s = st.check(s, ncpu)
        return self.s

    def planned(self):
        path = self.p("series.tsv")
        return st.load_series(path) if os.path.exists(path) else st.plan_runs(self.s)

    def run_path(self, seq, label):
        return self.p("runs", st.run_dir_name(seq, label))

    def pending(self):
        return [r for r in self.planned() if not rd.is_complete(self.run_path(r[0], r[1]))]

    # ------------------------------------------------------------ commands
    def compile_commands(self):
        cmds = [["cc", "-O2", "-o", self.bin(n), os.path.join(REPO, src)] for n, src in PROGRAMS]
        if self.s["streamer"] == "on":
            # the access sequence is the simulated workload's own module
            cmds.append(["cc", "-O2", "-I", os.path.join(REPO, "workloads"), "-o", self.bin("streamer"),
                         os.path.join(REAL_DIR, "streamer.c"),
                         os.path.join(REPO, "workloads", "streamer_pattern.c")])
        if self.s["recorder"] == "yes":
            cmds.append(["cc", "-O2", "-o", self.bin("wrap/recorder"),
                         os.path.join(REPO, "workloads/data/kbuild/recorder.c")])
        return cmds

    def tree_commands(self):
        """(argv, cwd) to unpack and configure the tree, once a series"""
        return [(["tar", "-C", self.p("build"), "-xf", self.s["tarball"]], None),
                (["sh", "-c", "find . -type f -printf '%s\\t%p\\n' > ../tree-files.tsv"], self.tree()),
                (["make", "-s", "x86_64_defconfig"], self.tree())]

    def swap_commands(self):
        f = self.p("swapfile")
        return [["fallocate", "-l", str(self.size("swap")), f], ["mkswap", f], ["swapon", f]]

    def streamer_args(self):
        s = self.s
        return ["--dir", self.p("streamer-files"), "--files", s["streamer_files"],
                "--file-size", s["streamer_file_size"], "--rate", s["streamer_rate"],
                "--pattern", s["streamer_pattern"], "--block", s["streamer_block"],
                "--reread", s["streamer_reread"], "--layout", s["streamer_layout"],
                "--seed", s["streamer_seed"]]

    def collect_argv(self, d):
        """the run's build as a kbuild dataset, before the next make clean
        removes the .cmd files collect.py reads"""
        return ["python3", os.path.join(REPO, "workloads/data/kbuild/collect.py"), self.tree(),
                os.path.join(d, "kbuild"), os.path.join(d, "kbuild.tsv.gz")]

    def faulter_argv(self):
        return [self.bin("thp_faulter"), "--region", self.s["faulter_region"],
                "--hold", self.s["faulter_hold"], "--pause", self.s["faulter_pause"]]

    def build_argv(self):
        return ["make", "-j%s" % self.s["jobs"], "all"]

    def build_env(self, d):
        env = {}
        if self.s["recorder"] == "yes":
            env["PATH"] = self.bin("wrap") + ":" + self.env.get("PATH", "/usr/bin:/bin")
            env["KB_LOG"] = os.path.join(d, "kbuild", "procs.log")
        return env

    # ------------------------------------------------------------ safety
    def refusals(self):
        """every reason not to run; empty when the series may start"""
        r = []
        s = self.s
        if not self.change_allowed:
            r.append("nothing is changed without --change-this-machine")
        if self.root.is_real or self.guard_as_real:
            if self.env.get("CI"):
                r.append("CI is set: the harness never runs in CI")
            under = [v for v in self.env if v in CTEST_VARS or v.startswith("CTEST_")]
            if under:
                r.append("under ctest (%s is set): the tests run on a fake tree only" % under[0])
            if self.root.is_real and os.geteuid() != 0:
                r.append("not root: the harness writes sysctls and enables swap")
        if Journal.exists(self.journal.path):
            r.append("a journal exists (%s): a run was interrupted; `real/harness restore "
                     "--series %s` undoes it first" % (self.journal.path, self.series))
        try:
            if self.root.setting(PANIC_ON_OOM) != "0":
                r.append("vm.panic_on_oom is %s, not 0: an OOM would panic the machine"
                         % self.root.setting(PANIC_ON_OOM))
            if self.root.setting(NR_HUGEPAGES) != "0":
                r.append("vm.nr_hugepages is %s, not 0: the pool is someone else's"
                         % self.root.setting(NR_HUGEPAGES))
            if self.root.exists(OVERCOMMIT_HUGEPAGES) and self.root.setting(OVERCOMMIT_HUGEPAGES) != "0":
                r.append("vm.nr_overcommit_hugepages is not 0")
            if not self.root.exists(DEFRAG_MODE):
                r.append("this kernel has no vm.defrag_mode (Linux 6.15 and later have it)")
            if s["compact_first"] == "yes" and not self.root.exists(COMPACT_MEMORY):
                r.append("compact_first=yes, but this kernel has no vm.compact_memory "
                         "(CONFIG_COMPACTION off): --compact-first no")
            if s["free_zone"] != "any" and s["free_zone"] not in [z for _, z, _, _ in self.root.zones()]:
                r.append("free_zone %s: no such zone in /proc/zoneinfo" % s["free_zone"])
            swaps = self.root.swaps()
            if swaps:
                r.append("a swap device is on (%s): the series' swap must be the only one" % swaps[0][0])
            mi = self.root.meminfo()
            if self.size("free") > (mi.get("MemTotal", 0) << 10) - (512 << 20):
                r.append("free %s: more than the machine's memory less 512M" % s["free"])
        except OSError as e:
            r.append("cannot read %s" % e.filename)
        need = st.DISK_MARGIN + self.size("swap")
        if not os.path.exists(self.p("build", ".prepared")):
            need += st.TREE_BYTES
            if not self.runner.has_file(s["tarball"]):
                r.append("%s is missing (apt-get install linux-source-6.1)" % s["tarball"])
        if s["streamer"] == "on":
            if not os.path.exists(self.p("streamer-files", ".prepared")):
                need += int(s["streamer_files"]) * self.size("streamer_file_size")
            if not self.runner.has_file(os.path.join(REAL_DIR, "streamer.c")):
                r.append("streamer on, but real/streamer.c is not in this repository")
        d = self.series
        while not os.path.exists(d):
            d = os.path.dirname(d)
        free = self.runner.disk_free(d)
        if free < need:
            r.append("not enough disk room in %s: %s free, %s needed (swap, tree, reader's files, 1G margin)"
                     % (d, st.fmt_size(free), st.fmt_size(need)))
        missing = [t for t in TOOLS if not self.runner.which(t)]
        missing += [h for h in HEADERS if not self.runner.has_file(h)]
        if s["trace_wakes"] == "yes" and not self.tracefs_mounted():
            if not self.root.exists(TRACEFS):
                r.append("trace_wakes=yes, but this kernel has no %s (no tracefs): "
                         "--trace-wakes no" % TRACEFS)
            missing += [t for t in ("mount", "umount") if not self.runner.which(t)]
        if missing:
            r.append("missing: %s (apt-get install build-essential bc bison flex libelf-dev "
                     "libssl-dev util-linux)" % ", ".join(missing))
        return r

    def machine_state(self):
        """what the end check compares: the settings, swap, pool, processes,
        tracefs mounted or not"""
        mi = self.root.meminfo()
        return dict(settings={p: self.root.setting(p) for p in CHANGED if self.root.exists(p)},
                    swaps=[list(x) for x in self.root.swaps()],
                    hugepages_total=mi.get("HugePages_Total", 0),
                    swapfile=os.path.exists(self.p("swapfile")),
                    tracefs=self.tracefs_mounted())

    def tracefs_mounted(self):
        return self.root.exists(TRACEFS + "/trace_pipe")

    def mount_argv(self):
        return ["mount", "-t", "tracefs", "nodev", self.root.path(TRACEFS)]

    def change(self, path, value):
        """a setting written, journaled first (old value, new value)"""
        old = self.root.setting(path)
        self.journal.append(dict(op="write", path=path, old=old, new=str(value)))
        self.root.write(path, value)

    def spawn(self, name, argv, cwd=None, stdout=None, extra_env=None):
        env = dict(self.env)
        env[TOKEN_VAR] = self.token
        env.update(extra_env or {})
        self.journal.append(dict(op="spawn", name=name, argv=list(argv)))
        proc = self.runner.spawn(name, argv, cwd=cwd, env=env, stdout=stdout)
        self.journal.append(dict(op="started", name=name, pid=proc.pid, pgid=proc.pgid))
        with self.procs_lock:
            self.procs[name] = proc
        return proc

    def kill(self, proc):
        """stops a process's group; the main thread and the watchdog's may
        both call it for the same process"""
        self.runner.kill_group(proc.pgid, proc=proc)
        with self.procs_lock:
            if self.procs.get(proc.name) is proc:
                del self.procs[proc.name]

    # ------------------------------------------------------------ plan
    def plan(self):
        """the dry run: every setting it would change, every command and
        process, the refusals and the expected duration.  Reads only."""
        s = self.resolve()
        o = []
        runs = self.planned()
        pend = self.pending()
        o.append("series %s: %d runs planned (%s), %d complete, %d to run"
                 % (self.series, len(runs), ", ".join(st.run_dir_name(q, lab) for q, lab, _ in runs[:4])
                    + (", ..." if len(runs) > 4 else ""), len(runs) - len(pend), len(pend)))
        o.append("settings: " + " ".join("%s=%s" % (k, s[k]) for k, _, _ in st.SETTINGS))
        o.append("")
        o.append("settings it would change (now -> during the runs; each journaled first, "
                 "restored at the end):")
        cur = lambda p: self.root.setting(p) if self.root.exists(p) else "(missing)"  # noqa: E731
        o.append("  %s: %s -> %s, per run in the series' order" % (
            DEFRAG_MODE, cur(DEFRAG_MODE), " / ".join(s["modes"].split(","))))
        o.append("  %s: %s -> %s" % (THP_ENABLED, cur(THP_ENABLED), s["thp_enabled"]))
        o.append("  %s: %s -> %s" % (THP_DEFRAG, cur(THP_DEFRAG), s["thp_defrag"]))
        pages = self.pool.target_pages()
        if s["free_zone"] == "any":
            how = "MemAvailable less free=%s" % s["free"]
        else:
            how = ("MemAvailable less 512M; then lowered by the pages the holder gives back "
                   "in zone %s, free=%s of them" % (s["free_zone"], s["free"]))
        o.append("  %s: %s -> %d now (%s, in %d kB pages; recomputed each run), 0 after each run"
                 % (NR_HUGEPAGES, cur(NR_HUGEPAGES), pages, how, self.pool.hugepage_kb()))
        if s["drop_caches"] == "yes":
            o.append("  %s: 3 written before each run, after sync (drops clean caches; nothing "
                     "to undo)" % DROP_CACHES)
        if s["compact_first"] == "yes":
            o.append("  %s: 1 written before each run's pool, after the caches are dropped "
                     "(compacts all zones once; nothing to undo)" % COMPACT_MEMORY)
        if s["trace_wakes"] == "yes":
            for sysname, ev in EVENTS:
                o.append("  %s: 0 -> 1 during each build, 0 after it (the events this kernel has)"
                         % enable_path(sysname, ev))
            o.append("  %s: 1 if it is 0" % TRACING_ON)
        if self.size("swap"):
            o.append("  swap: %s, %s, created, mkswap, swapon (never in fstab); swapoff and "
                     "removed at the end" % (self.p("swapfile"), s["swap"]))
        o.append("")
        o.append("commands it would run:")
        for argv in self.compile_commands():
            o.append("  " + shlex.join(argv))
        if s["recorder"] == "yes":
            o.append("  ln -s recorder %s/{gcc,ld,ar}" % self.bin("wrap"))
        if not os.path.exists(self.p("build", ".prepared")):
            for argv, cwd in self.tree_commands():
                o.append("  %s%s    (once)" % ("(cd %s) " % cwd if cwd else "", shlex.join(argv)))
        if self.size("swap"):
            for argv in self.swap_commands():
                o.append("  " + shlex.join(argv))
        if s["trace_wakes"] == "yes" and not self.tracefs_mounted():
            o.append("  %s    (tracefs is not mounted)" % shlex.join(self.mount_argv()))
            o.append("  at the end: %s" % shlex.join(["umount", self.root.path(TRACEFS)]))
        if s["streamer"] == "on" and not os.path.exists(self.p("streamer-files", ".prepared")):
            o.append("  %s    (once)" % shlex.join([self.bin("streamer"), "--prepare"] + self.streamer_args()))
        o.append("  per run: (cd %s) make clean" % self.tree())
        if s["drop_caches"] == "yes":
            o.append("  per run: sync")
        d = self.run_path(*pend[0][:2]) if pend else self.run_path(1, "dm0")
        if s["recorder"] == "yes":
            o.append("  per run, after a build that succeeded: " + shlex.join(self.collect_argv(d)))
        if self.size("swap"):
            o.append("  at the end: swapoff %s; rm %s" % (self.p("swapfile"), self.p("swapfile")))
        o.append("")
        o.append("processes it would start per run (each in a process group of its own, "
                 "oom_score_adj 1000, %s in its environment; killed as a group), for %s:"
                 % (TOKEN_VAR, os.path.basename(d)))
        rel = None
        try:
            rel = self.pool.release_plan()
        except Exception as e:  # noqa: BLE001 - the refusals say it too
            o.append("  (free_zone: %s)" % e)
        o.append("  " + shlex.join(self.pool.holder_argv(pages, os.path.join(d, "hugetlb_hold.status"), rel)))
        o.append("  " + shlex.join(self.faulter_argv()))
        if s["streamer"] == "on":
            o.append("  " + shlex.join([self.bin("streamer")] + self.streamer_args()))
        env = self.build_env(d)
        if "PATH" in env:
            env["PATH"] = self.bin("wrap") + ":$PATH"
        o.append("  (cd %s) %s%s" % (self.tree(), "".join("%s=%s " % kv for kv in sorted(env.items())),
                                     shlex.join(self.build_argv())))
        o.append("")
        o.append("watchdog: MemAvailable and SwapFree every %s s; breach below %s / %s: the pool "
                 "shrunk by a quarter first, then the run's groups killed, the run invalid"
                 % (s["sample_interval"], s["min_available"], s["min_swap_free"]))
        o.append("hard timeout per run: %s s; a run with any oom_kill is invalid" % s["timeout"])
        o.append("expected duration: " + self.estimate(pend))
        ref = self.refusals()
        o.append("")
        if ref:
            o.append("it would refuse to start:")
            o += ["  " + x for x in ref]
        else:
            o.append("no refusal: `run --change-this-machine` would start")
        for line in o:
            self.out(line)
        return 0

    def estimate(self, pend):
        """the series' expected duration: the mean of the runs done, or the
        first guess from the build's CPU time"""
        reals = []
        for q, lab, _ in self.planned():
            d = self.run_path(q, lab)
            t = rd.read_times(d)
            if rd.read_status(d) == "ok" and "real" in t:
                reals.append(float(t["real"]))
        _, ncpu = self.root.cpuinfo()
        if reals:
            per = statistics.mean(reals) + st.RUN_OVERHEAD_S
            how = "the mean of the %d runs done" % len(reals)
        else:
            per = st.BUILD_CPU_S / max(1, min(int(self.s["jobs"]), ncpu)) + st.RUN_OVERHEAD_S
            how = ("a first guess: %d CPU-s of build on %d CPUs, more under pressure"
                   % (st.BUILD_CPU_S, min(int(self.s["jobs"]), ncpu)))
        total = per * len(pend)
        if not os.path.exists(self.p("build", ".prepared")) and pend:
            total += 300
        return "%s for %d runs, %s a run (%s)" % (st.fmt_duration(total), len(pend),
                                                 st.fmt_duration(per), how)

    # ------------------------------------------------------------ run
    def run(self, max_runs=None):
        self.resolve()
        ref = self.refusals()
        if ref:
            for x in ref:
                self.out("refused: " + x)
            return 2
        os.makedirs(self.p("runs"), exist_ok=True)
        if not os.path.exists(self.p("series.conf")):
            st.save_conf(self.p("series.conf"), self.s)
        if not os.path.exists(self.p("series.tsv")):
            st.save_series(self.p("series.tsv"), st.plan_runs(self.s))
        pend = self.pending()
        if max_runs is not None:
            pend = pend[:max_runs]
        if not pend:
            self.out("series %s: every run is complete" % self.series)
            return 0
        self.out("series %s: %d runs to do now; expected %s" % (self.series, len(pend), self.estimate(pend)))
        self.token = uuid.uuid4().hex
        try:
            self.journal.create(dict(token=self.token, series=self.series, pid=os.getpid(),
                                     before=self.machine_state()))
        except JournalExists:
            self.out("refused: a journal exists (%s)" % self.journal.path)
            return 2
        old = {}

        def interrupted(signum, frame):
            raise Interrupted("signal %d" % signum)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            try:
                old[sig] = signal.signal(sig, interrupted)
            except ValueError:      # not the main thread (a test's)
                pass
        rc = 0
        try:
            self.prepare()
            for seq, label, mode in pend:
                self.run_one(seq, label, mode)
        except (Interrupted, Exception) as e:   # noqa: BLE001 - restored below, whatever it was
            self.log("stopped: %s: %s" % (type(e).__name__, e))
            rc = 1
        finally:
            for sig, h in old.items():
                signal.signal(sig, h)
            rc2 = self.restore()
        return rc or rc2

    def prepare(self):
        """once an invocation: programs, tree (once a series), swap, reader's files"""
        os.makedirs(self.p("bin", "wrap"), exist_ok=True)
        for argv in self.compile_commands():
            self.runner.run(argv)
        if self.s["recorder"] == "yes":
            for t in ("gcc", "ld", "ar"):
                link = self.bin("wrap/" + t)
                if not os.path.islink(link):
                    os.symlink("recorder", link)
        if not os.path.exists(self.p("build", ".prepared")):
            if os.path.exists(self.tree()):
                shutil.rmtree(self.tree())      # a half-unpacked tree
            os.makedirs(self.p("build"), exist_ok=True)
            self.log("unpacking %s and make x86_64_defconfig" % self.s["tarball"])
            for argv, cwd in self.tree_commands():
                self.runner.run(argv, cwd=cwd, stdout=self.p("build", "prepare.log"))
            with open(self.p("build", "kernelversion"), "w") as f:
                f.write(self.runner.capture(["make", "-s", "kernelversion"], cwd=self.tree()) + "\n")
            open(self.p("build", ".prepared"), "w").close()
        if self.size("swap"):
            fallocate, mkswap, swapon = self.swap_commands()
            self.journal.append(dict(op="create", path=self.p("swapfile")))
            self.runner.run(fallocate)
            os.chmod(self.p("swapfile"), 0o600)
            self.runner.run(mkswap, stdout=self.p("harness.log"))
            self.journal.append(dict(op="swapon", path=self.p("swapfile")))
            self.runner.run(swapon)
        if self.s["trace_wakes"] == "yes":
            self.prepare_tracing()
        if self.s["streamer"] == "on" and not os.path.exists(self.p("streamer-files", ".prepared")):
            os.makedirs(self.p("streamer-files"), exist_ok=True)
            self.runner.run([self.bin("streamer"), "--prepare"] + self.streamer_args())
            open(self.p("streamer-files", ".prepared"), "w").close()

    def prepare_tracing(self):
        """tracefs mounted (journaled) if it is not; the events this kernel
        has; tracing_on 1"""
        if not self.tracefs_mounted():
            self.journal.append(dict(op="mount", path=TRACEFS))
            self.runner.run(self.mount_argv())
        self.trace_events = [e for e in EVENTS if self.root.exists(enable_path(*e))]
        gone = [e for _, e in EVENTS if (_, e) not in self.trace_events]
        if gone:
            self.log("tracing: this kernel has no %s: not counted" % ", ".join(gone))
        if self.root.exists(TRACING_ON) and self.root.setting(TRACING_ON) != "1":
            self.change(TRACING_ON, "1")

    def trace_start(self, d):
        """the events enabled (journaled) and the reader started, with the
        build's opening marker; None when the series does not trace"""
        if self.s["trace_wakes"] != "yes" or not self.trace_events:
            return None
        for e in self.trace_events:
            self.change(enable_path(*e), "1")
        tracer = Tracer(self.root, os.path.basename(d))
        tracer.start_window()
        return tracer

    def trace_stop(self, tracer, d):
        """the closing marker, the pipe drained, the events disabled, and
        wakes.tsv written; a tracer that failed is logged, the run stays"""
        if tracer is None:
            return
        try:
            tracer.end_window()
        finally:
            for e in self.trace_events:
                if self.root.exists(enable_path(*e)) and self.root.setting(enable_path(*e)) != "0":
                    self.change(enable_path(*e), "0")
        tracer.counts.write(d, ["%s/%s" % e for e in self.trace_events])
        if tracer.error:
            self.log("tracing: %s (wakes.tsv may be short)" % tracer.error)

    def on_breach(self, reason):
        """the watchdog's answer: the pool shrunk first, then the run killed"""
        self.journal.append(dict(op="note", text="watchdog breach: " + reason))
        self.log("watchdog breach: %s: shrinking the hugetlb pool" % reason)
        self.invalid = "watchdog: " + reason
        try:
            given = self.pool.shrink(self.current_dir)
            self.log("watchdog: %d huge pages given back; killing the run" % given)
        except Exception as e:      # noqa: BLE001 - killing the run matters more
            self.log("watchdog: shrinking the pool failed: %s" % e)
        for name in ("make", "thp_faulter", "streamer"):
            proc = self.procs.get(name)
            if proc:
                self.kill(proc)

    def run_one(self, seq, label, mode):
        s = self.s
        d = self.run_path(seq, label)
        if os.path.exists(d):
            shutil.rmtree(d)            # incomplete (no status): done again
        os.makedirs(d)
        if s["recorder"] == "yes":
            os.makedirs(os.path.join(d, "kbuild"))
        self.current_dir = d
        self.invalid = None
        started_at = rd.iso_now()
        self.log("run %s: vm.defrag_mode=%s" % (os.path.basename(d), mode))
        self.change(DEFRAG_MODE, mode)
        self.change(THP_ENABLED, s["thp_enabled"])
        self.change(THP_DEFRAG, s["thp_defrag"])
        self.runner.run(["make", "clean"], cwd=self.tree(), stdout=os.path.join(d, "clean.log"))
        if s["drop_caches"] == "yes":
            self.runner.run(["sync"])
            self.journal.append(dict(op="note", text="drop_caches 3"))
            self.root.write(DROP_CACHES, "3")
        if s["compact_first"] == "yes":
            # the pool then takes whole free blocks from a compacted machine,
            # and what it leaves free does not depend on how the run before
            # (or anything else) left the zones
            self.journal.append(dict(op="note", text="compact_memory 1"))
            self.root.write(COMPACT_MEMORY, "1")
        swap_kb = self.size("swap") >> 10
        # oom_kill counted from before the pool's reservation: the whole run
        vm_start = self.root.vmstat()
        wd = Watchdog(self.root, float(s["sample_interval"]), self.size("min_available") >> 10,
                      (self.size("min_swap_free") >> 10) if swap_kb else None, self.on_breach)
        wd.start()
        build = None
        tracer = None
        t0 = t1 = time.monotonic()
        vm1 = vm2 = {}
        sysctls = {}
        try:
            # a breach at the watchdog's first check: no pool, no build
            held = self.pool.reserve(d) if not self.invalid else 0
            self.log("pool: %d huge pages held" % held)
            tracer = self.trace_start(d)
            rd.snapshot(self.root, d, "before")
            if s["recorder"] == "yes":
                self.kbuild_meta(d, "before")
            sysctls = {n: self.root.sysctl(n) for n in PROVENANCE_SYSCTLS}
            sysctls["thp.enabled"] = self.root.setting(THP_ENABLED)
            sysctls["thp.defrag"] = self.root.setting(THP_DEFRAG)
            if not self.invalid:
                self.spawn("thp_faulter", self.faulter_argv(), stdout=os.path.join(d, "faulter.log"))
            if s["streamer"] == "on" and not self.invalid:
                self.spawn("streamer", [self.bin("streamer")] + self.streamer_args(),
                           stdout=os.path.join(d, "streamer.log"))
            wd.start_samples(os.path.join(d, "samples.tsv"))
            t0 = time.monotonic()
            # a breach while the pool was reserved: the build is not started
            if not self.invalid:
                build = self.spawn("make", self.build_argv(), cwd=self.tree(),
                                   stdout=os.path.join(d, "build.log"), extra_env=self.build_env(d))
            deadline = t0 + float(s["timeout"])
            while build and not build.poll():
                if time.monotonic() > deadline:
                    self.invalid = self.invalid or "timeout after %s s" % s["timeout"]
                    self.kill(build)
                    break
                time.sleep(0.1)
            t1 = time.monotonic()
            vm1 = self.root.vmstat()
            rd.snapshot(self.root, d, "after")        # the build's end
            wd.stop_samples()
            self.trace_stop(tracer, d)
            tracer = None
            if s["recorder"] == "yes":
                self.kbuild_meta(d, "after")
            for name in ("thp_faulter", "streamer"):
                if name in self.procs:
                    self.kill(self.procs[name])
            vm2 = self.root.vmstat()
        finally:
            wd.stop()
            if tracer is not None:      # an exception before the build's end
                self.trace_stop(tracer, d)
            with self.procs_lock:
                left = list(self.procs.values())
            for proc in left:
                if proc is not self.pool.proc:
                    self.kill(proc)
            self.pool.release()
            if build is not None and not build.poll():
                self.kill(build)
        if wd.breached and not self.invalid:
            self.invalid = "watchdog: " + wd.breached
        vm3 = self.root.vmstat()        # after the pool's release
        oom = max(v.get("oom_kill", 0) for v in (vm1, vm2, vm3)) - vm_start.get("oom_kill", 0)
        if oom > 0 and not self.invalid:
            self.invalid = "oom_kill %d during the run" % oom
        code = build.exit_code() if build else -1
        if code != 0 and not self.invalid:
            self.invalid = "build failed (make exit %d, build.log)" % code
        ru = build.rusage if build else None
        rd.write_times(d, t1 - t0, ru.ru_utime if ru else 0, ru.ru_stime if ru else 0, code)
        self.write_provenance(d, seq, label, mode, held, sysctls, started_at, wd)
        if s["recorder"] == "yes" and not self.invalid:
            self.collect(d, t0, t1, code, ru)
        rd.write_status(d, self.invalid)
        self.log("run %s: %s (%.0f s)" % (os.path.basename(d), rd.read_status(d), t1 - t0))

    def kbuild_meta(self, d, when):
        """what workloads/data/kbuild/collect.py reads beside procs.log"""
        k = os.path.join(d, "kbuild")
        for name in ("slabinfo", "meminfo"):
            if self.root.exists("/proc/" + name):
                shutil.copyfile(self.root.path("/proc/" + name), os.path.join(k, "%s.%s" % (name, when)))

    def collect(self, d, t0, t1, code, ru=None):
        """the run's build as a kbuild dataset (workloads/data/kbuild/README.md)"""
        k = os.path.join(d, "kbuild")
        model, ncpu = self.root.cpuinfo()
        now = time.time()
        meta = dict(wall="%.3f %.3f" % (now - (t1 - t0), now), jobs=self.s["jobs"],
                    # make's wait4() rusage: the whole build's CPU, its
                    # unrecorded processes' included (kbuild.cpu_time)
                    rusage="%.2f %.2f" % ((ru.ru_utime, ru.ru_stime) if ru else (0, 0)),
                    make_rc=str(code), cpu=model, nproc=str(ncpu), date=rd.iso_now(),
                    uname=self.root.read("/proc/sys/kernel/osrelease").strip(),
                    command="make -j%s all" % self.s["jobs"])
        for tool in ("gcc", "ld", "make"):
            meta[tool] = self.runner.capture([tool, "--version"]).split("\n")[0]
        try:
            with open(self.p("build", "kernelversion")) as f:
                meta["kernelversion"] = f.read().strip()
        except OSError:
            meta["kernelversion"] = "?"
        for name, v in meta.items():
            with open(os.path.join(k, name), "w") as f:
                f.write(v + "\n")
        link = os.path.join(k, "tree-files.tsv")
        if not os.path.lexists(link):
            os.symlink(os.path.relpath(self.p("build", "tree-files.tsv"), k), link)
        rc = self.runner.run(self.collect_argv(d), stdout=os.path.join(k, "collect.log"), check=False)
        if rc != 0:
            self.log("collect.py failed (exit %d): the run stays valid, without kbuild.tsv.gz" % rc)

    def write_provenance(self, d, seq, label, mode, held, sysctls, started_at, wd):
        s = self.s
        model, ncpu = self.root.cpuinfo()
        mi = self.root.meminfo()
        pairs = [
            ("kernel.release", self.root.read("/proc/sys/kernel/osrelease").strip()),
            ("kernel.cmdline", self.root.read("/proc/cmdline").strip()),
            ("cpu.model", model), ("cpu.count", ncpu), ("mem.total_kb", mi.get("MemTotal", 0)),
        ]
        pairs += [("sysctl." + n, sysctls.get(n, "?")) for n in PROVENANCE_SYSCTLS]
        pairs += [("thp.enabled", sysctls.get("thp.enabled", "?")),
                  ("thp.defrag", sysctls.get("thp.defrag", "?")),
                  ("hugetlb.nr_hugepages", held), ("hugetlb.hugepage_kb", self.pool.hugepage_kb()),
                  ("hugetlb.free_zone", s["free_zone"]), ("free.target_bytes", self.size("free")),
                  ("swap.bytes", self.size("swap")),
                  ("build.jobs", s["jobs"]), ("build.tree", "%s x86_64_defconfig" % TREE_NAME),
                  ("build.command", "make -j%s all" % s["jobs"]),
                  ("build.recorder", s["recorder"]),
                  ("faulter.region", s["faulter_region"]), ("faulter.hold", s["faulter_hold"]),
                  ("faulter.pause", s["faulter_pause"]), ("streamer", s["streamer"]),
                  ("trace.wakes", s["trace_wakes"]),
                  ("trace.events", ",".join(e for _, e in self.trace_events) or "none")]
        if s["streamer"] == "on":
            pairs += [("streamer." + k[len("streamer_"):], s[k]) for k, _, _ in st.SETTINGS
                      if k.startswith("streamer_")]
        pairs += [("run.drop_caches", s["drop_caches"]), ("run.compact_first", s["compact_first"]),
                  ("run.timeout", s["timeout"]),
                  ("watchdog.min_available", s["min_available"]),
                  ("watchdog.min_swap_free", s["min_swap_free"]),
                  ("watchdog.lowest_available_kb", wd.lowest_available),
                  ("watchdog.lowest_swap_free_kb", wd.lowest_swap_free),
                  ("harness.version", self.runner.capture(["git", "-C", REPO, "describe", "--always",
                                                           "--dirty"])),
                  ("harness.series", self.series),
                  ("run.label", label), ("run.seq", seq), ("run.started_at", started_at),
                  ("run.finished_at", rd.iso_now()),
                  ("policy", "v6_15" if mode == "0" else "defrag_mode")]
        rd.write_provenance(d, pairs)

    # ------------------------------------------------------------ restore
    def restore(self):
        """undoes the journal exactly: the processes killed (the pool's holder
        with them, before nr_hugepages is lowered), every setting written
        back to its value before the first change, the swap file off and
        removed; then checks the machine is as before.  0 when it is."""
        if not Journal.exists(self.journal.path):
            self.out("no journal in %s: nothing to restore" % self.series)
            return 0
        entries = self.journal.entries()
        if not entries or entries[0].get("op") != "begin":
            self.out("%s: no begin entry; restore by hand" % self.journal.path)
            return 1
        head = entries[0]
        token = head["token"]
        problems = []
        # 1. the processes: every one with the token, and the groups journaled
        for _ in range(5):
            ours = self.runner.find_ours(token)
            if not ours:
                break
            for pgid in sorted(set(ours.values())):
                self.log("restore: killing process group %d" % pgid)
                self.runner.kill_group(pgid)
        if self.runner.find_ours(token):
            problems.append("processes left: %s" % sorted(self.runner.find_ours(token)))
        # 2. each setting back to its value before the journal's first write
        first = {}
        for e in entries:
            if e.get("op") == "write" and e["path"] not in first:
                first[e["path"]] = e["old"]
        for path, old in first.items():
            try:
                if self.root.setting(path) != old:
                    self.log("restore: %s -> %s" % (path, old))
                    self.root.write(path, old)
            except OSError as e:
                problems.append("%s: %s" % (path, e))
        # 2b. tracefs unmounted if the series mounted it (its event enable
        # files were written back above, while it was still mounted)
        for e in reversed(entries):
            if e.get("op") == "mount" and self.tracefs_mounted():
                self.log("restore: umount %s" % e["path"])
                if self.runner.run(["umount", self.root.path(e["path"])], check=False) != 0:
                    problems.append("umount %s failed" % e["path"])
        # 3. swap off, then the files removed
        for e in reversed(entries):
            if e.get("op") == "swapon" and e["path"] in [p for p, _ in self.root.swaps()]:
                self.log("restore: swapoff %s" % e["path"])
                if self.runner.run(["swapoff", e["path"]], check=False) != 0:
                    problems.append("swapoff %s failed" % e["path"])
            elif e.get("op") == "create" and os.path.exists(e["path"]):
                if e["path"] in [p for p, _ in self.root.swaps()]:
                    problems.append("%s still in use as swap" % e["path"])
                else:
                    self.log("restore: rm %s" % e["path"])
                    os.remove(e["path"])
        # 4. the end check: as before
        problems += self.compare(head["before"], first)
        lines = ["%s restore of %s (journal of %s)" % (rd.iso_now(), self.journal.path, head.get("time", "?"))]
        if problems:
            lines += ["NOT as before: " + x for x in problems]
        else:
            lines.append("machine as before: settings %s; swap devices %s; nr_hugepages %s, "
                         "HugePages_Total %s; no swap file; no process of the series%s"
                         % (", ".join("%s=%s" % kv for kv in sorted(head["before"]["settings"].items())),
                            head["before"]["swaps"] or "none",
                            head["before"]["settings"].get(NR_HUGEPAGES, "?"),
                            head["before"]["hugepages_total"],
                            "" if "tracefs" not in head["before"] else
                            "; tracefs %s" % ("mounted" if head["before"]["tracefs"] else "not mounted")))
        with open(self.p("restore.log"), "a") as f:
            f.write("\n".join(lines) + "\n")
        for x in lines[1:]:
            self.out(x)
        if problems:
            self.out("the journal stays in %s: fix the above, then restore again" % self.journal.path)
            return 1
        self.journal.archive(time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-%d" % os.getpid())
        return 0

    def compare(self, before, first):
        now = self.machine_state()
        out = []
        for path, old in before["settings"].items():
            if now["settings"].get(path) != old:
                out.append("%s is %s, was %s" % (path, now["settings"].get(path), old))
        if now["swaps"] != before["swaps"]:
            out.append("swap devices %s, were %s" % (now["swaps"], before["swaps"]))
        if now["hugepages_total"] != before["hugepages_total"]:
            out.append("HugePages_Total %s, was %s" % (now["hugepages_total"], before["hugepages_total"]))
        if "tracefs" in before and now["tracefs"] != before["tracefs"]:
            out.append("tracefs %s, was %s" % (*("mounted" if x else "not mounted"
                                                   for x in (now["tracefs"], before["tracefs"])),))
        if now["swapfile"] and not before["swapfile"]:
            out.append("%s still exists" % self.p("swapfile"))
        return out

    # ------------------------------------------------------------ status
    def status(self):
        if not os.path.exists(self.p("series.conf")):
            self.out("%s: no series here (plan or run one first)" % self.series)
            return 1
        self.resolve()
        ok = {}
        for seq, label, mode in self.planned():
            d = self.run_path(seq, label)
            stt = rd.read_status(d)
            t = rd.read_times(d)
            if stt is None:
                stt = "incomplete (done again by the next run)" if os.path.exists(d) else "pending"
            elif stt == "ok":
                ok[label] = ok.get(label, 0) + 1
            self.out("%s  %-10s %s%s" % (st.run_dir_name(seq, label), "dm" + mode, stt,
                                          "  real %s s" % t["real"] if "real" in t else ""))
        self.out("ok runs: " + (", ".join("%s %d" % kv for kv in sorted(ok.items())) or "none"))
        if Journal.exists(self.journal.path):
            self.out("a journal exists: a run is going on or was killed (restore undoes it)")
        pend = self.pending()
        if pend:
            self.out("to run: %d; expected %s" % (len(pend), self.estimate(pend)))
        return 0
