#!/usr/bin/env bash
# Installs what the build, the simulator and the tools need, and nothing that is already
# there: safe to run on every `make run` / `make test`.
set -euo pipefail

# gtkwave: the VCD viewer; its vcd2fst also checks in the tests that our VCD parses.
debs=(build-essential cmake ninja-build pkg-config libsystemc-dev nlohmann-json3-dev
      libboost-dev libboost-program-options-dev libboost-iostreams-dev zlib1g-dev
      libgtest-dev googletest python3 python3-pip gtkwave)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Python tools (plots, sweeps): only what is missing.
py=$(command -v python3)
if ! "$py" -c "import numpy, matplotlib" 2>/dev/null; then
  echo "install-deps: installing Python packages numpy matplotlib"
  "$py" -m pip install -q numpy matplotlib || "$py" -m pip install -q --break-system-packages numpy matplotlib
fi
