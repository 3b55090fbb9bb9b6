# The two commands: `make run` and `make test`. Both install what is missing first.
BUILD ?= build
OUT ?= out/default
JOBS ?= 2
FUZZ_SECONDS ?= 60
# SystemC runs its processes on coroutine stacks of its own, which LeakSanitizer would scan as
# if they were heap blocks: use_stacks=0 keeps it to real leaks.
SANITIZE_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=use_stacks=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: all deps build run test test-sanitize soak soak-sanitize fuzz bench clean

all: build

# `make deps` checks and installs every time; the builds do once per build directory (a stamp),
# and again when the script changes.
deps:
	@scripts/install-deps.sh
	@mkdir -p $(BUILD) && touch $(BUILD)/.deps-installed $(BUILD)/.deps-simulator

$(BUILD)/.deps-installed: scripts/install-deps.sh
	@scripts/install-deps.sh
	@mkdir -p $(BUILD) && touch $@ $(BUILD)/.deps-simulator

$(BUILD)/.deps-simulator: scripts/install-deps.sh
	@scripts/install-deps.sh --simulator
	@mkdir -p $(BUILD) && touch $@

build: $(BUILD)/.deps-installed
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DSSDTLM_BUILD_TESTS=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Only what the simulator needs is installed and built (a fresh build directory is configured
# without the test suite; `make test` adds it). Aged first (--precondition): the trace reads
# data written before it began.
run: $(BUILD)/.deps-simulator
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  $(if $(wildcard $(BUILD)/CMakeCache.txt),,-DSSDTLM_BUILD_TESTS=OFF) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target ssdtlm
	$(BUILD)/ssdtlm --config configs/default.json --trace traces/umass_financial1.head10k.spc \
	  --format spc --precondition --out $(OUT) --vcd

# The suite, then a few seconds of every fuzz harness (scripts/fuzz.sh).
test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	@if command -v clang++ >/dev/null; then JOBS=$(JOBS) scripts/fuzz.sh --smoke 3; \
	 else echo "test: clang++ missing, fuzz smoke skipped (scripts/install-deps.sh)"; fi

# The suite built with AddressSanitizer and UndefinedBehaviorSanitizer (build-sanitize/). The
# release simulator answers its soak subset's validation (SSDTLM_SOAK_ORACLE_BINARY).
test-sanitize: $(BUILD)/.deps-installed
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target ssdtlm
	@cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSSDTLM_SANITIZE=ON \
	  -DSSDTLM_SOAK_ORACLE_BINARY=$(abspath $(BUILD))/ssdtlm >/dev/null
	@cmake --build build-sanitize -j $(JOBS)
	$(SANITIZE_ENV) ctest --test-dir build-sanitize --output-on-failure -j $(JOBS)

# The combination soak (docs/developing.md#combination-soak): every pair of values of every two
# config options on the small drive, two workloads each, the scoreboard on, on Dask; a failure is
# shrunk to a command (out/soak/soak.json). soak-sanitize: the same on the simulator built with
# ASan and UBSan (build-sanitize/, out/soak-sanitize/).
SOAK = PYTHONPATH=tools python3 -m ssdtlm_tools.cli soak --workers $(JOBS)
soak: $(BUILD)/.deps-installed
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target ssdtlm
	$(SOAK) --binary $(BUILD)/ssdtlm --out out/soak

soak-sanitize: $(BUILD)/.deps-installed
	@cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSSDTLM_SANITIZE=ON >/dev/null
	@cmake --build build-sanitize -j $(JOBS) --target ssdtlm
	$(SANITIZE_ENV) $(SOAK) --binary build-sanitize/ssdtlm --out out/soak-sanitize

# Every fuzz harness for FUZZ_SECONDS each (build-fuzz/; crashes kept in build-fuzz/artifacts/).
fuzz: $(BUILD)/.deps-installed
	JOBS=$(JOBS) scripts/fuzz.sh $(FUZZ_SECONDS)

# Random 4 KiB writes at QD 32 on the NVMe drive, energy on, VCD off: 250k, 1M and 4M
# requests as the founding study's drives work, 1M as shipped; the TPC-C-like trace replayed
# 40 times on the default drive (tools/bench.py); then every trace reader; then what --vcd
# and --fst cost (250k of those writes as shipped); then preconditioning the 1 TB drive,
# saving that state and loading it.
bench: build
	python3 tools/bench.py $(BUILD)/ssdtlm
	python3 tools/bench_readers.py $(BUILD)/ssdtlm
	python3 tools/bench_vcd.py $(BUILD)/ssdtlm
	python3 tools/bench_precondition.py $(BUILD)/ssdtlm

clean:
	rm -rf $(BUILD) build-fuzz build-sanitize out
