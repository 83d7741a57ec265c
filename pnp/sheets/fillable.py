"""Fillable score sheets: form fields over the drawn boxes, totals computed by the viewer.

A fillable sheet is the plain sheet drawn once per page in colour, with every box
that a draw call named (``field=style.field(...)``, see :class:`pnp.draw.canvas.Field`)
turned into a text field without border or background, so the sheet still prints
blank. The scoring boxes are read-only fields filled in by JavaScript embedded in
the PDF, which uses only Acrobat's form API (``this.getField``, ``event.value``, a
calculate action and the form's calculation order ``/CO``), so pdf.js (Firefox),
pdfium (Chrome) and Acrobat compute them as the player types.

The script is generated, not written per sheet: each game's ``fillable`` module turns
its definition into a table (geometry, values, penalties) that fills in the game's
scoring function ``pnp_score(values)``, a ``.js`` file of its folder written once per
game, the very function the scorer page runs (:mod:`pnp.scorer.scripts`); this
module adds a generic driver (``driver.js`` beside it) that reads the input fields, writes
the computed ones, turns the fields at fault red and puts a "!" in the total when the
sheet breaks a rule. reportlab has no API for actions, so they are added after the
sheet is saved, with pikepdf.

Field values are read the same way the engine's input is built from them, by
:func:`entry`: an empty box is ``None``, a whole number an ``int``, anything else
the text itself (which the engine refuses). Viewers hand a numeric-looking text
to scripts as a number (pdf.js reads a blank box as NaN): the driver reads NaN as
empty, and number boxes accept digits only, so what is typed is what is scored.

>>> entry(" 12 "), entry(""), entry("1 2")
(12, None, '1 2')
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from pnp import registry
from pnp.definitions.base import GameInfo
from pnp.draw.canvas import FieldBox
from pnp.errors import SheetError
from pnp.i18n.catalogues import translator
from pnp.registry import REGISTRY

FONT = "Helvetica"
"""The one field font: a standard font, the only one a fillable sheet does not embed."""

FILLABLE = {(game.name, kind) for game in REGISTRY.values() for kind in game.fillable}
"""(game, kind) pairs offered as fillable sheets."""

CHARACTERS = {"number": 2.2, "text": 3.4, "mark": 1.4, "computed": 3.0}
"""How many characters each kind of field is sized for, so the font fits its box."""

MAX_LENGTH = {"number": 3, "text": 24, "mark": 2, "computed": 8}

NUMBER = re.compile(r"-?[0-9]{1,6}")
"""A box holding a whole number: a minus sign typed is read, so the engine says the number is
out of range instead of calling it text."""

READ_ONLY = 1
"""Field flag bit 1 (``/Ff``): the player cannot type in it."""

RED = ("RGB", 0.85, 0, 0)
"""A field at fault, in Acrobat's colour array."""
BLACK = ("G", 0)

HERE = Path(__file__).parent
"""Where the driver's scripts are: ``driver.js`` (run after the game's library, as the
driver's calculate action) and ``keystroke.js`` (each whole-number box's keystroke action:
digits only, as AFNumber_Keystroke would accept decimals)."""


@dataclass(frozen=True)
class Script:
    """The generated JavaScript of a fillable sheet and the fields it reads and writes."""

    source: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    driver: str


def entry(text: str) -> int | str | None:
    """A field's text as the engine's input takes it: None, a whole number, or the text."""
    stripped = text.strip()
    if not stripped:
        return None
    return int(stripped) if NUMBER.fullmatch(stripped) else stripped


def check(game: str, kind: str, per_page: int, grayscale: bool) -> None:
    """Refuse what has no fillable variant: other kinds, several per page, grayscale."""
    if (game, kind) not in FILLABLE:
        offered = ", ".join(f"{g} {k}" for g, k in sorted(FILLABLE))
        raise SheetError(f"{game} {kind}: no fillable variant (offered: {offered})")
    if per_page != 1 or grayscale:
        raise SheetError(f"{game} {kind}: the fillable sheet is one per page, in colour")


def script(game: str, kind: str, rules: GameInfo, fields: Sequence[FieldBox],
           lang: str = "en") -> Script:
    """The calculate script of ``game``'s fillable ``kind``: its library (the one the scorer
    page runs, :mod:`pnp.scorer.scripts`) and the driver."""
    from pnp.scorer import scripts as scoring

    inputs = tuple(f.name for f in fields if f.kind != "computed")
    outputs = tuple(f.name for f in fields if f.kind == "computed")
    driver = outputs[-1]
    module = scoring.module(game, kind)
    source = scoring.library(game, rules, kind, lang) + "\n" + scoring.source(
        HERE, "driver.js", INPUTS=inputs, OUTPUTS=outputs, DRIVER=driver, RED=RED, BLACK=BLACK)
    if module.EPILOGUE is not None:
        values = module.placeholders(rules, kind, translator(lang, game), lang)
        source += "\n" + scoring.source(registry.game(game).folder, module.EPILOGUE, **values)
    return Script(source, inputs, outputs, driver)


def add_fields(canvas: Canvas, fields: Sequence[FieldBox]) -> None:
    """A text field over each recorded box: no border, no background, one standard font."""
    names = [f.name for f in fields]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise SheetError(f"fillable sheet: field names used twice: {', '.join(duplicates)}")
    for field in fields:
        x, y, width, height = field.box.x0, field.box.y0, field.box.width, field.box.height
        size = round(min(height * 0.55, width * 0.9 / (0.6 * CHARACTERS[field.kind])), 1)
        # types-reportlab says int; reportlab takes any number of points.
        canvas.acroForm.textfield(
            name=field.name, x=x, y=y, width=width, height=height,  # type: ignore[arg-type]
            value="",
            borderWidth=0, borderColor=None, fillColor=None, textColor=black,
            fontName=FONT, fontSize=size, maxlen=MAX_LENGTH[field.kind],
            fieldFlags="readOnly" if field.kind == "computed" else "",
            annotationFlags="print")


def add_scripts(pdf: bytes, game: str, kind: str, rules: GameInfo,
                fields: Sequence[FieldBox], lang: str = "en") -> bytes:
    """Add the calculate action, the keystroke checks, centring and ``/CO`` to a saved sheet."""
    import pikepdf

    from pnp.scorer.scripts import source

    made = script(game, kind, rules, fields, lang)
    keystroke = source(HERE, "keystroke.js").removesuffix("\n")
    kinds = {f.name: f.kind for f in fields}
    with pikepdf.open(io.BytesIO(pdf)) as document:
        form = document.Root.AcroForm
        driver = None
        for field in form.Fields:
            name = str(field.T)
            field.Q = 1
            if name == made.driver:
                field.AA = pikepdf.Dictionary(C=_javascript(made.source))
                driver = field
            elif kinds.get(name) == "number":
                field.AA = pikepdf.Dictionary(K=_javascript(keystroke))
        assert driver is not None
        form.CO = pikepdf.Array([driver])
        out = io.BytesIO()
        document.save(out, deterministic_id=True, compress_streams=True)
    return out.getvalue()


def _javascript(source: str) -> Any:
    import pikepdf

    return pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String(source))


def extract(pdf: bytes) -> Script:
    """Read a fillable sheet's script back from its bytes (for tests and checks)."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        form = document.Root.AcroForm
        driver = form.CO[0]
        source = str(driver.AA.C.JS)
        inputs: list[str] = []
        outputs: list[str] = []
        for field in form.Fields:
            flags = int(field.get("/Ff", 0))
            (outputs if flags & READ_ONLY else inputs).append(str(field.T))
        return Script(source, tuple(inputs), tuple(outputs), str(driver.T))
