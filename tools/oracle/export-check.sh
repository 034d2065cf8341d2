#!/usr/bin/env bash
# Dev-only: runs every preset's exported job (`wmp export`) on real Flink 2.3 and compares its
# window results with the playground's (docs/EXPORT.md).
#
#   tools/oracle/export-check.sh                  # every preset in presets/ and tests/fixtures/export/scenarios/: write the goldens
#   tools/oracle/export-check.sh --check          # compare with the goldens instead of writing them
#   tools/oracle/export-check.sh presets/late_data.json ...    # a subset
#
# For each preset (and each extra scenario: SQL windows, which no preset has): `wmp export` into a temporary directory, javac against the jars of PyPI's
# apache-flink-libraries 2.3.0 (the same jars the oracles use: PYFLINK_DIR, else the
# interpreter's pyflink, else /tmp/flinkvenv; a SQL window's job needs the table jars there too),
# run the job in one JVM (a local MiniCluster) with its resources (replay.tsv, job.sql), keep its
# `window …` lines, sorted, as tests/fixtures/export/<preset>.txt, and compare the
# lines the playground would print (`end_of_input` firings only if the scenario ends its input)
# with the export's expected-output.txt. Presets the export refuses are listed with the reason.
# Exit code 1 if a run failed or (with --check) a golden changed; a preset whose results differ
# from the playground is reported (DIFF) but is not a failure: tests/export.rs names those.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
GOLD="$ROOT/tests/fixtures/export"
CHECK=0
if [ "${1:-}" = "--check" ]; then CHECK=1; shift; fi
if [ "$#" -gt 0 ]; then FILES=("$@"); else FILES=("$ROOT"/presets/*.json "$GOLD"/scenarios/*.json); fi

lib="${PYFLINK_DIR:-}"
if [ -z "$lib" ]; then
  lib="$(python3 -c 'import pyflink, os; print(os.path.dirname(pyflink.__file__))' 2>/dev/null || true)"
fi
if [ -z "$lib" ]; then lib="$(ls -d /tmp/flinkvenv/lib/python3*/site-packages/pyflink 2>/dev/null | head -1)"; fi
if [ ! -f "$lib/lib/flink-dist-2.3.0.jar" ]; then
  echo "export-check: no Flink 2.3.0 jars (pip install apache-flink-libraries==2.3.0, or set PYFLINK_DIR)" >&2
  exit 1
fi
CP="$lib/lib/*"
WMP="${WMP:-}"
if [ -z "$WMP" ]; then
  (cd "$ROOT" && cargo build --release --quiet --bin wmp) || exit 1
  WMP="${CARGO_TARGET_DIR:-$ROOT/target}/release/wmp"
fi
mkdir -p "$GOLD"
WORK="$(mktemp -d)"
status=0
for f in "${FILES[@]}"; do
  id="$(basename "$f" .json)"
  dir="$WORK/$id"
  if ! "$WMP" export "$f" --out "$dir" >/dev/null 2>"$WORK/$id.notes"; then
    echo "SKIP $id: $(grep -v '^wmp: note' "$WORK/$id.notes" | head -1)"
    continue
  fi
  mkdir -p "$dir/classes"
  if ! javac -nowarn -d "$dir/classes" -cp "$CP" "$dir/src/main/java/playground/PlaygroundJob.java" 2>"$dir/javac.txt"; then
    echo "FAIL $id: javac (see $dir/javac.txt)"; status=1; continue
  fi
  cp "$dir"/src/main/resources/* "$dir/classes/"
  if ! java -cp "$dir/classes:$CP" playground.PlaygroundJob >"$dir/out.txt" 2>"$dir/err.txt"; then
    echo "FAIL $id: the job failed (see $dir/err.txt)"; status=1; continue
  fi
  grep '^window ' "$dir/out.txt" | LC_ALL=C sort >"$dir/flink.txt"
  if [ "$CHECK" = 1 ]; then
    if ! cmp -s "$dir/flink.txt" "$GOLD/$id.txt"; then echo "CHANGED $id: Flink's output differs from $GOLD/$id.txt"; status=1; fi
  else
    cp "$dir/flink.txt" "$GOLD/$id.txt"
  fi
  eoi="$(python3 -c 'import json,sys; print(1 if json.load(open(sys.argv[1])).get("end_of_input") else 0)' "$f")"
  if [ "$eoi" = 1 ]; then sed 's/ end_of_input$//' "$dir/flink.txt"; else grep -v ' end_of_input$' "$dir/flink.txt"; fi | LC_ALL=C sort >"$dir/comparable.txt"
  LC_ALL=C sort "$dir/expected-output.txt" >"$dir/expected.txt"
  if cmp -s "$dir/comparable.txt" "$dir/expected.txt"; then
    echo "SAME $id ($(wc -l <"$dir/expected.txt") window results)"
  else
    echo "DIFF $id: $(diff "$dir/expected.txt" "$dir/comparable.txt" | grep -c '^<') playground-only, $(diff "$dir/expected.txt" "$dir/comparable.txt" | grep -c '^>') Flink-only lines (diff $dir/expected.txt $dir/comparable.txt)"
  fi
done
echo "work files: $WORK"
exit $status
