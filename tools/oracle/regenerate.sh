#!/usr/bin/env bash
# Regenerates or checks the goldens of the project's own Flink oracles on real Flink.
#
#   tools/oracle/regenerate.sh                 # oracle2 (tests/golden/oracle2): run every scenario 3 times, write expected/ if identical
#   tools/oracle/regenerate.sh --check         # oracle2: run every scenario 3 times, compare with expected/
#   tools/oracle/regenerate.sh [--check] tests/golden/oracle2/scenarios/08_*.json ...   # a subset
#   tools/oracle/regenerate.sh regenerate3 [--check] [FILES...]    # the same for oracle3 (tests/golden/oracle3:
#                                                                  # watermark alignment, checkpoint/restore)
#
# REPEAT=N changes the number of runs per scenario (default 3); PYTHON=... the interpreter
# (default /tmp/flinkvenv/bin/python if it exists, else python3: it needs the pyflink jars, see
# tools/oracle/README.md). One JVM runs everything, one job at a time. Exit code 1 on a
# mismatch, a nondeterministic scenario (nothing is written for it) or a Flink error.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
DIR="$ROOT/tests/golden/oracle2"
DRIVER="$ROOT/tools/oracle/flink_oracle2.py"
if [ "${1:-}" = "regenerate3" ] || [ "${1:-}" = "--oracle3" ]; then
  DIR="$ROOT/tests/golden/oracle3"
  DRIVER="$ROOT/tools/oracle/flink_oracle3.py"
  shift
fi
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  if [ -x /tmp/flinkvenv/bin/python ]; then PY=/tmp/flinkvenv/bin/python; else PY=python3; fi
fi
MODE=(--out-dir "$DIR/expected")
if [ "${1:-}" = "--check" ]; then MODE=(--check "$DIR/expected"); shift; fi
if [ "$#" -gt 0 ]; then FILES=("$@"); else FILES=("$DIR"/scenarios/*.json); fi
exec "$PY" "$DRIVER" "${FILES[@]}" --repeat "${REPEAT:-3}" "${MODE[@]}"
