"""What the hostile cases share: an edition made once by the real ``pnp init``."""

from __future__ import annotations

from pathlib import Path

import pytest

from refusal import pnp


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An edition made by the real ``pnp init``: a case copies it before it changes it
    (a module whose cases need more beside it has a ``made`` of its own)."""
    root = tmp_path_factory.mktemp("made")
    run = pnp("init", "edition", cwd=root)
    assert run.code == 0, run.stderr
    return root / "edition"
