# The README's two commands: `make sweep` (the default saturation sweep) and `make test` (every
# test). Both set up the machine first (scripts/setup.sh: Debian packages, .venv with the
# package's dependencies from PyPI at constraints.txt's versions), configure and build.
BUILD ?= build
JOBS ?= 2
PY := .venv/bin/python
# CMake 3.24 or newer: PyPI's in .venv where setup.sh put one (the system's was older), else the
# system's. Expanded when a recipe runs, after setup.
CMAKE = $(if $(wildcard .venv/bin/cmake),$(CURDIR)/.venv/bin/cmake,cmake)
CTEST = $(if $(wildcard .venv/bin/ctest),$(CURDIR)/.venv/bin/ctest,ctest)

.PHONY: setup setup-notebook setup-test setup-docs build sweep test lint notebook test-cpp \
	test-python bench bench-cluster validate roofline audit fidelity soak fuzz docs clean

# What a sweep needs; the notebooks' and the tests' extras on top (scripts/setup.sh PROFILE).
setup: .venv/.setup-base
setup-notebook: .venv/.setup-notebook
setup-test: .venv/.setup-test
setup-docs: .venv/.setup-docs
.venv/.setup-%: scripts/setup.sh pyproject.toml constraints.txt
	bash scripts/setup.sh $*
	touch $@

# A direct CMake build (incremental; ctest runs in it), writing _core into bindings/lockstep/,
# where the editable install finds it. pybind11 comes from .venv.
build: setup
	$(CMAKE) -S . -B $(BUILD) -DPython_EXECUTABLE=$(CURDIR)/$(PY)
	$(CMAKE) --build $(BUILD) -j$(JOBS)

sweep: build
	$(PY) -m lockstep sweep configs/default.toml --offered 0.02:0.40:0.02 --out results/default

# Every check always runs (so every summary prints); the exit status says whether any failed.
# The site is built before pytest, whose browser test opens it; pytest runs every notebook, so
# the site executes only the one that test opens (docs/conf.py).
test: setup-test build
	@rc=0; $(MAKE) --no-print-directory lint || rc=1; \
	$(MAKE) --no-print-directory test-cpp || rc=1; \
	LOCKSTEP_DOCS_EXECUTE_ONLY=01_saturation_curves $(MAKE) --no-print-directory docs || rc=1; \
	$(MAKE) --no-print-directory test-python || rc=1; exit $$rc

# ruff on every Python file (the package, tests, scripts, benchmarks, docs); mypy on the package
# (both configured in pyproject.toml).
lint:
	.venv/bin/ruff check bindings/lockstep tests scripts benchmarks docs
	$(PY) -m mypy

# JupyterLab on 127.0.0.1 with the notebooks open, on the project's `lockstep` kernel.
notebook: setup-notebook build
	bash scripts/notebook.sh

test-cpp:
	cd $(BUILD) && $(CTEST) --output-on-failure

test-python:
	$(PY) -m pytest tests/python -v

bench: build
	./$(BUILD)/lockstep_bench
	$(PY) -m lockstep bench

# Points per second of a 200-point sweep, locally and on a 2-worker local Dask cluster.
bench-cluster: build
	$(PY) benchmarks/cluster_sweep.py

# Bytes of state per router-cycle of the GPU's fused cycle, counted on the CPU by tracing its
# loads and stores (docs/performance.md, "Roofline of a cycle"; about a minute).
roofline: build
	$(PY) scripts/bytes_per_router_cycle.py reference

# The write audit (host/backend/write_audit.hpp): the GPU schedules' tests on the CPU, built with
# every store reported, fail where two GPU threads (two lanes of a tile between its syncs, two
# elements, an element and a role) would write one byte in one cycle: races a CPU's loop cannot
# show and a GPU's would (a CPU-only build of its own in build-audit; ~15 min on 2 cores).
AUDIT_FILTER ?= Schedule.*:WriteAudit.*
audit: setup-test
	$(CMAKE) -S . -B build-audit -DLOCKSTEP_CUDA=OFF -DLOCKSTEP_PYTHON=OFF \
	  -DLOCKSTEP_WRITE_AUDIT=ON -DPython_EXECUTABLE=$(CURDIR)/$(PY)
	$(CMAKE) --build build-audit -j$(JOBS) --target lockstep_tests
	./build-audit/lockstep_tests --gtest_filter='$(AUDIT_FILTER)'

# The full BookSim comparison (all seven reference configurations, ~1-2 min on 2 cores);
# rewrites the table in docs/validation.md. `make test` runs a subset of it.
validate: build
	$(PY) scripts/validate_booksim.py

# The documentation site, build/site (Sphinx, docs/conf.py): the guides, the configuration
# reference and command line generated from the code, the API from the docstrings, the design
# notes and every notebook executed (short runs; outputs cached in build/jupyter_cache).
# Warnings are errors.
docs: setup-docs build
	$(PY) -m sphinx -W -q -c docs . $(BUILD)/site
	@echo "site: $(BUILD)/site/index.html"

# The fidelity ledger, docs/fidelity.md: every measurable claim of the five source documents,
# measured on the models with their full runs (bindings/lockstep/fidelity; about 2.5 hours on 2
# cores, a third of it Blue Gene/L's Figures 7-9 on 16x16x16; `make test` reruns the quick
# versions). The measurements go to docs/fidelity.csv, so
# FIDELITY="--family bgl" (or --claims ID..., --missing, --render) measures only some and keeps
# the rest. Exits non-zero when a claim's status moved from what the ledger recorded.
FIDELITY ?=
fidelity: build
	$(PY) scripts/fidelity.py $(FIDELITY)

# Invariant soaks: 10^9 router-cycles a family, debug checks every cycle, loads past saturation
# (benchmarks/soak.py; about an hour of one core). SOAK_ROUTER_CYCLES=1e7 for a quick look.
SOAK_ROUTER_CYCLES ?= 1e9
soak: build
	$(PY) benchmarks/soak.py --router-cycles $(SOAK_ROUTER_CYCLES)

# Coverage-guided fuzzing (docs/validation.md): each target in fuzz/ runs FUZZ_SECONDS under
# libFuzzer with AddressSanitizer and UndefinedBehaviorSanitizer, from the committed corpus;
# clang-14 and libFuzzer's runtime are installed if missing (with sudo when not root). New
# inputs collect in build-fuzz/corpus/<target>, a finding's input in build-fuzz/findings/<target>/.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := config_text edge_file routing_table t3e_registers state_arrays
FUZZ_FLAGS := -fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -g -O1
fuzz: setup
	@ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 && \
	  command -v clang++-14 >/dev/null || \
	  (sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); $$sudo apt-get update -q && \
	   DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q clang-14 libclang-rt-14-dev \
	     libomp-14-dev)
	$(CMAKE) -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_FLAGS="$(FUZZ_FLAGS)" \
	  -DPython_EXECUTABLE=$(CURDIR)/$(PY) -DLOCKSTEP_FUZZ=ON -DLOCKSTEP_CUDA=OFF \
	  -DLOCKSTEP_PYTHON=OFF -DLOCKSTEP_TESTS=OFF
	$(CMAKE) --build build-fuzz -j$(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS)) config_dict
	./build-fuzz/fuzz/config_dict > build-fuzz/config_text.dict
	@rc=0; for t in $(FUZZ_TARGETS); do \
	  mkdir -p build-fuzz/corpus/$$t build-fuzz/findings/$$t; \
	  cp -n fuzz/corpus/$$t/* build-fuzz/corpus/$$t/; \
	  ./build-fuzz/fuzz/fuzz_$$t build-fuzz/corpus/$$t -max_total_time=$(FUZZ_SECONDS) \
	    $$([ $$t = config_text ] && echo -dict=build-fuzz/config_text.dict) \
	    -artifact_prefix=build-fuzz/findings/$$t/ -print_final_stats=1 || rc=1; \
	done; exit $$rc

clean:
	rm -rf $(BUILD) results
