# Two commands do everything on a fresh machine with Python 3.11: make run, make test.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench verify clean sysdeps-run sysdeps-test

# What pip cannot bring (tools/sysdeps.txt: chromium, tmux, ...) is checked first, before
# the venv, and installed (root or password-less sudo) or named in one line that stops make.
sysdeps-run sysdeps-test:
	@bash tools/sysdeps.sh $(@:sysdeps-%=%)

$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null 2>&1 || { echo "make: $(PY) not found; set PY=python3"; exit 2; }
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,server,analysis,rl]'
	touch $(STAMP)

# make run HOST=0.0.0.0 PORT=8080 [PUBLIC_URL=https://gnav.example] [DB=FILE]: friends join
# (README, "Play with friends"); the default listens on this computer only. Set on the
# command line only: a shell's own HOST or PORT variable is not read. STORE=URL (e.g.
# redis://127.0.0.1:6379/0, a Redis of your own) takes the place of DB: the tables are
# kept there, shared with other servers on the same Redis (docs/deploy.md).
HOST = 127.0.0.1
PORT = 8000
PUBLIC_URL =
DB = gnav.sqlite3
STORE =

run: sysdeps-run $(STAMP)
	$(BIN)/gnav serve --host '$(HOST)' --port '$(PORT)' $(if $(STORE),--store '$(STORE)',--db '$(DB)')$(if $(PUBLIC_URL), --public-url '$(PUBLIC_URL)')

# The worked records of docs/spec/records.md are the repository's own: tests/records/.
RECORDS := $(wildcard tests/records/*.json)

test: sysdeps-test $(STAMP)
	$(BIN)/gnav verify $(RECORDS)
	$(BIN)/ruff check src tests tools
	$(BIN)/mypy
	$(BIN)/pytest -q

lint: $(STAMP)
	$(BIN)/ruff check src tests tools

typecheck: $(STAMP)
	$(BIN)/mypy

verify: $(STAMP)
	$(BIN)/gnav verify $(RECORDS)

bench: $(STAMP)
	for n in 3 10 20; do $(BIN)/gnav bench --seats $$n --rounds 50000; done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
