#!/usr/bin/env bash
# Records a real Flink 2.3 JobManager's REST answers as the live link's fixtures
# (tests/fixtures/live/: running.json, cancelled.json, not_found.json; connect.json, a
# two-input job whose second input is silent; pressure.json, a back-pressured source subtask;
# three.json, three source vertices, one silent; docs/LIVE.md).
# Dev-only: needs Java 17 (javac) and the jars of PyPI's apache-flink-libraries==2.3.0
# (tools/oracle/README.md, "Install"); PYFLINK_DIR=/path/to/pyflink overrides where they are found.
#
#   [REST_PORT=18081] tools/oracle/live-record.sh [OUT_DIR]   # default tests/fixtures/live
#
# The job runs ~10 s of wall time, so the recorded watermarks and counts differ run to run;
# the tests check their structure and the stuck subtask, not exact values.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
OUT="${1:-$ROOT/tests/fixtures/live}"
PYFLINK="${PYFLINK_DIR:-$(ls -d /tmp/flinkvenv/lib/python3*/site-packages/pyflink 2>/dev/null | head -1)}"
[ -d "$PYFLINK/lib" ] || { echo "no pyflink/lib: pip install apache-flink-libraries==2.3.0 (see tools/oracle/README.md)" >&2; exit 1; }
CLASSES="$(mktemp -d)"
trap 'rm -rf "$CLASSES"' EXIT
javac -nowarn -cp "$PYFLINK/lib/*" -d "$CLASSES" "$ROOT/tools/oracle/FlinkLiveRecorder.java"
java -Dlog4j2.level=WARN -Drest.port="${REST_PORT:-18081}" -cp "$PYFLINK/lib/*:$CLASSES" FlinkLiveRecorder "$OUT"
for mode in connect pressure three; do
    java -Dlog4j2.level=WARN -Drest.port="${REST_PORT:-18081}" -cp "$PYFLINK/lib/*:$CLASSES" FlinkLiveRecorder "$OUT" "$mode"
done
