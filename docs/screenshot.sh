#!/usr/bin/env bash
# docs/img/report.png: the shipped report's matchup matrix as a browser shows it (headless chromium, 1200x900).
# The page opens with its settings and long verdict tables; the copy shot here keeps the title and the matrix
# section's text and heatmap (its table is the one the README quotes).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/index.html" <<'PY'
import sys
html = open("reports/balance-report/index.html", encoding="utf-8").read()
keep_matrix = """<script>
const target = [...document.querySelectorAll('h2')].find(h => h.textContent.trim() === 'Matchup matrix');
let n = document.querySelector('h1').nextSibling;
while (n && n !== target) { const next = n.nextSibling; n.remove(); n = next; }
for (let m = target.nextElementSibling; m && m.tagName !== 'IMG' && !m.querySelector('img'); ) {
  const next = m.nextElementSibling;
  if (m.tagName === 'H3' || m.tagName === 'TABLE') m.remove();
  m = next;
}
</script>"""
open(sys.argv[1], "w", encoding="utf-8").write(html.replace("</body>", keep_matrix + "</body>"))
PY
chromium --headless --no-sandbox --disable-gpu --disable-background-networking --hide-scrollbars \
    --screenshot="$tmp/shot.png" --window-size=1200,900 "file://$tmp/index.html" 2>/dev/null
python3 - "$tmp/shot.png" docs/img/report.png <<'PY'
import sys
from PIL import Image  # matplotlib's dependency: a palette PNG keeps the shot small
Image.open(sys.argv[1]).convert("RGB").quantize(colors=128).save(sys.argv[2], optimize=True)
PY
ls -l docs/img/report.png
