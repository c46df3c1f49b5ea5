# Knobel: `make run` serves http://127.0.0.1:8000 on SQLite; `make test` runs the whole suite.
# Every target is re-runnable: installs happen only when their inputs changed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
NODE_INSTALLED := node_modules/.installed
VENDOR := static/vendor/htmx.min.js static/vendor/ws.js
HOST ?= 127.0.0.1
PORT ?= 8000
# Serving processes: more than one needs Postgres (DATABASE_URL) and Redis (BROADCAST_URL),
# e.g. make run WORKERS=2 DATABASE_URL=postgresql://... BROADCAST_URL=redis://127.0.0.1:6379/0
WORKERS ?= 1

.PHONY: run test lint install catalogs migrate messages vendor bench strategy mutate clean

run: install migrate
	$(VENV)/bin/uvicorn app.main:create_app --factory --host $(HOST) --port $(PORT) --workers $(WORKERS) --proxy-headers --ws-max-size 65536 --ws-per-message-deflate false

# The suite runs on TEST_WORKERS processes (pytest-xdist), a test file at a time: a module's
# server, browser or built site is set up once, on one worker; in the order tests/conftest.py
# gives (the longest files first), never more than two browser files at once
# (tests/support/schedule.py: the browsers fill this project's two cores, and the third
# worker runs the files that mostly wait beside them). xdist_group marks do nothing under
# pytest 9 with xdist 3.8.
TEST_WORKERS ?= 3

test: install
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

lint: $(INSTALLED)
	$(VENV)/bin/ruff check app tests bench migrations
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

install: $(INSTALLED) vendor catalogs

$(PY):
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

$(NODE_INSTALLED): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

vendor: $(VENDOR)

$(VENDOR): $(NODE_INSTALLED)
	mkdir -p static/vendor
	cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
	cp node_modules/htmx-ext-ws/dist/ws.js static/vendor/ws.js

catalogs: $(INSTALLED)
	$(VENV)/bin/pybabel compile -d app/locale -D messages

migrate: $(INSTALLED)
	$(VENV)/bin/alembic upgrade head

# Re-extract the UI strings and merge them into the three catalogs (developers only).
messages: $(INSTALLED)
	$(VENV)/bin/pybabel extract -F babel.cfg -k ActionError:2 -k RoomError:2 -k N_ --no-location --sort-output -o app/locale/messages.pot .
	$(VENV)/bin/pybabel update -N --no-wrap --ignore-obsolete -i app/locale/messages.pot -d app/locale -D messages

bench: install
	$(PY) bench/engines.py

# Solve the Kniffel-family strategy tables into VAR_DIR/strategy ahead of time (the defaults
# first, then every house-rule variant; ~1-2 min on one core). Otherwise the app builds each
# one in the background the first time hints for it are asked for.
strategy: $(INSTALLED)
	$(PY) -m app.strategy.build

# Mutation testing (docs/testing.md; not part of `make test` or CI): mutate the room-level and
# safety rules (the list is in tools/mutation_report.py), run the fast tests against each
# mutant on MUTATE_JOBS processes, print killed / total / rate per module. MODULE=<path> runs
# one module of the list. On SQLite only: the Postgres and browser variables are cleared.
MUTATE_JOBS ?= 2
MODULE ?=

mutate: install
	set -f; env -u TEST_POSTGRES_URL -u REQUIRE_POSTGRES -u REQUIRE_BROWSER -u TEST_REDIS_URL \
		$(VENV)/bin/mutmut run --max-children $(MUTATE_JOBS) \
		$$($(PY) tools/mutation_report.py --patterns $(MODULE))
	$(PY) tools/mutation_report.py $(MODULE)

clean:
	rm -rf $(VENV) node_modules static/vendor
