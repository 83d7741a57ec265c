"""How a document's blocks are set for reading: what must stay together, how tables align.

Two things CSS cannot say, or WeasyPrint does not do, are decided here on the HTML the
Markdown makes (a flat run of blocks: headings, paragraphs, lists, tables, figures):

- **What travels together.** A heading, a paragraph that ends with a colon, or one all in
  bold (a run-in title) introduces what follows. WeasyPrint honours ``break-after: avoid``
  between a heading and a paragraph, but not before a block that must not break (a table,
  a figure, a note), which then leaves the heading alone at the foot of a page. Such a
  run, from the heading to the block (with, between two tables, a line of text), is
  wrapped in ``<div class="keep">``, which the style sheet keeps on one page. An
  introduction followed by a block that may break (a list, a paragraph) gets
  ``class="keep-next"``.
- **How table columns align.** Text to the left, numbers to the right: a column whose
  cells are all numbers (a sign, digits, bold or not) is marked ``class="num"``, its
  header too.
- **Where a figure floats.** CSS page floats are not in WeasyPrint: a figure that would
  leave a page too empty is moved further down the text (:func:`deferred`), where a first
  layout tells (:func:`pnp.books.pdf.floats`).

>>> keep_together('<h2>A</h2><table><tr><td>1</td></tr></table><p>Long text.</p>')
'<div class="keep"><h2>A</h2><table><tr><td>1</td></tr></table></div><p>Long text.</p>'
>>> align_numbers('<table><tr><th>Who</th><th>Points</th></tr>'
...               '<tr><td>Ana</td><td>+4</td></tr></table>')  # doctest: +NORMALIZE_WHITESPACE
'<table><tr><th>Who</th><th class="num">Points</th></tr><tr><td>Ana</td><td
class="num">+4</td></tr></table>'
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

ATOMIC = {"table", "figure", "blockquote", "pre"}
"""Blocks the style sheet never breaks."""
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
SHORT = 160
"""A paragraph this short (in characters) between two tables belongs with them (not between
a table and a figure: the group would take most of a page)."""

NUMBER = re.compile(r"[−+\-–]?\s?\d[\d\s.,]*%?")


@dataclass(frozen=True)
class _Block:
    tag: str
    start: int
    end: int
    text: str
    title: bool = False
    """A paragraph that is all bold: a run-in title, which introduces like a heading."""


class _Blocks(HTMLParser):
    """The top-level elements of an HTML fragment, with their offsets."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.lines = [0] + [m.end() for m in re.finditer("\n", source)]
        self.depth = 0
        self.blocks: list[_Block] = []
        self._open: tuple[str, int] | None = None
        self._text: list[str] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "hr", "wbr", "col"):
            if self.depth == 0:
                start = self._offset()
                end = start + len(self.get_starttag_text() or "")
                self.blocks.append(_Block(tag, start, end, ""))
            return
        if self.depth == 0:
            self._open = (tag, self._offset())
            self._text = []
        self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "img", "hr", "wbr", "col"):
            return
        self.depth -= 1
        if self.depth == 0 and self._open is not None:
            start = self._open[1]
            end = self.source.index(">", self._offset()) + 1
            title = re.fullmatch(r"<p>\s*<strong>[^<]*</strong>\s*</p>",
                                 self.source[start:end]) is not None
            self.blocks.append(_Block(self._open[0], start, end, "".join(self._text).strip(),
                                      title))
            self._open = None

    def handle_data(self, data: str) -> None:
        if self.depth:
            self._text.append(data)


def _blocks(fragment: str) -> list[_Block]:
    parser = _Blocks(fragment)
    parser.feed(fragment)
    parser.close()
    return parser.blocks


def _introduces(block: _Block) -> bool:
    return block.tag in HEADINGS or (block.tag == "p" and (block.text.endswith(":")
                                                           or block.title))


def keep_together(fragment: str) -> str:
    """``fragment`` with each introduction kept with what it introduces (see the module)."""
    blocks = _blocks(fragment)
    groups: list[list[int]] = []
    index = 0
    while index < len(blocks):
        group = [index]
        while _introduces(blocks[group[-1]]) and group[-1] + 1 < len(blocks):
            group.append(group[-1] + 1)
        if blocks[group[-1]].tag in ATOMIC and len(group) > 1:
            following = group[-1] + 1
            while (following + 1 < len(blocks) and blocks[following].tag == "p"
                   and len(blocks[following].text) <= SHORT
                   and not _introduces(blocks[following])
                   and blocks[following + 1].tag == "table"):
                group += [following, following + 1]
                following += 2
        groups.append(group)
        index = group[-1] + 1
    out: list[str] = []
    at = 0
    for group in groups:
        first, last = blocks[group[0]], blocks[group[-1]]
        out.append(fragment[at:first.start])
        if len(group) > 1 and last.tag in ATOMIC:
            out.append(f'<div class="keep">{fragment[first.start:last.end]}</div>')
        else:
            at_block = first.start
            pieces = []
            for number in group:
                block = blocks[number]
                pieces.append(fragment[at_block:block.start])
                markup = fragment[block.start:block.end]
                if number != group[-1] and block.tag == "p" and _introduces(block):
                    markup = _with_class(markup, "keep-next")
                pieces.append(markup)
                at_block = block.end
            out.append("".join(pieces))
        at = last.end
    out.append(fragment[at:])
    return "".join(out)


