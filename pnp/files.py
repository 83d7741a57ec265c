"""Writing output files so that none is ever seen half-written."""

from __future__ import annotations

from pathlib import Path


def write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed into place.

    A reader (or a build killed midway) sees the old file or the new one, never a part.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    temporary.replace(path)
