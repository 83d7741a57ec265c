"""Kwingto's glossary: one word for each of its ideas, in each language (see
:mod:`pnp.i18n.glossary`)."""

from __future__ import annotations

from pnp.i18n.catalogues import N_
from pnp.i18n.glossary import Term

GLOSSARY = (
    Term(N_("penalty card"), {"es": ("naipe de penalización", "naipes de penalización",
                                     "carta de penalización", "cartas de penalización"),
                              "fr": ("carte de punition", "cartes de punition")},
         on=("book", "card", "figures")),
    Term(N_("space"), {"es": ("hueco", "huecos"), "fr": ("emplacement", "emplacements")},
         on=("book", "card")),
    Term(N_("the throw under way"), {"en": ("the round is played out", "the round under way"),
                                     "es": ("la ronda en curso",), "fr": ("le tour en cours",)},
         on=("book", "card")),
)
"""Kwingto's words."""
