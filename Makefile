# boardlab — `make` builds every output with the default definitions, `make test` runs the suite.
# Both create the virtual environment in .venv when it is missing.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
BOARDLAB := $(BIN)/boardlab
# the games come from the registry (layouts/registry.py and the `boardlab.games` entry points)
GAMES   = $$($(BOARDLAB) list --ids)
# the example variants that show a designer's own art (layouts/variants/, images in layouts/variants/art/):
# printed beside the games; each name starts with its game's id
ART_EXAMPLES = links-illustrated
# Python writes its bytecode caches even where the environment says not to (an empty value is
# "unset" to Python): with PYTHONDONTWRITEBYTECODE set, every command and every test's subprocess
# compiled boardlab's modules afresh, and pytest rewrote every test module's asserts at each
# collection (20 s of CPU a collection instead of 10, once per pytest-xdist worker)
export PYTHONDONTWRITEBYTECODE =

.PHONY: all test test-slow typecheck check warm print rulebooks reports docs bench clean browser

all: check warm print rulebooks reports docs

$(STAMP): pyproject.toml setup.py
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install -qq -e '.[test,cluster,play,docs]'  # -qq: errors only (setuptools' notice on every editable install)
	@touch $(STAMP)

check: $(STAMP)
	$(BOARDLAB) check layouts/*.toml layouts/variants/*.toml

# numba's cache of the compiled fast paths, filled once after an install or a change of the
# engines (analysis/warm.py: a few games of every game with each agent), so that the first tests
# and commands of a fresh clone read it instead of each compiling what it calls
WARM := $(VENV)/.warmed
$(WARM): $(STAMP) $(shell find analysis games -name '*.py' -not -path '*/__pycache__/*' 2>/dev/null)
	$(BIN)/python -m boardlab.analysis.warm
	@touch $(WARM)

warm: $(WARM)

test: $(STAMP) browser typecheck warm
	$(BIN)/python -m pytest -m "not slow" -n auto --durations=30  # on every core (pytest-xdist); the 30 slowest tests are listed at the end: where the time goes

# mypy over the package as installed (tests/typecheck.py; settings in pyproject.toml [tool.mypy])
typecheck: $(STAMP)
	$(BIN)/python tests/typecheck.py

# the browser tests' headless chromium (Debian's package): installed when missing, as root with apt-get;
# otherwise those tests skip, and this says why in one line
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing chromium for the browser tests (apt-get)"; \
	    { DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && \
	      DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; }; } || \
	      echo "chromium could not be installed: the browser tests will skip"; \
	  else echo "no chromium and no root apt-get to install it: the browser tests will skip"; fi; }

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

# the footers' date is that of the last commit touching the definitions (never the clock)
# (exported only when it has a value; checked by boardlab, through `list`, before the old files go);
# build/print is emptied first: files a definition no longer makes must not linger
print: $(STAMP)
	@epoch=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct -- layouts 2>/dev/null)}; \
	if [ -n "$$epoch" ]; then export SOURCE_DATE_EPOCH=$$epoch; else unset SOURCE_DATE_EPOCH; fi; \
	games=$(GAMES) || exit 1; \
	rm -rf build/print; \
	for game in $$games; do for paper in a4 letter; do \
		$(BOARDLAB) print $$game --paper $$paper --lang all || exit 1; done; done; \
	for example in $(ART_EXAMPLES); do for paper in a4 letter; do \
		$(BOARDLAB) print $${example%%-*} --variant $$example --paper $$paper --lang all || exit 1; done; done

# the balance reports of the default definitions, into reports/; every game played is kept in
# build/results.sqlite, so a rerun plays only what changed
reports: $(STAMP)
	@for game in $(GAMES); do $(BOARDLAB) report $$game --lang all || exit 1; done

# every game's rulebook in every language, on A4 and Letter, beside its print files
rulebooks: $(STAMP)
	@epoch=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct -- layouts 2>/dev/null)}; \
	if [ -n "$$epoch" ]; then export SOURCE_DATE_EPOCH=$$epoch; else unset SOURCE_DATE_EPOCH; fi; \
	for game in $(GAMES); do for paper in a4 letter; do \
		$(BOARDLAB) rulebook $$game --paper $$paper || exit 1; done; done

# the docs site (mkdocs.yml, docs/) into build/docs, with its reference pages generated from the code;
# --strict: a broken link or a missing page is an error (the suite builds it the same way)
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

# every benchmarks/bench*.py, its output shown as it runs and written to benchmarks/RESULTS.md
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf build .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
