# Everything installs into .venv inside the checkout; nothing else is needed
# but Python 3.11, git and make.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# Tests run in parallel processes; override with `make test PYTEST_ARGS=...`.
PYTEST_ARGS ?= -n 2

.PHONY: install lock run worker beat test check bench clean

# requirements.lock pins every dependency, transitive ones included, with hashes:
# an install today and one next year get the same files. `make lock` remakes it
# (uv pip compile) after a change to pyproject.toml's pins.
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade 'pip==26.3'
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

lock: install
	$(VENV)/bin/uv pip compile pyproject.toml --extra test --extra run --generate-hashes \
		--python-version 3.11 --python-platform x86_64-manylinux_2_28 -o requirements.lock

install: $(STAMP)

# A local trial: DEBUG on (it is never on unless set), the mail at /dev/mail/.
# `make run PORT=8123` serves on another port; the links in the mail follow it (SITE_URL).
PORT ?= 8000
SITE_URL ?= http://127.0.0.1:$(PORT)
run: install
	DEBUG=true $(PY) manage.py migrate --noinput
	DEBUG=true $(PY) manage.py seed_demo
	DEBUG=true SITE_URL=$(SITE_URL) PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/honcho start --env /dev/null --port $(PORT)

worker: install
	$(VENV)/bin/celery -A cribsite worker --loglevel=info

beat: install
	$(VENV)/bin/celery -A cribsite beat --loglevel=info

test: install
	$(PY) -m pytest $(PYTEST_ARGS)

# What CI checks beside the tests: lint and format, types, migrations, deploy settings.
check: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=true $(VENV)/bin/mypy
	DEBUG=true $(PY) manage.py makemigrations --check --dry-run
	$(PY) .ci/check_deploy.py

# `make bench plans`: the words after "bench" pick the modules (as `python -m bench plans`).
BENCH_ONLY := $(filter-out bench,$(MAKECMDGOALS))
bench: install
	LOG_LEVEL=WARNING $(PY) -m bench $(BENCH_ONLY)

ifeq (bench,$(firstword $(MAKECMDGOALS)))
$(BENCH_ONLY):
	@:
endif

clean:
	rm -rf $(VENV) var db.sqlite3
