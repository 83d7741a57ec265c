"""Qwinto: its definition, engine, texts, sheets, figures and scripts."""
