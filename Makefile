# Everything installs into .venv inside the checkout; nothing else is needed
# but Python 3.11, git and make.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# Tests run in parallel processes; override with `make test PYTEST_ARGS=...`.
PYTEST_ARGS ?= -n 2

.PHONY: install run worker beat test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,run]'
	touch $(STAMP)

install: $(STAMP)

# A local trial: DEBUG on (it is never on unless set), the mail at /dev/mail/.
run: install
	DEBUG=true $(PY) manage.py migrate --noinput
	DEBUG=true $(PY) manage.py seed_demo
	DEBUG=true PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/honcho start --env /dev/null --port 8000

worker: install
	$(VENV)/bin/celery -A cribsite worker --loglevel=info

beat: install
	$(VENV)/bin/celery -A cribsite beat --loglevel=info

test: install
	$(PY) -m pytest $(PYTEST_ARGS)

bench: install
	LOG_LEVEL=WARNING $(PY) -m bench

clean:
	rm -rf $(VENV) var db.sqlite3
