"""One run's directory, in the format of real/README.md ("The run directory"):
SERIES/runs/NNNN-LABEL/ with provenance, the /proc snapshots, samples.tsv,
times, faulter.log and, written last, status."""
import os
import shutil
import time

from . import blocks

# stat: the CPU time of the whole machine (user, system, iowait, steal),
# which says whether the machine itself ran slower in one run than in another
SNAPSHOTS = ["vmstat", "meminfo", "buddyinfo", "pagetypeinfo", "zoneinfo", "stat"]


def iso_now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def is_complete(d):
    return os.path.exists(os.path.join(d, "status"))


def read_status(d):
    try:
        with open(os.path.join(d, "status")) as f:
            return f.read().strip()
    except OSError:
        return None


def snapshot(root, d, when):
    """verbatim copies of the /proc files, NAME.before or NAME.after, and
    blocks.WHEN: what the pageblocks hold (real/blocks --hist), where
    /proc/kpageflags can be read"""
    for name in SNAPSHOTS:
        p = "/proc/" + name
        if root.exists(p):
            shutil.copyfile(root.path(p), os.path.join(d, "%s.%s" % (name, when)))
    if root.exists("/proc/kpageflags"):
        try:
            text = blocks.report(root.path("/proc"), hist=True)
        except OSError:
            return
        write_atomic(os.path.join(d, "blocks.%s" % when), text)


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tmp, path)


def write_provenance(d, pairs):
    """key=value lines; values on one line"""
    lines = []
    for k, v in pairs:
        v = " ".join(str(v).split())
        lines.append("%s=%s\n" % (k, v))
    write_atomic(os.path.join(d, "provenance"), "".join(lines))


def write_times(d, real, user, sys_, code):
    write_atomic(os.path.join(d, "times"),
                 "real=%.2f user=%.2f sys=%.2f exit=%d\n" % (real, user, sys_, code))


def write_status(d, invalid_reason):
    """the last file: the run is complete once it exists"""
    text = "ok\n" if not invalid_reason else "invalid %s\n" % " ".join(invalid_reason.split())
    write_atomic(os.path.join(d, "status"), text)


def read_provenance(d):
    out = {}
    try:
        with open(os.path.join(d, "provenance")) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                out[k] = v
    except OSError:
        pass
    return out


def read_times(d):
    try:
        with open(os.path.join(d, "times")) as f:
            return dict(kv.split("=", 1) for kv in f.read().split())
    except (OSError, ValueError):
        return {}
