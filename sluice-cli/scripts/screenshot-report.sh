#!/usr/bin/env bash
# Screenshot of a `sluice report` page for reviewers: renders DIR/index.html in headless Chromium (Debian's
# `chromium` package) and writes a PNG of the whole page top.
#   sluice-cli/scripts/screenshot-report.sh REPORT_DIR [OUT.png] [WIDTHxHEIGHT]
# Default OUT.png: REPORT_DIR/screenshot.png; default size 1200x4000. Runs as any user (fresh profile in a temp dir).
set -euo pipefail
dir="${1:?usage: screenshot-report.sh REPORT_DIR [OUT.png] [WIDTHxHEIGHT]}"
out="${2:-$dir/screenshot.png}"
size="${3:-1200x4000}"
[[ -f "$dir/index.html" ]] || { echo "screenshot-report: $dir/index.html: No such file" >&2; exit 2; }
browser="$(command -v chromium || command -v chromium-browser || true)"
[[ -n "$browser" ]] || { echo "screenshot-report: chromium not found (apt-get install chromium)" >&2; exit 2; }
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
HOME="$profile" "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --hide-scrollbars --user-data-dir="$profile" \
  --window-size="${size/x/,}" --screenshot="$(realpath -m "$out")" "file://$(realpath "$dir/index.html")" \
  >/dev/null 2>&1
[[ -s "$out" ]] || { echo "screenshot-report: chromium wrote no screenshot" >&2; exit 1; }
echo "$out"
