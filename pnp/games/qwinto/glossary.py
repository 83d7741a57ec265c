"""Qwinto's glossary: one word for each of its ideas, in each language (see
:mod:`pnp.i18n.glossary`)."""

from __future__ import annotations

from pnp.i18n.catalogues import N_
from pnp.i18n.glossary import Term

GLOSSARY = (
    Term(N_("failed throw"), on=("book", "card")),
)
"""Qwinto's words."""
