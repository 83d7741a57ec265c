"""The one shape every refusal has: exit 2, a few lines on standard error, no traceback.

Used by the corpora under ``tests/robustness/``: each case runs the real ``pnp`` command
in a process of its own, with its memory and processor time bounded, so a hang or a
runaway allocation fails the case instead of the machine.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MEMORY = 1024 * 1024 * 1024
"""Address space a case may use (bytes): an unbounded read or expansion hits it."""
SECONDS = 10
"""Wall time a case may take."""
MAX_LINES = 3
"""Lines of standard error a refusal may print."""


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (SECONDS, SECONDS))


def pnp(*args: str, stdin: bytes | None = None, cwd: Path | None = None,
        env: dict[str, str] | None = None) -> Run:
    """Run ``pnp ARGS`` as a person would, bounded in memory and time."""
    environment = {**os.environ, "LANG": "C.UTF-8", **(env or {})}
    try:
        done = subprocess.run([sys.executable, "-m", "pnp", *args], input=stdin,
                              capture_output=True, cwd=cwd, env=environment,
                              timeout=SECONDS, preexec_fn=_limits, check=False)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"pnp {' '.join(args)}: still running after {SECONDS} s") from None
    return Run(done.returncode, done.stdout.decode("utf-8", "replace"),
               done.stderr.decode("utf-8", "replace"))


def assert_refused(run: Run, *expected: str) -> None:
    """``run`` refused its input as pnp promises: exit 2, at most three lines on standard
    error, each starting ``error:``, no traceback; ``expected`` are words the message
    must contain."""
    lines = run.stderr.splitlines()
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert run.code == 2, f"exit {run.code}: {run.stderr[-2000:]}"
    assert 1 <= len(lines) <= MAX_LINES, run.stderr[-2000:]
    assert all(line.startswith("error: ") for line in lines), run.stderr[-2000:]
    assert max(len(line) for line in lines) <= 500, "an error line runs on"
    for words in expected:
        assert words in run.stderr, f"{words!r} not in {run.stderr!r}"
