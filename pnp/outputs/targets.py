"""What pnp's files are called: every material is a :class:`Target`, and its name is worked
out here and nowhere else, for ``pnp build``, for the commands that make one file, and for
a book that names a sheet so that players can find it.

>>> Target("qwinto", "es", "sheet", "letter", kind="sheet", per_page=4).relative.as_posix()
'qwinto/es/qwinto-sheet-4up-letter.pdf'
>>> Target("kwingto", "fr", "scorer", "", fmt="js").relative.as_posix()
'kwingto/fr/kwingto-scorer-sw.js'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

OUTPUT = Path("output")
"""Where a command writes by default, in the current folder: a build folder."""
SCORER_FILES = {"html": "{game}-scorer.html", "webmanifest": "{game}-scorer.webmanifest",
                "js": "{game}-scorer-sw.js"}
"""The scorer page of each game and language, and beside it the two files that let a browser
install it as an app when it is served over http(s) (see :mod:`pnp.scorer.page`)."""


@dataclass(frozen=True)
class Target:
    """One file to build."""

    game: str
    lang: str
    document: str
    """``sheet``, ``rulebook``, ``card``, ``deck`` or ``scorer``."""
    paper: str
    fmt: str = "pdf"
    kind: str = ""
    """For a sheet: the layout (``sheet``, ``pad``, ``stats``...); for a deck: a card size,
    or ``calibration-long``."""
    per_page: int = 1
    grayscale: bool = False
    fillable: bool = False
    """For a sheet: form fields whose totals the PDF viewer computes."""
    offset: tuple[float, float] = (0.0, 0.0)
    """For a deck: how far its backs are moved (mm right, mm up; see
    :data:`pnp.build.plan.BACK_MOVES`)."""

    @property
    def material(self) -> str:
        if self.document == "deck":
            return f"deck-{self.kind}" + moved_name(self.offset)
        if self.document != "sheet":
            return self.document
        return sheet_material(self.kind, self.per_page, self.grayscale, self.fillable)

    @property
    def relative(self) -> Path:
        if self.document == "scorer":
            return Path(self.game, self.lang, SCORER_FILES[self.fmt].format(game=self.game))
        return Path(self.game, self.lang, f"{self.game}-{self.material}-{self.paper}.{self.fmt}")


def moved_name(offset: tuple[float, float]) -> str:
    """The part of a deck's file name that says how its backs are moved, as the calibration
    sheet says it.

    >>> moved_name((1.0, -1.0)), moved_name((0.0, 0.0))
    ('-backs-1mm-right-1mm-down', '')
    """
    x, y = offset
    parts = ([f"{abs(x):g}mm-{'right' if x > 0 else 'left'}"] if x else []) + (
        [f"{abs(y):g}mm-{'up' if y > 0 else 'down'}"] if y else [])
    return "".join(f"-{part}" for part in ["backs", *parts]) if parts else ""


def sheet_material(kind: str, per_page: int, grayscale: bool, fillable: bool = False) -> str:
    """A sheet's material name: its kind, then ``fillable``, ``grayscale`` and ``Nup``
    where they apply."""
    parts = [kind] + (["fillable"] if fillable else []) + (
        ["grayscale"] if grayscale else []) + (
        [f"{per_page}up"] if per_page > 1 else [])
    return "-".join(parts)


def sheet_file(game: str, lang: str, kind: str, paper: str = "a4",
               document: str = "sheet") -> str:
    """The name of the file a build writes for ``game``'s ``kind`` of sheet (or deck),
    which sits in the same folder as the rulebook: a book names it so that players can
    find it.

    >>> sheet_file("kwingto", "fr", "coto", "letter")
    'kwingto-coto-letter.pdf'
    >>> sheet_file("xactika", "es", "poker", document="deck")
    'xactika-deck-poker-a4.pdf'
    """
    return Target(game, lang, document, paper, kind=kind).relative.name


def thumbnail(relative: Path) -> Path:
    """Where the thumbnail of the built file ``relative`` goes, relative to the build folder.

    >>> thumbnail(Path("qwinto/en/qwinto-card-a5.pdf")).as_posix()
    'thumbs/qwinto_en_qwinto-card-a5.png'
    """
    return Path("thumbs", relative.with_suffix("").as_posix().replace("/", "_") + ".png")


def destination(target: Target, output: Path | None = None) -> Path:
    """Where a command writes ``target``: ``output``, else its place under :data:`OUTPUT`."""
    return output or OUTPUT / target.relative


_SCORER = {name.format(game="").lstrip("-"): fmt for fmt, name in SCORER_FILES.items()}
_MOVE = r"(?:-(?P<{axis}>\d+(?:\.\d+)?)mm-(?P<{axis}_way>{ways}))?"
_NAME = re.compile(
    r"(?P<game>[a-z]+)-(?:"
    r"(?P<book>rulebook|card)"
    r"|deck-(?P<deck>[a-z]+(?:-long)?)(?:-backs" + _MOVE.format(axis="x", ways="right|left")
    + _MOVE.format(axis="y", ways="up|down") + r")?"
    r"|(?P<sheet>[a-z][a-z0-9]*)(?P<fillable>-fillable)?(?P<grayscale>-grayscale)?"
    r"(?:-(?P<per_page>[2-9]|[1-9][0-9])up)?"
    r")-(?P<paper>[a-z][a-z0-9]*)\.(?P<fmt>pdf|html)")


def target_of(relative: str) -> Target | None:
    """The target whose :attr:`Target.relative` is ``relative`` (a path with ``/``), or
    ``None`` for a name pnp does not make: the one reading of the names worked out above.

    >>> target_of("xactika/en/xactika-deck-poker-backs-1mm-left-a4.pdf").offset
    (-1.0, 0.0)
    >>> target_of("qwinto/en/kwingto-sheet-a4.pdf") is None
    True
    """
    parts = relative.split("/")
    if len(parts) != 3:
        return None
    game, lang, name = parts
    if (fmt := _SCORER.get(name.removeprefix(f"{game}-"))) and name.startswith(f"{game}-"):
        return Target(game, lang, "scorer", "", fmt=fmt)
    match = _NAME.fullmatch(name)
    if not match or match["game"] != game:
        return None
    paper, fmt = match["paper"], match["fmt"]
    if match["book"]:
        found = Target(game, lang, match["book"], paper, fmt=fmt)
    elif match["deck"]:
        x = float(match["x"] or 0) * (-1 if match["x_way"] == "left" else 1)
        y = float(match["y"] or 0) * (-1 if match["y_way"] == "down" else 1)
        found = Target(game, lang, "deck", paper, fmt=fmt, kind=match["deck"], offset=(x, y))
    else:
        found = Target(game, lang, "sheet", paper, fmt=fmt, kind=match["sheet"],
                       per_page=int(match["per_page"] or 1),
                       grayscale=bool(match["grayscale"]), fillable=bool(match["fillable"]))
    return found if found.relative.as_posix() == relative else None
