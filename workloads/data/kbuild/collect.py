#!/usr/bin/env python3
"""collect.py SRC META OUT.tsv.gz - turn one measured kernel build into the
kbuild dataset (format in README.md).  Run by measure.sh after the build:

  SRC   the built tree (its .*.cmd files give each object's header list)
  META  measure.sh's metadata directory (procs.log from recorder.c,
        slabinfo/meminfo before and after, tree-files.tsv, versions)
  OUT   the gzip-compressed dataset

Also prints the headline numbers that README.md quotes."""
import gzip
import os
import re
import statistics
import sys

SRC, META, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
SRC = os.path.realpath(SRC)


def read(name):
    with open(os.path.join(META, name)) as f:
        return f.read().strip()


def rel(path):
    """a path relative to the tree's top (kbuild's paths are; objtool's and
    some host tools' are absolute); system headers stay absolute"""
    p = os.path.normpath(path)
    if p.startswith(SRC + "/"):
        p = p[len(SRC) + 1:]
    return p


# ---------------------------------------------------------------- processes
procs = []
with open(os.path.join(META, "procs.log"), errors="replace") as f:
    for line in f:
        c = line.rstrip("\n").split("\t", 10)
        if len(c) < 11:
            continue
        procs.append(dict(ppid=int(c[0]), pid=int(c[1]), tool=c[2], user=int(c[3]),
                          sys=int(c[4]), rss=int(c[5]), t0=int(c[6]), t1=int(c[7]),
                          rc=int(c[8]), osize=int(c[9]), argv=c[10].split(" ")))
by_pid = {p["pid"]: p for p in procs}
for p in procs:
    p["children"] = []
for p in procs:
    parent = by_pid.get(p["ppid"])
    if parent is not None and parent is not p:
        parent["children"].append(p)
        p["child"] = True

t_begin = min(p["t0"] for p in procs)


def opt_o(argv):
    for i, a in enumerate(argv[:-1]):
        if a == "-o":
            return argv[i + 1]
    return None


# the make-level steps: processes that no other recorded process started
steps = []
for p in sorted((p for p in procs if not p.get("child")), key=lambda p: p["t0"]):
    if p["tool"] == "gcc":
        kind = "cc"
    elif p["tool"] == "ar":
        kind = "ar"
    elif p["tool"] == "ld":
        kind = "ld"
    else:
        continue
    if kind == "cc" and not p["children"]:
        continue                # gcc --version, -print-file-name: no compile
    steps.append(dict(kind=kind, p=p))

# ---------------------------------------------------------------- files read
files = {}          # path -> index
file_list = []      # (path, size)


def file_index(path):
    path = rel(path)
    if path in files:
        return files[path]
    full = path if path.startswith("/") else os.path.join(SRC, path)
    try:
        size = os.stat(full).st_size
    except OSError:
        return None
    files[path] = len(file_list)
    file_list.append((path, size))
    return files[path]


def cmd_file(out):
    out = rel(out)
    full = out if out.startswith("/") else os.path.join(SRC, out)
    return os.path.join(os.path.dirname(full), "." + os.path.basename(full) + ".cmd")


DEP_START = re.compile(r"^deps_\S+ := ?\\?$")


