#!/usr/bin/env bash
# A chart and a report in headless Chromium, as a reader would open them: each page must load
# with its SVG in the DOM, no XML or console errors, and a screenshot that is not blank.
# Exit 77 (skipped) when Chromium or Python's PIL is missing; `make test` installs both.
#
# Usage: render_test.sh RIDGE_BINARY
set -u
ridge=$1
command -v chromium >/dev/null || { echo "skipped: no chromium (make test installs it)"; exit 77; }
/usr/bin/python3 -c 'import PIL' 2>/dev/null || { echo "skipped: no python3-pil"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

"$ridge" chart --device h100-sxm --op "gemm m=4096 n=4096 k=4096" --op "decode params=7e9" \
  --out "$dir/chart.svg" >/dev/null || fail "ridge chart"
"$ridge" report --devices h100-sxm --op "gemm m=4096 n=4096 k=4096" --out "$dir/report.html" \
  >/dev/null || fail "ridge report"

chrome() {
  # Flags for a closed network and a throw-away profile: no background traffic, no sandbox (root).
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$dir/profile" --hide-scrollbars --window-size=1000,700 "$@"
}

for page in chart.svg report.html; do
  chrome --dump-dom "file://$dir/$page" >"$dir/$page.dom" 2>"$dir/$page.log" || fail "$page: chromium"
  grep -q "<svg" "$dir/$page.dom" || fail "$page: no <svg> in the page"
  if grep -qi "parsererror\|This page contains the following errors" "$dir/$page.dom"; then
    fail "$page: the browser could not parse it"
  fi
  if grep -q "ERROR:CONSOLE\|Uncaught" "$dir/$page.log"; then
    fail "$page: console errors: $(grep -m 3 'ERROR:CONSOLE\|Uncaught' "$dir/$page.log")"
  fi
  chrome --screenshot="$dir/$page.png" "file://$dir/$page" >/dev/null 2>&1 || fail "$page: screenshot"
  /usr/bin/python3 - "$dir/$page.png" <<'PY' || fail "$page: the screenshot is blank"
import sys
from PIL import Image
image = Image.open(sys.argv[1]).convert("RGB")
pixels = list(image.getdata())
background = max(set(pixels), key=pixels.count)
drawn = sum(1 for p in pixels if p != background) / len(pixels)
colours = len(set(pixels))
print(f"{sys.argv[1]}: {drawn:.1%} of pixels drawn, {colours} colours")
sys.exit(0 if drawn > 0.01 and colours >= 8 else 1)
PY
done
echo "chart and report render in Chromium"
