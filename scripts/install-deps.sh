#!/usr/bin/env bash
# Installs what the build, the simulator and the tools need, and nothing that is already
# there: safe to run on every `make test` (it only checks, in about a second, once all is
# there). `--simulator`: only what building and running the simulator needs (`make run`).
set -euo pipefail

# The compiler, CMake and the simulator's libraries.
debs=(build-essential cmake ninja-build pkg-config libsystemc-dev nlohmann-json3-dev
      libboost-dev libboost-program-options-dev libboost-iostreams-dev zlib1g-dev
      libxxhash-dev)
simulator_only=false
[ "${1:-}" = "--simulator" ] && simulator_only=true
# The rest: the test suite (GoogleTest, Python). gtkwave: the VCD viewer; its vcd2fst also
# checks in the tests that our VCD parses, and xvfb gives it a display there, to load
# tools/gtkwave_view.py's save file. clang and libclang-rt-dev: libFuzzer and the sanitizer
# runtimes (make fuzz, the fuzz smoke in make test). chromium: the sweep report's test opens
# the HTML page headless. xdotool and imagemagick: tools/gtkwave_screenshot.sh finds the
# GTKWave window and captures it. clang-format and clang-tidy: make test checks the C++
# formatting (scripts/format-check.sh) and runs .clang-tidy's checks (scripts/tidy.sh).
$simulator_only || debs+=(libgtest-dev googletest python3 python3-pip gtkwave xvfb clang
                          libclang-rt-dev clang-format clang-tidy chromium xdotool imagemagick)
installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${debs[@]}" 2>/dev/null |
            awk '/ install ok installed$/ {print $1}' || true)
missing=()
for p in "${debs[@]}"; do
  grep -qx "$p" <<<"$installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
$simulator_only && exit 0

# Python tools (plots, sweeps): only what is missing, as "module:pip requirement".
py=$(command -v python3)
pip_install() {
  "$py" -m pip install -q "$@" || "$py" -m pip install -q --break-system-packages "$@"
}
# Found, not imported: importing them all takes seconds.
mapfile -t pips < <("$py" - <<'PY'
import importlib.util
for module, requirement in [("numpy", "numpy"), ("matplotlib", "matplotlib"), ("pytest", "pytest"),
                            ("pandas", "pandas"), ("pyarrow", "pyarrow"), ("yaml", "PyYAML"),
                            ("distributed", "dask[distributed]"), ("ruff", "ruff")]:
    if importlib.util.find_spec(module) is None:
        print(requirement)
PY
)
if ((${#pips[@]})); then
  echo "install-deps: installing Python packages ${pips[*]}"
  pip_install "${pips[@]}"
fi
# The sweep tools (tools/pyproject.toml: ssdtlm-sweep, ssdtlm-plot), editable so they follow
# the checkout; checked from / so the source tree itself does not count as installed. The
# console scripts are written at install time: installed again when their entry points differ
# from pyproject.toml's [project.scripts].
tools=$(cd "$(dirname "$0")/../tools" && pwd)
tools_installed() {
  (cd / && "$py" - "$tools" <<'PY'
import importlib.metadata, re, sys
import ssdtlm_tools
tools = sys.argv[1]
wanted = dict(re.findall(r'^(ssdtlm-[\w-]+) = "([^"]+)"', open(tools + "/pyproject.toml").read(), re.M))
have = {e.name: e.value for e in importlib.metadata.distribution("ssdtlm-tools").entry_points}
sys.exit(not (ssdtlm_tools.__file__.startswith(tools + "/") and wanted and have == wanted))
PY
  ) 2>/dev/null
}
if ! tools_installed; then
  echo "install-deps: installing the sweep tools (pip install -e tools)"
  pip_install --no-deps -e "$tools"
fi
