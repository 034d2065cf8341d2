#!/usr/bin/env bash
# usage: flink-bundle.sh http://jobmanager:8081 [JOB_ID] > bundle.json
set -euo pipefail
JM="${1%/}"; J="${2:-$(curl -fsS "$JM/jobs/overview" | jq -r '[.jobs[] | select(.state=="RUNNING")][0].jid')}"
WANTED='(^|\.)(currentInputWatermark|currentInput1Watermark|currentInput2Watermark|currentOutputWatermark|currentWatermark|watermarkLag|idleTimeMsPerSecond|busyTimeMsPerSecond|backPressuredTimeMsPerSecond|numRecordsIn|numRecordsOut|sourceIdleTime|pendingRecords|watermarkAlignmentDrift|numLateRecordsDropped)$'
{
  printf '{"/jobs/overview": %s' "$(curl -fsS "$JM/jobs/overview")"
  printf ',\n"/jobs/%s": %s' "$J" "$(curl -fsS "$JM/jobs/$J")"
  for V in $(curl -fsS "$JM/jobs/$J" | jq -r '.vertices[].id'); do
    P="/jobs/$J/vertices/$V"
    printf ',\n"%s/watermarks": %s' "$P" "$(curl -fsS "$JM$P/watermarks")"
    printf ',\n"%s/backpressure": %s' "$P" "$(curl -fsS "$JM$P/backpressure")"
    # The wanted metrics, 20 URL-encoded names per request (Flink refuses request lines over
    # 4 KiB), the answers merged into one array.
    M=$( (echo '[]'; curl -fsS "$JM$P/metrics" \
          | jq -r --arg re "$WANTED" '[.[].id | select(test($re)) | @uri] | _nwise(20) | join(",")' \
          | while read -r C; do curl -fsS "$JM$P/metrics?get=$C"; done) | jq -s 'add')
    printf ',\n"%s/metrics": %s' "$P" "$M"
  done
  printf '}\n'
} | jq .
