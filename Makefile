# The two set-up commands in the README are `make demo` and `make test`; both install
# everything they need on a fresh clone (venv, pip packages, npm packages).
#
# `make demo` installs the package alone: its embedder runs on onnxruntime (no PyTorch, a venv
# of about 1 GB) and it needs no root. `make test` adds the `torch` and `dev` extras (PyPI's
# torch 2.13.0 is its CUDA build: 16 nvidia-* packages and triton, about 6 GB), the cypher
# linter's npm packages, and Debian's chromium and docker-compose for the browser and compose
# tests (apt-get, as root, when they are missing).
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEV_STAMP := $(VENV)/.installed-dev-stamp
PIP := $(BIN)/python -m pip install -q --disable-pip-version-check
LINT_DIR := tools/cypher-lint
NODE_STAMP := $(LINT_DIR)/node_modules/.installed-stamp
EXPLORER_DIR := tools/explorer
EXPLORER_STAMP := $(EXPLORER_DIR)/node_modules/.installed-stamp
DEMO_DIR ?= .kg/demo
DEMO_QUESTION ?= What are NMHT's priorities for the next 12 months?
# A HippoRAG-format multi-hop folder (<name>/<name>_train_corpus.json, <name>_train.json) for
# the bench targets.
BENCH_DATA ?= ../shared/bench/multihop
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_VERBOSITY := error

# Neo4j + GDS + APOC for the Neo4j tests: jars from Maven Central (tools/neo4j/pom.xml), a
# throwaway server under .kg/test-neo4j on its own Bolt port (kg/neo4j_server.py).
NEO4J_DIR := tools/neo4j
NEO4J_STAMP := $(NEO4J_DIR)/lib/.resolved-stamp
NEO4J_TEST_HOME ?= .kg/test-neo4j
NEO4J_TEST_URI ?= bolt://127.0.0.1:7688
NEO4J_TEST_PASSWORD ?= kg-first-test
NEO4J_TEST_ENV = KG_NEO4J__URI=$(NEO4J_TEST_URI) KG_NEO4J__PASSWORD=$(NEO4J_TEST_PASSWORD) \
  KG_NEO4J_SERVER__HTTP_PORT=0
NEO4J_CLI = $(NEO4J_TEST_ENV) $(BIN)/kg neo4j
TESTS ?= tests

.PHONY: setup setup-dev demo test lint bench bench-qa bench-qa-unseen clean reliability llm llm-stop neo4j-jars neo4j-start neo4j-stop

# What `kg` itself needs: the package (onnx embedder) and the explorer's cytoscape.js.
setup: $(STAMP) $(EXPLORER_STAMP)

# What the test suite and the benchmarks add. The browser tests drive Debian's chromium, never
# a browser downloaded by Playwright; docker-compose.yml is checked by `docker compose config`
# (v2) or `docker-compose` (v1), no engine needed.
setup-dev: setup $(DEV_STAMP) $(NODE_STAMP)
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
	@docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null || \
	  (apt-get update -qq && apt-get install -y -qq docker-compose)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e .
	touch $@

# torch pinned first (the `torch` extra pins the same version), then the extras.
$(DEV_STAMP): $(STAMP) pyproject.toml
	$(PIP) torch==2.13.0
	$(PIP) -e ".[torch,dev]"
	touch $@

$(NODE_STAMP): $(wildcard $(LINT_DIR)/package-lock.json)
	@if [ -f $(LINT_DIR)/package.json ]; then \
	  command -v npm >/dev/null || { apt-get update -qq && apt-get install -y -qq nodejs npm; }; \
	  npm ci --prefix $(LINT_DIR) --no-audit --no-fund --loglevel=error; \
	fi
	mkdir -p $(LINT_DIR)/node_modules && touch $@

