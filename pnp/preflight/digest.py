"""What a page is made of, as a digest: pages made of the same are measured once."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any


def drawing(page: Any, paper: Sequence[float], text: bool = False,
            digests: dict[tuple[tuple[int, int], bool], bytes] | None = None) -> bytes:
    """A digest of all that draws a page's shapes: its paper, its content and its resources
    but their fonts (the forms it places with their own, images, graphics states, colour
    spaces), which draw only text; empty where the page takes its resources from the page
    tree or nests them deeper than :data:`NESTING`. With ``text``, of all its objects are
    made of: its content with its strings, and its resources with their fonts. ``digests``
    keeps the digest of each object met, for the document's other pages (they share fonts)."""
    import pikepdf

    resources = page.obj.get("/Resources")
    if resources is None:
        return b""
    digest = hashlib.sha256(repr((tuple(paper), page.obj.get("/Rotate"), text)).encode())
    digests = {} if digests is None else digests
    pending: set[tuple[tuple[int, int], bool]] = set()

    def feed(value: Any, depth: int, into: Any) -> None:
        if depth > NESTING:
            raise RecursionError
        if isinstance(value, pikepdf.Object) and value.is_indirect:
            key = (value.objgen, text)
            known = digests.get(key)
            if known is None:
                if key in pending:  # a cycle, told by where it closes
                    into.update(b"cycle ")
                    return
                pending.add(key)
                inner = hashlib.sha256()
                direct(value, depth, inner)
                pending.discard(key)
                known = digests[key] = inner.digest()
            into.update(b"R" + known)
            return
        direct(value, depth, into)

    def direct(value: Any, depth: int, into: Any) -> None:
        if isinstance(value, (pikepdf.Stream, pikepdf.Dictionary)):
            into.update(b"<<")
            for key in sorted(value.keys()):
                if text or key != "/Font":
                    into.update(key.encode() + b" ")
                    feed(value[key], depth + 1, into)
            into.update(b">>")
            if isinstance(value, pikepdf.Stream):
                data = value.read_raw_bytes()
                into.update(b"stream %d " % len(data) + data)
        elif isinstance(value, pikepdf.Array):
            into.update(b"[")
            for item in value:
                feed(item, depth + 1, into)
            into.update(b"]")
        elif isinstance(value, pikepdf.Object):
            into.update(value.unparse() + b" ")
        else:
            into.update(repr(value).encode() + b" ")

    contents = page.obj.get("/Contents")
    streams = [contents] if isinstance(contents, pikepdf.Stream) else \
        list(contents) if isinstance(contents, pikepdf.Array) else []
    for stream in streams:
        if not isinstance(stream, pikepdf.Stream):
            return b""
        drawn = stream.read_bytes() if text else _untexted(stream.read_bytes())
        if drawn is None:
            return b""
        digest.update(b"content %d " % len(drawn) + drawn)
    try:
        feed(resources, 0, digest)
    except RecursionError:
        return b""
    return digest.digest()


NESTING = 32
"""How deep a page's resources may nest for its shapes to be known by their digest."""


STRING_OR_COMMENT = re.compile(rb"\((?:[^()\\]|\\.)*\)|%[^\r\n]*", re.S)
INLINE_IMAGE = re.compile(rb"(?:^|\s)BI\s")


def _untexted(content: bytes) -> bytes | None:
    """A page's content without what its strings say (which only text shows: a deck's
    labels differ by their font subset's codes) and its comments; None where that cannot be
    told for sure (a string holding parentheses of its own, an inline image's data)."""
    if b"BI" in content and INLINE_IMAGE.search(content):
        return None
    found = 0

    def strip(match: re.Match[bytes]) -> bytes:
        nonlocal found
        if match.group().startswith(b"("):
            found += 1
            return b"()"
        return b" "

    drawn = STRING_OR_COMMENT.sub(strip, content)
    if drawn.count(b"(") != found or drawn.count(b")") != found:
        return None
    return drawn
