"""Rulebooks and reference cards: Markdown and definitions laid out with WeasyPrint."""
