#!/usr/bin/env bash
# clang-tidy with .clang-tidy's checks on the C++ sources a build compiles (its
# compile_commands.json). A source found clean is listed in scripts/tidy-clean.txt under a key
# of its text and the project headers it includes; by default only the sources whose key is
# not listed (changed since) are checked, so `make test` stays fast. After a change of
# .clang-tidy, run --update. Every warning is an error: exits 1 and prints them.
# Usage: scripts/tidy.sh BUILD_DIR [--all | --update | --record]
#   --all     check every source
#   --update  check every source and rewrite scripts/tidy-clean.txt with the clean ones (commit it)
#   --record  check the changed sources and add the clean ones to the list (before a commit)
# env: JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/tidy.sh BUILD_DIR [--all | --update | --record]}
mode=${2:-changed}
list=scripts/tidy-clean.txt
db=$build/compile_commands.json
if ! command -v clang-tidy >/dev/null; then
  echo "tidy: clang-tidy not found (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
[ -f "$db" ] || { echo "tidy: $db missing (configure the build first)" >&2; exit 1; }

# The key: the source and the project headers it includes, hashed.
key() {
  local src=$1 headers
  headers=$(sed -n 's/^#include "\(.*\)"$/\1/p' "$src" | while read -r h; do
    [ -f "$h" ] && echo "$h"; done)
  # shellcheck disable=SC2086
  cat "$src" $headers | sha256sum | cut -c1-16
}

# The checkout's sources, not what the build generates (its precompiled header's source).
mapfile -t sources < <(python3 -c '
import json, os, sys
root = os.getcwd() + "/"
build = os.path.realpath(sys.argv[2]) + "/"
for e in json.load(open(sys.argv[1])):
    f = os.path.realpath(os.path.join(e["directory"], e["file"]))
    if f.startswith(root) and not f.startswith(build) and os.path.exists(f):
        print(f[len(root):])' "$db" "$build" | sort -u)

declare -A clean=()
if { [ "$mode" = changed ] || [ "$mode" = --record ]; } && [ -f "$list" ]; then
  while read -r k f; do clean[$f]=$k; done <"$list"
fi
to_check=()
declare -A keys=()
for f in "${sources[@]}"; do
  keys[$f]=$(key "$f")
  if [ "${clean[$f]:-}" != "${keys[$f]}" ]; then to_check+=("$f"); fi
done
echo "tidy: ${#to_check[@]} of ${#sources[@]} sources to check (${mode})"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The build's commands without its precompiled header (the tests' GoogleTest, SystemC, JSON):
# clang cannot read GCC's, and each source is checked as written, with its own includes.
mkdir "$out/db"
python3 - "$db" "$out/db/compile_commands.json" <<'PY'
import json, re, sys
entries = json.load(open(sys.argv[1]))
for e in entries:
    e["command"] = re.sub(r" -Winvalid-pch| -include \S*/cmake_pch\.hxx", "", e["command"])
json.dump(entries, open(sys.argv[2], "w"))
PY
if ((${#to_check[@]})); then
  printf '%s\n' "${to_check[@]}" | xargs -P "${JOBS:-2}" -I{} sh -c \
    'clang-tidy -p "$1" --quiet "$2" >"$3/$(echo "$2" | tr / _).log" 2>&1 || true' _ "$out/db" {} "$out"
fi
failed=0
passed=()
for f in "${to_check[@]}"; do
  log=$out/$(echo "$f" | tr / _).log
  if grep -qE '(warning|error):' "$log"; then
    grep -vE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated|^Suppressed|^Use -header-filter|^Error while processing' "$log"
    failed=1
  else
    passed+=("$f")
  fi
done
if [ "$mode" = --update ] || [ "$mode" = --record ]; then
  declare -A listed=()
  # --record keeps the sources listed and unchanged since.
  for f in "${sources[@]}"; do
    [ "${clean[$f]:-}" = "${keys[$f]}" ] && listed[$f]=${keys[$f]}
  done
  for f in "${passed[@]}"; do listed[$f]=${keys[$f]}; done
  for f in "${!listed[@]}"; do echo "${listed[$f]} $f"; done | sort -k2 >"$list"
  echo "tidy: $list lists ${#listed[@]} clean sources"
fi
if ((failed)); then
  echo "tidy: warnings above (.clang-tidy's checks; NOLINT(check) with a reason where one is meant)" >&2
  exit 1
fi
echo "tidy: clean"
