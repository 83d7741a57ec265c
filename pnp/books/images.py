"""What an image or other file the layout loads is, by its bytes, whatever its name says.

A document shows PNG and JPEG images only, and WeasyPrint shows as an image whatever Pillow
opens and draws as SVG whatever reads as XML: so every file the layout loads, from the
edition or a ``data:`` URL, is :func:`loadable`, and an image is what its magic bytes say,
its size read from its header before anything decodes it.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import warnings
from urllib.parse import unquote, unquote_to_bytes

from pnp.errors import ReadError

IMAGES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
"""The images a document may show, by the file's extension (and by its bytes:
:func:`image_type`)."""
_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "MPO": "image/jpeg"}
"""Pillow's names for them (a camera's JPEG with a second picture is an MPO)."""
_MAGIC = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}

MAX_IMAGE = 4 * 1024 * 1024
"""Bytes an image may have."""
MAX_PIXELS = 40_000_000
"""Pixels an image may have (a 136 KB PNG of 12000 x 12000 takes 840 MB to lay out)."""
MAX_FETCHED = 16 * 1024 * 1024
"""Bytes any other file of the edition the layout loads (a font) may have."""


def image_type(data: bytes) -> str:
    """The MIME type of ``data``, a PNG or JPEG image of at most :data:`MAX_PIXELS`
    pixels; else :class:`~pnp.errors.ReadError` says what it is. Its magic bytes say what it is and
    its header (all that Pillow reads when it opens an image) how large: nothing is
    decoded, and no decompression-bomb warning is printed."""
    if len(data) > MAX_IMAGE:
        raise ReadError(f"larger than {MAX_IMAGE // 1024 // 1024} MiB, not an image")
    kind = next((kind for magic, kind in _MAGIC.items() if data.startswith(magic)), None)
    if kind is None:
        other = _pillow_format(data)
        raise ReadError(f"not a PNG or JPEG image{f' (a {other} image)' if other else ''}")
    from PIL import Image

    name = "PNG" if kind == "image/png" else "JPEG"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data), formats=["PNG", "JPEG"]) as picture:
                width, height, found = picture.width, picture.height, picture.format
    except Image.DecompressionBombError:
        raise ReadError(f"a {name} image of more than {MAX_PIXELS // 1_000_000} million "
                         f"pixels") from None
    except Exception:  # Pillow fails on a broken header in many ways: it is not an image
        raise ReadError(f"a broken {name} image (its header cannot be read)") from None
    if _FORMATS.get(found or "") != kind:
        raise ReadError(f"a broken {name} image (its header cannot be read)")
    if width * height > MAX_PIXELS:
        raise ReadError(f"a {name} image of {width} x {height} pixels, more than "
                         f"{MAX_PIXELS // 1_000_000} million")
    return kind


def loadable(data: bytes) -> None:
    """Refuse (:class:`~pnp.errors.ReadError`) what the layout may not load, whatever a reference
    calls it: WeasyPrint shows as an image whatever Pillow opens, and draws as SVG
    whatever reads as XML. So a file the layout loads (a style sheet, a font, an image)
    is a PNG or JPEG image within bounds (:func:`image_type`), or neither markup nor any
    other image."""
    if any(data.startswith(magic) for magic in _MAGIC):
        image_type(data)
    elif data.lstrip(b"\x00\xef\xbb\xbf\xfe\xff \t\r\n\f").startswith(b"<"):
        raise ReadError("markup (SVG or XML), not a PNG or JPEG image")
    elif other := _pillow_format(data):
        raise ReadError(f"not a PNG or JPEG image (a {other} image)")


def _pillow_format(data: bytes) -> str | None:
    """The kind of image Pillow takes ``data`` for, if any."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as picture:
                return picture.format or "raster"
    except Image.DecompressionBombError:
        return "huge"
    except Exception:  # not an image Pillow knows
        return None


def data_bytes(url: str) -> bytes:
    """What a ``data:`` URL holds (:class:`~pnp.errors.ReadError` if it cannot be read)."""
    header, _, payload = url[5:].partition(",")
    if header.lower().replace(" ", "").endswith(";base64"):
        try:
            return base64.b64decode(re.sub(r"\s", "", unquote(payload)), validate=True)
        except (binascii.Error, ValueError):
            raise ReadError("not readable (its base64 is broken)") from None
    return unquote_to_bytes(payload)
