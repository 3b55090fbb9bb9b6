# The two commands: `make run` and `make test`. Both install what is missing first.
BUILD ?= build
OUT ?= out/default
JOBS ?= 2

.PHONY: all deps build run test bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/ssdtlm --config configs/default.json --trace traces/umass_financial1.head10k.spc \
	  --format spc --out $(OUT) --vcd

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

bench: build
	$(BUILD)/ssdtlm --config configs/nvme_tlc_1tb.json \
	  --workload rw=randwrite,bs=4k,qd=32,count=1000000,seed=1 --out out/bench --bench
	python3 tools/bench_readers.py $(BUILD)/ssdtlm

clean:
	rm -rf $(BUILD) out
