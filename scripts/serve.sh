#!/usr/bin/env bash
# Builds the release bundle and serves it on http://127.0.0.1:8080 (rebuilds on change).
# Override with PORT=... ADDRESS=...
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
ADDRESS="${ADDRESS:-127.0.0.1}"
PORT="${PORT:-8080}"

bash scripts/setup.sh
echo "[serve $(date '+%H:%M:%S')] trunk build --release"
trunk build --release
echo "[serve $(date '+%H:%M:%S')] serving dist/ on http://$ADDRESS:$PORT/  (Ctrl-C to stop)"
exec trunk serve --release --address "$ADDRESS" --port "$PORT"
