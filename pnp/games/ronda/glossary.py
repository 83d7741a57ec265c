"""Ronda's glossary: one word for each of its ideas, in each language (see
:mod:`pnp.i18n.glossary`)."""

from __future__ import annotations

from pnp.i18n.catalogues import N_
from pnp.i18n.glossary import Term

GLOSSARY = (
    Term(N_("caída"), {"fr": ("un caída", "une caída", "la caída", "les caídas", "des caídas",
                              "de caída", "avec caída")},
         on=("book", "card", "figures", "pad", "pad3", "teams")),
    Term(N_("mesa"), {"fr": ("une mesa", "la mesa", "les mesas", "des mesas", "de mesa",
                             "avec mesa", "sans mesa")},
         on=("book", "card", "figures", "pad", "pad3", "teams")),
)
"""Ronda's words: Spanish in English and Spanish, the French forms in French."""