# cytoscape.js for the explorer page; the API serves it from node_modules.
$(EXPLORER_STAMP): $(EXPLORER_DIR)/package-lock.json
	command -v npm >/dev/null || { apt-get update -qq && apt-get install -y -qq nodejs npm; }
	npm ci --prefix $(EXPLORER_DIR) --no-audit --no-fund --loglevel=error
	touch $@

# The demo store is .kg/demo: `export KG_DATA_DIR=.kg/demo` to use it (README, "A first session").
demo: setup
	KG_DATA_DIR=$(DEMO_DIR) $(BIN)/kg init --reset
	KG_DATA_DIR=$(DEMO_DIR) $(BIN)/kg ingest demo
	cp demo/examples.jsonl $(DEMO_DIR)/examples.jsonl  # the demo's few-shot examples (agents/fewshot.py)
	KG_DATA_DIR=$(DEMO_DIR) $(BIN)/kg stats
	KG_DATA_DIR=$(DEMO_DIR) $(BIN)/kg ask "$(DEMO_QUESTION)"
	@echo "The demo store is $(DEMO_DIR): source $(BIN)/activate && export KG_DATA_DIR=$(DEMO_DIR)"

# The whole suite, the Neo4j tests against a real server and the LLM tests against the local
# 0.5B model's (tests/llm/conftest.py): both started first, stopped on any exit (the trap),
# tests failing included; started here, not by each worker, and named to the tests by the
# KG_LLM_TEST_* variables tests/llm/conftest.py reads. TEST_WORKERS pytest-xdist workers share
# the files (tests/conftest.py keeps a file, all Neo4j tests, and all the model's tests each on
# one worker). The suite runs the torch embedder (tests/conftest.py); the onnx one has its own.
TEST_WORKERS ?= 2
LLM_TEST_DIR ?= .kg/llm
LLM_TEST_MODEL ?= qwen2.5-coder-0.5b
LLM_TEST_PORT ?= 8765
LLM_TEST_CLI = KG_DATA_DIR=$(LLM_TEST_DIR) KG_LLM_SERVER__MODEL=$(LLM_TEST_MODEL) \
  KG_LLM_SERVER__PORT=$(LLM_TEST_PORT) $(BIN)/kg llm
