"""What a PDF of pnp's says it is, written by its renderer and read by the preflight: the
``pnp:KIND`` keyword in its Keywords, and the name a rulebook's figures carry.

>>> KEYWORD.search("print-and-play, pnp:deck").group(1)
'deck'
"""

from __future__ import annotations

import re

DOCUMENTS = ("sheet", "card", "deck", "rulebook")
"""The kinds of PDF pnp makes, as their keyword names them."""
KEYWORD = re.compile(rf"(?:^|[\s,;])pnp:({'|'.join(DOCUMENTS)})\b")
"""The keyword among a PDF's Keywords."""
FIGURE = "PnpFigure"
"""The name pnp gives a rulebook figure's form XObject, by which the preflight knows it
(see ``figures`` in :mod:`pnp.preflight`)."""


def keyword(document: str) -> str:
    """The keyword every pnp renderer writes in its PDF's Keywords to say what it is.

    >>> keyword("deck")
    'pnp:deck'
    """
    if document not in DOCUMENTS:
        raise ValueError(f"unknown kind of document {document!r}")
    return f"pnp:{document}"
