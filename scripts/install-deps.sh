#!/usr/bin/env bash
# install-deps.sh - install the Debian 12 packages mmsim needs to build,
# test and plot.  Installs only what is missing; silent when nothing is.
#
#   scripts/install-deps.sh          install what is missing (as root, or via sudo)
#   scripts/install-deps.sh --check  only list what is missing; exit 1 if anything is
#   --fuzz (with either)             also clang and its libFuzzer runtime (scripts/fuzz.sh)
set -euo pipefail

# libc6-dev is only a Recommends of gcc, and we install without recommends.
# chromium: the report's test opens mmsim report's page in it, headless.
# slurmctld, slurmd, slurm-client and munge: the test of mmsim sweep
# --slurm (tests/slurm/sweep.sh) starts its own single-node Slurm from a
# temporary directory; nothing is written to /etc/slurm, so the packages'
# own services have no configuration and do not run.
PACKAGES=(
	libsimgrid-dev libgsl-dev libsqlite3-dev libcmocka-dev zlib1g-dev
	gnuplot-nox sqlite3
	chromium
	pkg-config cmake gcc make libc6-dev
	slurmctld slurmd slurm-client munge
)

me=${0##*/}
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 1; }

check_only=0
for arg in "$@"; do
	case $arg in
		--check) check_only=1 ;;
		--fuzz) PACKAGES+=(clang libclang-rt-14-dev) ;;
		-h|--help) sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0 ;;
		*) die "unknown argument '$arg' (usage: $me [--check] [--fuzz])" ;;
	esac
done

command -v dpkg-query >/dev/null 2>&1 ||
	die "dpkg-query not found: this script supports Debian 12 (bookworm) only; install by hand: ${PACKAGES[*]}"

missing=()
for pkg in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$pkg")
done

((${#missing[@]} == 0)) && exit 0

if ((check_only)); then
	printf '%s: missing: %s\n' "$me" "${missing[*]}"
	exit 1
fi

if ((EUID == 0)); then
	as_root=()
elif command -v sudo >/dev/null 2>&1; then
	as_root=(sudo)
else
	die "missing packages: ${missing[*]}; run this script as root (sudo is not installed)"
fi

printf '%s: installing %s\n' "$me" "${missing[*]}" >&2
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
