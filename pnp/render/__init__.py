"""Renderers: sheets, cards and decks drawn with reportlab; rulebooks and reference cards
laid out with WeasyPrint."""
