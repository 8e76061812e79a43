# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
NODE := node_modules/.installed

.PHONY: install run test test-fast bench smoke lint lock migrate demo load chaos stack test-stack

install: $(STAMP)

# Exactly the versions in the lock, hash-checked (requirements/dev.txt: runtime, dev and e2e; see `lock`), then
# the project itself as an editable package, so its packages import from anywhere (celery, the reliability stack).
$(STAMP): requirements/dev.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements/dev.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# krcg (and numpy with it) for the benchmarks only.
$(BENCH_STAMP): $(STAMP) requirements/bench.txt
	$(PY) -m pip install --quiet --require-hashes -r requirements/bench.txt
	touch $(BENCH_STAMP)

# Rewrites the lock files requirements/*.txt from pyproject.toml after a requirement changed, keeping every other
# pin; `make lock UPGRADE=1` moves every package to the newest version its range allows. Needs the package index.
LOCK = $(VENV)/bin/uv pip compile pyproject.toml --quiet --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command "make lock" $(if $(UPGRADE),--upgrade)
lock: install
	$(LOCK) --output-file requirements/runtime.txt
	$(LOCK) --extra dev --extra e2e --constraint requirements/runtime.txt --output-file requirements/dev.txt
	$(LOCK) --extra dev --extra e2e --extra bench --constraint requirements/dev.txt --output-file requirements/bench.txt

migrate: install
	$(PY) manage.py migrate --noinput

# Creates the demo once; on later starts it changes nothing and takes a second (README, Getting started).
demo: migrate
	DEBUG=1 $(PY) manage.py seed_demo

PORT ?= 8000
run: demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:$(PORT)

# From package-lock.json: axe-core for the browser accessibility checks (skipped without it unless REQUIRE_BROWSER is
# set) and ESLint for `make lint`.
$(NODE): package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent && touch $(NODE); \
	else echo "npm is missing: the accessibility checks will be skipped"; fi

test: install $(NODE)
	$(PY) -m pytest

# The inner loop while changing code: all but the browser, fuzz and slow tests (markers: pyproject.toml, applied in
# tests/conftest.py). `make test` runs everything, as CI does.
test-fast: install
	$(PY) -m pytest -m "not e2e and not fuzz and not slow"

# Every script runs and prints all its figures and verdicts; only then does the target fail, naming the
# scripts that missed a target (or could not run).
bench: $(BENCH_STAMP)
	@missed=""; for script in benchmarks/bench_*.py; do echo "== $$script"; $(PY) $$script || missed="$$missed $$script"; \
	done; if [ -n "$$missed" ]; then echo "bench: a target was missed or a script failed in:$$missed"; exit 1; fi

# mypy keeps its cache in .mypy_cache: a run after a small change takes seconds.
lint: install $(NODE)
	$(VENV)/bin/ruff check .
	node_modules/.bin/eslint .
	$(VENV)/bin/djlint templates web --lint --quiet
	$(VENV)/bin/mypy
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

# The deployed shape on loopback, in the foreground until Ctrl-C: nginx (TLS for catan.test), two gunicorn replicas,
# PostgreSQL (catan_stack), Redis as broker and as cache, Celery worker and beat, an SMTP server writing .eml files,
# a Web Push receiver (README "Deploying"). Options: make stack ARGS="--port 18600" (see --help).
stack: install
	$(PY) -m reliability.run_stack $(ARGS)

# The browser journeys (organizer, referee's tablet offline and online, player's phone) through the stack, one start.
test-stack: install $(NODE)
	$(PY) -m reliability.journeys $(ARGS)
