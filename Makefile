# The README's two commands: `make sweep` (the default saturation sweep) and `make test` (every
# test). Both set up the machine first (scripts/setup.sh: Debian packages, .venv with the
# package's dependencies from PyPI at constraints.txt's versions), configure and build.
BUILD ?= build
JOBS ?= 2
PY := .venv/bin/python

.PHONY: setup setup-notebook setup-test build sweep test lint notebook test-cpp test-python bench \
	bench-cluster validate roofline clean

# What a sweep needs; the notebooks' and the tests' extras on top (scripts/setup.sh PROFILE).
setup: .venv/.setup-base
setup-notebook: .venv/.setup-notebook
setup-test: .venv/.setup-test
.venv/.setup-%: scripts/setup.sh pyproject.toml constraints.txt
	bash scripts/setup.sh $*
	touch $@

# A direct CMake build (incremental; ctest runs in it), writing _core into bindings/lockstep/,
# where the editable install finds it. pybind11 comes from .venv.
build: setup
	cmake -S . -B $(BUILD) -DPython_EXECUTABLE=$(CURDIR)/$(PY)
	cmake --build $(BUILD) -j$(JOBS)

sweep: build
	$(PY) -m lockstep sweep configs/default.toml --offered 0.02:0.40:0.02 --out results/default

# Every check always runs (so every summary prints); the exit status says whether any failed.
test: setup-test build
	@rc=0; $(MAKE) --no-print-directory lint || rc=1; \
	$(MAKE) --no-print-directory test-cpp || rc=1; \
	$(MAKE) --no-print-directory test-python || rc=1; exit $$rc

# ruff and mypy on the Python package (configured in pyproject.toml).
lint:
	.venv/bin/ruff check bindings/lockstep
	$(PY) -m mypy

# JupyterLab on 127.0.0.1 with the notebooks open, on the project's `lockstep` kernel.
notebook: setup-notebook build
	bash scripts/notebook.sh

test-cpp:
	cd $(BUILD) && ctest --output-on-failure

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

# The full BookSim comparison (all seven reference configurations, ~1-2 min on 2 cores);
# rewrites the table in docs/validation.md. `make test` runs a subset of it.
validate: build
	$(PY) scripts/validate_booksim.py

clean:
	rm -rf $(BUILD) results
