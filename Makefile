# pushluck: every target sets up its own virtual environment from nothing but Python.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test bench readme setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@echo "compiling every kernel once into the cache (a minute or two; later runs are fast)…"
	$(VENV)/bin/pushluck bench --warm
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(VENV)/bin/pushluck report all --out reports/out

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(VENV)/bin/pushluck bench

readme: $(STAMP)
	$(PY) docs/readme_examples.py

clean:
	rm -rf $(VENV) reports/out/*
