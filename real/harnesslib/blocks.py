"""What the running kernel's pageblocks hold, read off /proc/kpageflags:
the library behind real/blocks (its text says what is counted) and the
harness's blocks.before and blocks.after snapshots (rundir.snapshot)."""
import os
import re
import struct

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


def scan(fd, start, spanned, max_order=10):
    """kinds per page of [start, start + spanned)"""
    end = start + spanned
    kinds = bytearray(spanned)
    chunk = 1 << 16
    flags = []
    for pfn in range(start, end, chunk):
        n = min(chunk, end - pfn)
        data = os.pread(fd, n * 8, pfn * 8)
        flags.extend(struct.unpack("<%dQ" % (len(data) // 8), data))
    i = 0
    K = {k: n for n, k in enumerate(KINDS)}
    while i < spanned:
        f = flags[i]
        if bit(f, "NOPAGE") or bit(f, "OFFLINE"):
            kinds[i] = K["absent"]
        elif bit(f, "BUDDY"):
            pfn = start + i
            order = 0
            # the largest aligned run of unflagged pages after the head
            while order < max_order:
                o = order + 1
                if pfn & ((1 << o) - 1):
                    break
                lo, hi = i + (1 << order), i + (1 << o)
                if hi > spanned or any(flags[lo:hi]):
                    break
                order = o
            for j in range(i, min(i + (1 << order), spanned)):
                kinds[j] = K["free"]
            i += 1 << order
            continue
        elif bit(f, "HUGE"):
            kinds[i] = K["hugetlb"]
        elif bit(f, "SLAB"):
            kinds[i] = K["slab"]
        elif bit(f, "PGTABLE"):
            kinds[i] = K["pgtable"]
        elif bit(f, "LRU"):
            kinds[i] = K["lru"]
        elif bit(f, "COMPOUND_TAIL") and i and kinds[i - 1] in (K["lru"], K["slab"], K["hugetlb"]):
            kinds[i] = kinds[i - 1]     # the tail of the folio before
        elif bit(f, "RESERVED"):
            kinds[i] = K["reserved"]
        else:
            kinds[i] = K["other"]
        i += 1
    return kinds




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
            kinds = scan(fd, start, spanned)
            tot = [0] * len(KINDS)
            for k in kinds:
                tot[k] += 1
            blocks = whole_free = mixed = mixed_kernel = unflagged = 0
            hist_n = {}
            first = start - start % PAGEBLOCK
            for b in range(first, start + spanned, PAGEBLOCK):
                lo, hi = max(b, start) - start, min(b + PAGEBLOCK, start + spanned) - start
                c = [0] * len(KINDS)
                for k in kinds[lo:hi]:
                    c[k] += 1
                if c[K["absent"]] + c[K["reserved"]] == hi - lo:
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
