# Quickstart: `make run` solves the bundled examples, `make test` runs every test.
# Both set up what is missing first (see scripts/setup).

PYTHON_BIN := .venv/bin/python
EXAMPLES := $(sort $(wildcard examples/*/*.txt examples/*/*.md))

.PHONY: setup run test bench clean

setup:
	@scripts/setup

run: setup
	@$(PYTHON_BIN) -m crossprolog solve $(EXAMPLES)

test: setup
	@$(PYTHON_BIN) -m pytest -q

bench: setup
	@$(PYTHON_BIN) -c "import ortools, hodoku" 2>/dev/null || .venv/bin/pip install --quiet --disable-pip-version-check -e ".[bench]"
	@$(PYTHON_BIN) bench/run.py

clean:
	rm -rf .venv build *.egg-info .pytest_cache prolog/*.qlf
