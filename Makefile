# One command each: `make run` (set up, check the definitions, score every example)
# and `make test` (set up, lint, type-check, test). `make bench` measures speed.
VENV ?= .venv
BIN = $(VENV)/bin

SYSTEM_TOOLS = pdftoppm pdffonts qpdf
SYSTEM_LIBRARIES = libpango-1.0.so.0 libpangoft2-1.0.so.0 libharfbuzz-subset.so.0
SYSTEM_PACKAGES = poppler-utils qpdf libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0

.PHONY: setup system run test bench clean

setup: system $(VENV)/.installed

# Debian packages pnp and its tests use: poppler and qpdf to check PDFs, Pango and
# HarfBuzz for WeasyPrint (installed when missing; needs root or sudo).
system:
	@missing=""; for tool in $(SYSTEM_TOOLS); do command -v $$tool >/dev/null || missing=1; done; \
	for lib in $(SYSTEM_LIBRARIES); do ldconfig -p | grep -q "$$lib" || missing=1; done; \
	if [ -n "$$missing" ]; then \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $(SYSTEM_PACKAGES) >/dev/null; \
	fi

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