test: setup-dev neo4j-jars
	set -e; trap '$(NEO4J_CLI) stop --home $(NEO4J_TEST_HOME); $(LLM_TEST_CLI) stop' EXIT; \
	$(NEO4J_CLI) start --home $(NEO4J_TEST_HOME); \
	$(LLM_TEST_CLI) serve; \
	NEO4J_URI=$(NEO4J_TEST_URI) NEO4J_USER=neo4j NEO4J_PASSWORD=$(NEO4J_TEST_PASSWORD) \
	KG_LLM_TEST_DIR=$(LLM_TEST_DIR) KG_LLM_TEST_MODEL=$(LLM_TEST_MODEL) \
	KG_LLM_TEST_PORT=$(LLM_TEST_PORT) \
	  $(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadgroup \
	  --durations=30 $(TESTS)

# Neo4j Community, GDS (open) and APOC core into tools/neo4j/{lib,plugins,plugin-lib}.
neo4j-jars: $(NEO4J_STAMP)

$(NEO4J_STAMP): $(NEO4J_DIR)/pom.xml $(wildcard $(NEO4J_DIR)/maven/*/pom.xml)
	command -v mvn >/dev/null || { apt-get update -qq && apt-get install -y -qq maven; }
	rm -rf $(NEO4J_DIR)/lib $(NEO4J_DIR)/plugins $(NEO4J_DIR)/plugin-lib
	mvn -B -q -f $(NEO4J_DIR)/pom.xml package
	touch $@

# The test server by hand (e.g. to run single Neo4j tests with NEO4J_URI=$(NEO4J_TEST_URI)).
neo4j-start: setup-dev neo4j-jars
	$(NEO4J_CLI) start --home $(NEO4J_TEST_HOME)

neo4j-stop: setup
	$(NEO4J_CLI) stop --home $(NEO4J_TEST_HOME)

lint: setup-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# STORE=neo4j runs the same benchmarks on the Neo4j database of KG_NEO4J__* (emptied and
# rebuilt per corpus: one corpus at a time) and writes *-neo4j.json beside the embedded results.
STORE ?= embedded
BENCH_SUFFIX = $(if $(filter neo4j,$(STORE)),-neo4j,)

bench: setup-dev
	set -e; M=$(BENCH_DATA); P=$${BENCH_PRESETS:-bm25,dense,hybrid,graph,agent}; \
	R=.kg/bench/results; X=$(BENCH_SUFFIX); mkdir -p bench/results $$R; \
	$(BIN)/kg bench multihop --corpus $$M/musique/musique_train_corpus.json --store $(STORE) \
	  --questions $$M/musique/musique_train.json --presets $$P \
	  --name musique --out $$R/musique$$X.json; \
	$(BIN)/kg bench multihop --corpus $$M/hotpotqa/hotpotqa_train_corpus.json --store $(STORE) \
	  --questions $$M/hotpotqa/hotpotqa_train.json --presets $$P \
	  --name hotpotqa --out $$R/hotpotqa$$X.json; \
	$(BIN)/kg bench combine $$R/musique$$X.json $$R/hotpotqa$$X.json \
	  --out bench/results/multihop$$X.json --png bench/results/multihop$$X.png; \
	$(BIN)/kg bench latency --corpus $$M/2wikimultihopqa/2wikimultihopqa_corpus.json \
	  --store $(STORE) --presets graph,hybrid,dense --questions 100 \
	  --out bench/results/latency$$X.json; \
	$(BIN)/kg bench table --multihop bench/results/multihop$$X.json \
	  --latency bench/results/latency$$X.json

# Answer quality of kg ask, offline unless KG_LLM__* is set and QA_FLAGS=--llm (issue 17).
bench-qa: setup-dev
	set -e; M=$(BENCH_DATA); mkdir -p .kg/bench/results; \
	for c in hotpotqa musique; do \
	  $(BIN)/kg bench qa --corpus $$M/$$c/$${c}_train_corpus.json \
	    --questions $$M/$$c/$${c}_train.json $(QA_FLAGS) --out .kg/bench/results/qa-$$c.json; \
	done; \
	$(BIN)/kg bench qa --corpus $$M/2wikimultihopqa/2wikimultihopqa_corpus.json \
	  --questions bench/questions/2wiki-dev.json $(QA_FLAGS) --out .kg/bench/results/qa-2wiki-dev.json

# Questions no round has tuned on (bench/questions/README.md): the same corpora, new questions.
bench-qa-unseen: setup-dev
	set -e; M=$(BENCH_DATA); \
	for c in hotpotqa/hotpotqa_train_corpus:hotpotqa musique/musique_train_corpus:musique \
	  2wikimultihopqa/2wikimultihopqa_corpus:2wiki; do \
	  $(BIN)/kg bench qa --corpus $$M/$${c%%:*}.json --questions bench/questions/$${c##*:}-unseen.json \
	    $(QA_FLAGS) --out bench/results/qa-unseen-$${c##*:}.json; \
	done

clean:
	rm -rf .kg test-output

# The local LLM (KG_LLM_SERVER__MODEL=qwen2.5-coder-1.5b for better answers): assembles the
# model once, starts the server in the background and prints the KG_LLM__* lines to export.
# `make test` needs nothing from here: tests/llm/conftest.py starts it (model cached in .kg/llm).
llm: setup
	KG_DATA_DIR=.kg/llm $(BIN)/kg llm serve

llm-stop: setup
	KG_DATA_DIR=.kg/llm $(BIN)/kg llm stop

# Crash recovery, load, OpenAPI fuzz and injection figures (issue 10), then the same on a Neo4j
# server the run starts on its own port (issue 16; `--skip neo4j` leaves it out).
reliability: setup-dev neo4j-jars
	$(BIN)/python -m bench.reliability.run
