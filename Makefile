# The two commands of the README. Each installs what is missing, configures and builds.
PRESET ?= release
BUILD_DIR := build/$(PRESET)
RIDGE := $(BUILD_DIR)/apps/ridge/ridge

.PHONY: run test fuzz deps configure build bench bench-host bench-overhead bench-python bench-profile gpu-bundle gpu-check format tidy clean

run: build
	$(RIDGE) tour

# The browser test opens charts in headless Chromium and reads its screenshots with PIL; the
# Python module's tests run pytest and execute the example notebook.
test: build
	@scripts/install-deps.sh chromium python3-pil python3-pytest jupyter-nbconvert python3-ipykernel python3-torch
	ctest --preset $(PRESET)

# Each libFuzzer target for FUZZ_SECONDS under ASan+UBSan (clang); fails on any finding.
FUZZ_SECONDS ?= 60
fuzz:
	@scripts/install-deps.sh clang-14 libclang-rt-14-dev
	scripts/fuzz.sh $(FUZZ_SECONDS)

deps:
	@scripts/install-deps.sh

configure: deps
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET)

# Side-by-side speed of `ridge tour` against the Python reference (needs ../shared/seeds).
bench: build
	@scripts/install-deps.sh python3-numpy hyperfine
	bench/tour_vs_reference.sh $(BUILD_DIR)

# ridge's measured ceilings against likwid-bench and numpy on this machine (a few minutes).
bench-host: build
	@scripts/install-deps.sh python3-numpy likwid
	bench/compare-host.sh $(BUILD_DIR)

# What the expected time adds to the 1,000-point sweep, in instructions (callgrind).
bench-overhead: build
	@scripts/install-deps.sh valgrind
	bench/expected_overhead.sh $(BUILD_DIR)

# 10,000 ridge.op calls from Python, in process, beside a subprocess per call.
bench-python: build
	PYTHONPATH=$(BUILD_DIR)/python /usr/bin/python3 bench/python_calls.py $(BUILD_DIR)

# ridge profile on a 1 GB trace made on the spot, beside Python's json.load of a 256 MB one.
bench-profile: build
	bench/profile_scale.sh $(BUILD_DIR)

# The CUDA backend's check on a machine with an NVIDIA GPU (docs/measure.md). gpu-bundle builds
# here and packs what a GPU machine without a package registry needs; gpu-check runs there.
gpu-bundle: deps
	scripts/gpu-bundle.sh

GPU_OUT ?= gpu-check-results
gpu-check:
	scripts/gpu-check.sh $(GPU_OUT)

format:
	clang-format -i $$(git ls-files '*.h' '*.cc' '*.cu')

tidy: configure
	clang-tidy -p $(BUILD_DIR) $$(git ls-files 'src/*.cc' 'apps/*.cc')

clean:
	rm -rf build
