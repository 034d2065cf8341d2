#!/usr/bin/env bash
# Dev-only: builds exported projects with Maven (`mvn package`, offline) and runs the jar on
# Flink 2.3's jars, to check that pom.xml builds a runnable job (docs/EXPORT.md, "Checked on real
# Flink"). This machine reaches no Maven repository, so the build runs offline on a local
# repository made of Debian's packaged Maven plugins (/usr/share/maven-repo; apt-get install
# libmaven-compiler-plugin-java libmaven-jar-plugin-java libmaven-resources-plugin-java
# libsurefire-java) and the jars of PyPI's apache-flink-libraries 2.3.0 under the artifact names
# the pom asks for. The pinned plugin versions are replaced by Debian's (compiler 3.10.1, jar
# 3.3.0): what is checked is the rest of the pom — dependencies, Java 17, the resources in the
# jar, the manifest's main class — and that the built jar prints the golden's lines.
#
#   tools/oracle/pom-check.sh                      # late_data (DataStream) and sql_tumble_late_idle (Table API)
#   tools/oracle/pom-check.sh presets/x.json ...
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
if [ "$#" -gt 0 ]; then FILES=("$@"); else
  FILES=("$ROOT/presets/late_data.json" "$ROOT/tests/fixtures/export/scenarios/sql_tumble_late_idle.json")
fi
lib="${PYFLINK_DIR:-$(ls -d /tmp/flinkvenv/lib/python3*/site-packages/pyflink 2>/dev/null | head -1)}/lib"
[ -f "$lib/flink-dist-2.3.0.jar" ] || { echo "pom-check: no Flink 2.3.0 jars (set PYFLINK_DIR)" >&2; exit 1; }
for p in maven-compiler-plugin/3.10.1 maven-jar-plugin/3.3.0; do
  [ -d "/usr/share/maven-repo/org/apache/maven/plugins/$p" ] || { echo "pom-check: no Debian $p (see the header)" >&2; exit 1; }
done
WMP="${WMP:-}"
if [ -z "$WMP" ]; then
  (cd "$ROOT" && cargo build --release --quiet --bin wmp) || exit 1
  WMP="${CARGO_TARGET_DIR:-$ROOT/target}/release/wmp"
fi
WORK="$(mktemp -d)"
REPO="$WORK/m2"
mkdir -p "$REPO" && cp -rs /usr/share/maven-repo/. "$REPO/" || { echo "pom-check: cannot link Debian's Maven repository into $REPO" >&2; exit 1; }
# artifact JAR: one of the pom's Flink dependencies, as a jar of the wheel that holds its classes.
artifact() {
  local d="$REPO/org/apache/flink/$1/2.3.0"
  mkdir -p "$d" && cp "$lib/$2" "$d/$1-2.3.0.jar"
  printf '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>org.apache.flink</groupId><artifactId>%s</artifactId><version>2.3.0</version></project>\n' "$1" >"$d/$1-2.3.0.pom"
}
artifact flink-streaming-java flink-dist-2.3.0.jar
artifact flink-clients flink-dist-2.3.0.jar
artifact flink-table-api-java-bridge flink-table-api-java-uber-2.3.0.jar
artifact flink-table-planner-loader flink-table-planner-loader-2.3.0.jar
artifact flink-table-runtime flink-table-runtime-2.3.0.jar
status=0
for f in "${FILES[@]}"; do
  id="$(basename "$f" .json)"
  dir="$WORK/$id"
  "$WMP" export "$f" --out "$dir" >/dev/null 2>"$WORK/$id.notes" || { echo "FAIL $id: $(grep -v '^wmp: note' "$WORK/$id.notes" | head -1)"; status=1; continue; }
  grep -q '<artifactId>maven-compiler-plugin</artifactId>' "$dir/pom.xml" || { echo "FAIL $id: no pinned compiler plugin"; status=1; continue; }
  sed -i 's|<version>3.13.0</version>|<version>3.10.1</version>|; s|<version>3.4.2</version>|<version>3.3.0</version>|' "$dir/pom.xml"
  if ! (cd "$dir" && mvn -o -q -B -Dmaven.repo.local="$REPO" package >"$dir/mvn.txt" 2>&1); then
    echo "FAIL $id: mvn package (see $dir/mvn.txt)"; status=1; continue
  fi
  jar="$dir/target/playground-job-1.0.jar"
  main="$(unzip -p "$jar" META-INF/MANIFEST.MF | tr -d '\r' | sed -n 's/^Main-Class: //p')"
  [ -n "$main" ] || { echo "FAIL $id: the jar's manifest names no Main-Class"; status=1; continue; }
  if ! java -cp "$jar:$lib/*" "$main" >"$dir/out.txt" 2>"$dir/err.txt"; then
    echo "FAIL $id: the jar's job failed (see $dir/err.txt)"; status=1; continue
  fi
  { grep '^window ' "$dir/out.txt" || true; } | LC_ALL=C sort >"$dir/flink.txt"
  if cmp -s "$dir/flink.txt" "$ROOT/tests/fixtures/export/$id.txt"; then
    echo "SAME $id: mvn package built $(basename "$jar") (Main-Class $main), which printed the golden's $(wc -l <"$dir/flink.txt") lines"
  else
    echo "DIFF $id: the built jar printed other lines than tests/fixtures/export/$id.txt (diff $dir/flink.txt)"; status=1
  fi
done
echo "work files: $WORK"
exit $status
