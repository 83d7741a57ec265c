"""The phone scorer page: one HTML file per game and language, and its scripts."""
