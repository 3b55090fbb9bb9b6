# The two commands: `make run` and `make test`. Both install what is missing first.
BUILD ?= build
OUT ?= out/default
JOBS ?= 2
FUZZ_SECONDS ?= 60
# SystemC runs its processes on coroutine stacks of its own, which LeakSanitizer would scan as
# if they were heap blocks: use_stacks=0 keeps it to real leaks.
SANITIZE_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=use_stacks=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: all deps build run test test-sanitize fuzz bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/ssdtlm --config configs/default.json --trace traces/umass_financial1.head10k.spc \
	  --format spc --out $(OUT) --vcd

# The suite, then a few seconds of every fuzz harness (scripts/fuzz.sh).
test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	@if command -v clang++ >/dev/null; then JOBS=$(JOBS) scripts/fuzz.sh --smoke 3; \
	 else echo "test: clang++ missing, fuzz smoke skipped (scripts/install-deps.sh)"; fi

# The suite built with AddressSanitizer and UndefinedBehaviorSanitizer (build-sanitize/).
test-sanitize: deps
	@cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSSDTLM_SANITIZE=ON >/dev/null
	@cmake --build build-sanitize -j $(JOBS)
	$(SANITIZE_ENV) ctest --test-dir build-sanitize --output-on-failure -j $(JOBS)

# Every fuzz harness for FUZZ_SECONDS each (build-fuzz/; crashes kept in build-fuzz/artifacts/).
fuzz: deps
	JOBS=$(JOBS) scripts/fuzz.sh $(FUZZ_SECONDS)

# 1M random 4 KiB writes at QD 32 on the NVMe drive, energy on, VCD off: first as the
# founding study's drives work (no write buffer, no multi-plane, no cache program, no SLC
# cache, channel-first page allocation), then as shipped; then every trace reader.
BENCH_LOAD = --workload rw=randwrite,bs=4k,qd=32,count=1000000,seed=1 --bench --quiet
bench: build
	@mkdir -p out/bench
	python3 -c "import json; d = json.load(open('configs/nvme_tlc_1tb.json')); \
	  d['dram']['write_buffer_mb'] = 0; d['flash']['multiplane'] = False; \
	  d['flash']['cache_program'] = False; d['ftl']['allocation'] = 'channel_first'; \
	  d['ftl']['slc_cache_blocks_per_plane'] = 0; \
	  json.dump(d, open('out/bench/plain.json', 'w'), indent=2)"
	@echo "bench: without write buffer, multi-plane, cache program and SLC cache"
	$(BUILD)/ssdtlm --config out/bench/plain.json $(BENCH_LOAD) --out out/bench/plain
	@echo "bench: as shipped (write buffer, multi-plane, cache program, SLC cache)"
	$(BUILD)/ssdtlm --config configs/nvme_tlc_1tb.json $(BENCH_LOAD) --out out/bench/shipped
	python3 tools/bench_readers.py $(BUILD)/ssdtlm
	python3 tools/bench_precondition.py $(BUILD)/ssdtlm

clean:
	rm -rf $(BUILD) build-fuzz build-sanitize out
