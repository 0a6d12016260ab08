# pushluck: every target sets up its own virtual environment from nothing but Python.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test bench fuzz setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/pushluck report all --out reports/out

test: $(STAMP)
	$(PY) -m pytest

# The full fuzz of issue 12 (thousands of malformed invocations of every command family):
# the whole table, 3000 random cases and the Hypothesis tests at full strength.
fuzz: $(STAMP)
	$(PY) tests/fuzz_main.py 3000
	PUSHLUCK_FUZZ=full $(PY) -m pytest -q -p no:cacheprovider tests/test_fuzz.py \
		tests/test_interrupts.py

bench: $(STAMP)
	$(VENV)/bin/pushluck bench

clean:
	rm -rf $(VENV) reports/out/*
