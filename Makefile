# One command each: `make run` (set up, check the definitions, score every example)
# and `make test` (set up, lint, type-check, test). `make bench` measures speed.
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: setup run test bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

run: setup
	$(BIN)/pnp validate
	@for file in examples/*.yaml; do \
		game=$$(basename $$file .yaml); \
		echo "== pnp score $$game $$file"; \
		$(BIN)/pnp score $$game $$file || exit $$?; \
	done

test: setup
	$(BIN)/ruff check pnp tests bench
	$(BIN)/mypy
	$(BIN)/pytest

bench: setup
	$(BIN)/python bench/score.py

clean:
	rm -rf $(VENV) output/* .pytest_cache .mypy_cache .ruff_cache .hypothesis
