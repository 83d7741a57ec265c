# One command each: `make run` (set up, then build every sheet, card, deck and rulebook into
# output/) and `make test` (set up; lint Python and JavaScript, type-check, check the layers'
# imports, the definitions and translations; test).
# `make bench` measures the build, the calculator and `pnp serve --watch`; `make previews`
# redraws the README's pictures from a build.
VENV ?= .venv
BIN = $(VENV)/bin

SYSTEM_TOOLS = pdftoppm pdffonts qpdf chromium
SYSTEM_LIBRARIES = libpango-1.0.so.0 libpangoft2-1.0.so.0 libharfbuzz-subset.so.0
SYSTEM_PACKAGES = poppler-utils qpdf libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 \
	chromium

.PHONY: setup system js run test bench previews clean

setup: system $(VENV)/.installed js

# pdf.js, playwright-core and axe-core for the fillable sheets' and the scorer pages'
# end-to-end tests, and ESLint for pnp's scripts (tests/js).
js: tests/js/node_modules/.package-lock.json

tests/js/node_modules/.package-lock.json: tests/js/package-lock.json | system
	cd tests/js && npm ci --no-audit --no-fund --silent

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
	$(BIN)/pnp build

test: setup
	$(BIN)/ruff check pnp tests bench
	tests/js/node_modules/.bin/eslint -c tests/js/eslint.config.js \
		--suppressions-location tests/js/eslint-suppressions.json --max-warnings 0 pnp
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pnp validate
	$(BIN)/pnp translations
	$(BIN)/pytest

bench: setup
	$(BIN)/python bench/build.py
	$(BIN)/python bench/installed.py
	$(BIN)/python bench/serve.py

previews: setup
	$(BIN)/pnp build --lang en --paper a4 --previews docs/previews

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache \
		.grimp_cache tests/js/node_modules tests/js/build
	find output -mindepth 1 ! -name .gitkeep -delete
