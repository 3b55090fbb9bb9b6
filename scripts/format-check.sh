#!/usr/bin/env bash
# Fails when a C++ file of the checkout differs from what clang-format makes of it
# (.clang-format); prints the files and the command that formats them. ctest runs it as
# style.clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "format-check: clang-format missing (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.cpp' '*.h')
else
  mapfile -t files < <(find common config firmware include ip model tb examples \
                         -name '*.cpp' -o -name '*.h' | sort)
fi
# One clang-format for all files; its diagnostics name each file that differs.
status=0
log=$(clang-format --dry-run --Werror "${files[@]}" 2>&1) || status=$?
mapfile -t bad < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error:.*/\1/p' <<<"$log" | sort -u)
if ((status != 0 && ${#bad[@]} == 0)); then
  printf 'format-check: clang-format failed (exit %d):\n%s\n' "$status" "$log" >&2
  exit 1
fi
if ((${#bad[@]})); then
  echo "format-check: ${#bad[@]} file(s) not formatted as .clang-format says:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "format them with: clang-format -i ${bad[*]}" >&2
  exit 1
fi
echo "format-check: ${#files[@]} files formatted"
