"""Reading text that people hand to pnp (a score sheet, a definition) within bounds.

Every reader of such text goes through here, so that one set of limits holds everywhere:

- at most a given number of bytes (read in chunks: an endless stream stops at the bound);
- regular files only: a folder, a named pipe or a device is refused before it is opened;
- UTF-8 text (a byte order mark is allowed);
- at most :data:`DEPTH` levels of nesting, checked before any parser could recurse;
- numbers written in decimal (no ``017``, ``0x11``, ``1_000`` or ``1:30``, which YAML would
  read as 15, 17, 1000 and 90), integers of at most :data:`DIGITS` digits, finite numbers;
- YAML without anchors, aliases, merge keys or tags (nothing here needs them, and aliases
  are how a few lines expand into gigabytes), keys that are single non-empty values, and
  no key twice in a mapping (JSON included).

A refusal is a :class:`~pnp.errors.ReadError` with the line at fault where there is one;
the callers name the file. Only light modules are imported: ``pnp score`` reads through here.
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Callable
from typing import IO, Any

import yaml

from pnp.errors import NestingError, OutsideError, ReadError

MiB = 1024 * 1024
DEPTH = 64
"""Levels of lists and mappings inside one another; the games' files use at most six."""
DIGITS = 18
"""Digits in a number; no count, score or penalty comes near."""
CHUNK = 64 * 1024
MAX_SOURCE = MiB
"""Bytes a template or style sheet may have (the longest bundled text has about 21 000)."""

