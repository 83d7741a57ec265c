"""What the translation tests share: a copy of pnp's languages to break."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of pnp's languages (facts and catalogues) that pnp reads instead of its own."""
    from pnp.i18n import languages

    folder = tmp_path / "locale"
    shutil.copytree(ROOT / "pnp" / "i18n" / "locale", folder)
    monkeypatch.setattr(languages, "LOCALE", folder)
    return folder
