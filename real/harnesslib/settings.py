"""A series' settings: their names, defaults and checks; the series file
(the planned runs, alternating vm.defrag_mode); sizes and durations.

The settings are stored in SERIES/series.conf when the series is first
planned; a later `run` of the same series takes them from there, and a
command-line value that differs from the stored one is an error (a series
is one experiment)."""
import os
import re

# name, default, help.  Defaults follow configs/hugealloc.ini (the RFC
# experiment: THP madvise, the faulter's 768M held 10 s, three jobs a CPU)
# and the issue (2-3 GiB free).
SETTINGS = [
    ("runs", "5", "runs per vm.defrag_mode setting"),
    ("modes", "0,1", "the vm.defrag_mode values, alternated run by run"),
    ("run_order", "abba", "alternate (0,1,0,1,...) or abba (0,1,1,0,0,1,...: a steady drift of "
     "the machine over the series falls on both settings alike)"),
    ("free", "2.5G", "free memory for the experiment: the hugetlb pool reserves the rest"),
    ("free_zone", "any", "any, or DMA32 / Normal: the zone whose memory is left free"),
    ("swap", "2G", "size of the swap file in the series directory (0: no swap)"),
    ("jobs", "auto", "make -j (auto: 3 per CPU, as configs/hugealloc.ini)"),
    ("thp_enabled", "madvise", "/sys/kernel/mm/transparent_hugepage/enabled during the runs"),
    ("thp_defrag", "madvise", "/sys/kernel/mm/transparent_hugepage/defrag during the runs"),
    ("faulter_region", "768M", "thp_faulter --region"),
    ("faulter_hold", "10", "thp_faulter --hold (seconds)"),
    ("faulter_pause", "0", "thp_faulter --pause (seconds)"),
    ("streamer", "off", "on: run real/streamer beside the build"),
    ("streamer_files", "8", "streamer --files"),
    ("streamer_file_size", "256M", "streamer --file-size"),
    ("streamer_rate", "20", "streamer --rate (MiB/s, 0 = as fast as it can)"),
    ("streamer_pattern", "seq", "streamer --pattern seq|random"),
    ("streamer_block", "128K", "streamer --block"),
    ("streamer_reread", "yes", "streamer --reread yes|no"),
    ("streamer_layout", "cold", "streamer --layout cold|written"),
    ("streamer_seed", "1", "streamer --seed"),
    ("timeout", "7200", "hard timeout of one run's build, seconds"),
    ("min_available", "64M", "watchdog: breach when MemAvailable falls below"),
    ("min_swap_free", "128M", "watchdog: breach when SwapFree falls below (with swap)"),
    ("sample_interval", "1", "seconds between samples (the watchdog checks at least every second)"),
    ("drop_caches", "yes", "sync and write 3 to /proc/sys/vm/drop_caches before each run"),
    ("compact_first", "yes", "write 1 to /proc/sys/vm/compact_memory before each run's pool, so "
     "that the free memory it leaves does not depend on the machine's history"),
    ("recorder", "yes", "build through workloads/data/kbuild/recorder.c (a kbuild dataset per run)"),
    ("trace_wakes", "yes", "count the kswapd and kcompactd wake tracepoints over each build (wakes.tsv)"),
    ("tarball", "/usr/src/linux-source-6.1.tar.xz", "the kernel source (Debian's linux-source-6.1)"),
]
DEFAULTS = {k: v for k, v, _ in SETTINGS}
# settings added after series were planned: a series.conf without one runs
# as it was planned (its value here), not with the new default
ADDED_LATER = {"trace_wakes": "no", "run_order": "alternate", "compact_first": "no"}

# CPU seconds of the whole x86_64 defconfig build of linux-source-6.1 (user +
# sys), for the first estimate of a series' duration before a run has been
# timed: workloads/data/kbuild/README.md, "roughly half an hour of CPU on
# each of two cores".  Once runs are complete the estimate is their mean.
BUILD_CPU_S = 3600
RUN_OVERHEAD_S = 120     # make clean, dropping caches, the pool, snapshots

# disk room the tree needs: linux-source-6.1 unpacked (1,239 MiB,
# workloads/data/kbuild/README.md) and a defconfig build's objects, with room
# to spare
TREE_BYTES = 4 << 30
DISK_MARGIN = 1 << 30


class SettingsError(Exception):
    pass


def parse_size(text, what="size"):
    """2.5G, 768M, 128K, 4096 -> bytes (binary units)"""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kKmMgGtT]?)(i?B)?\s*", str(text))
    if not m:
        raise SettingsError("%s: %r is not a size (e.g. 2.5G, 768M)" % (what, text))
    mul = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[m.group(2).lower()]
    return int(float(m.group(1)) * mul)


