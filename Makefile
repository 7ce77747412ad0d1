# Two commands do all the set-up: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-slow lint typecheck bench clean compile

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,dask]'
	touch $(STAMP)

# the batch kernel compiled ahead of time (mighty_sim.engine.aot), so that runs start without
# Numba; it checks its key (kernel sources, versions, CPU) and builds only when needed.
# It needs a C compiler: without one, runs use the JIT kernel (hence the leading -)
compile: $(STAMP)
	-$(PY) -m mighty_sim compile

demo: compile
	$(PY) -m mighty_sim demo

test: lint compile
	$(PY) -m pytest -q

test-slow: $(STAMP)
	$(PY) -m pytest -q -m slow

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks analysis
	$(VENV)/bin/mypy

bench: compile
	$(PY) benchmarks/bench_rules.py --out benchmarks/results/rules.json
	$(PY) benchmarks/bench_simulate.py
	$(PY) benchmarks/bench_analyze.py --dataset out/bench-analyze
	$(PY) benchmarks/bench_dask.py
	$(PY) benchmarks/bench_pimc.py
	$(PY) benchmarks/bench_decks.py
	$(PY) benchmarks/bench_dd.py

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache
