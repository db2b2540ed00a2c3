# Two commands do all the set-up: `make play` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed
# every core: pytest-xdist; tests marked xdist_group run one after another on one worker
PYTEST  = $(BIN)/python -m pytest -n auto --dist loadgroup

# The suite starts hundreds of Python processes (the command line, pseudo-terminals, golden
# cases): each keeps the bytecode it compiles (__pycache__/, ignored by git) for the next,
# even where the environment sets PYTHONDONTWRITEBYTECODE (then every one of them compiled
# the package again: a third of a terminal test's CPU).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: play test suite quick gates lint types layers bench clean presets

# The venv gets pip from the system's pip when it can (ensurepip's older pip, then upgraded,
# takes three times as long); pip is upgraded only when the venv is made, not at every change
# of pyproject.toml. --no-compile: pip would compile every module of every package (half its
# time); what the program and the tests import is compiled once, as it is first imported.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	@$(BIN)/python -m pip --version >/dev/null 2>&1 \
		|| $(PYTHON) -m pip --python $(BIN)/python install --quiet --upgrade pip 2>/dev/null \
		|| { $(BIN)/python -m ensurepip && $(BIN)/python -m pip install --quiet --upgrade pip; }
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test]'
	@touch $(STAMP)

play: $(STAMP)
	$(BIN)/hearts play

# What CI runs (.ci/run). ruff first (a second); then mypy beside the whole suite, which
# holds the layers test (tests/test_layers.py): mypy alone would leave a core idle. `make test`
# fails if any of them fails (a failing mypy is reported as it ends, the suite still runs out).
test: lint
	@$(MAKE) --no-print-directory -j2 types suite

suite: $(STAMP)
	$(PYTEST)

# The loop while working: no gates, no slow tests, stop at the first failure.
quick: $(STAMP)
	$(PYTEST) -m "not slow" -x

gates: lint types layers

lint: $(STAMP)
	$(BIN)/ruff check

# mypy --strict on the package; the modules not yet clean are listed in pyproject.toml. Then
# the ratchet on Any (.ci/mypy_any.py: mypy --disallow-any-expr, a cache of its own, the
# ceilings per package). Its lines come out together when it ends (in `make test` it runs
# beside the suite's).
types: $(STAMP)
	@out=$$($(BIN)/mypy 2>&1 && $(BIN)/python .ci/mypy_pending.py 2>&1 \
		&& $(BIN)/python .ci/mypy_any.py 2>&1); status=$$?; \
		printf '\nmypy --strict (make types): %s\n' "$$out"; exit $$status

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
