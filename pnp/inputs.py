"""Reading the calculator's input: YAML or JSON text, from a file or standard input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from pnp.errors import FormatError


def parse_text(text: str, name: str = "input") -> Any:
    """Parse YAML (JSON is read as JSON, for its exact error positions).

    >>> parse_text('{"failed": 2}')
    {'failed': 2}
    >>> parse_text("failed: 2")
    {'failed': 2}
    """
    stripped = text.lstrip()
    if name.endswith(".json") or stripped.startswith(("{", "[")):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            if name.endswith(".json"):
                raise FormatError(f"{name}:{exc.lineno}: invalid JSON: {exc.msg}") from None
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{name}:{mark.line + 1}" if mark else name
        raise FormatError(f"{where}: invalid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise FormatError(f"{name}: invalid YAML: {exc}") from None


def read_file(path: str | Path) -> Any:
    """Read and parse a YAML or JSON file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FormatError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"{path}: cannot read: {exc}") from None
    return parse_text(text, str(path))
