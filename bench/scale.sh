#!/bin/sh
# scale.sh [K...]: the default scenario's machine and workload scaled
# together by k (issue 27; docs/benchmarks.md, "Machine and workload
# scaled"), one iteration each, pinned to one core (taskset -c ${SCALE_CPU:-1}):
#   RAM 2k GiB, swap 2k GiB, 4k CPUs (the kernel's memmap grows with the
#   RAM by itself: mm_layout_qemu()), k builds side by side (kbuild.builds, -j4
#   each), the THP faulter over 768k MiB, the file reader over 40k files
#   of 256 MiB with k processes at 12k MiB/s.  The base system (the
#   headless profile: one machine's daemons and slab) is not scaled.
# Prints per k: CPU seconds (user + system), pages allocated, pages
# scanned (kswapd + direct) per allocated page, CPU ns per allocated page,
# peak RSS.  MMSIM (default build/release/mmsim), SCALE_OUT (a directory
# for the databases, default a temporary one), extra mmsim run arguments
# in SCALE_ARGS.
# Brackets: a run between two runs of the first k (`scale.sh 1 16 1 16 1`)
# is also compared with the mean of its two neighbours (CPU per allocated
# page), and the median of those ratios is printed per k: this host's
# speed drifts by more than the effect within minutes, and a bracket is
# what such drift moves least.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
mmsim=${MMSIM:-$here/build/release/mmsim}
out=${SCALE_OUT:-$(mktemp -d)}
mkdir -p "$out"
[ $# -gt 0 ] || set -- 1 2 4 8 16
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%3s %10s %12s %10s %10s %10s %9s\n' k cpu_s pgalloc scan/page ns/page sim_s rss_MB
: >"$out/ns-per-page"
for k in "$@"; do
	db="$out/scale-$k.db"
	rm -f "$db"
	MMSIM_CHECK_AT_END=${MMSIM_CHECK_AT_END:-0} /usr/bin/time -f '%U %S %M' -o "$out/time-$k" \
		taskset -c "${SCALE_CPU:-1}" "$mmsim" run "$here/configs/hugealloc.ini" \
		--set run.iterations=1 \
		--set machine.ram=$((2 * k))G --set machine.swap=$((2 * k))G --set machine.cpus=$((4 * k)) \
		--set kbuild.builds=$k \
		--set thp_faulter.region=$((768 * k))M \
		--set streamer.files=$((40 * k)) --set streamer.procs=$k --set streamer.rate=$((12 * k)) \
		$SCALE_ARGS -o "$db" >"$out/log-$k" 2>&1 || { cat "$out/log-$k" >&2; exit 1; }
	sqlite3 -readonly "$db" "
	  SELECT $k, (SELECT sum(value) FROM vmstat WHERE name LIKE 'pgalloc_%'),
	         (SELECT sum(value) FROM vmstat WHERE name IN ('pgscan_kswapd', 'pgscan_direct')),
	         sim_seconds FROM runs" | tr '|' ' ' |
	while read -r kk alloc scan sim; do
		set -- $(cat "$out/time-$k")
		awk -v k="$kk" -v u="$1" -v s="$2" -v m="$3" -v a="$alloc" -v sc="$scan" -v sim="$sim" \
			'BEGIN { printf "%3d %10.2f %12d %10.4f %10.1f %10.1f %9.0f\n", k, u + s, a, sc / a, (u + s) / a * 1e9, sim, m / 1024 }' |
			tee -a "$out/ns-per-page"
	done
done
# the bracketed ratios: run j against the mean of runs j-1 and j+1 when
# those two have the first run's k and j another
awk '{ k[NR] = $1; ns[NR] = $5 }
     END {
	for (j = 2; j < NR; j++) {
		if (k[j - 1] != k[1] || k[j + 1] != k[1] || k[j] == k[1])
			continue
		r = ns[j] / ((ns[j - 1] + ns[j + 1]) / 2)
		printf "bracket: k = %d between two k = %d: %.1f / (%.1f, %.1f) ns per page = %.3f\n", k[j], k[j - 1], ns[j], ns[j - 1], ns[j + 1], r
		key = k[j] " against " k[j - 1]; n[key]++; v[key, n[key]] = r
	}
	for (key in n) {
		m = n[key]
		for (a = 1; a <= m; a++)          # insertion sort: a handful
			for (b = a; b > 1 && v[key, b - 1] > v[key, b]; b--) {
				t = v[key, b]; v[key, b] = v[key, b - 1]; v[key, b - 1] = t
			}
		med = m % 2 ? v[key, (m + 1) / 2] : (v[key, m / 2] + v[key, m / 2 + 1]) / 2
		printf "brackets: k = %s: median %.3f of %d (%.3f..%.3f)\n", key, med, m, v[key, 1], v[key, m]
	}
     }' "$out/ns-per-page"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
