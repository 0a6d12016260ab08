# pushluck: every target sets up its own virtual environment from nothing but Python.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# the suite runs on every core (pytest-xdist), one test file per worker at a time
TEST_WORKERS ?= auto

.PHONY: run test bench fuzz readme setup clean mutate site-check shipped-cache

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@echo "compiling every kernel once into the cache (minutes; later runs are fast)…"
	@# two processes: Trash Pandas' kernels alone take about as long as all the others
	$(VENV)/bin/pushluck bench --warm --jobs 2
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/pushluck report all --out reports/out

# Open the site `make run` wrote in headless Chromium (Debian: apt-get install chromium) and save
# a screenshot of the index and of every game page under reports/out/screenshots/.
site-check: $(STAMP)
	$(PY) -m analyzer.site_check reports/out

test: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

# The full fuzz of issue 12 (thousands of malformed invocations of every command family):
# the whole table, 3000 random cases and the Hypothesis tests at full strength.
fuzz: $(STAMP)
	$(PY) tests/fuzz_main.py 3000
	PUSHLUCK_FUZZ=full $(PY) -m pytest -q -p no:cacheprovider tests/test_fuzz.py \
		tests/test_interrupts.py

bench: $(STAMP)
	$(VENV)/bin/pushluck bench

# The cache entries shipped with the package (analyzer/shipped_cache.py): make them again after
# changing the code in their keys (tests/test_shipped_cache.py says when).
shipped-cache: $(STAMP)
	$(PY) -m analyzer.shipped_cache

readme: $(STAMP)
	$(PY) docs/readme_examples.py
	$(PY) docs/cli_reference.py

# Mutation testing (not part of `make test`; an hour or more on 2 cores): mutmut over the
# pure-Python modules, one group at a time (GROUPS in tests/mutation/run_mutmut.py), then the
# curated planted bugs in the Numba kernels (tests/mutation/kernel_bugs.toml). Both work in
# scratch copies under /tmp.
mutate: $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,mutate]'
	$(PY) tests/mutation/run_mutmut.py
	$(PY) tests/mutation/kernel_bugs.py

clean:
	rm -rf $(VENV) reports/out/*
