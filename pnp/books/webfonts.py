"""The bundled fonts inside the standalone HTML page, so that a browser sets it in them.

Each face the page uses is embedded as WOFF2 in a ``data:`` URL (the page's
Content-Security-Policy allows ``font-src data:`` and nothing else), subset to the characters
the page shows in that face: :func:`shown` reads the page and its style sheet as a browser's
cascade does for the few properties that choose a face (``font-family``, ``font-weight``,
``font-style``, ``text-transform``, list markers and generated content), and gives each
character to the first face of its element's families that has it, as a browser's fallback
does ("Pnp Symbols" takes the suits and marks the text faces lack). Rules in ``@media print``
are left out; other ``@media`` rules are taken to apply.

A page's fonts take 50–57 KB in the bundled rulebooks (their budget, held by the tests: 150 KB).
A subset is made once per face and character set in a process (an A4 and a Letter page share
theirs); a build makes a page again only when what it reads (the fonts among it) changed.
"""

from __future__ import annotations

import base64
import functools
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from pnp.assets import FONTS
from pnp.books import pdf
from pnp.books.images import MAX_FETCHED
from pnp.reading import read_inside

FEATURES = ("tnum",)
"""OpenType features kept beyond HarfBuzz's defaults (kerning, ligatures, marks):
``font-variant-numeric: tabular-nums`` for the tables' numbers."""
NAMES = (0, 1, 2, 3, 4, 5, 6, 13, 14)
"""The ``name`` records a subset keeps: its copyright, names and version, and its licence
(the OFL asks that every copy of the font carries them)."""


@dataclass(frozen=True, order=True)
class Face:
    """One bundled face as a page's style sheet may name it."""

    family: str
    weight: int
    """Its weight as the font says (OS/2 ``usWeightClass``): Pnp Display is 900."""
    italic: bool
    file: str

    def rule(self, chars: Iterable[str]) -> str:
        """Its ``@font-face`` rule, the font subset to ``chars``."""
        data = base64.b64encode(woff2(self.file, frozenset(chars))).decode("ascii")
        return (f'@font-face {{ font-family: "{self.family}"; font-weight: {self.weight}; '
                f'font-style: {"italic" if self.italic else "normal"}; '
                f'src: url(data:font/woff2;base64,{data}) format("woff2"); }}\n')


@functools.lru_cache(maxsize=4)
def font_faces(page: str, css: str) -> str:
    """The ``@font-face`` rules of the bundled faces the HTML ``page`` shows text in when
    styled by ``css``, each subset to the characters it shows (kept: a book's page on each
    paper is the same page)."""
    return "".join(face.rule(chars) for face, chars in sorted(shown(page, css).items()))


def faces() -> dict[str, tuple[Face, ...]]:
    """The bundled faces by family (in lower case, as style sheets match it), those the
    languages known now name among them."""
    return _faces(pdf.faces())


@functools.cache
def _faces(named: tuple[tuple[str, str, str, str], ...]) -> dict[str, tuple[Face, ...]]:
    found: dict[str, list[Face]] = {}
    for family, _weight, _style, file in named:
        font = _font(file)
        italic = bool(font["OS/2"].fsSelection & 1 or font["head"].macStyle & 2)
        found.setdefault(family.lower(), []).append(
            Face(family, int(font["OS/2"].usWeightClass), italic, file))
    return {family: tuple(group) for family, group in found.items()}


@functools.cache
def _bytes(file: str) -> bytes:
    return read_inside(FONTS, FONTS / file, MAX_FETCHED, "a font")


def _font(file: str) -> Any:
    from fontTools.ttLib import TTFont

    return TTFont(io.BytesIO(_bytes(file)), lazy=True)


@functools.cache
def _cmap(file: str) -> frozenset[int]:
    return frozenset(_font(file).getBestCmap())


