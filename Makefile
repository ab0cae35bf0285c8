# Hanchan: `make run` and `make test` work on a fresh machine with only Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: install run test test-fast test-pg lint typecheck bench demo migrate worker clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall whenever the dependency list changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

install: $(VENV)/.installed

migrate: install
	DEBUG=1 $(BIN)/python manage.py migrate --noinput

demo: migrate
	DEBUG=1 $(BIN)/python manage.py seed_demo

run: demo
	@echo ""
	@echo "  Hanchan is starting on http://$(HOST):$(PORT)/"
	@echo "  Demo logins (password: hanchan-demo): admin, organiser, referee, player"
	@echo "  Running now: http://$(HOST):$(PORT)/t/demo-live/ (as referee: /games/referee/)"
	@echo "  API docs: http://$(HOST):$(PORT)/api/docs/   Admin: http://$(HOST):$(PORT)/admin/"
	@echo ""
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# Bytecode is written for the test run (into the ignored __pycache__/ folders): without it every
# xdist worker compiled and assertion-rewrote ~550 modules again on every run (4 s CPU each).
test: install
	@bash scripts/ensure-test-tools.sh
	PYTHONDONTWRITEBYTECODE= HANCHAN_TESTING=1 $(BIN)/python -m pytest -n 2 --dist loadgroup

# Without system tools: the browser tests (Chromium) and the PDF read-backs (pdftotext) are
# deselected, nothing is installed with apt (issue 37).
test-fast: install
	PYTHONDONTWRITEBYTECODE= HANCHAN_TESTING=1 $(BIN)/python -m pytest -n 2 --dist loadgroup -m "not browser and not pdftotext"

# The suite against real PostgreSQL and Redis with a real Celery worker (as CI runs it).
test-pg: install
	bash .ci/run --services-only

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	HANCHAN_TESTING=1 $(BIN)/mypy .
	$(BIN)/lint-imports

bench: install
	HANCHAN_TESTING=1 $(BIN)/python bench/engine.py
	HANCHAN_TESTING=1 $(BIN)/python bench/hands.py
	HANCHAN_TESTING=1 $(BIN)/python bench/seating.py
	HANCHAN_TESTING=1 $(BIN)/python bench/standings.py

# With no broker configured tasks run in-process: there is nothing for a worker to read, and
# Celery would otherwise wait on its own default broker (amqp://localhost) that nothing uses.
worker: install
	@if [ -z "$$CELERY_BROKER_URL" ]; then \
	  echo "No CELERY_BROKER_URL set: tasks run in-process, no worker is needed."; \
	  echo "For a worker: CELERY_BROKER_URL=redis://127.0.0.1:6379/0 make worker"; \
	else \
	  $(BIN)/celery -A config worker --loglevel=info; \
	fi

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis staticfiles db.sqlite3 db.sqlite3-shm db.sqlite3-wal
