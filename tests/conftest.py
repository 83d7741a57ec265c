"""Settings for the whole test session."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Keep the definition cache of every test run out of the user's own cache folder."""
    folder = tempfile.mkdtemp(prefix="pnp-test-cache-")
    os.environ["PNP_CACHE_DIR"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
