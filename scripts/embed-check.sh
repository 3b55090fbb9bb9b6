#!/usr/bin/env bash
# Installs ssdtlm from a build directory to a temporary prefix, builds examples/embed against
# it with find_package(ssdtlm), and runs it on the installed default config: every byte
# written must read back, each drive writes a report of its writes (docs/embedding.md) and the
# LT drive its waveforms and energy series. ctest runs it as embed.example.
#   scripts/embed-check.sh [BUILD_DIR]    (default: build; already built)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ssdtlm-embed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$root/examples/embed" -B "$tmp/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build"
"$tmp/build/embed" "$tmp/prefix/share/ssdtlm/configs/default.json" "$tmp/report"
# Each report is the CLI's (docs/report.md): its writes, their percentiles and the scoreboard.
for drive in lt_drive at_drive; do
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(r["requests"]["write"] == 0 or r["latency_us"]["write"]["p99"] is None
         or r["scoreboard"]["mismatches"] != 0)' \
    "$tmp/report/$drive/report.json" || { echo "embed-check: $drive wrote no report of its writes" >&2; exit 1; }
done
for file in current.vcd energy.csv; do
  [ -s "$tmp/report/lt_drive/$file" ] || { echo "embed-check: lt_drive wrote no $file" >&2; exit 1; }
done
