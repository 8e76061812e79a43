# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
AXE := node_modules/axe-core/axe.min.js

.PHONY: install run test bench smoke lint migrate demo load chaos

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

migrate: install
	$(PY) manage.py migrate --noinput

# Creates the demo once; on later starts it changes nothing and takes a second (see README "Demo").
demo: migrate
	DEBUG=1 $(PY) manage.py seed_demo

PORT ?= 8000
run: demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:$(PORT)

# axe-core for the browser accessibility checks (skipped without it unless REQUIRE_BROWSER is set).
$(AXE): package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent && touch $(AXE); \
	else echo "npm is missing: the accessibility checks will be skipped"; fi

test: install $(AXE)
	$(PY) -m pytest

bench: install
	@for script in benchmarks/bench_*.py; do $(PY) $$script || exit 1; done

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache --no-logo

smoke: install
	$(PY) ../shared/checks/smoke.py

# Loopback only, bounded, with a PostgreSQL database (catan_load) and a Redis (6390/6391) of their own:
# see README "Reliability". Both exit non-zero when a result is lost or a request fails (load) or the site
# does not recover by itself (chaos). Options: make load ARGS="--clients 100" (see --help).
load: install
	$(PY) -m reliability.load $(ARGS)

chaos: install
	$(PY) -m reliability.chaos $(ARGS)
