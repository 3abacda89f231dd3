# The two set-up commands in the README are `make demo` and `make test`; both install
# everything they need on a fresh clone (venv, pip packages, npm packages).
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
LINT_DIR := tools/cypher-lint
NODE_STAMP := $(LINT_DIR)/node_modules/.installed-stamp
DEMO_DIR ?= .kg/demo
DEMO_QUESTION ?= What are NMHT's priorities for the next 12 months?
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_VERBOSITY := error

.PHONY: setup demo test lint bench clean

setup: $(STAMP) $(NODE_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check --upgrade pip
	# The CPU wheel first: an unpinned torch from a dependency would pull CUDA builds.
	$(BIN)/python -m pip install -q --disable-pip-version-check torch==2.13.0
	$(BIN)/python -m pip install -q --disable-pip-version-check -e ".[dev]"
	touch $@

$(NODE_STAMP): $(wildcard $(LINT_DIR)/package-lock.json)
	@if [ -f $(LINT_DIR)/package.json ]; then \
	  command -v npm >/dev/null || { apt-get update -qq && apt-get install -y -qq nodejs npm; }; \
	  npm ci --prefix $(LINT_DIR) --no-audit --no-fund --loglevel=error; \
	fi
	mkdir -p $(LINT_DIR)/node_modules && touch $@

demo: setup
	KG_DATA_DIR=$(DEMO_DIR) $(BIN)/kg init --reset
	KG_DATA_DIR=$(DEMO_DIR) $(BIN)/kg ingest demo
	KG_DATA_DIR=$(DEMO_DIR) $(BIN)/kg stats
	KG_DATA_DIR=$(DEMO_DIR) $(BIN)/kg ask "$(DEMO_QUESTION)"

test: setup
	$(BIN)/python -m pytest -q -p no:cacheprovider tests

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: setup
	rm -rf .kg/bench && KG_DATA_DIR=.kg/bench bash -c "time $(BIN)/kg ingest ../shared/bench/multihop/musique/musique_train_corpus.json && time $(BIN)/kg ingest ../shared/bench/multihop/musique/musique_train_corpus.json && $(BIN)/kg stats --json"

clean:
	rm -rf .kg test-output
