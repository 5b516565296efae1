#!/bin/sh
# measure.sh - capture a running machine's base-system memory, read-only.
#
#   workloads/data/system/measure.sh OUTDIR [INTERVAL]
#
# Copies /proc/meminfo, slabinfo, pagetypeinfo, zoneinfo, vmstat,
# buddyinfo, the kernel version and the process list, and for every
# process its status, smaps_rollup, smaps and the path of its executable,
# into OUTDIR;
# then waits INTERVAL seconds (default 60) and copies vmstat, meminfo,
# slabinfo and every process's io again, so that the base system's churn
# (log writes, allocations of an idle machine) is the difference of the
# two snapshots (every process's status and io are in both).  It only
# reads /proc and /sys (slabinfo, pagetypeinfo and other processes' smaps
# need root; files it cannot read, such as a kernel thread's smaps or a
# protected init's, are left out and listed in OUTDIR/unreadable).  It
# writes nothing outside OUTDIR, starts no process that stays, changes no
# setting.  tar+xz of OUTDIR is a few hundred KiB.
set -u
out=${1:?usage: measure.sh OUTDIR [INTERVAL]}
interval=${2:-60}
mkdir -p "$out/0" "$out/1" "$out/proc" || exit 73
: > "$out/unreadable"

grab() {        # grab SRC DST: copy a /proc file, note it if unreadable
	cat "$1" > "$2" 2>/dev/null || { echo "$1" >> "$out/unreadable"; rm -f "$2"; }
}

snap() {        # snap DIR: the system-wide files
	date -u +%Y-%m-%dT%H:%M:%SZ > "$1/date"
	cat /proc/uptime > "$1/uptime"
	for f in meminfo slabinfo pagetypeinfo zoneinfo vmstat buddyinfo; do
		grab /proc/$f "$1/$f"
	done
	# every process's status (context switches: its wake-ups) and I/O
	# counters (write_bytes: log writes reaching the disk)
	mkdir -p "$1/status" "$1/io"
	for d in /proc/[0-9]*; do
		p=${d#/proc/}
		grab "$d/status" "$1/status/$p"
		grab "$d/io" "$1/io/$p"
	done
}

uname -a > "$out/uname"
cat /etc/os-release > "$out/os-release" 2>/dev/null
cat /etc/debian_version > "$out/debian_version" 2>/dev/null
nproc > "$out/nproc"
cat /proc/cmdline > "$out/cmdline"      # the kernel's command line
grab /sys/kernel/mm/transparent_hugepage/enabled "$out/thp_enabled"
for k in min_free_kbytes watermark_scale_factor swappiness; do
	printf '%s = %s\n' "vm.$k" "$(cat /proc/sys/vm/$k)"
done > "$out/sysctl"
# the command lines, cut at 160 columns (a session's arguments can carry
# its whole environment)
# SLUB's view of each cache: SLAB_RECLAIM_ACCOUNT (reclaim_account), the
# slab order, objects per slab, the object's size with metadata
# (slab_size), and the caches merged into it (a symlink per alias)
if [ -d /sys/kernel/slab ]; then
	for c in /sys/kernel/slab/*; do
		n=${c##*/}
		if [ -L "$c" ]; then
			printf 'alias %s -> %s\n' "$n" "$(readlink "$c" | sed 's,.*/,,')"
		else
			printf 'cache %s reclaim_account=%s order=%s objs_per_slab=%s slab_size=%s object_size=%s aliases=%s\n' \
				"$n" "$(cat "$c/reclaim_account")" "$(cat "$c/order")" "$(cat "$c/objs_per_slab")" \
				"$(cat "$c/slab_size")" "$(cat "$c/object_size")" "$(cat "$c/aliases")"
		fi
	done > "$out/sys_kernel_slab" 2>/dev/null
fi
ps -eo pid,ppid,user,rss,vsz,etimes,stat,comm,args | cut -c1-160 > "$out/ps"

snap "$out/0"
for d in /proc/[0-9]*; do
	p=${d#/proc/}
	[ -r "$d/status" ] || continue
	mkdir -p "$out/proc/$p"
	for f in smaps_rollup smaps; do
		grab "$d/$f" "$out/proc/$p/$f"
	done
	readlink "$d/exe" > "$out/proc/$p/exe" 2>/dev/null
done
sleep "$interval"
snap "$out/1"
echo "measure.sh: captured into $out ($interval s between snapshots)"
