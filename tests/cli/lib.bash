# lib.bash - the start every tests/cli script shares (not a test: ctest
# runs tests/cli/*.sh).  Sourced first thing with the script's own
# arguments, MMSIM SRC WORKDIR: it checks them, defines fail/ok/need, and
# leaves the script in a fresh, empty WORKDIR.  The script ends with
# `exit $FAILED`.
set -uo pipefail

cli_usage="usage: $(basename "$0") MMSIM SRC WORKDIR"
MMSIM=${1:?$cli_usage}
SRC=${2:?$cli_usage}
WORK=${3:?$cli_usage}
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
ok() { echo "ok: $*"; }
# need TOOL...: a tool the script drives, installed by scripts/install-deps.sh
need() {
	local c
	for c; do
		command -v "$c" >/dev/null || { echo "FAIL: '$c' is not installed (scripts/install-deps.sh)"; exit 1; }
	done
}

rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
cd "$WORK" || exit 1
