"""The order in which a line's characters stand on the page, left to right.

A right-to-left line (Arabic) keeps its words in reading order from the right, but a run of
Latin letters or of digits inside it still reads left to right: ``الجولة 40`` shows the
``40`` at the left, written 4 then 0. :func:`visual` resolves a line as the Unicode
bidirectional algorithm does for the text pnp sets (one paragraph, no explicit embeddings,
no Arabic-Indic digits): letters take their own direction, European digits (with a sign
before them, a percent or a separator between them) read left to right, and a neutral
character (a space, a mark) between two runs of one direction takes theirs, else the line's.
"""

from __future__ import annotations

import functools
import unicodedata

MIRRORED = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))
"""What a paired mark shows as in a right-to-left run: its mirror image."""

FIRST_RIGHT_TO_LEFT = "\u0590"
"""Where Unicode's right-to-left scripts begin (Hebrew, then Arabic): a line of characters
all below it reads left to right."""

_STRONG = {"L": False, "R": True, "AL": True}
_NUMBER = {"EN", "AN"}
_JOINING = {"ES", "CS"}
"""Separators that stay with the digits on both their sides (``3,5``, ``1-2``)."""


def _classes(text: str) -> list[str]:
    kinds = [unicodedata.bidirectional(char) or "L" for char in text]
    for index, kind in enumerate(kinds):
        following = index + 1 < len(kinds) and kinds[index + 1] in _NUMBER
        between = index > 0 and kinds[index - 1] in _NUMBER
        if following and (kind == "ES" or (kind in _JOINING and between)):
            kinds[index] = "EN"  # a sign stays with its number: −5 reads −5 in any line
    for order in (range(len(kinds)), range(len(kinds) - 1, -1, -1)):
        previous = ""
        for index in order:
            if kinds[index] == "ET" and previous in _NUMBER:
                kinds[index] = "EN"
            previous = kinds[index]
    return kinds


def _levels(text: str, rtl: bool) -> list[int]:
    """Each character's embedding level: even reads left to right, odd right to left."""
    kinds = _classes(text)
    strong: list[bool | None] = []
    last = rtl
    for kind in kinds:
        if kind in _STRONG:
            last = _STRONG[kind]
            strong.append(last)
        elif kind in _NUMBER:
            # digits after Latin letters join them; elsewhere they act as right-to-left
            # on the neutrals around them
            strong.append(last)
        else:
            strong.append(None)
    resolved = list(strong)
    index = 0
    while index < len(strong):
        if strong[index] is not None:
            index += 1
            continue
        end = index
        while end < len(strong) and strong[end] is None:
            end += 1
        before = strong[index - 1] if index else rtl
        after = strong[end] if end < len(strong) else rtl
        for at in range(index, end):
            resolved[at] = before if before == after else rtl
        index = end
    levels = []
    for kind, right in zip(kinds, resolved, strict=True):
        if kind in _NUMBER:
            levels.append(2 if right or rtl else 0)
        else:
            levels.append((1 if right else 2) if rtl else (1 if right else 0))
    return levels


def right_to_left(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter."""
    return any(_STRONG.get(unicodedata.bidirectional(char), False) for char in text)


def starts_right_to_left(text: str) -> bool:
    """Whether ``text``'s first letter is right-to-left: the direction of a line set on its
    own, such as a title (the Unicode algorithm's first strong character)."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in _STRONG:
            return _STRONG[kind]
    return False


@functools.lru_cache(maxsize=4096)
def standalone(drawn: str) -> str:
    """A shaped run's characters (its glyphs in visual order) with each letter left in its
    plain form, as a glyph standing alone reads back, given as its isolated presentation
    form: a reader that shapes them again (a browser) joins none of them to a neighbour."""
    def isolated(char: str) -> str:
        try:
            return unicodedata.lookup(f"{unicodedata.name(char)} ISOLATED FORM")
        except (KeyError, ValueError):
            return char
    return "".join(isolated(char) for char in drawn)


OVERRIDE = 'direction="ltr" unicode-bidi="bidi-override"'
"""The SVG attributes that keep a text's characters in the order given: a right-to-left run
written in visual order, as its shaped (presentation) forms, which WeasyPrint's SVG text,
which reorders nothing, and a browser, which would reorder it again, both show alike."""


@functools.lru_cache(maxsize=8192)
def visual(text: str, rtl: bool) -> tuple[tuple[str, bool], ...]:
    """``text``'s runs as they stand from left to right, each with whether it reads right to
    left: a right-to-left run is given in logical order (its caller shapes it, which puts its
    glyphs in visual order, and mirrors its paired marks).

    >>> visual("الجولة 40", True)
    (('40', False), ('الجولة ', True))
    >>> visual("نقاط −5 (ronda)", True)
    ((')', True), ('ronda', False), (' (', True), ('−5', False), ('نقاط ', True))
    """
    if not text:
        return ()
    if not rtl and max(text) < FIRST_RIGHT_TO_LEFT:
        return ((text, False),)
    levels = _levels(text, rtl)
    runs: list[tuple[int, str]] = []
    for char, level in zip(text, levels, strict=True):
        if runs and runs[-1][0] == level:
            runs[-1] = (level, runs[-1][1] + char)
        else:
            runs.append((level, char))
    order = list(range(len(runs)))
    for least in range(max(levels), 0, -1):
        index = 0
        while index < len(order):
            if runs[order[index]][0] < least:
                index += 1
                continue
            end = index
            while end < len(order) and runs[order[end]][0] >= least:
                end += 1
            order[index:end] = reversed(order[index:end])
            index = end
    return tuple((runs[at][1], runs[at][0] % 2 == 1) for at in order)
