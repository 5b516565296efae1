"""What the running kernel's pageblocks hold, read off /proc/kpageflags:
the library behind real/blocks (its text says what is counted) and the
harness's blocks.before and blocks.after snapshots (rundir.snapshot)."""
import array
import os
import re
import sys

PAGEBLOCK = 512
KPF = dict(LRU=5, SLAB=7, BUDDY=10, COMPOUND_HEAD=15, COMPOUND_TAIL=16, HUGE=17, NOPAGE=20,
           OFFLINE=23, PGTABLE=26, RESERVED=32)
KINDS = ("free", "lru", "slab", "pgtable", "hugetlb", "reserved", "other", "absent")
KERNEL = ("slab", "pgtable")


def zones(proc="/proc"):
    """(name, start_pfn, spanned) of each populated zone of node 0"""
    out, name, spanned = [], None, 0
    with open(os.path.join(proc, "zoneinfo")) as f:
        for line in f:
            m = re.match(r"Node (\d+), zone\s+(\S+)", line)
            if m:
                name, spanned = m.group(2), 0
                continue
            m = re.match(r"\s+spanned\s+(\d+)", line)
            if m:
                spanned = int(m.group(1))
                continue
            m = re.match(r"\s+start_pfn:\s+(\d+)", line)
            if m and name and spanned:
                out.append((name, int(m.group(1)), spanned))
    return out


def buddyinfo_pages(proc="/proc"):
    total = {}
    with open(os.path.join(proc, "buddyinfo")) as f:
        for line in f:
            p = line.split()
            counts = [int(x) for x in p[4:]]
            total[p[3]] = sum(c << o for o, c in enumerate(counts))
    return total


def bit(flags, name):
    return (flags >> KPF[name]) & 1


WINDOW = 1 << 16       # pages read at a time: a multiple of the largest buddy (1024)


def scan(fd, start, spanned, max_order=10):
    """the kinds of the pages of [start, start + spanned), a window at a
    time: yields (pfn, bytearray of kinds) for windows aligned to WINDOW
    pages, so that no free buddy crosses one (a few MB of memory in all:
    the harness runs this beside an experiment)"""
    end = start + spanned
    K = {k: n for n, k in enumerate(KINDS)}
    last = K["other"]
    lo = start
    while lo < end:
        hi = min(end, (lo // WINDOW + 1) * WINDOW)
        n = hi - lo
        flags = array.array("Q")
        flags.frombytes(os.pread(fd, n * 8, lo * 8))
        if sys.byteorder != "little":
            flags.byteswap()
        n = len(flags)
        kinds = bytearray(n)
        i = 0
        while i < n:
            f = flags[i]
            if bit(f, "NOPAGE") or bit(f, "OFFLINE"):
                k = K["absent"]
            elif bit(f, "BUDDY"):
                pfn = lo + i
                order = 0
                # the largest aligned run of unflagged pages after the head
                while order < max_order:
                    o = order + 1
                    if pfn & ((1 << o) - 1):
                        break
                    a, b = i + (1 << order), i + (1 << o)
                    if b > n or any(flags[a:b]):
                        break
                    order = o
                kinds[i:min(i + (1 << order), n)] = bytes([K["free"]]) * (min(i + (1 << order), n) - i)
                i += 1 << order
                last = K["free"]
                continue
            elif bit(f, "HUGE"):
                k = K["hugetlb"]
            elif bit(f, "SLAB"):
                k = K["slab"]
            elif bit(f, "PGTABLE"):
                k = K["pgtable"]
            elif bit(f, "LRU"):
                k = K["lru"]
            elif bit(f, "COMPOUND_TAIL") and last in (K["lru"], K["slab"], K["hugetlb"]):
                k = last                # the tail of the folio before
            elif bit(f, "RESERVED"):
                k = K["reserved"]
            else:
                k = K["other"]
            kinds[i] = k
            last = k
            i += 1
        yield lo, kinds
        lo = hi


def block_counts(fd, start, spanned):
    """per pageblock of [start, start + spanned) (the zone's first and last
    may be partial), its count of pages of each kind (KINDS' order)"""
    for wpfn, kinds in scan(fd, start, spanned):
        for b in range(wpfn - wpfn % PAGEBLOCK, wpfn + len(kinds), PAGEBLOCK):
            lo, hi = max(b, wpfn) - wpfn, min(b + PAGEBLOCK, wpfn + len(kinds)) - wpfn
            yield [kinds.count(k, lo, hi) for k in range(len(KINDS))]


def report(proc="/proc", only=None, hist=False):
    """real/blocks' text for the zones of proc (only: their names), or
    raises OSError if proc/kpageflags cannot be read"""
    fd = os.open(os.path.join(proc, "kpageflags"), os.O_RDONLY)
    out = []
    try:
        bud = buddyinfo_pages(proc)
        K = {k: n for n, k in enumerate(KINDS)}
        for name, start, spanned in zones(proc):
            if only and name not in only:
                continue
            tot = [0] * len(KINDS)
            blocks = whole_free = mixed = mixed_kernel = unflagged = 0
            hist_n = {}
            for c in block_counts(fd, start, spanned):
                for k in range(len(KINDS)):
                    tot[k] += c[k]
                if c[K["absent"]] + c[K["reserved"]] == sum(c):
                    continue
                blocks += 1
                if c[K["free"]] == PAGEBLOCK:
                    whole_free += 1
                kern = sum(c[K[k]] for k in KERNEL)
                if kern and (c[K["free"]] or c[K["lru"]]):
                    mixed += 1
                    mixed_kernel += kern
                    h = 1 << max(0, (kern - 1).bit_length())      # 1, 2, 4, ... 512
                    hist_n[h] = hist_n.get(h, 0) + 1
                elif c[K["other"]] and (c[K["free"]] or c[K["lru"]]):
                    unflagged += 1
            out.append("%s: %d blocks, %d wholly free; pages %s" % (
                name, blocks, whole_free,
                ", ".join("%s %d" % (k, tot[K[k]]) for k in KINDS if tot[K[k]])))
            out.append("  free pages: %d counted here, %d in /proc/buddyinfo" % (tot[K["free"]], bud.get(name, -1)))
            out.append("  mixed blocks (slab or page-table pages beside free or LRU pages): %d, holding %d of them"
                       % (mixed, mixed_kernel))
            out.append("  blocks with unflagged pages beside free or LRU pages, and no slab or page table: %d"
                       % unflagged)
            if hist and hist_n:
                out.append("  slab and page-table pages per mixed block: " +
                           ", ".join("<=%d: %d" % (h, hist_n[h]) for h in sorted(hist_n)))
    finally:
        os.close(fd)
    return "\n".join(out) + "\n"