def _with_class(markup: str, name: str) -> str:
    """``markup`` with ``name`` added to the classes of its first element."""
    match = re.match(r"<(\w+)([^>]*)>", markup)
    if match is None:
        return markup
    attributes = match[2]
    classes = re.search(r'\sclass="([^"]*)"', attributes)
    if classes:
        attributes = attributes.replace(classes[0], f' class="{classes[1]} {name}"')
    else:
        attributes += f' class="{name}"'
    return f"<{match[1]}{attributes}>" + markup[match.end():]


_TABLE = re.compile(r"<table\b.*?</table>", re.S)
_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.S)
_CELL = re.compile(r"<(t[dh])\b([^>]*)>(.*?)</\1>", re.S)


def _number(cell: str) -> bool | None:
    """Whether a cell holds a number; None when it holds nothing (or a dash)."""
    text = html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
    if text in ("", "—", "–", "-"):
        return None
    return NUMBER.fullmatch(text) is not None


def align_numbers(fragment: str) -> str:
    """Each table column of numbers marked ``num``, its header with it (see the module)."""

    def table(match: re.Match[str]) -> str:
        source = match[0]
        rows = [[cell for cell in _CELL.finditer(row[1])] for row in _ROW.finditer(source)]
        numeric: dict[int, bool] = {}
        for row in rows:
            for column, cell in enumerate(row):
                if cell[1] == "td":
                    found = _number(cell[3])
                    if found is not None:
                        numeric[column] = numeric.get(column, True) and found
        columns = {column for column, yes in numeric.items() if yes}
        if not columns:
            return source

        def row_cells(row_match: re.Match[str]) -> str:
            cells = list(_CELL.finditer(row_match[1]))
            text = row_match[0]
            for column, cell in reversed(list(enumerate(cells))):
                if column in columns:
                    tag = f"<{cell[1]}{cell[2]}>"
                    start = row_match.start(1) - row_match.start(0) + cell.start()
                    text = text[:start] + _with_class(tag, "num") + text[start + len(tag):]
            return text

        return _ROW.sub(row_cells, source)

    return _TABLE.sub(table, fragment)


def deferred(page: str, moves: Sequence[tuple[int, int]]) -> str:
    """``page`` with each figure of ``moves`` set further down, as a publisher floats a figure
    to the top of the next page and lets the text after it fill the page before.

    A move ``(block, count)`` names a top-level block of ``<main>`` (by index) that is a
    figure or a group kept together (:func:`keep_together`) that ends with one, and the
    number of blocks after it that go before it. A group whose figure only headings
    introduce leaves them in place (they then head the text that follows them); a group
    with an introduction moves whole.

    >>> deferred('<main><h2>A</h2><figure>F</figure><p>Text.</p></main>', [(1, 1)])
    '<main><h2>A</h2>\\n<p>Text.</p>\\n<figure>F</figure></main>'
    >>> deferred('<main><div class="keep"><h2>A</h2><figure>F</figure></div><p>T.</p></main>',
    ...          [(0, 1)])
    '<main><h2>A</h2>\\n<p>T.</p>\\n<figure>F</figure></main>'
    """
    start = page.index("<main>") + len("<main>")
    end = page.rindex("</main>")
    body = page[start:end]
    blocks = [body[block.start:block.end] for block in _blocks(body)]
    for index, count in sorted(moves, reverse=True):
        staying, moving = "", blocks[index]
        group = re.fullmatch(r'<div class="keep">(.*)</div>', moving, re.S)
        if group is not None:
            inner = _blocks(group[1])
            if inner[-1].tag == "figure" and all(b.tag in HEADINGS for b in inner[:-1]):
                staying = group[1][:inner[-1].start].strip()
                moving = group[1][inner[-1].start:inner[-1].end]
        blocks[index:index + count + 1] = ([staying] if staying else []) + \
            blocks[index + 1:index + count + 1] + [moving]
    return page[:start] + "\n".join(blocks) + page[end:]
