# Vakt: `make run` brings the whole system up on the embedded default (SQLite, no Redis);
# `make test` runs the whole suite. Both create the virtual environment on first use.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)
PYTEST_WORKERS ?= 2

.PHONY: run test test-fast bench mutation clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

run: $(STAMP)
	$(BIN)/python scripts/run.py

test: $(STAMP)
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -q $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	@echo "Benchmarks print figures; run them one by one: $(BIN)/python bench/<name>.py --help"

# Mutation testing of the critical modules, one target after the other (README, Reliability);
# MUTATION_TARGETS="facts auth-credentials" runs some, `scripts/mutation.py --list` names them.
mutation: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,mutation]'
	$(BIN)/python scripts/mutation.py $(MUTATION_TARGETS)

clean:
	rm -rf $(VENV) var *.egg-info
