# Herald: `make run` for a development server, `make test` for the test suite.
# Both create .venv with the system's python3 (3.11+) when it is missing.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench install lint messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall when the dependencies change.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

messages: install
	@if find . -path ./$(VENV) -prune -o -name '*.po' -print -quit | grep -q .; then \
		$(BIN)/python manage.py compilemessages --ignore=$(VENV) -v0; fi

run: install messages
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: install messages
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check website accounts games/*.py games/management games/templatetags tests/web

bench: install
	@set -e; found=0; for script in bench/*.py; do \
		[ -e "$$script" ] || continue; found=1; \
		echo "== $$script"; $(BIN)/python "$$script"; \
	done; [ $$found = 1 ] || echo "no bench/*.py scripts yet"

clean:
	rm -rf $(VENV) .pytest_cache staticfiles
