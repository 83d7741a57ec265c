"""Read YAML while remembering the line each value stands on.

PyYAML's composer keeps a mark on every node; we walk the node tree next to the
constructed data and record ``path -> line`` so that a validation error found
later in the plain data can point back into the file.
"""

from __future__ import annotations

from typing import Any

import yaml

Path = tuple[str | int, ...]

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's loader where PyYAML was built with it (ten times faster, same marks)."""


class YamlSyntaxError(Exception):
    """The text is not YAML; ``line`` is 1-based where the parser knows it."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def load_with_lines(text: str) -> tuple[Any, dict[Path, int]]:
    """Parse ``text`` with the safe loader; return the data and its line map.

    >>> data, lines = load_with_lines("a: 1\\nb:\\n  - x\\n  - y\\n")
    >>> data, lines[("b", 1)]
    ({'a': 1, 'b': ['x', 'y']}, 4)
    """
    loader = LOADER(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlSyntaxError(problem, mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(str(exc).splitlines()[0], None) from None
    finally:
        loader.dispose()
    lines: dict[Path, int] = {}
    if node is not None:
        _record(node, data, (), lines)
    return data, lines


def _record(node: yaml.Node, data: Any, path: Path, lines: dict[Path, int]) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode) and isinstance(data, dict):
        by_text = {str(k): k for k in data}
        for key_node, value_node in node.value:
            key = by_text.get(str(key_node.value))
            if key is None:
                continue
            child = (*path, str(key))
            _record(value_node, data[key], child, lines)
            lines[child] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode) and isinstance(data, list):
        for index, (item_node, item) in enumerate(zip(node.value, data, strict=False)):
            _record(item_node, item, (*path, index), lines)


def line_of(lines: dict[Path, int], path: Path) -> int | None:
    """The line of ``path``, or of its nearest ancestor that has one."""
    while True:
        if path in lines:
            return lines[path]
        if not path:
            return None
        path = path[:-1]
