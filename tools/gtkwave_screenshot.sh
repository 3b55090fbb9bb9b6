#!/usr/bin/env bash
# Retakes the README's GTKWave screenshot from a real GTKWave window on a virtual X display:
# simulates a small drive (2 channels of 2 dies) on the first 2,000 requests of the
# Financial1 trace, writes its save file with tools/gtkwave_view.py for a busy 10 ms, opens
# it in GTKWave under Xvfb and captures the window.
#   tools/gtkwave_screenshot.sh [BUILD_DIR [PNG]]     (default: build out/gtkwave.png)
# SSDTLM_BINARY, when set, names the simulator instead of BUILD_DIR/ssdtlm. The README's picture
# is docs/img/gtkwave.png: name it as PNG to retake it (tools/readme_figures.py --pictures
# does, with the README's figures). Needs gtkwave,
# xvfb, xdotool and imagemagick (scripts/install-deps.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
binary=${SSDTLM_BINARY:-$build/ssdtlm}
png=${2:-out/gtkwave.png}
mkdir -p "$(dirname "$png")"
for tool in gtkwave xvfb-run xdotool import convert; do
  command -v "$tool" >/dev/null || { echo "gtkwave_screenshot.sh: $tool is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work" "$png.tmp"' EXIT

# Preconditioned, so reads go to flash and garbage collection runs: every die is busy.
"$binary" --config configs/small_gc.json --trace traces/umass_financial1.head10k.spc \
  --format spc --fit wrap --max-requests 2000 --precondition --vcd --no-series -q \
  --out "$work/small_gc"
python3 tools/gtkwave_view.py "$work/small_gc/current.vcd" --start-s 40.37 --end-s 40.38 \
  >/dev/null

# The save file asks for a 1280x800 window: the screen is that size, so the capture is the
# window. GTKWave draws the waves after the window appears; two seconds is ample.
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  gtkwave "$1/small_gc/current.gtkw" >"$1/gtkwave.log" 2>&1 &
  viewer=$!
  timeout 30 xdotool search --sync --onlyvisible --name GTKWave >/dev/null
  sleep 2
  import -window root "$1/shot.png"
  kill "$viewer"' _ "$work"
# 64 colours keep the PNG small; the GTK theme and the waves use fewer. Written beside the
# target and renamed, so a failed run leaves the old picture whole.
convert "$work/shot.png" -colors 64 "png:$png.tmp"
mv "$png.tmp" "$png"
echo "gtkwave_screenshot.sh: wrote $png"