@functools.lru_cache(maxsize=32)
def woff2(file: str, chars: frozenset[str]) -> bytes:
    """The bundled font ``file`` as WOFF2, subset to ``chars`` by HarfBuzz, without hinting
    (the page's text is set at screen sizes by browsers that mostly ignore it)."""
    import uharfbuzz
    from fontTools.ttLib import woff2 as encoding

    wanted = uharfbuzz.SubsetInput()
    wanted.flags = uharfbuzz.SubsetFlags.NO_HINTING
    for char in chars:
        wanted.unicode_set.add(ord(char))
    for name in NAMES:
        wanted.name_id_set.add(name)
    for feature in FEATURES:
        wanted.layout_feature_tag_set.add(int.from_bytes(feature.encode("ascii"), "big"))
    subset = uharfbuzz.subset(uharfbuzz.Face(_bytes(file)), wanted)
    if subset is None:
        raise ValueError(f"{file}: HarfBuzz cannot subset it")
    out = io.BytesIO()
    encoding.compress(io.BytesIO(subset.blob.data), out)
    return out.getvalue()


# The cascade, for the properties that choose a face.

@dataclass(frozen=True)
class Style:
    """What chooses the face of an element's text."""

    families: tuple[str, ...] = ("serif",)
    """In lower case, in order."""
    weight: int = 400
    italic: bool = False
    transform: str = "none"
    marker: str = "disc"
    """``list-style-type``."""

    def face(self, char: str) -> Face | None:
        """The bundled face a browser sets ``char`` in, if any: the first of the families
        whose matching face has it."""
        return _face(self, char)


@functools.lru_cache(maxsize=65536)
def _face(style: Style, char: str) -> Face | None:
    for family in style.families:
        group = faces().get(family)
        if group is None:
            continue
        face = _matching(group, style.weight, style.italic)
        if ord(char) in _cmap(face.file):
            return face
    return None


INHERITED = ("font-family", "font-weight", "font-style", "text-transform", "list-style-type")
UA = """
h1, h2, h3, h4, h5, h6, th, b, strong { font-weight: bold }
b, strong { font-weight: bolder }
i, em, cite, var, dfn, address { font-style: italic }
code, kbd, samp, pre { font-family: monospace }
ol { list-style-type: decimal }
"""
"""What a browser's own style sheet says of them (the HTML standard's rendering section)."""
HIDDEN = {"head", "style", "script", "title", "desc", "template", "noscript"}
"""Elements whose text is not shown (an SVG's ``title`` and ``desc`` among them)."""
MARKERS = {"none": "", "disc": "•", "circle": "◦", "square": "▪",
           "lower-roman": "ivxlcdm. ", "upper-roman": "IVXLCDM. ",
           "lower-alpha": "abcdefghijklmnopqrstuvwxyz. ",
           "upper-alpha": "ABCDEFGHIJKLMNOPQRSTUVWXYZ. "}
"""A list item's marker, by ``list-style-type`` (any other: decimal numbers)."""
DIGITS = "0123456789-. "
"""What a number (a counter, a list item's) may show."""

Declaration = tuple[str, Any, bool]
"""A declaration's property (lower case), value (tinycss2 tokens) and ``!important``."""


def shown(page: str, css: str) -> dict[Face, frozenset[str]]:
    """The characters the HTML ``page`` shows in each bundled face, styled by ``css``."""
    import cssselect2
    import tinyhtml5

    matchers = (_matcher(UA), _matcher(css))
    found: dict[Face, set[str]] = {}
    root = cssselect2.ElementWrapper.from_html_root(tinyhtml5.parse(page))
    for style, text in _texts(root, Style(), matchers):
        for char in set(_transformed(text, style.transform)):
            char = " " if char in "\t\n\r\f" else char
            if (face := style.face(char)) is not None:
                found.setdefault(face, set()).add(char)
    return {face: frozenset(chars) for face, chars in found.items()}


