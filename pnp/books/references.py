"""What a rulebook or card may refer to, in either edition.

A document may link to its own headings (``#id``) and to ``https:`` and ``mailto:``
addresses (hyperlinks a reader follows, never loaded), show PNG and JPEG images from its
edition's templates folder or inline (``data:image/...``), and use the style sheets of that
folder. Nothing else: no ``file:``, ``http:``, ``//host`` or other ``data:`` references, no
scripts, frames, forms or elements that load what they name. An image is what its bytes
say it is (:mod:`pnp.books.images`), whatever its name or ``data:`` type.

The PDF and the standalone HTML page pass the same policy when the document is
composed. The HTML page then gets its images and style sheet inlined, is checked
again with nothing outside it allowed, is cleaned by the HTML parser browsers use
(:meth:`Policy.finished`: what the policy's reading missed, a browser's reading does not
keep) and carries, first in its head, a Content-Security-Policy that forbids a browser to
load anything.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from pnp.books.images import IMAGES, MAX_FETCHED, MAX_IMAGE, data_bytes, image_type, loadable
from pnp.errors import ReadError
from pnp.reading import read_inside, text_inside

CSP = ("default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; "
       "base-uri 'none'; form-action 'none'")
"""The standalone page's Content-Security-Policy: it loads nothing from anywhere."""

ELEMENTS = {"html", "head", "body", "title", "meta", "link", "style", "main", "section",
            "nav", "header", "footer", "article", "aside", "div", "span", "p", "h1", "h2",
            "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "caption",
            "colgroup", "col", "thead", "tbody", "tfoot", "tr", "th", "td", "blockquote",
            "pre", "code", "hr", "br", "wbr", "img", "a", "strong", "em", "b", "i", "u", "s",
            "small", "sup", "sub", "abbr", "figure", "figcaption", "mark", "q", "kbd", "samp",
            "var", "time", "ins", "del", "address", "details", "summary", "bdi", "bdo"}
"""The elements a page may have: none of them runs, embeds or submits anything."""

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
SVG_SHAPES = {"svg", "g", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path",
              "text", "tspan", "desc", "clippath"}
"""Inline vector drawings (title lockups, figures): shapes and text only. No ``use``,
``image``, ``foreignObject``, ``script``, ``style`` or animation, so a drawing can neither
fetch nor run anything; ``url(...)`` only to its own parts (``clip-path="url(#id)"``)."""
_PAINT = {"fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap",
          "stroke-linejoin", "opacity", "fill-opacity", "stroke-opacity", "transform",
          "font-family", "font-size", "font-weight", "font-style", "text-anchor",
          "dominant-baseline", "fill-rule", "letter-spacing", "clip-path", "clip-rule",
          "direction", "unicode-bidi"}
ELEMENTS |= SVG_SHAPES
_SVG_CASE = {name.lower(): name for name in ("clipPath", "viewBox", "preserveAspectRatio",
                                             "textLength", "lengthAdjust", "clipPathUnits")}
"""SVG's names in the case a browser's parser gives them (html.parser gives lower case)."""

COMMON = {"id", "class", "title", "lang", "dir", "role", "hidden", "style"}
ATTRIBUTES = {"a": {"href"}, "img": {"src", "alt", "width", "height"},
              "link": {"rel", "href", "media", "type"}, "meta": {"charset", "name", "content"},
              "style": {"media", "type"}, "html": {"xmlns"},
              "td": {"colspan", "rowspan", "headers"}, "th": {"colspan", "rowspan", "headers",
                                                             "scope"},
              "ol": {"start", "reversed", "type"}, "li": {"value"}, "col": {"span"},
              "colgroup": {"span"}, "time": {"datetime"}, "details": {"open"}}
ATTRIBUTES.update({
    "svg": {"xmlns", "viewbox", "width", "height", "preserveaspectratio", "focusable"} | _PAINT,
    "g": _PAINT, "rect": {"x", "y", "width", "height", "rx", "ry"} | _PAINT,
    "circle": {"cx", "cy", "r"} | _PAINT, "ellipse": {"cx", "cy", "rx", "ry"} | _PAINT,
    "line": {"x1", "y1", "x2", "y2"} | _PAINT, "polyline": {"points"} | _PAINT,
    "polygon": {"points"} | _PAINT, "path": {"d"} | _PAINT,
    "text": {"x", "y", "dx", "dy", "textlength", "lengthadjust"} | _PAINT,
    "tspan": {"x", "y", "dx", "dy"} | _PAINT, "clippath": {"clippathunits"}})
