# Two commands do all the set-up: `make play` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed

.PHONY: play test bench clean presets

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

play: $(STAMP)
	$(BIN)/hearts play

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/rounds.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis

# Re-parse seeds/*.yaml into seeds/presets.json (the fast-loading copy).
presets: $(STAMP)
	$(BIN)/python -c "from hearts_cli.model.rules import compile_presets, seeds_dir; (seeds_dir() / 'presets.json').write_text(compile_presets(), encoding='utf-8')"