def _texts(element: Any, parent: Style, matchers: tuple[Any, Any]
           ) -> Iterator[tuple[Style, str]]:
    """Each text of ``element`` and its descendants, with its style."""
    name = element.local_name
    if name in HIDDEN or "hidden" in element.etree_element.attrib:
        return
    matched = [list(matcher.match(element)) for matcher in matchers]
    style = _styled(parent, _declarations(element, matched, None))
    for pseudo in ("before", "after"):
        declarations = _declarations(element, matched, pseudo)
        content = next((value for prop, value, _ in reversed(declarations)
                        if prop == "content"), None)
        if content is not None:
            yield _styled(style, declarations), _generated(content, element)
    if name == "li":
        yield style, MARKERS.get(style.marker, DIGITS)
    yield style, element.etree_element.text or ""
    for child in element.iter_children():
        yield from _texts(child, style, matchers)
        yield style, child.etree_element.tail or ""


@functools.lru_cache(maxsize=8)
def _matcher(css: str) -> Any:
    """The rules of ``css`` that may choose a face, each with its declarations."""
    import cssselect2
    import tinycss2

    matcher = cssselect2.Matcher()

    def add(rules: Iterable[Any]) -> None:
        for rule in rules:
            if rule.type == "at-rule" and rule.lower_at_keyword == "media" and rule.content:
                if "print" not in tinycss2.serialize(rule.prelude).lower():
                    add(tinycss2.parse_rule_list(rule.content, skip_whitespace=True,
                                                 skip_comments=True))
            elif rule.type == "qualified-rule":
                declarations = _parsed(rule.content)
                if declarations:
                    try:
                        selectors = cssselect2.compile_selector_list(rule.prelude)
                    except cssselect2.SelectorError:
                        continue
                    for selector in selectors:
                        matcher.add_selector(selector, declarations)

    add(tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True))
    return matcher


def _parsed(content: Any) -> list[Declaration]:
    import tinycss2

    wanted = {*INHERITED, "font", "list-style", "content"}
    return [(node.lower_name, [token for token in node.value
                               if token.type not in ("whitespace", "comment")], node.important)
            for node in tinycss2.parse_blocks_contents(content, skip_whitespace=True,
                                                       skip_comments=True)
            if node.type == "declaration" and node.lower_name in wanted]


def _declarations(element: Any, matched: list[list[Any]], pseudo: str | None
                  ) -> list[Declaration]:
    """The declarations that apply to ``element`` (or its ``pseudo``-element), weakest
    first: the browser's, an SVG element's attributes, the style sheet's, the ``style``
    attribute's; then the ``!important`` ones of the style sheet, of the ``style`` attribute
    and of the browser."""
    levels: list[list[Declaration]] = [[], [], [], []]
    for declarations in (payload for _s, _o, kind, payload in matched[0] if kind == pseudo):
        levels[0] += declarations
    if pseudo is None and element.namespace_url == "http://www.w3.org/2000/svg":
        for prop in INHERITED:
            if (value := element.etree_element.get(prop)) is not None:
                levels[1] += _parsed(f"{prop}: {value}")
    for declarations in (payload for _s, _o, kind, payload in matched[1] if kind == pseudo):
        levels[2] += declarations
    if pseudo is None and (attribute := element.etree_element.get("style")):
        levels[3] += _parsed(attribute)
    ordered = [item for level in levels for item in level if not item[2]]
    return ordered + [item for index in (2, 3, 0) for item in levels[index] if item[2]]


def _styled(parent: Style, declarations: list[Declaration]) -> Style:
    style = parent
    for prop, value, _important in declarations:
        words = [token.lower_value for token in value if token.type == "ident"]
        if words == ["inherit"] or words == ["unset"]:
            continue
        if prop == "font-family":
            style = replace(style, families=_families(value))
        elif prop == "font-weight":
            style = replace(style, weight=_weight(value, parent.weight))
        elif prop == "font-style" and words:
            style = replace(style, italic=words[0] in ("italic", "oblique"))
        elif prop == "text-transform" and words:
            style = replace(style, transform=words[0])
        elif prop in ("list-style-type", "list-style") and words:
            style = replace(style, marker=next(
                (word for word in words if word in MARKERS or word == "decimal"), style.marker))
        elif prop == "font":
            style = _font_shorthand(style, value, parent.weight)
    return style


