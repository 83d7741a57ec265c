"""The one shape every refusal has: exit 2, a few lines on standard error, no traceback.

Used by the corpora under ``tests/robustness/``: each case runs the real ``pnp`` command
in a process of its own, with its memory and processor time bounded, so a hang or a
runaway allocation fails the case instead of the machine. The engines' property tests use
:func:`scored_or_refused`: what was refused, and why.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import InputError

MEMORY = 1024 * 1024 * 1024
"""Address space a case may use (bytes): an unbounded read or expansion hits it."""
SECONDS = 10
"""Processor time a case may take (``RLIMIT_CPU``): a refusal takes well under one, a sound
rulebook PDF about four, and a busy machine does not stretch it."""
WALL_SECONDS = 12 * SECONDS
"""Wall time a case may take: only a process waiting on something (a pipe, a socket) that
burns no processor time stops here, so the margin is wide enough for a machine that is
also running a full build, where a four-second case can take tens of seconds."""
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
                              timeout=WALL_SECONDS, preexec_fn=_limits, check=False)
    except subprocess.TimeoutExpired:
        raise AssertionError(
            f"pnp {' '.join(args)}: still running after {WALL_SECONDS} s") from None
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


Problem = tuple[str, str]
"""What is wrong with an input, as a test's own reading of the rules finds it: the place a
refusal must name (its message starts ``PLACE: ``; ``""`` for the input as a whole) and
words of the reason it must give."""


def scored_or_refused(score: Callable[[], Any], problems: Sequence[Problem]) -> Any:
    """Call ``score``: an input with no ``problems`` must be scored (the result is returned);
    any other must be refused with one :class:`InputError` line naming one of them."""
    try:
        result = score()
    except InputError as exc:
        message = str(exc)
        assert problems, f"refused, though nothing is wrong with it: {message}"
        assert "\n" not in message, message
        assert any(message.startswith(f"{place}: " if place else "") and words in message
                   for place, words in problems), (message, problems)
        return None
    assert not problems, f"scored, though {problems}"
    return result


def name_problems(names: Sequence[Any], low: int | None, high: int | None,
                  where: str = "players") -> list[Problem]:
    """The problems of a list of player (or team) names, read from the README: ``low`` to
    ``high`` of them (None: any number), each a text of 1 to 40 characters once composed
    (NFC), with a letter or digit, nothing a terminal would act on and nothing invisible,
    none twice (spaces around a name and how its accents were typed do not count)."""
    if low is not None and high is not None and not low <= len(names) <= high:
        return [(where, f"{len(names)} given")]
    problems: list[Problem] = []
    seen: set[str] = set()
    for number, name in enumerate(names, start=1):
        place = f"{where}: name {number}"
        if not isinstance(name, str):
            problems.append((place, "expected a name"))
            continue
        text = unicodedata.normalize("NFC", name)
        if not text.strip():
            problems.append((place, "cannot be blank"))
        elif len(text) > 40:
            problems.append((place, "longer than 40 characters"))
        elif fault := next(filter(None, map(_character_fault, text)), ""):
            problems.append((place, fault))
        elif not any(unicodedata.category(c)[0] in "LN" for c in text):
            problems.append((place, "no letter or digit"))
        elif text.strip() in seen:
            problems.append((where, "is given twice"))
        else:
            seen.add(text.strip())
    return problems


def _character_fault(char: str) -> str:
    """What is wrong with one character of a name, if anything (the first one at fault is
    the one named)."""
    category = unicodedata.category(char)
    if category in ("Cc", "Cs", "Zl", "Zp") or char in BIDI:
        return "control character"
    if category == "Cf" or char in BLANKS:
        return "invisible character"
    return ""


BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode's Bidi_Control characters: they reorder a line (refused as controls)."""
BLANKS = {chr(c) for low, high in ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5),
                                   (0x180B, 0x180F), (0x2800, 0x2800), (0x3164, 0x3164),
                                   (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
                                   (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
          for c in range(low, high + 1)}
"""Code points outside category Cf that show nothing (Unicode's DerivedCoreProperties
Default_Ignorable_Code_Point, plus the blank braille pattern): refused as invisible."""


def sheets_problems(data: Any, low: int, high: int,
                    sheet: Callable[[dict[str, Any]], list[Problem]]) -> list[Problem]:
    """The problems of an input that is one sheet or ``players: {NAME: sheet}`` (Qwinto's
    and Kwingto's shape), ``sheet`` reading one sheet given as a mapping; a player's
    problems are named after the player."""
    if not isinstance(data, dict):
        return [("input", "expected a mapping")]
    if "players" not in data:
        return sheet(data)
    if set(data) != {"players"}:
        return [("", "unknown field")]
    players = data["players"]
    if not isinstance(players, dict):
        return [("players", "expected a mapping")]
    if not players:
        return [("players", "no players given")]
    found = name_problems(list(players), low, high)
    for name, one in ([] if found else players.items()):
        found += ([(name, "expected a mapping")] if not isinstance(one, dict) else
                  [(f"{name}: {place}" if place else name, words)
                   for place, words in sheet(one)])
    return found
