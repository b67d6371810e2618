# Two commands are all a newcomer needs:
#   make lab    set everything up and open the course in JupyterLab
#   make test   set everything up and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
FIRST_NOTEBOOK := notebooks/de/01_ueberblick.ipynb

.PHONY: lab test bench setup clean

# Jupyter refuses to run as root unless told; containers often run as root. The file browser
# starts at the repository (agentlib's source and the docs are one click away), the first
# notebook is open.
AS_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

lab: $(VENV)/.course
	$(BIN)/jupyter lab $(AS_ROOT) --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/$(FIRST_NOTEBOOK)

test: $(VENV)/.dev
	$(BIN)/python -m pytest

bench: $(VENV)/.dev
	$(BIN)/python -m bench

setup: $(VENV)/.dev

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10) and "Python 3.10 or newer is needed; run make PYTHON=python3.12 (or whichever you have)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.course: requirements.txt pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.course
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

clean:
	rm -rf $(VENV) test-artifacts