def fmt_size(n):
    for unit, mul in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= mul:
            return ("%.2f" % (n / mul)).rstrip("0").rstrip(".") + unit
    return str(n)


def fmt_duration(s):
    s = int(s)
    return "%dh%02dm" % (s // 3600, s % 3600 // 60) if s >= 3600 else "%dm%02ds" % (s // 60, s % 60)


def check(s, ncpu):
    """validates a settings dict; returns it with jobs resolved"""
    s = dict(s)
    try:
        if int(s["runs"]) < 1:
            raise ValueError
    except ValueError:
        raise SettingsError("runs: %r is not a count >= 1" % s["runs"])
    modes = s["modes"].split(",")
    if not modes or any(m not in ("0", "1") for m in modes):
        raise SettingsError("modes: %r: a list of vm.defrag_mode values, 0 and/or 1" % s["modes"])
    for k in ("free", "swap", "faulter_region", "min_available", "min_swap_free",
              "streamer_file_size", "streamer_block"):
        parse_size(s[k], k)
    if parse_size(s["free"]) < (256 << 20):
        raise SettingsError("free: %s is less than 256M" % s["free"])
    if parse_size(s["swap"]) and parse_size(s["min_swap_free"]) >= parse_size(s["swap"]):
        raise SettingsError("min_swap_free %s: not less than swap %s (the watchdog would stop every run)"
                            % (s["min_swap_free"], s["swap"]))
    if s["free_zone"] not in ("any", "DMA", "DMA32", "Normal"):
        raise SettingsError("free_zone: %r: any, DMA32 or Normal" % s["free_zone"])
    if s["jobs"] == "auto":
        s["jobs"] = str(3 * max(1, ncpu))
    for k in ("jobs", "streamer_files", "streamer_seed"):
        if not s[k].isdigit() or (k == "jobs" and int(s[k]) < 1):
            raise SettingsError("%s: %r is not a count" % (k, s[k]))
    for k in ("faulter_hold", "faulter_pause", "timeout", "sample_interval", "streamer_rate"):
        try:
            if float(s[k]) < 0:
                raise ValueError
        except ValueError:
            raise SettingsError("%s: %r is not a number >= 0" % (k, s[k]))
    if not 0 < float(s["sample_interval"]) <= 1:
        raise SettingsError("sample_interval: %r: the watchdog checks at least every second (0 < s <= 1)"
                            % s["sample_interval"])
    for k, allowed in (("streamer", ("on", "off")), ("drop_caches", ("yes", "no")),
                       ("recorder", ("yes", "no")), ("streamer_pattern", ("seq", "random")),
                       ("trace_wakes", ("yes", "no")), ("run_order", ("alternate", "abba")),
                       ("compact_first", ("yes", "no")),
                       ("streamer_reread", ("yes", "no")), ("streamer_layout", ("cold", "written"))):
        if s[k] not in allowed:
            raise SettingsError("%s: %r: one of %s" % (k, s[k], ", ".join(allowed)))
    return s


def load_conf(path):
    s = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            k, eq, v = line.partition("=")
            if not eq or k.strip() not in DEFAULTS:
                raise SettingsError("%s:%d: unknown setting %r" % (path, n, k.strip()))
            s[k.strip()] = v.strip()
    return s


def save_conf(path, s):
    with open(path + ".tmp", "w") as f:
        f.write("# the series' settings (real/harness); a run of this series takes them from here\n")
        for k, _, _ in SETTINGS:
            f.write("%s=%s\n" % (k, s[k]))
    os.rename(path + ".tmp", path)


def plan_runs(s):
    """[(seq, label, defrag_mode)]: runs of each mode, the modes taken in
    turn (alternate), or in turn and back (abba: 0,1,1,0,0,1,...)"""
    modes = s["modes"].split(",")
    out, seq = [], 1
    for i in range(int(s["runs"])):
        for m in (modes if s.get("run_order", "alternate") == "alternate" or i % 2 == 0
                  else modes[::-1]):
            out.append((seq, "dm" + m, m))
            seq += 1
    return out


def save_series(path, runs):
    with open(path + ".tmp", "w") as f:
        f.write("seq\tlabel\tdefrag_mode\n")
        for seq, label, mode in runs:
            f.write("%d\t%s\t%s\n" % (seq, label, mode))
    os.rename(path + ".tmp", path)


def load_series(path):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            c = line.rstrip("\n").split("\t")
            if n == 1:
                continue
            if len(c) != 3 or not c[0].isdigit() or c[2] not in ("0", "1"):
                raise SettingsError("%s:%d: expected seq<TAB>label<TAB>defrag_mode" % (path, n))
            out.append((int(c[0]), c[1], c[2]))
    return out


def run_dir_name(seq, label):
    return "%04d-%s" % (seq, label)
