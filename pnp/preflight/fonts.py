"""The file as a whole: its structure as qpdf reads it, and the fonts it shows text with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pnp.draw.geometry import Box
from pnp.preflight.geometry import millimetres
from pnp.preflight.page import Finding, Page
from pnp.preflight.read import STREAM, first_line


def opened(pdf: Any) -> list[str]:
    """What qpdf says about the file before its pages are parsed, as ``qpdf --check`` says it
    (pikepdf's ``check_pdf_syntax``, step by step): the warnings on opening, the
    linearization, the document's structures and every stream decoded. The pages' content is
    parsed once, by :func:`shown`, which adds what it finds."""
    from io import StringIO

    problems = [str(w) for w in pdf.get_warnings()]
    try:
        if pdf.is_linearized:
            pdf.check_linearization(StringIO())
            _warnings(pdf, problems)
        pdf._check_document_structures()
        if len(pdf.pages) == 0:
            _warnings(pdf, problems)
            problems.append("ERROR: file does not contain any pages")
        pdf._decode_all_streams_and_discard(None)
    except Exception as exc:  # qpdf's own failure is a structure problem of the file
        problems.append(first_line(exc))
    return problems


def _warnings(pdf: Any, problems: list[str]) -> None:
    problems.extend("WARNING: " + warning for warning in pdf.get_warnings())


def structure(problems: Sequence[str], name: str) -> list[Finding]:
    """What qpdf found while opening and checking the file (:func:`opened`, :func:`shown`),
    in one finding."""
    said = list(dict.fromkeys(" ".join(STREAM.sub("", p).split()) for p in problems))
    if not said:
        return []
    text = "; ".join(said)
    return [Finding(name, 0, 0.0, 0.0, "structure",
                    f"qpdf: {text if len(text) <= 300 else text[:297] + '...'}")]


UnembeddedFont = tuple[int, str, Box | None]
"""The page it is drawn on, the font's name, and where (an annotation's rectangle) if known."""


@dataclass
class Shown:
    """What the pages show, read from their content in one pass."""

    unembedded: list[UnembeddedFont]
    """Fonts that draw text somewhere and are not in the file."""
    forms: list[list[Any]]
    """For each page, the forms its own content places, in order."""


def shown(pdf: Any, problems: list[str]) -> Shown:
    """What the pages show; each page's content is parsed once, and what qpdf finds while
    parsing it goes in ``problems`` (after :func:`opened`'s), as ``qpdf --check`` tells it."""
    import pikepdf

    found: list[UnembeddedFont] = []
    forms: list[list[Any]] = []
    seen: dict[tuple[int, int], set[str]] = {}
    for number, page in enumerate(pdf.pages, start=1):
        left, top = float(page.mediabox[0]), float(page.mediabox[3])
        forms.append([])
        try:
            instructions = pikepdf.parse_content_stream(page, SHOWING)
        except pikepdf.PdfError as exc:
            _warnings(pdf, problems)
            problems.append(f"ERROR: page {number}: {exc}")
            instructions = []
        fonts = _shown_fonts(page.obj, page.obj.get("/Resources"), seen, pikepdf, set(),
                             forms[-1], instructions)
        for font in sorted(fonts):
            found.append((number, font, None))
        for annotation in page.obj.get("/Annots") or []:
            appearance = (annotation.get("/AP") or {}).get("/N")
            streams = ([appearance] if isinstance(appearance, pikepdf.Stream)
                       else list(appearance.values()) if isinstance(appearance, pikepdf.Dictionary)
                       else [])
            for stream in streams:
                if not isinstance(stream, pikepdf.Stream):
                    continue
                fonts = _shown_fonts(stream, stream.get("/Resources"), seen, pikepdf, set())
                rect = [float(v) for v in annotation.get("/Rect", [0, 0, 0, 0])]
                box = Box(rect[0] - left, top - rect[3], rect[2] - left, top - rect[1])
                found += [(number, font, box) for font in sorted(fonts)]
    _warnings(pdf, problems)
    return Shown(list(dict.fromkeys(found)), forms)


SHOWING = "Tf Tj TJ ' \" Do"
"""The operators that show text or place a form."""


def _shown_fonts(content: Any, resources: Any, seen: dict[tuple[int, int], set[str]],
                 pikepdf: Any, active: set[tuple[int, int]],
                 placed: list[Any] | None = None, instructions: Any = None) -> set[str]:
    """The names of the unembedded fonts ``content`` shows text with, forms it places
    included (each form read once); the forms it places itself go in ``placed``. A page's
    ``instructions`` come parsed; a form's content is parsed here."""
    key = content.objgen if content.is_indirect else (0, id(content))
    if key in seen:
        return seen[key]
    if key in active:
        return set()
    active.add(key)
    fonts = resources.get("/Font", {}) if resources is not None else {}
    xobjects = resources.get("/XObject", {}) if resources is not None else {}
    result: set[str] = set()
    unembedded = None
    if instructions is None:
        try:
            instructions = pikepdf.parse_content_stream(content, SHOWING)
        except pikepdf.PdfError:
            instructions = []
    for instruction in instructions:
        operator = str(instruction.operator)
        operands = instruction.operands
        if operator == "Tf" and operands:
            current = fonts.get(str(operands[0])) if isinstance(fonts, pikepdf.Dictionary) \
                else None
            unembedded = current if current is not None and not _embedded(current, pikepdf) \
                else None
        elif operator == "Do" and operands and isinstance(xobjects, pikepdf.Dictionary):
            form = xobjects.get(str(operands[0]))
            if isinstance(form, pikepdf.Stream) and form.get("/Subtype") == "/Form":
                if placed is not None:
                    placed.append((str(operands[0]), form))
                result |= _shown_fonts(form, form.get("/Resources", resources), seen, pikepdf,
                                       active)
        elif operator in ("Tj", "TJ", "'", '"') and unembedded is not None:
            result.add(str(unembedded.get("/BaseFont", "unnamed font")).lstrip("/"))
    active.discard(key)
    seen[key] = result
    return result


def _embedded(font: Any, pikepdf: Any) -> bool:
    if font.get("/Subtype") == "/Type3":
        return True
    if font.get("/Subtype") == "/Type0":
        descendants = font.get("/DescendantFonts") or []
        font = descendants[0] if len(descendants) else font
    descriptor = font.get("/FontDescriptor")
    return isinstance(descriptor, pikepdf.Dictionary) and any(
        key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def font_findings(fonts: Sequence[UnembeddedFont], pages: Sequence[Page],
                   name: str) -> list[Finding]:
    """A finding for each font not embedded, where it first shows text on its page (the
    first glyph in it, or the annotation whose appearance uses it)."""
    found = []
    for number, font, box in fonts:
        if box is None:
            glyphs = [g for g in pages[number - 1].glyphs if g.font.split("+")[-1] == font]
            box = glyphs[0].box if glyphs else Box(0.0, 0.0, 0.0, 0.0)
        found.append(Finding(name, number, round(millimetres(box[0]), 1),
                             round(millimetres(box[1]), 1),
                             "font", f"font {font} is not embedded"))
    return found
