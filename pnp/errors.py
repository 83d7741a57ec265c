"""Every failure pnp reports to a person has its own class here, in the order of the stages.

They subclass :class:`PnpError` (itself a :class:`ValueError`) and format themselves:
``str(error)`` is the one line the command line prints. Some are never shown as they are:
:class:`YamlSyntaxError` and :class:`ReadError` say what is wrong with a file its reader does
not name, and their callers report them as a :class:`DefinitionError`, :class:`InputError`,
:class:`DocumentError` or :class:`ScorerError` naming it.
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


class ReadError(PnpError):
    """Text that cannot be read as data: too large, not a file, not UTF-8, nested too deep...

    ``line`` is 1-based where it is known. The reader does not know the file's name: its
    callers report the error in their own shape (a calculator error, a definition problem).
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class OutsideError(ReadError):
    """A file that leads outside its folder once every link is followed."""


class NestingError(ReadError):
    """Lists or mappings nested deeper than pnp reads (in JSON and YAML alike)."""


class InputError(PnpError):
    """A sheet, board, hand or deal given to the calculator is unreadable or breaks a rule.

    The message names the place at fault (row and box, card, hand, player).
    """


class FormatError(InputError):
    """The input file is not valid YAML or JSON, or not the shape the game expects."""


class YamlSyntaxError(Exception):
    """The text cannot be read as a definition's YAML; ``line`` is 1-based where known.

    ``message`` says what is wrong (a syntax error starts "invalid YAML: ").
    """

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class EditionError(PnpError):
    """A ``pnp.toml`` or an edition folder that cannot be used."""


class OutputError(PnpError):
    """A file or folder that pnp was told to write and cannot, or must not."""


class ImpositionError(PnpError):
    """A card size, bleed, offset or paper that cannot be laid out as asked."""


class SvgError(PnpError):
    """A drawing that uses what the translation does not cover (images, text objects)."""


class SheetError(PnpError):
    """A sheet that cannot be made as asked (unknown kind, impossible per-page count)."""


class FigureError(PnpError):
    """A figure a document asks for that its game does not have, or cannot draw."""


class DocumentError(PnpError):
    """A rulebook or card that cannot be built: the message names the file and the cause."""


class ScorerError(PnpError):
    """A scorer page that cannot be made: the message names the template file at fault."""


class PreflightError(PnpError):
    """A file that cannot be checked: not found, too large, not a PDF."""

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason


class ServeError(PnpError):
    """An address the server cannot listen on."""


class QrError(PnpError):
    """An address too long for a QR code (see :data:`pnp.serve.qr.LONGEST`)."""


LONGEST = 400
"""Characters of one error line; a longer message (a huge argument or path quoted back)
keeps its start and end."""
SHOWN = 3
"""Problems of broken definitions a command prints; ``pnp validate --all`` prints all."""


def one_line(message: object) -> str:
    """``message`` as one line of at most :data:`LONGEST` characters."""
    text = " ".join(str(message).split())
    if len(text) <= LONGEST:
        return text
    return f"{text[:LONGEST // 2]} … {text[-(LONGEST // 2 - 3):]}"


def error_lines(exc: PnpError, every: bool = False) -> list[str]:
    """The lines the command line prints for ``exc``: one, or one per problem of a broken
    definition (the first two and a count when there are more than :data:`SHOWN`, unless
    ``every``)."""
    if not isinstance(exc, DefinitionError):
        return [f"error: {one_line(exc)}"]
    shown = exc.problems if every or len(exc.problems) <= SHOWN else exc.problems[:2]
    lines = [f"error: {one_line(problem)}" for problem in shown]
    if len(shown) < len(exc.problems):
        lines.append(f"error: and {len(exc.problems) - len(shown)} more problems "
                     f"('pnp validate --all' lists every one)")
    return lines

