# Two commands for people: `make run` and `make test`. The rest are helpers.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Reinstall only when pyproject.toml or the compiled playouts' source change
# (or the virtualenv is new): the install builds joker/bots/_core.pyx.
STAMP := $(VENV)/.install.stamp
COMPILED := setup.py joker/bots/_core.pyx
PYTEST_ARGS ?=
# pytest-xdist workers: one per core, at most 8 (the embedded PostgreSQL's
# max_connections counts on no more: config/connections.py). Each has its
# own test database and Redis database (config/settings/test.py).
PYTEST_WORKERS ?= $(shell cores=$$(nproc); echo $$(( cores < 8 ? cores : 8 )))
# The fault suite's cases run a whole platform each (web, worker, beat, the
# reviews' worker, PostgreSQL, Redis) and then check the turn a player left
# runs out once, 8 s after the restart: on two cores three at once starved
# them (platform restarts of 25-30 s, 7 of 22 cases failing that check on a
# quiet machine), so one per core (docs/testing.md).
FAULT_WORKERS ?= $(shell nproc)
# The browser code's linter, from package.json / package-lock.json.
NODE_STAMP := node_modules/.install.stamp

.DEFAULT_GOAL := help
.PHONY: help run test test-fast test-faults test-ha test-js screenshots system-packages install lint lint-js typecheck format check migrate services clean

help:
	@echo "make run    start the site, a Celery worker, Celery beat and the reviews' worker (Ctrl-C stops)"
	@echo "make test   run the test suite (PYTEST_ARGS='-k health' to narrow it)"
	@echo "make test-fast  the tests that run in the test process, for the edit loop"
	@echo "make test-faults  the fault suite: the platform killed mid-game and restarted"
	@echo "make test-ha  the deployment's drills: beat standing by, PostgreSQL's primary killed mid-game"
	@echo "make lint   ruff check and format check, import layers, mypy, ESLint for static/js"
	@echo "make typecheck  mypy alone (the strictness map: docs/development.md)"
	@echo "make format ruff fix and format"
	@echo "make services  the embedded PostgreSQL and Redis alone (Ctrl-C stops)"

$(STAMP): pyproject.toml $(COMPILED)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

install: $(STAMP) $(NODE_STAMP)

# The embedded PostgreSQL and Redis, migrations and demo data, then web,
# worker and beat (scripts/run_platform.py).
run: $(STAMP)
	$(BIN)/python scripts/run_platform.py

# The browser code's unit tests first (a second), then the suite on every
# core. The fault suite is its own run (test-faults): each of its cases
# restarts a whole platform.
test: $(STAMP) system-packages test-js
	$(BIN)/pytest -n $(PYTEST_WORKERS) -m "not faults and not ha" $(PYTEST_ARGS)

# The same without the long checks marked slow (docs/testing.md).
test-fast: $(STAMP) system-packages test-js
	$(BIN)/pytest -n $(PYTEST_WORKERS) -m "not slow and not servers" $(PYTEST_ARGS)

# The platform's processes and servers killed mid-game, then restarted with
# `make run`'s command (tests/faults; docs/testing.md).
test-faults: $(STAMP)
	$(BIN)/pytest -n $(FAULT_WORKERS) -m faults $(PYTEST_ARGS)

# The deployment's drills on real servers (docs/deployment.md, "What fails
# and what happens"): the long forms, each minutes of real time. Those of
# tests/ha start a PostgreSQL primary and streaming replica of their own
# (PgBouncer too, from system-packages) and kill the primary mid-game.
test-ha: $(STAMP) system-packages
	$(BIN)/pytest -n $(FAULT_WORKERS) -m ha $(PYTEST_ARGS)

# The phone pictures in docs/images/ (the bid at 360x740, a card at 390x844),
# taken by the phone table's browser test as it plays its deal.
screenshots: $(STAMP) system-packages
	PULKA_SCREENSHOT_DIR=docs/images $(BIN)/pytest -p no:cacheprovider -n 0 \
		tests/browser/test_table_on_a_phone.py -k "360x740 or 390x844"

# Chromium (browser tests), Caddy (the proxy's routing test), Node.js and
# docker-compose (the Compose file's check), from Debian's packages if missing.
system-packages:
	@scripts/system_packages.sh

# Node's own test runner over the pure modules of static/js: no packages.
test-js:
	node --test tests/js/

lint: $(STAMP) lint-js typecheck
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# mypy with the Django and REST framework plugins; what it checks and how
# strictly is [tool.mypy] in pyproject.toml.
typecheck: $(STAMP)
	$(BIN)/mypy

lint-js: $(NODE_STAMP)
	npx --no-install eslint .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

check: $(STAMP)
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run

migrate: $(STAMP)
	$(BIN)/python -m config.embedded $(BIN)/python manage.py migrate --noinput

# The embedded servers alone, for manage.py or pytest in another terminal.
services: $(STAMP)
	$(BIN)/python -m config.embedded

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache .mypy_cache node_modules
