"""Print-and-play decks: N cards a page with bleed, crop marks and duplex backs, and the sheet
that calibrates the backs. Everything is in millimetres, the origin at the page's bottom-left
corner; no module here knows any game.

- :mod:`pnp.decks.cards`: card sizes and bleed, and the grid of cards on a page;
- :mod:`pnp.decks.marks`: what a page prints around its cards: crop marks, the sheet's label,
  TrimBox and BleedBox;
- :mod:`pnp.decks.backs`: the flip, where each back goes, and the printer's drift (offset);
- :mod:`pnp.decks.pages`: the deck's PDF, fronts then backs, page after page;
- :mod:`pnp.decks.calibration`: the sheet that measures the drift.
"""
