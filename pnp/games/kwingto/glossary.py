"""Kwingto's glossary: one word for each of its ideas, in each language (see
:mod:`pnp.i18n.glossary`)."""

from __future__ import annotations

from pnp.i18n.catalogues import N_
from pnp.i18n.glossary import Term

GLOSSARY = (
    Term(N_("penalty card"), on=("book", "card", "figures")),
    Term(N_("space"), on=("book", "card")),
    # avoid: the round is played out | the round under way
    Term(N_("the throw under way"), on=("book", "card")),
)
"""Kwingto's words."""
