"""What a rulebook or card may refer to, in either edition.

A document may link to its own headings (``#id``) and to ``https:`` and ``mailto:``
addresses (hyperlinks a reader follows, never loaded), show PNG, JPEG, GIF and WebP
images from its edition's templates folder or inline (``data:image/...``), and use the
style sheets of that folder. Nothing else: no ``file:``, ``http:``, ``//host`` or other
``data:`` references, no scripts, frames, forms or elements that load what they name.

The PDF and the standalone HTML page pass the same policy when the document is
composed. The HTML page then gets its images and style sheet inlined, is checked
again with nothing outside it allowed, and carries a Content-Security-Policy that
forbids a browser to load anything at all.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from pnp.errors import ReadError
from pnp.reading import decode, read_path

IMAGES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
          ".gif": "image/gif", ".webp": "image/webp"}
"""The images a document may show, by the file's extension."""

MAX_IMAGE = 4 * 1024 * 1024
"""Bytes an image inlined into the HTML page may have."""

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
              "text", "tspan", "desc"}
"""Inline vector drawings (title lockups, figures): shapes and text only. No ``use``,
``image``, ``foreignObject``, ``script``, ``style`` or animation, so a drawing can neither
fetch nor run anything."""
_PAINT = {"fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap",
          "stroke-linejoin", "opacity", "fill-opacity", "stroke-opacity", "transform",
          "font-family", "font-size", "font-weight", "font-style", "text-anchor",
          "dominant-baseline", "fill-rule", "letter-spacing"}
ELEMENTS |= SVG_SHAPES

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
    "text": {"x", "y", "dx", "dy", "textlength"} | _PAINT,
    "tspan": {"x", "y", "dx", "dy"} | _PAINT})
"""Attributes beyond ``COMMON`` (and ``aria-*``, ``data-*``), per element (the HTML parser
gives SVG's attributes in lower case: ``viewbox``)."""

LINKS = ("https://", "mailto:")


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
            kind = _data_type(cleaned)
            return None if kind in IMAGES.values() else (
                f"refers to {clipped(url, 40)}: only PNG, JPEG, GIF and WebP images may be "
                f"inlined")
        if self.standalone:
            return f"refers to {clipped(url)}, outside the page"
        found = self.local(url)
        if isinstance(found, str):
            return found
        if found.suffix.lower() not in IMAGES:
            return f"shows {clipped(url)}, which is not a PNG, JPEG, GIF or WebP image"
        if found.stat().st_size > MAX_IMAGE:
            return f"shows {clipped(url)}, larger than {MAX_IMAGE // 1024 // 1024} MiB"
        return None

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
            text = read_inside(self.root, found)
        except Unreadable as exc:
            return Fault(url, f"the style sheet {clipped(url)} {exc}", file, line)
        return self.css(text, found, seen=seen)

    def resource(self, url: str) -> str | None:
        """A ``url()`` in a style sheet: an image or font."""
        cleaned = _cleaned(url)
        if cleaned.lower().startswith("data:"):
            kind = _data_type(cleaned)
            return None if kind in IMAGES.values() or kind.startswith("font/") else (
                f"refers to {clipped(url, 40)}: only images and fonts may be inlined")
        if self.standalone:
            return f"refers to {clipped(url)}, outside the page"
        found = self.local(url)
        return found if isinstance(found, str) else None

    def css(self, text: str, file: Path | None = None, *, declarations: bool = False,
            seen: set[Path] | None = None) -> Fault | None:
        """The first reference ``text`` (a style sheet, or a ``style`` attribute's
        declarations) may not make; style sheets it imports are checked too."""
        import tinycss2  # type: ignore[import-untyped]

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
            elif tag == "img":
                out.append("<img" + "".join(_attribute(name, self._inlined(value) if name == "src"
                                                       else value) for name, value in attrs) + ">")
            else:
                out.append(text[start:at] + f'\n<meta http-equiv="Content-Security-Policy" '
                                            f'content="{CSP}">')
        out.append(text[at:])
        page = "".join(out)
        if not scan.head:
            page = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n' + page
        return page

    def _inlined(self, url: str | None) -> str | None:
        if url is None or _cleaned(url).lower().startswith("data:"):
            return url
        path = self.local(url)
        if isinstance(path, str):
            return url
        encoded = base64.b64encode(path.read_bytes()).decode("ascii")
        return f"data:{IMAGES[path.suffix.lower()]};base64,{encoded}"


class _Found(Exception):
    pass


class _Scan(HTMLParser):
    """Walks a page: stops at the first fault, or (``rewrite``) notes where the style
    sheet links, the images and the ``<head>`` are."""

    def __init__(self, policy: Policy, *, rewrite: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.policy = policy
        self.rewrite = rewrite
        self.fault: Fault | None = None
        self.tags: list[tuple[tuple[int, int], int, str, list[tuple[str, str | None]]]] = []
        self.head = False
        self._style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.rewrite:
            if tag in ("link", "img") or (tag == "head" and not self.head):
                self.head = self.head or tag == "head"
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
            if (name not in allowed and not name.startswith(("aria-", "data-"))
                    and (tag, name) != ("meta", "http-equiv")):
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
        if tag in SVG_SHAPES and "url(" in value.lower():
            return f"a drawing may not refer to anything ({clipped(value)})"
        if name == "http-equiv" and (value.lower() != "content-security-policy"
                                     or values.get("content") != CSP):
            return "a <meta http-equiv> is not allowed in a document"
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


class Unreadable(Exception):
    """A file of the edition that may not or cannot be read; the message says why."""


class Outside(Unreadable):
    """A file that leads outside its folder once links are followed."""


MAX_SOURCE = 1024 * 1024
"""Bytes a template or style sheet may have (the longest bundled text has about 21 000)."""


def read_inside(root: Path, path: Path, limit: int = MAX_SOURCE) -> str:
    """The text of ``path``: a regular file inside the folder ``root`` once every link
    is followed (``root`` is compared by its real path too), of at most ``limit`` bytes."""
    real = real_path(path)
    if real is None:
        raise Outside("is a loop of links")
    if not real.is_relative_to(real_path(root) or root):
        raise Outside(f"leads outside the edition's {root.name} folder "
                      f"(to {clipped(str(real))})")
    try:
        return decode(read_path(real, limit, "a template"))
    except ReadError as exc:
        raise Unreadable(exc.message) from None


def _cleaned(url: str) -> str:
    """A URL as a browser reads it: outer white space and inner tabs and newlines dropped."""
    return re.sub(r"[\t\n\r]", "", url.strip(" \t\n\r\f"))


def _data_type(url: str) -> str:
    header = url[5:].split(",", 1)[0]
    return header.split(";", 1)[0].strip().lower()


def _attribute(name: str, value: str | None) -> str:
    return f" {name}" if value is None else f' {name}="{html.escape(value)}"'
