"""Headless Chromium for the tests that look at what a page runs: the DOM it leaves.

Started as the machine's notes say it must be here: no sandbox (root), no GPU, and none of
the background connections a closed network refuses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def need_chromium() -> str:
    """Debian's chromium; its path (on CI its absence fails the test)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is needed (Debian package chromium)")
        pytest.skip("chromium missing")
    return chromium


JS = Path(__file__).parent / "js"
"""The drivers (``*.mjs``) and the npm packages they use (``node_modules``: ``make js``)."""


def need_driver() -> str:
    """Debian's chromium, node and the drivers' npm packages (playwright-core, axe-core);
    chromium's path (on CI their absence fails the test)."""
    chromium = shutil.which("chromium")
    ready = shutil.which("node") and (JS / "node_modules" / "axe-core").is_dir()
    if chromium is None or not ready:
        if os.environ.get("CI"):
            pytest.fail("chromium, node and tests/js/node_modules are needed: run `make js`")
        pytest.skip("chromium or node or tests/js/node_modules missing (run `make js`)")
    return chromium


def dumped_dom(address: str | Path, profile: Path) -> str:
    """The DOM of the page at ``address`` (a file or a URL) once headless Chromium has
    loaded it and run what it runs, for two seconds of its virtual time."""
    url = address.as_uri() if isinstance(address, Path) else address
    done = subprocess.run(
        [need_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
         "--virtual-time-budget=2000", "--dump-dom", url],
        capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.decode("utf-8")