def cmd_deps(out):
    """(source, [headers in the order gcc -MD wrote them]) from the .cmd
    file fixdep made of the .d file; $(wildcard include/config/...) lines
    are Kconfig symbols, not files read"""
    try:
        with open(cmd_file(out), errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        return None, []
    src, deps, on = None, [], False
    for line in lines:
        if line.startswith("source_"):
            src = line.split(":=", 1)[1].strip()
        elif line.startswith("deps_"):
            on = True
            rest = line.split(":=", 1)[1].strip().rstrip("\\").strip()
            if rest:
                deps.append(rest)
        elif on:
            s = line.strip()
            if not s:
                on = False
                continue
            s = s.rstrip("\\").strip()
            if s and not s.startswith("$(wildcard"):
                deps.append(s)
            if not line.rstrip().endswith("\\"):
                on = False
    return src, deps


def source_of(cc1):
    """the positional input of a cc1 command line"""
    argv = cc1["argv"]
    skip_next = {"-o", "-MMD", "-MD", "-MF", "-MT", "-MQ", "-include", "-imultiarch", "-I",
                 "-D", "-U", "-isystem", "-iquote", "-idirafter", "-dumpdir", "-dumpbase",
                 "-dumpbase-ext", "-auxbase", "-auxbase-strip", "-imacros", "-iprefix"}
    i = 0
    cands = []
    while i < len(argv):
        a = argv[i]
        if a in skip_next:
            i += 2
            continue
        if not a.startswith("-") and a:
            cands.append(a)
        i += 1
    for c in cands:
        if c == "/dev/null" or re.search(r"\.(c|S|s|h|lds|i)$", c) or c == "-":
            return c
    return cands[0] if cands else None


outputs = {}        # output path -> step index
rows = []
for s in steps:
    p = s["p"]
    out = opt_o(p["argv"])
    if s["kind"] == "ar":
        args = [a for a in p["argv"][1:] if not a.startswith("-")]
        out = args[0] if args else None
        inputs = args[1:]
    elif s["kind"] == "ld":
        inputs = [a for a in p["argv"] if not a.startswith("-")]
        inputs = [a for a in inputs if a != out]
    else:
        inputs = []
    if s["kind"] in ("ar", "ld") and not out:
        continue                # ld --version and such: no output
    out_rel = rel(out) if out else "-"
    osize = p["osize"]
    if osize < 0 and out:
        # ar has no -o: the archive's size now, after the build
        full = out_rel if out_rel.startswith("/") else os.path.join(SRC, out_rel)
        try:
            osize = os.stat(full).st_size
        except OSError:
            pass
    i = len(rows)
    row = dict(step=i, kind=s["kind"], t0=p["t0"], t1=p["t1"], out=out_rel,
               osize=osize, procs=[], src=-1, hdrs=[], deps=[])
    if s["kind"] == "cc":
        row["procs"].append(("gcc", p["user"], p["sys"], p["rss"], p["osize"]))
        cc1s = [c for c in p["children"] if c["tool"] == "cc1"]
        for c in sorted(p["children"], key=lambda c: c["t0"]):
            row["procs"].append((c["tool"], c["user"], c["sys"], c["rss"], c["osize"]))
            for g in c["children"]:         # collect2 -> ld
                row["procs"].append((g["tool"], g["user"], g["sys"], g["rss"], g["osize"]))
        src = None
        if cc1s:
            src = source_of(cc1s[0])
        csrc, deps = cmd_deps(out) if out else (None, [])
        if csrc:
            src = csrc
        if src and src not in ("/dev/null", "-"):
            idx = file_index(src)
            row["src"] = idx if idx is not None else -1
        seen = set()
        for d in deps:
            if d == src:
                continue
            idx = file_index(d)
            if idx is not None and idx not in seen:
                seen.add(idx)
                row["hdrs"].append(idx)
    else:
        row["procs"].append((p["tool"], p["user"], p["sys"], p["rss"], p["osize"]))
        for a in inputs:
            j = outputs.get(rel(a))
            if j is not None and j not in row["deps"]:
                row["deps"].append(j)
    if out:
        outputs[out_rel] = i
    rows.append(row)

# ---------------------------------------------------------------- the tree
tree_n, tree_bytes = 0, 0
with open(os.path.join(META, "tree-files.tsv"), errors="replace") as f:
    for line in f:
        size, _, path = line.rstrip("\n").partition("\t")
        tree_n += 1
        tree_bytes += int(size)


# ---------------------------------------------------------------- slab
def slabinfo(name):
    d = {}
    for line in read(name).split("\n")[2:]:
        c = line.split()
        # name active num objsize objperslab pagesperslab : tunables ... : slabdata active num shared
        d[c[0]] = (int(c[1]), int(c[2]), int(c[3]), int(c[5]), int(c[-3]), int(c[-2]))
    return d


sb, sa = slabinfo("slabinfo.before"), slabinfo("slabinfo.after")


def meminfo(name):
    d = {}
    for line in read(name).split("\n"):
        k, _, v = line.partition(":")
        d[k] = int(v.split()[0])
    return d


mb, ma = meminfo("meminfo.before"), meminfo("meminfo.after")

# ---------------------------------------------------------------- write
wall = [float(x) for x in read("wall").split()]
meta = [
    ("kernel", "linux-source-6.1 " + read("kernelversion")),
    ("config", "x86_64_defconfig"),
    # measure.sh's build, or the command its caller wrote (real/harness)
    ("command", read("command") if os.path.exists(os.path.join(META, "command"))
     else "nice -n 19 make -j%s all" % read("jobs")),
    ("gcc", read("gcc")),
    ("ld", read("ld")),
    ("make", read("make")),
    ("cpu", read("cpu")),
    ("nproc", read("nproc")),
    ("host_kernel", read("uname")),
    ("date", read("date")),
    ("wall_s", "%.1f" % (wall[1] - wall[0])),
    ("make_exit", read("make_rc") if os.path.exists(os.path.join(META, "make_rc")) else "?"),
    ("sample", read("sample") if os.path.exists(os.path.join(META, "sample")) else "the whole build"),
    ("tree_files", str(tree_n)),
    ("tree_bytes", str(tree_bytes)),
]
# make's wait4() rusage (real/harness writes it): the whole build's CPU
if os.path.exists(os.path.join(META, "rusage")):
    ru_user, ru_sys = read("rusage").split()
    if float(ru_user) > 0:
        meta += [("rusage_user_s", ru_user), ("rusage_sys_s", ru_sys)]
# the RSS split of a few units compiled again (measure.sh): the median
# RssFile of each tool, what its binary and libraries map
split = {}
if os.path.exists(os.path.join(META, "rss-split.log")):
    for line in read("rss-split.log").split("\n"):
        c = line.split("\t")
        if len(c) == 4:
            split.setdefault(c[0], []).append((int(c[1]), int(c[2]), int(c[3])))
for tool in ("cc1", "as"):
    if tool in split:
        meta.append(("rss_file_kib." + tool, str(int(statistics.median(x[2] for x in split[tool])))))
        meta.append(("rss_split." + tool, " ".join("%d/%d/%d" % x for x in split[tool])))
for k in ("MemTotal", "MemFree", "Cached", "Buffers", "Slab", "SReclaimable", "SUnreclaim",
          "KernelStack", "PageTables", "Dirty"):
    meta.append(("meminfo_before_" + k, str(mb.get(k, -1))))
    meta.append(("meminfo_after_" + k, str(ma.get(k, -1))))

os.makedirs(os.path.dirname(os.path.abspath(OUT)), exist_ok=True)
with gzip.open(OUT, "wt", compresslevel=9) as g:
    g.write("# mmsim kbuild dataset 1: a measured kernel build; README.md beside this file\n")
    g.write("# M key value | F size path | S step kind start_us wall_us out out_bytes src nhdrs hdrs deps"
            " | P step tool user_us sys_us maxrss_kib out_bytes | C slab active_before active_after"
            " objsize pagesperslab slabs_before slabs_after\n")
    for k, v in meta:
        g.write("M\t%s\t%s\n" % (k, v))
    for path, size in file_list:
        g.write("F\t%d\t%s\n" % (size, path))
    for r in rows:
        g.write("S\t%d\t%s\t%d\t%d\t%s\t%d\t%d\t%d\t%s\t%s\n" % (
            r["step"], r["kind"], (r["t0"] - t_begin) // 1000, (r["t1"] - r["t0"]) // 1000,
            r["out"], r["osize"], r["src"], len(r["hdrs"]),
            ",".join(map(str, r["hdrs"])) or "-", ",".join(map(str, r["deps"])) or "-"))
        for tool, u, s_, rss, osz in r["procs"]:
            g.write("P\t%d\t%s\t%d\t%d\t%d\t%d\n" % (r["step"], tool, u, s_, rss, osz))
    for name in sorted(set(sb) | set(sa)):
        b = sb.get(name, (0, 0, 0, 0, 0, 0))
        a = sa.get(name, (0, 0, 0, 0, 0, 0))
        if b[0] != a[0] or b[4] != a[4]:
            g.write("C\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n" % (name, b[0], a[0], a[2] or b[2], a[3] or b[3],
                                                       b[4], a[4]))

# ---------------------------------------------------------------- headline
cc1 = [pp for r in rows if r["kind"] == "cc" for pp in r["procs"] if pp[0] == "cc1"]
as_ = [pp for r in rows if r["kind"] == "cc" for pp in r["procs"] if pp[0] == "as"]
units = [r for r in rows if r["kind"] == "cc" and r["src"] >= 0 and r["out"].endswith(".o")]
allp = [pp for r in rows for pp in r["procs"] if pp[0] != "gcc" or r["kind"] != "cc"]
drv = [pp for r in rows if r["kind"] == "cc" for pp in r["procs"] if pp[0] == "gcc"]


def q(v, f):
    v = sorted(v)
    return v[min(len(v) - 1, int(f * len(v)))]


print("steps %d: cc %d (of which .o from a source %d), ar %d, ld %d" % (
    len(rows), sum(r["kind"] == "cc" for r in rows), len(units),
    sum(r["kind"] == "ar" for r in rows), sum(r["kind"] == "ld" for r in rows)))
print("files read (sources and headers): %d, %.1f MiB" % (
    len(file_list), sum(s for _, s in file_list) / 2**20))
print("headers per .o unit: median %d, p90 %d" % (
    statistics.median(len(r["hdrs"]) for r in units), q([len(r["hdrs"]) for r in units], 0.9)))
print("cc1: %d processes, user %.0f s, sys %.0f s, maxrss median %.0f MiB, p90 %.0f MiB, max %.0f MiB" % (
    len(cc1), sum(p[1] for p in cc1) / 1e6, sum(p[2] for p in cc1) / 1e6,
    statistics.median(p[3] for p in cc1) / 1024, q([p[3] for p in cc1], 0.9) / 1024,
    max(p[3] for p in cc1) / 1024))
print("as: %d processes, user %.0f s, sys %.0f s, maxrss median %.1f MiB, max %.1f MiB" % (
    len(as_), sum(p[1] for p in as_) / 1e6, sum(p[2] for p in as_) / 1e6,
    statistics.median(p[3] for p in as_) / 1024, max(p[3] for p in as_) / 1024))
print("gcc drivers (own + reaped children): user %.0f s, sys %.0f s" % (
    sum(p[1] for p in drv) / 1e6, sum(p[2] for p in drv) / 1e6))
for k in ("ar", "ld"):
    pl = [pp for r in rows if r["kind"] == k for pp in r["procs"]]
    if pl:
        print("%s: %d, user %.1f s, sys %.1f s, maxrss max %.0f MiB" % (
            k, len(pl), sum(p[1] for p in pl) / 1e6, sum(p[2] for p in pl) / 1e6,
            max(p[3] for p in pl) / 1024))
print("objects: %d .o, %.1f MiB" % (len(units), sum(max(r["osize"], 0) for r in units) / 2**20))
print("wall %.0f s at -j%s; tree %d files, %.0f MiB" % (wall[1] - wall[0], read("jobs"), tree_n,
                                                     tree_bytes / 2**20))
for name in ("dentry", "ext4_inode_cache", "inode_cache", "buffer_head", "ext4_extent_status",
             "ext4_allocation_context", "jbd2_journal_head", "filp", "vm_area_struct",
             "radix_tree_node", "kernfs_node_cache"):
    if name in sb or name in sa:
        b, a = sb.get(name, (0,) * 6), sa.get(name, (0,) * 6)
        print("slab %-24s active %8d -> %8d (%+d), %d-byte objects" % (name, b[0], a[0], a[0] - b[0],
                                                                       a[2]))
print("meminfo: Slab %d -> %d kB, SReclaimable %d -> %d kB, Cached %d -> %d kB" % (
    mb["Slab"], ma["Slab"], mb["SReclaimable"], ma["SReclaimable"], mb["Cached"], ma["Cached"]))
dirs = {}
for r in units:
    top = r["out"].split("/")[0] if "/" in r["out"] else "."
    dirs[top] = dirs.get(top, 0) + 1
print("objects by top directory, in build order: " + ", ".join("%s %d" % kv for kv in dirs.items()))
print("last step: %s %s" % (rows[-1]["kind"], rows[-1]["out"]))
print("dataset: %s, %d bytes" % (OUT, os.path.getsize(OUT)))
