"""A composed book for a screen: one standalone HTML page that refers to nothing outside it.

The page passed :mod:`pnp.books.references`' policy when it was composed; here its images,
style sheet (``screen.css``) and fonts (the bundled faces it shows text in, subset:
:mod:`pnp.books.webfonts`) are inlined, it is checked again with nothing outside it allowed,
and it is cleaned as a browser reads it, under a Content-Security-Policy that forbids the
browser to load anything (:meth:`~pnp.books.references.Policy.finished`).
"""

from __future__ import annotations

from pnp.assets import current, shown
from pnp.books.compose import Composed, refuse
from pnp.books.figures import inline
from pnp.books.references import Policy
from pnp.books.webfonts import font_faces
from pnp.draw.paper import css_size
from pnp.errors import DocumentError, ReadError
from pnp.reading import text_inside


def standalone_html(composed: Composed, paper: str) -> str:
    """The same document for a screen: one file, printing on ``paper``, that refers to
    nothing outside itself. Its style sheet is ``screen.css``, inlined, after the fonts it
    sets the page's text in; its images are inlined; a Content-Security-Policy forbids the
    browser to load anything."""
    templates = current().templates
    screen = templates / "screen.css"
    try:
        css = text_inside(templates, screen)
    except ReadError as exc:
        raise DocumentError(f"{shown(screen)}: {exc}") from None
    policy = Policy(templates, standalone=True)
    refuse(policy.css(css, screen), [])
    drawn = composed.figures.drawn if composed.figures is not None else {}
    css = font_faces(inline(composed.html, drawn), css) + css
    css += f"@page {{ size: {css_size(paper)}; }}\n"
    page = policy.for_screen(composed.html, css)
    design = templates / f"{composed.kind}.html.j2"
    try:
        sources = [(design, text_inside(templates, design))]
    except ReadError:
        sources = [(design, "")]
    refuse(policy.page(page), sources)
    return policy.finished(inline(page, drawn), composed.lang)

