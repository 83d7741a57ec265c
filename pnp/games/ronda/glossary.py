"""Ronda's glossary: one word for each of its ideas, in each language (see
:mod:`pnp.i18n.glossary`)."""

from __future__ import annotations

from pnp.i18n.catalogues import N_
from pnp.i18n.glossary import Term

GLOSSARY = (
    Term(N_("ronda"), on=("book", "card", "pad", "pad3", "teams")),
    Term(N_("tringa"), on=("book", "card", "pad", "pad3", "teams")),
    Term(N_("caída"), on=("book", "card", "figures", "pad", "pad3", "teams")),
    Term(N_("mesa"), on=("book", "card", "figures", "pad", "pad3", "teams")),
)
"""Ronda's words: its combinations and plays, named in each language as its catalogue says."""
