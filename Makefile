# Two commands do all the set-up: `make play` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed
# every core: pytest-xdist; tests marked xdist_group run one after another on one worker
PYTEST  = $(BIN)/python -m pytest -n auto --dist loadgroup

.PHONY: play test quick gates lint types layers bench clean presets

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

play: $(STAMP)
	$(BIN)/hearts play

# The gates first (CI runs `make test`: .ci/run), then the whole suite.
test: gates
	$(PYTEST)

# The loop while working: no gates, no slow tests, stop at the first failure.
quick: $(STAMP)
	$(PYTEST) -m "not slow" -x

gates: lint types layers

lint: $(STAMP)
	$(BIN)/ruff check

# mypy --strict on the package; the modules not yet clean are listed in pyproject.toml
types: $(STAMP)
	$(BIN)/mypy
	@$(BIN)/python .ci/mypy_pending.py

# the layers contract of docs/architecture.md: no import points up, no cycle
layers: $(STAMP)
	$(BIN)/python -m pytest -q tests/test_layers.py

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/rounds.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache

# Re-parse seeds/*.yaml into seeds/presets.json (the fast-loading copy).
presets: $(STAMP)
	$(BIN)/python -c "from hearts_cli.model.rules import compile_presets, seeds_dir; (seeds_dir() / 'presets.json').write_text(compile_presets(), encoding='utf-8')"
