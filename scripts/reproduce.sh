#!/usr/bin/env bash
# reproduce.sh - the RFC experiment on a fresh Debian 12 machine: install
# what is missing (scripts/install-deps.sh), build the Release binary, run
# `mmsim reproduce` (configs/hugealloc.ini, vanilla and hugealloc_rfc, seeds
# 1..3, all CPUs, into out/reproduce), which prints the cover letter's
# table and where the database and the plots are.
#
#   scripts/reproduce.sh                     the defaults
#   scripts/reproduce.sh --seeds 10          the validation's ten seeds
#   scripts/reproduce.sh configs/mini.ini -o out/mini   (arguments go to mmsim reproduce)
#
# Safe to run again: installed packages and an up-to-date build are left
# alone, and runs already complete in out/reproduce are not run again (an
# interrupted reproduction resumes).  Another --seeds or --set needs
# another -o DIR; after a rebuild that changed the binary, or an edit of
# the scenario, the old runs are refused: add --force-new (they are moved
# to out/reproduce/superseded-TIME/) or give another -o DIR.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

case ${1-} in
	-h|--help) sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
esac

step() { printf '\n==> %s\n' "$*" >&2; }

step "dependencies (scripts/install-deps.sh: installs only what is missing)"
scripts/install-deps.sh
echo "all installed" >&2

step "build: Release with profile-guided optimisation, build/release (scripts/pgo-build.sh)"
scripts/pgo-build.sh build/release >/dev/null \
	|| { cmake --build build/release -j 1; exit 1; }   # again, to show the error
build/release/mmsim --version >&2

step "mmsim reproduce $*"
exec build/release/mmsim reproduce "$@"