Where = tuple[str | int, ...]
"""A place in the data: the keys and indexes leading to it."""

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where PyYAML was built with it (the same events, ten times faster)."""


def read_path(path: str | os.PathLike[str], limit: int, what: str) -> bytes:
    """The bytes of the regular file at ``path``; more than ``limit`` of them are refused
    as not ``what`` (e.g. "a score sheet")."""
    try:
        _check_kind(os.stat(path).st_mode)
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
        try:
            status = os.fstat(fd)
            _check_kind(status.st_mode)
            if status.st_size > limit:
                raise _too_large(limit, what)
            return _read_bounded(lambda size: os.read(fd, size), limit, what)
        finally:
            os.close(fd)
    except (FileNotFoundError, NotADirectoryError):
        raise ReadError("file not found") from None
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None


def read_inside(folder: str | os.PathLike[str], path: str | os.PathLike[str], limit: int,
                what: str) -> bytes:
    """:func:`read_path` of a file that must lie inside ``folder`` once every link is
    followed (``folder`` is compared by its real path too): how an edition's files are read,
    so that a link in a shared edition cannot hand pnp a file from elsewhere."""
    try:
        real = os.path.realpath(path, strict=False)
        root = os.path.realpath(folder, strict=False)
    except (OSError, ValueError):
        raise OutsideError("is a loop of links") from None
    if os.path.commonpath([real, root]) != root:
        shown = real if len(real) <= 80 else real[:40] + "…" + real[-40:]
        shown = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in shown)
        raise OutsideError(f"leads outside the edition's {os.path.basename(root)} folder "
                           f"(to {shown})")
    return read_path(real, limit, what)


def text_inside(folder: str | os.PathLike[str], path: str | os.PathLike[str],
                limit: int = MAX_SOURCE) -> str:
    """The text (:func:`decode`) of ``path`` as :func:`read_inside` reads it: how a template
    or style sheet of the edition is read."""
    return decode(read_inside(folder, path, limit, "a template"))


def read_stream(stream: IO[bytes] | IO[str] | None, limit: int, what: str) -> bytes:
    """What ``stream`` (standard input) holds, up to ``limit`` bytes; a folder is refused."""
    if stream is None:
        raise ReadError("no standard input to read")
    binary = getattr(stream, "buffer", stream)
    try:
        try:
            fileno = binary.fileno()
        except (AttributeError, OSError, ValueError):
            fileno = -1
        if fileno >= 0 and stat.S_ISDIR(os.fstat(fileno).st_mode):
            raise ReadError("a folder, not a file")

        def chunk(size: int) -> bytes:
            data = binary.read(size)
            return data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data

        return _read_bounded(chunk, limit, what)
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None


def _check_kind(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kind = ("a folder" if stat.S_ISDIR(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    raise ReadError(f"{kind}, not a file" if kind.startswith("a ") else kind)


def _read_bounded(read: Callable[[int], bytes], limit: int, what: str) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        data = read(min(CHUNK, limit + 1 - size))
        if not data:
            return b"".join(chunks)
        chunks.append(data)
        size += len(data)
        if size > limit:
            raise _too_large(limit, what)


def _too_large(limit: int, what: str) -> ReadError:
    amount = f"{limit // MiB} MiB" if limit % MiB == 0 else f"{limit} bytes"
    return ReadError(f"larger than {amount}, not {what}")


def check_length(text: str, limit: int, what: str) -> None:
    """Refuse ``text`` handed over already read when it is longer than ``limit``."""
    if len(text) > limit:
        raise _too_large(limit, what)


def decode(data: bytes) -> str:
    """``data`` as UTF-8 text (after any byte order mark), with ``\\n`` ending every line."""
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as exc:
        at = bom + exc.start
        raise ReadError(f"not UTF-8 text at byte {at + 1}", data.count(b"\n", 0, at) + 1) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _line(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _number_problem(digits: int) -> str:
    return f"a number of {digits} digits (at most {DIGITS})"


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# JSON

_JSON_TOKENS = r"""
    "[^"\\\n]*(?:\\.[^"\\\n]*)*"(?P<colon>\s*:)?
  | [\[\]{}]
  | (?<![\w.])-?(?=\d[\d.]{18}|\d[\d.]*[eE])[\d.]+(?:[eE][-+]?\d+)?
  | \b(?:NaN|Infinity)\b
"""
"""What the JSON scan looks at (a verbose pattern): strings (keys when a colon follows),
brackets, numbers that are long or have an exponent, and the non-numbers Python's parser
would take. Patterns are compiled on first use (by :mod:`re`'s cache), not at import."""


def load_json(text: str) -> Any:
    """Parse JSON after a scan for what the parser would recurse on, choke on or merge.

    >>> load_json('{"failed": 2, "rows": {}}')
    {'failed': 2, 'rows': {}}
    """
    import json  # here, not at import: ``pnp score`` reads YAML far more often

    _scan_json(text)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReadError(f"invalid JSON: {exc.msg}", exc.lineno) from None
    except (ValueError, RecursionError) as exc:
        raise ReadError(f"invalid JSON: {str(exc).splitlines()[0]}") from None


def _scan_json(text: str) -> None:
    objects: list[dict[str, int] | None] = []
    for match in re.finditer(_JSON_TOKENS, text, re.VERBOSE):
        token = match.group()
        first = token[0]
        if first == '"':
            keys = objects[-1] if objects and match.group("colon") else None
            if keys is not None or "\\" in token:
                _json_string(text, match, keys)
        elif first in "[{":
            if len(objects) >= DEPTH:
                raise NestingError(f"nested deeper than {DEPTH} levels",
                                   _line(text, match.start()))
            objects.append({} if first == "{" else None)
        elif first in "]}":
            if objects:
                objects.pop()
        elif first in "NI":
            raise ReadError(f"{token} is not a JSON number", _line(text, match.start()))
        else:
            _json_number(text, match.start(), token)


def _json_number(text: str, start: int, token: str) -> None:
    digits = sum(c.isdigit() for c in re.split("[eE]", token)[0])
    if digits > DIGITS:
        raise ReadError(_number_problem(digits), _line(text, start))
    try:
        value = float(token)
    except ValueError:
        return
    if not math.isfinite(value):
        raise ReadError(f"number {_shown(token)} is out of range", _line(text, start))


def _json_string(text: str, match: re.Match[str], keys: dict[str, int] | None) -> None:
    token = match.group()[:-len(match.group("colon"))] if keys is not None else match.group()
    value = token[1:-1]
    if "\\" in token:
        import json

        try:
            value = json.loads(token)
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ReadError(f"{_shown(token)} is not text (a lone surrogate)",
                            _line(text, match.start())) from None
        except ValueError:
            return
    if keys is None:
        return
    if value in keys:
        raise ReadError(f"duplicate key {_shown(value)} (first at line "
                        f"{_line(text, keys[value])})", _line(text, match.start()))
    keys[value] = match.start()


# YAML

_NOT_PRINTABLE = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"
"""What YAML forbids in a text: the characters outside PyYAML's reader's printable set
(written this way round, the pattern compiles in a fraction of a millisecond)."""

_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_MERGE = "tag:yaml.org,2002:merge"


class _Open:
    """A list or mapping being filled; ``key`` is the mapping's key awaiting its value."""

    __slots__ = ("data", "key", "key_line", "keys", "where")

    def __init__(self, data: list[Any] | dict[Any, Any], where: Where) -> None:
        self.data = data
        self.where = where
        self.key: Any = _Open
        self.key_line = 0
        self.keys: dict[str, int] = {}


def load_yaml(text: str, lines: dict[Where, int] | None = None) -> Any:
    """Parse one YAML document; when ``lines`` is given, fill it with the line of every
    value (for a mapping's entry, the line of its key).

    Events come from the parser one at a time and are built into data here with an
    explicit stack, so no nesting reaches a recursive composer, and every check is made
    at the event that breaks it.

    >>> where: dict[Where, int] = {}
    >>> load_yaml("a: 1\\nb:\\n  - x\\n  - y\\n", where), where[("b", 1)]
    ({'a': 1, 'b': ['x', 'y']}, 4)
    """
    if bad := re.search(_NOT_PRINTABLE, text):
        raise ReadError(f"invalid YAML: character U+{ord(bad.group()):04X} is not allowed",
                        _line(text, bad.start()))
    loader = None
    try:
        loader = LOADER(text)
        return _build(loader, lines)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "not YAML"
        last = max(1, text.count("\n", 0, len(text) - 1) + 1)
        raise ReadError(f"invalid YAML: {problem}",
                        min(mark.line + 1, last) if mark else None) from None
    except yaml.YAMLError as exc:
        raise ReadError(f"invalid YAML: {str(exc).splitlines()[0]}") from None
    except RecursionError:
        raise NestingError(f"invalid YAML: nested deeper than {DEPTH} levels") from None
    finally:
        if loader is not None:
            loader.dispose()


def _build(loader: Any, lines: dict[Where, int] | None) -> Any:
    loader.get_event()
    if loader.check_event(yaml.StreamEndEvent):
        return None
    loader.get_event()
    stack: list[_Open] = []
    while True:
        event = loader.get_event()
        line = event.start_mark.line + 1
        kind = type(event)
        if kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
            done = stack.pop()
            value: Any = done.data
            line = 0
        else:
            _check_node(event, line)
            parent = stack[-1] if stack else None
            is_key = parent is not None and parent.key is _Open and type(parent.data) is dict
            if kind is yaml.ScalarEvent:
                value = _scalar(loader, event, line)
                if is_key:
                    assert parent is not None
                    _take_key(parent, value, line)
                    continue
            else:
                if is_key:
                    shape = "list" if kind is yaml.SequenceStartEvent else "mapping"
                    raise ReadError(f"a key must be a single value, not a {shape}", line)
                if len(stack) >= DEPTH:
                    raise NestingError(f"nested deeper than {DEPTH} levels", line)
                where = _child(parent, lines) if parent is not None else ()
                stack.append(_Open([] if kind is yaml.SequenceStartEvent else {}, where))
                if lines is not None:
                    lines[where] = line
                continue
        if not stack:
            if lines is not None and line:
                lines[()] = line
            break
        _put(stack[-1], value, line, lines)
    loader.get_event()
    if not loader.check_event(yaml.StreamEndEvent):
        raise ReadError("invalid YAML: more than one document",
                        loader.peek_event().start_mark.line + 1)
    return value


def _check_node(event: Any, line: int) -> None:
    if type(event) is yaml.AliasEvent:
        raise ReadError(f"aliases (*{event.anchor}) are not allowed: write the value out", line)
    if event.anchor is not None:
        raise ReadError(f"anchors (&{event.anchor}) are not allowed: write the value out", line)
    if event.tag not in (None, "!"):
        shown = event.tag.replace("tag:yaml.org,2002:", "!!", 1)[:40]
        raise ReadError(f"tags ({shown}) are not allowed", line)


def _scalar(loader: Any, event: Any, line: int) -> Any:
    text = event.value
    tag = loader.resolve(yaml.ScalarNode, text, event.implicit)
    if tag == _STR:
        return _text(event, line)
    if tag == _NULL:
        return None
    if tag == _MERGE:
        raise ReadError("merge keys (<<) are not allowed: write the values out", line)
    if tag == _INT and len(text) > DIGITS:
        digits = sum(c.isdigit() for c in text)
        if digits > DIGITS:
            raise ReadError(_number_problem(digits), line)
    if (tag == _INT and not re.fullmatch(_DECIMAL, text)) or (
            tag == _FLOAT and not re.fullmatch(_DECIMAL_FRACTION, text)
            and text.lstrip("+-").lower() not in (".inf", ".nan")):
        raise ReadError(_not_decimal(text), line)
    node = yaml.ScalarNode(tag, text, event.start_mark, event.end_mark, event.style)
    constructors = loader.yaml_constructors
    try:
        value = constructors.get(tag, constructors[None])(loader, node)
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError):
        raise ReadError(f"cannot read {_shown(text)} as {tag.rsplit(':', 1)[-1]}", line) from None
    if tag == _FLOAT and not math.isfinite(value):
        raise ReadError(f"number {_shown(text)} is out of range", line)
    return value


_DECIMAL = r"[-+]?(?:0|[1-9][0-9]*)"
"""How a whole number is written in a score sheet or a definition: decimal digits, with
no leading zero, digit separator or base."""
_DECIMAL_FRACTION = _DECIMAL + r"\.[0-9]+(?:[eE][-+]?[0-9]+)?"
"""A number with a fraction, as JSON writes it (``0.5``, ``-1.25``, ``2.5e-3``; YAML reads
``1e3`` as text), a sign allowed in front."""


def _not_decimal(text: str) -> str:
    """Why a number YAML would read in another form (``017`` is octal 15, ``1_2`` is 12,
    ``1:30`` is 90, ``0x11`` is 17) is refused, and how to write what was meant."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    sign = text[0] if text[0] in "+-" else ""
    body = text[len(sign):].replace("_", "")
    based = body[:2].lower() in ("0x", "0b")
    if ":" in text or len(text) > 40 or body.lower() in ("0x", "0b"):
        meant = None
    elif based:
        meant = str(int(body, 0))
    else:
        whole, dot, fraction = body.partition(".")
        meant = (whole.lstrip("0") or "0") + (dot + (fraction or "0") if dot else "")
    if meant and sign == "-" and meant.strip("0."):
        meant = "-" + meant
    write = f"write {meant}, or " if meant else "write "
    return f'{shown} is not a decimal number ({write}"{shown}" for text)'


def _text(event: Any, line: int) -> str:
    """A scalar's text, refused if an escape made it a lone surrogate (PyYAML's own
    parser lets ``"\\ud800"`` through; libyaml refuses it)."""
    text: str = event.value
    if event.style == '"' and not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ReadError(f"{_shown(text)} is not text (a lone surrogate)", line) from None
    return text


def _take_key(mapping: _Open, key: Any, line: int) -> None:
    if key is None or key == "":
        raise ReadError("a key is empty", line)
    text = str(key)
    if text in mapping.keys or key in mapping.data:
        first = mapping.keys.get(text) or next(
            mapping.keys[str(k)] for k in mapping.data if k == key)
        raise ReadError(f"duplicate key {_shown(key)} (first at line {first})", line)
    mapping.key = key
    mapping.key_line = line
    mapping.keys[text] = line


def _child(parent: _Open, lines: dict[Where, int] | None) -> Where:
    if lines is None:
        return ()
    if type(parent.data) is list:
        return (*parent.where, len(parent.data))
    return (*parent.where, str(parent.key))


def _put(parent: _Open, value: Any, line: int, lines: dict[Where, int] | None) -> None:
    if type(parent.data) is list:
        if lines is not None and line:
            lines[(*parent.where, len(parent.data))] = line
        parent.data.append(value)
        return
    assert isinstance(parent.data, dict)
    parent.data[parent.key] = value
    if lines is not None:
        lines[(*parent.where, str(parent.key))] = parent.key_line
    parent.key = _Open
