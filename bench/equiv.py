#!/usr/bin/env python3
"""equiv.py BEFORE AFTER [MMSIM]: issue 27's equivalence rule for a change
that alters results (docs/benchmarks.md, "The equivalence table").

BEFORE and AFTER are two sweep directories of the same scenario, the same
policies and the same seeds (`mmsim sweep ... --vary policy.name=... --seeds
10 -o DIR`), one run by the parent commit's binary and one by the change's.
Compared, per policy: the mean over the seeds of every row of `mmsim
compare` (the 25 rows of results/compare.c) and of every census figure (the
runs' census_* metrics).  A mean is outside when it moved by more than
max(5 % of the before mean, half the pooled per-seed standard deviation); a
direction against vanilla is flipped when a row is above vanilla's before
and below it after, or the other way round (a difference under 5 % of the
larger mean counts as level, never as flipped).

Prints the counts and every mean outside and direction flipped; exits 0 when
none is, 1 otherwise.  MMSIM (default build/release/mmsim) reads the sweeps'
databases: either binary will do, the rows are computed from the counters.
"""
import collections
import glob
import sqlite3
import statistics as st
import subprocess
import sys


def values(sweep_dir, mmsim):
    out = subprocess.run([mmsim, 'compare', sweep_dir + '/sweep.db', '--format', 'values'],
                         capture_output=True, text=True, check=True).stdout
    v = collections.defaultdict(list)
    for line in out.splitlines()[1:]:
        row, policy, _seed, value = line.rsplit(',', 3)
        if value not in ('', 'nan'):
            v[(row, policy)].append(float(value))
    for db in sorted(glob.glob(sweep_dir + '/run-*.db')):
        con = sqlite3.connect(db)
        policy = con.execute('SELECT policy FROM runs').fetchone()[0]
        for name, value in con.execute("SELECT name, value FROM metrics WHERE name LIKE 'census%'"):
            v[(name, policy)].append(value)
        con.close()
    return v


def direction(v, row, policy):
    if (row, policy) not in v or (row, 'vanilla') not in v:
        return None
    x, y = st.mean(v[(row, 'vanilla')]), st.mean(v[(row, policy)])
    if abs(y - x) < 0.05 * max(abs(x), abs(y)):
        return 0
    return 1 if y > x else -1


def main(argv):
    if len(argv) not in (3, 4) or argv[1] in ('-h', '--help'):
        sys.stderr.write(__doc__)
        return 2
    before_dir, after_dir = argv[1], argv[2]
    mmsim = argv[3] if len(argv) == 4 else 'build/release/mmsim'
    b, a = values(before_dir, mmsim), values(after_dir, mmsim)
    outside, n = [], 0
    for k in sorted(b):
        if k not in a or len(b[k]) < 2 or len(a[k]) < 2:
            continue
        n += 1
        mb, ma = st.mean(b[k]), st.mean(a[k])
        sd = ((st.stdev(b[k]) ** 2 + st.stdev(a[k]) ** 2) / 2) ** 0.5
        tol = max(0.05 * abs(mb), 0.5 * sd)
        if abs(ma - mb) > tol + 1e-12:
            outside.append(f'mean {k[0]!r}, {k[1]}: {mb:.6g} -> {ma:.6g} (tolerance {tol:.3g})')
    flipped, nd = [], 0
    for (row, policy) in sorted(b):
        if policy == 'vanilla' or row.startswith('census'):
            continue
        db_, da = direction(b, row, policy), direction(a, row, policy)
        if db_ is None or da is None:
            continue
        nd += 1
        if db_ and da and db_ != da:
            flipped.append(f'direction {row!r}, {policy}: {db_:+d} -> {da:+d}')
    print(f'{n} means compared, {len(outside)} outside; {nd} directions against vanilla, {len(flipped)} flipped')
    for x in outside + flipped:
        print('  ' + x)
    return 0 if not outside and not flipped else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
