"""Every failure pnp reports to a person has its own class here.

All of them subclass :class:`PnpError` (itself a :class:`ValueError`) and format
themselves: ``str(error)`` is the one line the command line prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class PnpError(ValueError):
    """Base class: something a person can fix, described in one line."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a rule file: where it is and what is wrong."""

    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class DefinitionError(PnpError):
    """A game definition in ``rules/`` is malformed; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UnknownGameError(PnpError):
    """A game name that pnp does not know."""


class InputError(PnpError):
    """A sheet, board, hand or deal given to the calculator is unreadable or breaks a rule.

    The message names the place at fault (row and box, card, hand, player).
    """


class FormatError(InputError):
    """The input file is not valid YAML or JSON, or not the shape the game expects."""
