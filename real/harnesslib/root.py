"""Every /proc and /sys access of the harness, under one root prefix.

The harness never opens a /proc or /sys path directly: it asks a Root, which
prepends its prefix ("/" on the machine, a directory the test built for the
tests).  So the whole logic, restore included, runs on a fake tree."""
import os
import re

SYSCTL_DIR = "/proc/sys"
THP_DIR = "/sys/kernel/mm/transparent_hugepage"


class Root:
    def __init__(self, prefix="/"):
        self.prefix = os.path.abspath(prefix)

    @property
    def is_real(self):
        """the machine's own tree: refusals about CI and ctest apply"""
        return os.path.realpath(self.prefix) == "/"

    def path(self, p):
        """p is absolute (/proc/...); the path under the prefix"""
        assert p.startswith("/"), p
        if self.prefix == "/":
            return p
        return self.prefix + p

    def exists(self, p):
        return os.path.exists(self.path(p))

    def read(self, p):
        with open(self.path(p), errors="replace") as f:
            return f.read()

    def write(self, p, value):
        # one write(2), as `echo value > file` does: sysctl and sysfs files
        # take their value in one write
        fd = os.open(self.path(p), os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(fd, (str(value) + "\n").encode())
        finally:
            os.close(fd)

    # ------------------------------------------------------------ settings
    def setting(self, p):
        """a setting's current value: a sysctl's text, or for a sysfs
        choice file ("always [madvise] never") the bracketed word"""
        text = self.read(p).strip()
        m = re.search(r"\[([^\]]*)\]", text)
        return m.group(1) if m else text

    def sysctl(self, name):
        """vm.defrag_mode -> the value of /proc/sys/vm/defrag_mode"""
        return self.setting(sysctl_path(name))

    # ------------------------------------------------------------ parsers
    def meminfo(self):
        """/proc/meminfo as {key: kB} (HugePages_* are counts)"""
        d = {}
        for line in self.read("/proc/meminfo").splitlines():
            k, _, v = line.partition(":")
            if v.split():
                d[k.strip()] = int(v.split()[0])
        return d

    def vmstat(self):
        d = {}
        for line in self.read("/proc/vmstat").splitlines():
            c = line.split()
            if len(c) == 2:
                d[c[0]] = int(c[1])
        return d

    def swaps(self):
        """the active swap devices and files: [(path, size_kb)]"""
        out = []
        for line in self.read("/proc/swaps").splitlines()[1:]:
            c = line.split()
            if len(c) >= 3:
                out.append((c[0], int(c[2])))
        return out

    def zones(self):
        """[(node, zone, start_pfn, end_pfn)] of /proc/zoneinfo"""
        out, cur = [], None
        spanned = None
        for line in self.read("/proc/zoneinfo").splitlines():
            m = re.match(r"Node (\d+), zone\s+(\S+)", line)
            if m:
                cur = (int(m.group(1)), m.group(2))
                spanned = None
                continue
            c = line.split()
            if cur and len(c) == 2 and c[0] == "spanned":
                spanned = int(c[1])
            if cur and len(c) == 2 and c[0] == "start_pfn:" and spanned:
                start = int(c[1])
                out.append((cur[0], cur[1], start, start + spanned))
        return out

    def cpuinfo(self):
        """(model name, number of processors)"""
        model, n = "?", 0
        for line in self.read("/proc/cpuinfo").splitlines():
            k, _, v = line.partition(":")
            if k.strip() == "processor":
                n += 1
            elif k.strip() == "model name" and model == "?":
                model = v.strip()
        return model, n


def sysctl_path(name):
    return SYSCTL_DIR + "/" + name.replace(".", "/")


def thp_path(name):
    return THP_DIR + "/" + name
