# Two commands on a fresh machine: `make run` and `make test` (Python 3.11+ and make are all they need).
# `make run PORT=8001` serves on another port; `make test PYTEST_ARGS="tests/engines -x"` runs a part.
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

LANGS := en ja da
# `make messages PY=/path/to/python` uses an existing environment instead of building .venv.
NEED_VENV := $(if $(filter command line,$(origin PY)),,$(STAMP))

.PHONY: run test lint typecheck format install clean messages catalogs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP) catalogs

# Compile locale/*/LC_MESSAGES/django.po into .mo in pure Python (no GNU gettext needed to run the app).
catalogs: $(NEED_VENV)
	$(PY) manage.py compile_catalogs

# After adding or changing a marked string: extract into every catalog (sorted, no source locations,
# so parallel work merges cleanly), then translate the new entries in locale/ja and locale/da.
# Needs GNU gettext (xgettext, msgmerge): apt-get install gettext.
messages: $(NEED_VENV)
	$(PY) manage.py makemessages $(foreach l,$(LANGS),-l $(l)) --no-location --no-obsolete \
		--ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles --ignore=deploy
	$(PY) manage.py compile_catalogs

# The worker (`manage.py db_worker`) pairs large rounds off the web request (tournament/jobs/workflow.py, docs/deployment.md);
# it runs beside the server and stops with it (Ctrl+C). It does not reload on code changes: run `make run` again.
run: install
	$(PY) manage.py migrate --noinput
	PORT=$(PORT) $(PY) manage.py demo
	$(PY) manage.py db_worker --no-reload --interval 0.5 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

test: install
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The pure core's types: swiss/, pairing/ and standings/ ([tool.mypy] in pyproject.toml).
typecheck: $(STAMP)
	$(VENV)/bin/mypy

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles tests/artifacts .mypy_cache locale/*/LC_MESSAGES/*.mo
