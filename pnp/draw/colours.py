"""Colours as the definitions write them (``#rrggbb``) and as renderers draw them (RGB)."""

from __future__ import annotations

import functools

RGB = tuple[float, float, float]


@functools.lru_cache(maxsize=1024)
def hex_rgb(colour: str) -> RGB:
    """``#rrggbb`` as red, green and blue from 0 to 1 (kept: a deck asks 50,000 times)."""
    value = colour.lstrip("#")
    r, g, b = (int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b)


def luminance(colour: RGB) -> float:
    """How light ``colour`` looks (Rec. 709 weights): whether dark or white marks read on it."""
    r, g, b = colour
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