"""Attributes beyond ``COMMON`` (and ``aria-*``, ``data-*``), per element (the HTML parser
gives SVG's attributes in lower case: ``viewbox``)."""

LINKS = ("https://", "mailto:")

_CLEANER_TAGS = {_SVG_CASE.get(tag, tag) for tag in ELEMENTS - {"html", "head", "body", "link"}}
_CLEANER_ATTRIBUTES = {"*": COMMON, **{
    _SVG_CASE.get(tag, tag): {_SVG_CASE.get(name, name) for name in names}
    for tag, names in ATTRIBUTES.items()}}
"""The allow-list above, as nh3 takes it: a finished page is a fragment (its ``<html>``,
``<head>`` and ``<body>`` are written anew) with no style sheet links (they are inlined)."""
_UNREAD = {"script", "noscript", "template", "iframe", "object", "noembed", "noframes"}
"""Elements whose content is not for a reader: dropped with them."""
_ATTRIBUTES_WRITTEN = r'(?:\s+[^\s"\'>/=]+(?:="[^"]*")?)*'
_HEAD_ITEM = re.compile(rf'\s+|<meta{_ATTRIBUTES_WRITTEN}>|<title{_ATTRIBUTES_WRITTEN}>[^<]*'
                        rf'</title>|<style{_ATTRIBUTES_WRITTEN}>.*?</style>', re.DOTALL)
"""What may lead a page as nh3 writes it out (attributes in double quotes, a title's
text escaped, a style sheet's text ending at the first ``</style>``): its head."""


@dataclass(frozen=True)
class Fault:
    """A reference the policy refuses: ``clue`` is text to find its line by in the sources."""

    clue: str
    message: str
    file: Path | None = None
    """The file it is in, when known (a style sheet); else the caller's sources."""
    line: int | None = None


