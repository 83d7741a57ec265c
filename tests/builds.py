"""What the tests that run ``pnp build`` in a process of its own share."""

from __future__ import annotations

import os
from pathlib import Path


def clean_environment(out: Path) -> dict[str, str]:
    """This process's environment for a build into ``out``, with nothing an earlier test or
    the user's shell leaves that would change what it builds: no edition or rules folder
    named (``$PNP_PROJECT``, ``$PNP_RULES_DIR``), no ``$SOURCE_DATE_EPOCH``, and a definition
    cache of its own beside ``out`` (not the one the test session shares)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PNP_PROJECT", "PNP_RULES_DIR", "SOURCE_DATE_EPOCH")}
    env["PNP_CACHE_DIR"] = str(out) + "-cache"
    return env