def _font_shorthand(style: Style, value: list[Any], inherited: int) -> Style:
    """``font``: style and weight (normal unless given), a size, then the families."""
    italic, weight = False, 400
    for index, token in enumerate(value):
        if token.type == "ident" and token.lower_value in ("italic", "oblique"):
            italic = True
        elif token.type == "ident" and token.lower_value in ("bold", "bolder", "lighter"):
            weight = _weight([token], inherited)
        elif token.type == "number" and token.is_integer and 1 <= token.int_value <= 1000:
            weight = token.int_value
        elif token.type in ("dimension", "percentage") or (
                token.type == "ident" and token.lower_value.endswith(("small", "large"))):
            rest = value[index + 1:]
            if rest and rest[0].type == "literal" and rest[0].value == "/":
                rest = rest[2:]
            return replace(style, families=_families(rest), weight=weight, italic=italic)
    return style


def _families(value: list[Any]) -> tuple[str, ...]:
    names: list[str] = []
    words: list[str] = []
    for token in [*value, None]:
        if token is None or (token.type == "literal" and token.value == ","):
            if words:
                names.append(" ".join(words).lower())
            words = []
        elif token.type in ("string", "ident"):
            words.append(token.value)
    return tuple(names)


def _weight(value: list[Any], inherited: int) -> int:
    token = value[0] if value else None
    if token is None:
        return inherited
    if token.type == "number" and token.is_integer:
        return int(token.int_value)
    word = getattr(token, "lower_value", "")
    if word == "bold":
        return 700
    if word == "bolder":
        return 400 if inherited < 350 else 700 if inherited < 550 else 900
    if word == "lighter":
        return 100 if inherited < 550 else 400 if inherited < 750 else 700
    return 400


def _matching(group: tuple[Face, ...], weight: int, italic: bool) -> Face:
    """The face of a family a browser takes for ``weight`` and ``italic`` (CSS Fonts,
    font matching: the style first, then the nearest weight in the direction the standard
    says)."""
    styled = [face for face in group if face.italic == italic] or list(group)

    def distance(face: Face) -> tuple[int, int]:
        if face.weight == weight:
            return (0, 0)
        if 400 <= weight <= 500:
            if weight < face.weight <= 500:
                return (1, face.weight - weight)
            if face.weight < weight:
                return (2, weight - face.weight)
            return (3, face.weight - weight)
        if (face.weight > weight) == (weight > 500):
            return (1, abs(face.weight - weight))
        return (2, abs(face.weight - weight))

    return min(styled, key=distance)


def _generated(content: list[Any], element: Any) -> str:
    """The characters ``content`` (of a ``::before`` or ``::after``) may show."""
    out = []
    for token in content:
        if token.type == "string":
            out.append(token.value)
        elif token.type == "function" and token.lower_name in ("counter", "counters"):
            out.append(DIGITS)
            out += [arg.value for arg in token.arguments if arg.type == "string"]
        elif token.type == "function" and token.lower_name == "attr":
            name = next((arg.value for arg in token.arguments if arg.type == "ident"), "")
            out.append(element.etree_element.get(name, ""))
        elif token.type == "ident" and token.lower_value in ("open-quote", "close-quote"):
            out.append("“”‘’«»")
    return "".join(out)


def _transformed(text: str, transform: str) -> str:
    if transform == "uppercase":
        return text.upper()
    if transform == "lowercase":
        return text.lower()
    if transform == "capitalize":
        return text + text.upper()
    return text
