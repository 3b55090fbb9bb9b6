#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tb/fuzz/, in their own build directory) and runs each for
# SECONDS (default 60) on its corpus, seeded from traces/, configs/ and workloads/. Prints the
# executions per harness; exits 1 if a harness crashed, hung or tripped a sanitizer (the
# input that did it is kept under BUILD/artifacts/<harness>/ and the log is printed). Inputs
# that once crashed a harness are kept as seeds under tb/fuzz/seeds/, so every run replays
# them.
# Usage: scripts/fuzz.sh [--smoke] [SECONDS]   (env: FUZZ_BUILD, default build-fuzz; JOBS,
# default 2: the build's jobs, and how many harnesses run side by side). --smoke (make test)
# starts from the seeds alone in a fresh corpus, so it takes the same few seconds however large
# the kept corpus has grown, and runs the input parsers' harnesses only: fuzz_state and
# fuzz_target build the whole model once more (`make fuzz` runs them).
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=0
if [ "${1:-}" = --smoke ]; then smoke=1; shift; fi
seconds=${1:-60}
build=${FUZZ_BUILD:-build-fuzz}
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DSSDTLM_FUZZ=ON -DSSDTLM_BUILD_TESTS=OFF >/dev/null
# The smoke leaves out the two harnesses that build the model (the last two).
targets=(fuzzers)
harnesses=(fuzz_trace_auto fuzz_trace_spc fuzz_trace_csv fuzz_trace_disksim fuzz_trace_msr
           fuzz_trace_fiu fuzz_trace_blkparse fuzz_config fuzz_override fuzz_workload_spec
           fuzz_workload_file fuzz_state fuzz_target)
if ((smoke)); then
  targets=(input_fuzzers)
  harnesses=("${harnesses[@]:0:${#harnesses[@]}-2}")
fi
if ! cmake --build "$build" --target "${targets[@]}" -j "${JOBS:-2}" >"$build/build.log" 2>&1; then
  cat "$build/build.log" >&2
  exit 1
fi

seeds() {
  case $1 in
    fuzz_trace_*) ls traces/*.spc traces/*.csv traces/*.ascii traces/*.txt ;;
    fuzz_config) ls configs/*.json ;;
    fuzz_override) ls tb/fuzz/seeds/override/* ;;
    fuzz_workload_file) ls workloads/*.json workloads/micro/*.json tb/fuzz/seeds/workload_file/* ;;
    fuzz_workload_spec) ls tb/fuzz/seeds/workload_spec/* ;;
    fuzz_target) ls tb/fuzz/seeds/target/* ;;
    fuzz_state) ls tb/fuzz/seeds/state/* ;;
  esac
}

max_len=8192
# One harness on its corpus; its log says how it went (the loop below reports in order).
fuzz_one() {
  local harness=$1 corpus=$build/corpus/$1 artifacts=$build/artifacts/$1
  if ((smoke)); then
    corpus=$build/smoke-corpus/$harness
    rm -rf "$corpus"
  fi
  mkdir -p "$corpus" "$artifacts"
  # Seeds cut to the longest input the fuzzer tries, so the corpus stays small.
  for f in $(seeds "$harness"); do head -c $max_len "$f" >"$corpus/seed-$(basename "$f")"; done
  if "$build/$harness" -max_total_time="$seconds" -max_len=$max_len -timeout=10 \
       -rss_limit_mb=2048 -artifact_prefix="$artifacts/" -print_final_stats=1 "$corpus" \
       >"$build/$harness.log" 2>&1; then
    echo ok >"$build/$harness.status"
  else
    echo failed >"$build/$harness.status"
  fi
}
# JOBS harnesses at a time: each is one process, and they share nothing but the build.
running=0
for harness in "${harnesses[@]}"; do
  rm -f "$build/$harness.status"
  fuzz_one "$harness" &
  if ((++running >= ${JOBS:-2})); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
failed=0
for harness in "${harnesses[@]}"; do
  log=$build/$harness.log
  if [ "$(cat "$build/$harness.status" 2>/dev/null)" = ok ]; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $harness: $runs executions in ${seconds} s, no crash"
  else
    echo "fuzz: $harness: FAILED (input in $build/artifacts/$harness/)" >&2
    tail -40 "$log" >&2
    failed=1
  fi
done
exit $failed
