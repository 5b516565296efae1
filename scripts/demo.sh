#!/usr/bin/env bash
# demo.sh - install dependencies, build the Release binary, run `mmsim demo`.
# Arguments are passed on to `mmsim demo`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DMMSIM_SANITIZE=OFF
cmake --build build/release -j "$(nproc 2>/dev/null || echo 2)"
exec build/release/mmsim demo "$@"
