#!/bin/sh
# Measure a real Linux kernel build (x86-64 defconfig) and write the kbuild
# dataset (linux-6.1-defconfig.tsv.gz) beside this script.  See README.md.
#
#   sudo sh workloads/data/kbuild/measure.sh [JOBS]      (default JOBS=2)
#
# KB_TIME_LIMIT=SECONDS stops the build after that long and keeps what was
# done (the steps in make's order up to then: a documented sample).
# Needs root only for apt-get (linux-source-6.1 and the kernel's build
# dependencies).  The build runs under nice -n 19 in a temporary directory
# under /tmp that is deleted at the end (KB_KEEP=1 keeps it).  Nothing on the
# machine is changed: no cache drop, no sysctl, no swap.
set -eu
JOBS=${1:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${KB_OUT:-$HERE/linux-6.1-defconfig.tsv.gz}

if [ ! -f /usr/src/linux-source-6.1.tar.xz ] || ! command -v flex >/dev/null \
   || ! command -v bison >/dev/null || ! command -v bc >/dev/null \
   || [ ! -f /usr/include/libelf.h ] || [ ! -f /usr/include/openssl/ssl.h ]; then
	apt-get install -y linux-source-6.1 bc bison flex libelf-dev libssl-dev cpio
fi

W=$(mktemp -d /tmp/kbmeasure.XXXXXX)
echo "work directory: $W"
cleanup() { [ "${KB_KEEP:-0}" = 1 ] || rm -rf "$W"; }
trap cleanup EXIT

mkdir -p "$W/wrap" "$W/meta"
cc -O2 -o "$W/wrap/recorder" "$HERE/recorder.c"
for t in gcc ld ar; do ln -s recorder "$W/wrap/$t"; done

tar -C "$W" -xf /usr/src/linux-source-6.1.tar.xz
SRC="$W/linux-source-6.1"
cd "$SRC"
# the pristine tree, before anything is generated in it
find . -type f -printf '%s\t%p\n' > "$W/meta/tree-files.tsv"

make -s x86_64_defconfig > "$W/meta/defconfig.log" 2>&1

M="$W/meta"
date -u +%Y-%m-%dT%H:%M:%SZ > "$M/date"
uname -r > "$M/uname"
grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' > "$M/cpu"
nproc > "$M/nproc"
gcc --version | head -1 > "$M/gcc"
ld --version | head -1 > "$M/ld"
make --version | head -1 > "$M/make"
make -s kernelversion > "$M/kernelversion"
cat /proc/slabinfo > "$M/slabinfo.before"
cat /proc/meminfo > "$M/meminfo.before"
cat /proc/vmstat > "$M/vmstat.before"
cat /proc/loadavg > "$M/loadavg.before"

t0=$(date +%s.%N)
# make in its own session, so that a time limit can stop all of it
PATH="$W/wrap:$PATH" KB_LOG="$M/procs.log" \
	setsid nice -n 19 make -j"$JOBS" all > "$M/build.log" 2>&1 &
MK=$!
start=$(date +%s)
while kill -0 "$MK" 2>/dev/null; do
	if [ -n "${KB_TIME_LIMIT:-}" ] && [ $(( $(date +%s) - start )) -ge "$KB_TIME_LIMIT" ]; then
		echo "time limit: stopping the build (a sample: the steps done so far)"
		kill -TERM -"$MK" 2>/dev/null || true
		echo "stopped after ${KB_TIME_LIMIT} s" > "$M/sample"
		break
	fi
	sleep 5
done
rc=0
wait "$MK" || rc=$?
t1=$(date +%s.%N)
echo "$rc" > "$M/make_rc"
echo "$t0 $t1" > "$M/wall"
echo "$JOBS" > "$M/jobs"

cat /proc/slabinfo > "$M/slabinfo.after"
cat /proc/meminfo > "$M/meminfo.after"
cat /proc/vmstat > "$M/vmstat.after"
cat /proc/loadavg > "$M/loadavg.after"

# how much of a peak RSS is mapped files (the binary, the libraries): a
# few units compiled again with the recorder sampling /proc/PID/status
for o in init/main.o kernel/fork.o mm/page_alloc.o kernel/sched/core.o lib/string.o \
	 arch/x86/kernel/setup.o fs/namei.o; do
	c="$SRC/$(dirname "$o")/.$(basename "$o").cmd"
	[ -f "$c" ] || continue
	cmd=$(sed -n 's/^cmd_[^ ]* := //p' "$c" | head -1)
	(cd "$SRC" && PATH="$W/wrap:$PATH" KB_RSS_LOG="$M/rss-split.log" \
		nice -n 19 sh -c "$cmd") > /dev/null 2>&1 || true
done

python3 "$HERE/collect.py" "$SRC" "$M" "$OUT"
echo "dataset: $OUT"
