# The two commands a newcomer types: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
# Two stamps: `make run` installs what the app needs to run (pyproject's dependencies), so a
# newcomer's first page does not wait for the test tool-chain, three times its size, that
# `make test`, lint and bench install too (bench/README.md has the figures).
APP_STAMP := $(VENV)/.installed-app
STAMP := $(VENV)/.installed

.PHONY: run test check lint bench screenshots install translations bytecode

$(VENV)/bin/python:
	python3 -m venv $(VENV)

$(APP_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(APP_STAMP)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP) $(APP_STAMP)

install: $(STAMP)

HOST ?= 0.0.0.0
PORT ?= 5000

## Install, migrate the SQLite database in instance/, serve on the local network (port 5000)
## and print the address the phones open; `make run HOST=127.0.0.1` keeps it to this machine
run: $(APP_STAMP)
	$(VENV)/bin/flask --app app db upgrade
	$(VENV)/bin/flask --app app serve --host $(HOST) --port $(PORT)

# pytest-xdist's worker processes: one per core and one more (tests/conftest.py says why);
# `make test WORKERS=0` runs every test in one process, one after another, as plain `pytest`
# does.
WORKERS ?= auto
PYTEST_JOBS := -n $(WORKERS) --dist worksteal

## Lint and type-check: ruff (lint and format), mypy, and the Flask-WTF/Flask-Babel stubs
## (mypy and the stub check run side by side: each keeps one core busy)
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	@$(VENV)/bin/mypy & types=$$!; \
	MYPYPATH=typings $(PY) -m mypy.stubtest flask_wtf flask_babel --ignore-missing-stub; stubs=$$?; \
	wait $$types && exit $$stubs

## Install, lint, type-check and run every test, in a process per core and one more
# axe-core, which the browser tests load into each page to check it, pinned by the lock file
# (npm checks its hash) and installed beside it, for the tests alone.
AXE_DIR := tests/browser/axe
AXE_STAMP := $(AXE_DIR)/node_modules/.installed

$(AXE_STAMP): $(AXE_DIR)/package-lock.json
	npm ci --prefix $(AXE_DIR) --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $(AXE_STAMP)

test: lint $(AXE_STAMP) bytecode
	@command -v chromium-headless-shell >/dev/null || command -v chromium >/dev/null || echo "Note: Chromium is missing, so the browser tests will be skipped. Install it with: sudo apt-get install chromium-headless-shell"
	@command -v WebKitWebDriver >/dev/null && command -v Xvfb >/dev/null || echo "Note: WebKitGTK is missing, so the WebKit smoke tests will be skipped. Install it with: sudo apt-get install webkit2gtk-driver xvfb"
	@command -v firefox-esr >/dev/null || command -v firefox >/dev/null || echo "Note: Firefox is missing, so the Firefox smoke tests will be skipped. Install it with: sudo apt-get install firefox-esr"
	$(VENV)/bin/pytest $(PYTEST_JOBS)

# Every module of the project compiled to bytecode once, before the tests' processes start
# (each worker, and each server and command the tests start, imports the app): where
# PYTHONDONTWRITEBYTECODE is set (it is on the machines this project is built on), each of
# those processes compiled the project from source again. In parallel, under a second.
bytecode: $(STAMP)
	@$(PY) -m compileall -q -j 0 app.py scorekeeper migrations tests bench tools

## The quick loop while editing: lint, type-check, and the rules and web tests (no browser)
check: lint bytecode
	$(VENV)/bin/pytest $(PYTEST_JOBS) -p no:playwright --ignore=tests/browser

## Run every benchmark in bench/ (replay speed, tap latency, page weight, live poll, club load); figures, not tests
bench: $(STAMP)
	@set -e; for script in $(filter-out bench/__init__.py,$(wildcard bench/*.py)); do \
		echo "== $$script"; $(PY) -m bench.$$(basename $$script .py); echo; done

## Regenerate the README's phone screenshots in docs/screenshots/ (needs /usr/bin/chromium)
screenshots: $(STAMP)
	$(PY) -m tools.screenshots

CATALOGS := scorekeeper/translations
KEYWORDS := -k _ -k gettext -k ngettext:1,2 -k pgettext:1c,2 -k lazy_gettext -k _l -k say -k say_n:1,2
## Extract every message of the code and templates into messages.pot and update the sv and fil
## catalogs (.po, kept in git); new messages arrive untranslated, which `make test` refuses
translations: $(STAMP)
	$(VENV)/bin/pybabel -q extract -F babel.cfg $(KEYWORDS) --no-wrap --sort-by-file --add-location=file \
		--project "All Fives scorekeeper" --copyright-holder "All Fives scorekeeper" \
		-o $(CATALOGS)/messages.pot .
	@for lang in sv fil; do \
		if [ -f $(CATALOGS)/$$lang/LC_MESSAGES/messages.po ]; then \
			$(VENV)/bin/pybabel -q update --no-wrap --no-fuzzy-matching --ignore-obsolete \
				-i $(CATALOGS)/messages.pot -d $(CATALOGS) -l $$lang; \
		else $(VENV)/bin/pybabel -q init --no-wrap -i $(CATALOGS)/messages.pot -d $(CATALOGS) -l $$lang; fi; \
	done
