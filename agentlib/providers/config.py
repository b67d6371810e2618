"""The former name of settings.py: `agentlib.providers.config` and `agentlib.config` are that very module.

Notebooks saved before the split (settings.py and http.py) import from here, and
tests set `config.ENV_FILE`: an alias, not a copy, so such a setting still counts.
"""

import sys

from . import settings

sys.modules[__name__] = settings
