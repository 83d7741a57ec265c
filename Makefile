# One command each: `make run` (set up what running needs, then build every sheet, card, deck
# and rulebook into output/) and `make test` (set up that and what the tests need; lint Python
# and JavaScript, type-check, check the layers' imports, the definitions and translations;
# test).
# `make bench` measures the build, the calculator and `pnp serve --watch`; `make previews`
# redraws the README's pictures from a build.
VENV ?= .venv
BIN = $(VENV)/bin

# What running needs: Pango and HarfBuzz for WeasyPrint, and the package with its runtime
# dependencies. The tests need more: poppler and qpdf to check PDFs, Chromium for the
# browser tests, the test extra, and the npm packages of tests/js.
RUN_LIBRARIES = libpango-1.0.so.0 libpangoft2-1.0.so.0 libharfbuzz-subset.so.0
RUN_PACKAGES = libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0
TEST_TOOLS = pdftoppm pdffonts qpdf chromium
TEST_PACKAGES = poppler-utils qpdf chromium

.PHONY: setup test-setup system test-system js run test bench previews clean

setup: system $(VENV)/.installed

test-setup: setup test-system $(VENV)/.tested js

# pdf.js, playwright-core and axe-core for the fillable sheets' and the scorer pages'
# end-to-end tests, and ESLint for pnp's scripts (tests/js).
js: tests/js/node_modules/.package-lock.json

tests/js/node_modules/.package-lock.json: tests/js/package-lock.json
	cd tests/js && npm ci --no-audit --no-fund --silent

# Debian packages (installed when a command or library is missing; needs root or sudo):
# $(call apt,COMMANDS,LIBRARIES,PACKAGES)
define apt
	@missing=""; for tool in $(1); do command -v $$tool >/dev/null || missing=1; done; \
	for lib in $(2); do ldconfig -p | grep -q "$$lib" || missing=1; done; \
	if [ -n "$$missing" ]; then \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $(3) >/dev/null; \
	fi
endef

system:
	$(call apt,,$(RUN_LIBRARIES),$(RUN_PACKAGES))

test-system: system
	$(call apt,$(TEST_TOOLS),,$(TEST_PACKAGES))

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.tested: $(VENV)/.installed
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

run: setup
	$(BIN)/pnp validate
	$(BIN)/pnp build

# pytest runs on every core, each module on one worker (--dist loadscope), so that a
# module's costly fixtures (the wheel and its venv, the pdf.js runs) are made once; modules
# start in the order tests/conftest.py gives (--no-loadscope-reorder): the slow few first.
test: test-setup
	$(BIN)/ruff check pnp tests bench
	tests/js/node_modules/.bin/eslint -c tests/js/eslint.config.js \
		--suppressions-location tests/js/eslint-suppressions.json --max-warnings 0 pnp
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pnp validate
	$(BIN)/pnp translations
	$(BIN)/pytest -n auto --dist loadscope --no-loadscope-reorder

bench: setup
	$(BIN)/python bench/build.py
	$(BIN)/python bench/installed.py
	$(BIN)/python bench/serve.py

previews: setup
	$(BIN)/pnp build --lang en --paper a4 --previews docs/previews

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache \
		.grimp_cache tests/js/node_modules
	find output -mindepth 1 ! -name .gitkeep -delete