def clipped(text: str, limit: int = 80) -> str:
    """``text`` as it may appear in a one-line message: printable, and if too long, its
    start and end."""
    if len(text) > limit:
        text = text[:limit // 2] + "…" + text[-(limit // 2):]
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


class Policy:
    """The references allowed in a document of the edition whose templates are ``templates``.

    ``standalone``: the HTML page, which may refer to nothing outside itself.
    """

    def __init__(self, templates: Path, *, standalone: bool = False) -> None:
        self.templates = templates
        self.root = real_path(templates) or templates
        self.standalone = standalone

    def local(self, url: str) -> Path | str:
        """The edition file a relative reference names, or why it names none."""
        cleaned = _cleaned(url)
        parts = urlsplit(cleaned)
        if parts.scheme or parts.netloc or cleaned.startswith(("/", "\\")) or "\\" in cleaned:
            return f"refers to {clipped(url)}, outside the edition's templates"
        path = real_path(self.templates / unquote(parts.path))
        if path is None or not path.is_relative_to(self.root):
            return f"refers to {clipped(url)}, outside the edition's templates"
        if not path.is_file():
            return f"refers to {clipped(url)}, which is not a file in the edition's templates"
        return path

    def link(self, url: str) -> str | None:
        cleaned = _cleaned(url)
        if cleaned == "" or cleaned.startswith("#") or cleaned.lower().startswith(LINKS):
            return None
        return (f"links to {clipped(url)}: a document may link to its own headings (#...) "
                f"and to https: and mailto: addresses only")

    def image(self, url: str) -> str | None:
        cleaned = _cleaned(url)
        if cleaned.lower().startswith("data:"):
            if _data_type(cleaned) not in IMAGES.values():
                return f"refers to {clipped(url, 40)}: only PNG and JPEG images may be inlined"
            return _problem(f"shows {clipped(url, 40)}", lambda: image_type(data_bytes(cleaned)))
        if self.standalone:
            return f"refers to {clipped(url)}, outside the page"
        found = self.local(url)
        if isinstance(found, str):
            return found
        if found.suffix.lower() not in IMAGES:
            return f"shows {clipped(url)}, which is not a PNG or JPEG image"
        return _problem(f"shows {clipped(url)}", lambda: self.picture(found))

    def picture(self, path: Path) -> tuple[str, bytes]:
        """The MIME type and bytes of the image file ``path`` of the edition, or
        :class:`~pnp.errors.ReadError`."""
        data = read_inside(self.root, path, MAX_IMAGE, "an image")
        return image_type(data), data

    def sheet(self, url: str, file: Path | None = None, line: int | None = None,
              seen: set[Path] | None = None) -> Fault | None:
        """A style sheet the page links to or a style sheet imports: it may be used, and
        so may everything it refers to."""
        if self.standalone:
            return Fault(url, f"refers to the style sheet {clipped(url)}, outside the page",
                         file, line)
        found = self.local(url)
        if isinstance(found, str):
            return Fault(url, found, file, line)
        seen = seen if seen is not None else set()
        if found in seen:
            return None
        seen.add(found)
        try:
            text = text_inside(self.root, found)
        except ReadError as exc:
            return Fault(url, f"the style sheet {clipped(url)} {exc}", file, line)
        return self.css(text, found, seen=seen)

    def resource(self, url: str) -> str | None:
        """A ``url()`` in a style sheet: an image or font. A style sheet does not say which
        it takes a file for, so each is :func:`~pnp.books.images.loadable` (a font is no other
        image)."""
        cleaned = _cleaned(url)
        if cleaned.lower().startswith("data:"):
            kind = _data_type(cleaned)
            if kind not in IMAGES.values() and not kind.startswith("font/"):
                return f"refers to {clipped(url, 40)}: only images and fonts may be inlined"
            return _problem(f"refers to {clipped(url, 40)}",
                            lambda: loadable(data_bytes(cleaned)))
        if self.standalone:
            return f"refers to {clipped(url)}, outside the page"
        found = self.local(url)
        if isinstance(found, str):
            return found
        return _problem(f"refers to {clipped(url)}",
                        lambda: loadable(read_inside(self.root, found, MAX_FETCHED, "a font")))

    def css(self, text: str, file: Path | None = None, *, declarations: bool = False,
            seen: set[Path] | None = None) -> Fault | None:
        """The first reference ``text`` (a style sheet, or a ``style`` attribute's
        declarations) may not make; style sheets it imports are checked too."""
        import tinycss2

        parse = tinycss2.parse_blocks_contents if declarations else tinycss2.parse_stylesheet
        seen = seen if seen is not None else set()
        for node, url, kind in _css_references(parse(text, skip_comments=True)):
            line = node.source_line if file else None
            if kind == "import":
                fault = self.sheet(url, file, line, seen)
                if fault is not None:
                    return fault
            elif (problem := self.resource(url)) is not None:
                return Fault(url, problem, file, line)
        return None

    def page(self, text: str) -> Fault | None:
        """The first element, attribute or reference of the HTML ``text`` not allowed."""
        scan = _Scan(self)
        try:
            scan.feed(text)
            scan.close()
        except _Found:
            pass
        return scan.fault

    def for_screen(self, text: str, css: str) -> str:
        """The page with its style sheets replaced by ``css`` and its images inlined.

        ``text`` has passed :meth:`page`, so every image and style sheet it names is a
        file of the edition.
        """
        scan = _Scan(self, rewrite=True)
        scan.feed(text)
        scan.close()
        starts = [0] + [match.end() for match in re.finditer("\n", text)]
        out: list[str] = []
        at, styled = 0, False
        for (row, column), length, tag, attrs in scan.tags:
            start = starts[row - 1] + column
            out.append(text[at:start])
            at = start + length
            if tag == "link":
                out.append("" if styled else f"<style>\n{css}</style>")
                styled = True
            else:
                out.append("<img" + "".join(_attribute(name, self._inlined(value) if name == "src"
                                                       else value) for name, value in attrs) + ">")
        out.append(text[at:])
        return "".join(out)

    def _inlined(self, url: str | None) -> str | None:
        if url is None or _cleaned(url).lower().startswith("data:"):
            return url
        path = self.local(url)
        if isinstance(path, str):
            return url
        try:
            kind, data = self.picture(path)
        except ReadError:
            return url  # refused by :meth:`page` (it is read again: what was checked)
        return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"

    def finished(self, page: str, lang: str) -> str:
        """The standalone ``page`` as a browser may be given it: read by the HTML parser
        browsers use (html5ever, through nh3), everything not in :data:`ELEMENTS` and
        :data:`ATTRIBUTES` (and :meth:`link`, :meth:`image`, :meth:`css`) dropped, and
        written out again with the Content-Security-Policy first in its head.

        The parser reads a fragment, as a browser reads a ``<body>``: the head's title,
        metadata and style sheet are kept where they are, and those that lead the page
        go back into its head. The attributes of ``<html>`` and ``<body>``, which a
        fragment has not, are read apart and pass the same allow-list."""
        import nh3

        roots = _Roots()
        roots.feed(page)
        roots.close()
        tops = {tag: "".join(_attribute(name, value) for name, value in attrs.items()
                             if name in COMMON | ATTRIBUTES.get(tag, set())
                             and self._kept(tag, name, value) is not None)
                for tag, attrs in (("html", {"lang": lang, **roots.found["html"]}),
                                   ("body", roots.found["body"]))}

        cleaned = nh3.clean(page, tags=_CLEANER_TAGS, clean_content_tags=_UNREAD,
                            attributes=_CLEANER_ATTRIBUTES, attribute_filter=self._kept,
                            generic_attribute_prefixes={"aria-", "data-"},
                            url_schemes={"https", "mailto", "data"}, link_rel=None,
                            strip_comments=True)
        at = 0
        while (item := _HEAD_ITEM.match(cleaned, at)) and item.end() > at:
            at = item.end()
        head = re.sub(r"<meta charset=\"[^\"]*\">", "", cleaned[:at]).strip()
        head += "\n" if head else ""
        return (f'<!doctype html>\n<html{tops["html"]}>\n<head>\n'
                f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
                f'<meta charset="utf-8">\n{head}</head>\n'
                f'<body{tops["body"]}>{cleaned[at:].rstrip()}\n</body>\n</html>\n')

    def _kept(self, tag: str, name: str, value: str) -> str | None:
        """An attribute's value, if the policy allows it (for :meth:`finished`)."""
        if tag == "a" and name == "href":
            problem = self.link(value)
        elif name == "src":
            problem = self.image(value)
        elif name == "style":
            problem = self._css_problem(value)
        elif tag.lower() in SVG_SHAPES and "url(" in value.lower():
            problem = None if _own_parts(value) else "refers to something"
        else:
            problem = None
        return value if problem is None else None

    def _css_problem(self, declarations: str) -> str | None:
        fault = self.css(declarations, declarations=True)
        return None if fault is None else fault.message


class _Found(Exception):
    pass


class _Roots(HTMLParser):
    """The attributes of a page's first ``<html>`` and ``<body>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, dict[str, str]] = {"html": {}, "body": {}}
        self._seen: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.found and tag not in self._seen:
            self._seen.add(tag)
            self.found[tag].update((name, value or "") for name, value in attrs)


class _Scan(HTMLParser):
    """Walks a page: stops at the first fault, or (``rewrite``) notes where the style
    sheet links and the images are."""

    def __init__(self, policy: Policy, *, rewrite: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.policy = policy
        self.rewrite = rewrite
        self.fault: Fault | None = None
        self.tags: list[tuple[tuple[int, int], int, str, list[tuple[str, str | None]]]] = []
        self._style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.rewrite:
            if tag in ("link", "img"):
                self.tags.append((self.getpos(), len(self.get_starttag_text() or ""), tag,
                                  attrs))
            return
        self._style = tag == "style"
        self._stop(self._element(tag, attrs))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self._style = False

    def handle_endtag(self, tag: str) -> None:
        self._style = False

    def handle_data(self, data: str) -> None:
        if self._style and not self.rewrite:
            self._stop(self.policy.css(data))

    def handle_comment(self, data: str) -> None:
        if "<" in data or ">" in data:
            self._stop(Fault(data[:20], "a comment may not hold < or > (browsers may read "
                                        "what follows as markup)"))

    def handle_pi(self, data: str) -> None:
        self._stop(Fault(f"<?{data[:20]}", "<?...> is not allowed in a document"))

    def unknown_decl(self, data: str) -> None:
        self._stop(Fault(f"<![{data[:20]}", "<![...]> is not allowed in a document"))

    def _stop(self, fault: Fault | None) -> None:
        if fault is not None and not self.rewrite:
            self.fault = fault
            raise _Found

    def _element(self, tag: str, attrs: list[tuple[str, str | None]]) -> Fault | None:
        if tag not in ELEMENTS:
            return Fault(f"<{tag}",
                         f"the element <{clipped(tag, 30)}> is not allowed in a document")
        allowed = COMMON | ATTRIBUTES.get(tag, set())
        values = dict(attrs)
        for name, value in attrs:
            if name == "http-equiv" and tag == "meta":
                return Fault(value or name, "a <meta http-equiv> is not allowed in a document")
            if name not in allowed and not name.startswith(("aria-", "data-")):
                return Fault(name, f"the attribute '{clipped(name, 30)}' of <{tag}> is not "
                                   f"allowed in a document")
            problem = self._value(tag, name, value or "", values)
            if isinstance(problem, Fault):
                return problem
            if problem is not None:
                return Fault(value or name, problem)
        if tag == "link" and "href" not in values:
            return Fault("<link", "a <link> must name a style sheet of the edition (href)")
        return None

    def _value(self, tag: str, name: str, value: str,
               values: dict[str, str | None]) -> str | Fault | None:
        policy = self.policy
        if name == "href" and tag == "a":
            return policy.link(value)
        if name == "src":
            return policy.image(value)
        if name == "href" and tag == "link":
            if (values.get("rel") or "").lower().split() != ["stylesheet"]:
                return (f"a <link> may only name a style sheet (rel=\"stylesheet\"), not "
                        f"{clipped(value)}")
            return policy.sheet(value)
        if name == "style":
            return policy.css(value, declarations=True)
        if name == "xmlns" and tag == "svg" and value != SVG_NAMESPACE:
            return f"an <svg> may only name the SVG namespace, not {clipped(value)}"
        if tag in SVG_SHAPES and "url(" in value.lower() and not _own_parts(value):
            return f"a drawing may not refer to anything but its own parts ({clipped(value)})"
        return None


def _css_references(nodes: Iterable[Any]) -> Iterable[tuple[Any, str, str]]:
    """Every (node, url, kind) a style sheet refers to: ``import`` or ``resource``."""
    for node in nodes:
        kind = getattr(node, "type", "")
        if kind == "at-rule" and node.lower_at_keyword == "import":
            for token in node.prelude:
                if token.type in ("string", "url"):
                    yield token, token.value, "import"
                    break
                if token.type == "function" and token.lower_name == "url":
                    yield token, _first_string(token.arguments), "import"
                    break
            continue
        if kind == "url":
            yield node, node.value, "resource"
        elif kind == "function" and node.lower_name in ("url", "src"):
            yield node, _first_string(node.arguments), "resource"
        elif kind == "function" and node.lower_name.endswith("image-set"):
            for token in node.arguments:
                if token.type == "string":
                    yield token, token.value, "resource"
        for field in ("prelude", "content", "arguments", "value"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                yield from _css_references(children)


def _first_string(tokens: list[Any]) -> str:
    return next((token.value for token in tokens if token.type == "string"), "")


def real_path(path: Path) -> Path | None:
    """``path`` with every link followed, or none for a loop of links (or a NUL)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def _problem(what: str, check: Callable[[], object]) -> str | None:
    """``what`` (``shows x.png``) and why, if ``check`` refuses it."""
    try:
        check()
    except ReadError as exc:
        return f"{what}: {exc}"
    return None


def _own_parts(value: str) -> bool:
    """Whether every ``url(...)`` in an SVG attribute names a part of the page (``#id``)."""
    return all(re.match(r"url\(\s*['\"]?#[\w.:-]+['\"]?\s*\)", value[match.start():],
                        re.IGNORECASE)
               for match in re.finditer(r"url\(", value, re.IGNORECASE))


def _cleaned(url: str) -> str:
    """A URL as a browser reads it: outer white space and inner tabs and newlines dropped."""
    return re.sub(r"[\t\n\r]", "", url.strip(" \t\n\r\f"))


def _data_type(url: str) -> str:
    header = url[5:].split(",", 1)[0]
    return header.split(";", 1)[0].strip().lower()


def _attribute(name: str, value: str | None) -> str:
    return f" {name}" if value is None else f' {name}="{html.escape(value)}"'


class _Inline(HTMLParser):
    """The text of every ``<script>`` and ``<style>`` element of a page, as a browser
    reads it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: dict[str, list[str]] = {"script": [], "style": []}
        self._open: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.found:
            self._open = []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.found and self._open is not None:
            self.found[tag].append("".join(self._open))
            self._open = None


def inline_sources(page: str) -> dict[str, str]:
    """The Content-Security-Policy sources that allow exactly the inline scripts and style
    sheets of ``page`` (``{"script": ..., "style": ...}``): each by the SHA-256 of its
    text, ``'none'`` where the page has none. A page allowed so runs no script but its own."""
    inline = _Inline()
    inline.feed(page)
    inline.close()
    return {kind: " ".join("'sha256-{}'".format(base64.b64encode(
        hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii"))
        for text in dict.fromkeys(texts)) or "'none'" for kind, texts in inline.found.items()}
