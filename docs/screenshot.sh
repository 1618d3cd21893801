#!/usr/bin/env bash
# docs/img/report.png: the shipped report's first screen as a browser shows it (headless chromium, 1200x900), as
# it is: the headline table (the top rung first once it is settled), then the skill trace.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-background-networking --hide-scrollbars \
    --screenshot="$tmp/shot.png" --window-size=1200,900 "file://$PWD/reports/balance-report/index.html" 2>/dev/null
python3 - "$tmp/shot.png" docs/img/report.png <<'PY'
import sys
from PIL import Image  # matplotlib's dependency: a palette PNG keeps the shot small
Image.open(sys.argv[1]).convert("RGB").quantize(colors=128).save(sys.argv[2], optimize=True)
PY
ls -l docs/img/report.png
