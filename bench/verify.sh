#!/usr/bin/env bash
# Benchmark of `vcov verify` over ../shared/corpus (SV-COMP tasks and SystemC programs) in the
# full-incremental, partial-incremental and breadth-first modes; see bench/verify.py --help.
set -euo pipefail
exec python3 "$(dirname "$0")/verify.py" "$@"
