# Herald: `make run` for a development server, `make test` for the test suite.
# Both create .venv with the system's python3 (3.11+) when it is missing.

PYTHON ?= python3
# The port `make run` serves on (`make run PORT=8001` when 8000 is taken).
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run serve test bench bench-load install lint messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall when the dependencies change.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

messages: install
	@if ! command -v msgfmt >/dev/null 2>&1; then echo "GNU gettext is missing, so the site stays in English: apt-get install gettext"; \
	elif find . -path ./$(VENV) -prune -o -name '*.po' -print -quit | grep -q .; then \
		$(BIN)/python manage.py compilemessages --ignore=$(VENV) -v0; fi

# The site is served over ASGI by uvicorn, so open pages get moves pushed (docs/architecture.md, "Live pages").
# With Redis (REDIS_URL, or one answering on 127.0.0.1:6379) a Celery worker
# and beat run beside the web server and stop with it; without, tasks run
# inline and the timeout sweep runs from lobby and game page requests.
# Links in emails point at the port the site is served on, unless SITE_URL says otherwise.
run: export SITE_URL ?= http://127.0.0.1:$(PORT)
run: install messages
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	@if [ -z "$$REDIS_URL" ] && $(BIN)/python -c 'import redis; redis.Redis(socket_connect_timeout=1).ping()' 2>/dev/null; then \
		REDIS_URL=redis://127.0.0.1:6379/1; fi; \
	if [ -n "$$REDIS_URL" ]; then \
		export REDIS_URL; mkdir -p var; \
		echo "Redis at $$REDIS_URL: starting Celery workers (one for the bots) and beat beside the web server."; \
		$(BIN)/celery -A website worker -Q celery,heartbeat -l info --concurrency 2 & worker=$$!; \
		$(BIN)/celery -A website worker -Q bots -n bots@%h -l info --concurrency 1 & bots=$$!; \
		$(BIN)/celery -A website beat -l info --schedule var/celerybeat-schedule & beat=$$!; \
		trap 'kill $$worker $$bots $$beat 2>/dev/null' EXIT INT TERM; \
		HERALD_WARM_UP=1 $(BIN)/uvicorn website.asgi:application --host 127.0.0.1 --port $(PORT) --timeout-graceful-shutdown 2; \
	else \
		echo "No Redis (set REDIS_URL, or start redis-server on 127.0.0.1:6379): tasks run inline,"; \
		echo "and the timeout sweep runs from lobby and game page requests."; \
		HERALD_WARM_UP=1 $(BIN)/uvicorn website.asgi:application --host 127.0.0.1 --port $(PORT) --timeout-graceful-shutdown 2; \
	fi

# Production-like: gunicorn (uvicorn workers: ASGI), a Celery worker and beat under supervisord (supervisord.conf),
# each restarted when it exits, so a dead worker never stops the web server;
# DEBUG off unless set; SECRET_KEY, DATABASE_URL, REDIS_URL and ALLOWED_HOSTS
# come from the environment (see website/settings.py and docs/scaling.md).
serve: export DEBUG ?= 0
serve: export HERALD_RUN_DIR ?= $(CURDIR)/var
serve: install messages
	$(BIN)/python manage.py check --deploy --fail-level WARNING
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input -v0
	mkdir -p var "$$HERALD_RUN_DIR"
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/supervisord -c supervisord.conf

# The suite in parallel (pytest-xdist): one process per core (-n auto), at most three (Redis has
# databases for three: tests/settings.py), each with its own PostgreSQL and Redis databases; a
# worker that runs out of tests takes some of another's (worksteal), so one slow file does not
# leave the other core idle. PYTEST_ARGS adds options (CI: --durations=20); for a part of the
# suite in one process, run pytest itself (.venv/bin/python -m pytest tests/web).
PYTEST_ARGS ?=
test: install messages
	$(BIN)/python -m pytest -n auto --maxprocesses 3 --dist worksteal $(PYTEST_ARGS)

# The whole tree: ruff's lint and format, the import contracts of docs/architecture.md,
# and mypy with Django's stubs (strict on the engines; pyproject.toml [tool.mypy]).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy

# Engine speed (Dominion beside pyminion, installed into a temporary venv; Domaine), the bots' strength
# and time per move (bench/bots.py: 200 games a line, long: --games N for a quick run),
# then the site on PostgreSQL (DATABASE_URL, default the local herald_bench database),
# then the statistics' rebuild and pages on the load database (skipped if it was never seeded).
bench: install
	$(BIN)/python bench/dominion_bench.py --pyminion
	$(BIN)/python bench/waits.py
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/deferral_bench.py
	$(BIN)/python bench/domaine_bench.py
	$(BIN)/python bench/bots.py
	$(BIN)/python bench/site_bench.py
	$(BIN)/python bench/stats_bench.py
	$(BIN)/python bench/live.py

# Seeds the herald_load PostgreSQL database (once) and runs a bounded load test
# on loopback against gunicorn; see docs/scaling.md. LOAD_ARGS passes options
# to bench/load/run.py (e.g. LOAD_ARGS="--users 32 --time 60 --seed-if-missing").
bench-load: install
	$(BIN)/python -m pip install --quiet -e ".[load]"
	$(BIN)/python bench/load/run.py $(or $(LOAD_ARGS),--seed-if-missing)

clean:
	rm -rf $(VENV) .pytest_cache staticfiles
