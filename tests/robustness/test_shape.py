"""The refusal shape itself: a good input passes, a known bad one is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from refusal import assert_refused, pnp

ROOT = Path(__file__).resolve().parents[2]


def test_a_sound_sheet_is_scored() -> None:
    run = pnp("score", "qwinto", str(ROOT / "examples" / "qwinto.yaml"))
    assert run.code == 0 and run.stdout.splitlines()[-1].split() == ["Total", "43"]
    with pytest.raises(AssertionError):
        assert_refused(run)


def test_a_bad_sheet_is_refused_in_one_line() -> None:
    assert_refused(pnp("score", "qwinto", "-", stdin=b"failed: 9\n"), "missing 'rows'")
