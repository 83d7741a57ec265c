"""Kwingto: its definition, engine, texts, sheets, figures and scripts."""
