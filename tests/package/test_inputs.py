"""The bounded readers: what they accept is read as PyYAML and json read it; at each bound
the last accepted and the first refused input."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from pnp.definitions.source import load_with_lines
from pnp.errors import FormatError, ReadError, YamlSyntaxError
from pnp.inputs import parse_bytes, parse_text, read_stdin
from pnp.reading import CHUNK, DEPTH, MiB, decode, load_json, load_yaml, read_path, read_stream

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("qwinto", "kwingto", "xactika", "ronda", "spectacle")


def composer_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """The line of every value as PyYAML's own composer marks it (a mapping entry: its
    key's line)."""
    lines: dict[tuple[str | int, ...], int] = {}

    def walk(node: yaml.Node, where: tuple[str | int, ...]) -> None:
        lines[where] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                walk(value, (*where, key.value))
                lines[(*where, key.value)] = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                walk(item, (*where, index))

    walk(yaml.compose(text, Loader=yaml.SafeLoader), ())
    return lines


@pytest.mark.parametrize("game", GAMES)
def test_a_definition_reads_as_pyyaml_reads_it(game: str) -> None:
    text = (ROOT / "rules" / f"{game}.yaml").read_text(encoding="utf-8")
    data, lines = load_with_lines(text)
    assert data == yaml.safe_load(text)
    assert lines == composer_lines(text)


@pytest.mark.parametrize("game", GAMES)
def test_an_example_reads_as_pyyaml_and_json_read_it(game: str) -> None:
    text = (ROOT / "examples" / f"{game}.yaml").read_text(encoding="utf-8")
    assert parse_text(text, "sheet.yaml") == yaml.safe_load(text)
    as_json = json.dumps(yaml.safe_load(text))
    assert parse_text(as_json, "sheet.json") == json.loads(as_json)
    assert parse_text(as_json, "stdin") == json.loads(as_json)


def nested(levels: int, style: str) -> str:
    if style == "json":
        return "[" * levels + "]" * levels
    if style == "flow":
        return "a: " + "[" * (levels - 1) + "]" * (levels - 1)
    return "a:\n" + "".join(" " * i + "-\n" for i in range(1, levels))


@pytest.mark.parametrize("style", ["json", "flow", "block"])
def test_nesting_up_to_the_bound_is_read(style: str) -> None:
    reader = load_json if style == "json" else load_yaml
    reader(nested(DEPTH, style))
    with pytest.raises(ReadError, match=f"nested deeper than {DEPTH} levels") as refused:
        reader(nested(DEPTH + 1, style))
    assert refused.value.line == (DEPTH + 1 if style == "block" else 1)


@pytest.mark.parametrize(("text", "value"), [
    ("n: 999999999999999999", 999_999_999_999_999_999),
    ("n: -999999999999999999", -999_999_999_999_999_999),
    ("n: +5", 5),
    ('{"n": -999999999999999999}', -999_999_999_999_999_999),
    ('{"n": 1.5e300}', 1.5e300),
])
def test_numbers_within_the_bound_are_read(text: str, value: object) -> None:
    assert parse_text(text, "sheet")["n"] == value


@pytest.mark.parametrize(("text", "words"), [
    ("n: 1234567890123456789", "sheet:1: a number of 19 digits (at most 18)"),
    ("a: 1\nn: 0xDE0B6B3A7640000", "sheet:2: 0xDE0B6B3A7640000 is not a decimal number "
                                  "(write 1000000000000000000, or \"0xDE0B6B3A7640000\" for text)"),
    ("n: 0x_ff", 'sheet:1: 0x_ff is not a decimal number (write 255, or "0x_ff" for text)'),
    ("n: 1:30", 'sheet:1: 1:30 is not a decimal number (write "1:30" for text)'),
    ("n: .inf", "sheet:1: number '.inf' is out of range"),
    ("n: 0b_", 'sheet:1: 0b_ is not a decimal number (write "0b_" for text)'),
    ("n: 2001-13-45", "sheet:1: cannot read '2001-13-45' as timestamp"),
    ('{"n":\n 1234567890123456789}', "sheet.json:2: a number of 19 digits (at most 18)"),
    ('{"n": 1e400}', "sheet.json:1: number '1e400' is out of range"),
    ('{"n": NaN}', "sheet.json:1: NaN is not a JSON number"),
    ('{"n": -Infinity}', "sheet.json:1: Infinity is not a JSON number"),
    ('{"n": "\\udc00"}', "sheet.json:1: '\"\\\\udc00\"' is not text (a lone surrogate)"),
])
def test_numbers_beyond_the_bound_and_odd_values_are_refused(text: str, words: str) -> None:
    name = "sheet.json" if text.startswith("{") else "sheet"
    with pytest.raises(FormatError) as refused:
        parse_text(text, name)
    assert str(refused.value) == words


@pytest.mark.parametrize(("text", "name", "words"), [
    ("a: 1\nb: 2\na: 3\n", "s", "s:3: duplicate key 'a' (first at line 1)"),
    ("a: {x: 1}\nb: {x: 1, y: {x: 2, x: 3}}\n", "s", "s:2: duplicate key 'x' (first at line 2)"),
    ("1: Ana\n'1': Bea\n", "s", "s:2: duplicate key '1' (first at line 1)"),
    ("Ana: 1\n'Ana': 2\n", "s", "s:2: duplicate key 'Ana' (first at line 1)"),
    ("1: Ana\ntrue: Bea\n", "s", "s:2: duplicate key True (first at line 1)"),
    ('{"a": 1,\n"b": {"a": 1},\n"\\u0061": 2}', "s.json", "s.json:3: duplicate key 'a' "
     "(first at line 1)"),
])
def test_a_key_twice_in_one_mapping_is_refused(text: str, name: str, words: str) -> None:
    with pytest.raises(FormatError) as refused:
        parse_text(text, name)
    assert str(refused.value) == words


def test_a_definition_key_twice_in_other_words_is_refused() -> None:
    with pytest.raises(YamlSyntaxError) as refused:
        load_with_lines("a: 1\n1: x\nb: 2\ntrue: y\n")
    assert (refused.value.message, refused.value.line) == (
        "duplicate key True (first at line 2)", 4)


def test_an_empty_key_is_refused() -> None:
    for empty in ("~", "null", "''", "\"\""):
        with pytest.raises(FormatError, match=r"^s:2: a key is empty$"):
            parse_text(f"a: 1\n{empty}: 2\n", "s")


def test_the_same_key_in_different_mappings_is_read() -> None:
    assert parse_text('{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}', "s.json") == {
        "a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}
    assert parse_text("a: {a: 1}\nb: [{a: 2}, {a: 3}]\n", "s") == {
        "a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}


def test_text_is_utf8_with_or_without_a_byte_order_mark() -> None:
    assert decode("\ufeffa: é\r\nb: 2\rc: 3\n".encode()) == "a: é\nb: 2\nc: 3\n"
    before = "a: é\nb: ".encode()
    with pytest.raises(ReadError) as refused:
        decode(b"\xef\xbb\xbf" + before + b"\xe9\n")
    assert (refused.value.message, refused.value.line) == (
        f"not UTF-8 text at byte {3 + len(before) + 1}", 2)
    with pytest.raises(FormatError, match=r"^stdin:1: not UTF-8 text at byte 1$"):
        parse_bytes(b"\xff", "stdin")


def test_a_file_at_the_bound_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "sheet.yaml"
    path.write_bytes(b"a: 1\n" + b"#" * (MiB - 6) + b"\n")
    assert len(read_path(path, MiB, "a score sheet")) == MiB
    path.write_bytes(path.read_bytes() + b"\n")
    with pytest.raises(ReadError, match=r"^larger than 1 MiB, not a score sheet$"):
        read_path(path, MiB, "a score sheet")


class Endless(io.RawIOBase):
    """A stream that never ends, counting what was taken from it."""

    def __init__(self) -> None:
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = len(buffer)
        buffer[:size] = b"a" * size
        self.taken += size
        return size


def test_an_endless_stream_is_read_only_up_to_the_bound() -> None:
    endless = Endless()
    start = time.monotonic()
    with pytest.raises(ReadError, match="larger than 1 MiB"):
        read_stream(io.BufferedReader(endless), MiB, "a score sheet")
    assert endless.taken <= MiB + 2 * CHUNK
    assert time.monotonic() - start < 1


def test_standard_input_as_text_or_bytes_or_none() -> None:
    assert read_stdin(io.BytesIO(b"\xef\xbb\xbfa: 1\n")) == {"a": 1}
    assert read_stdin(io.StringIO("a: 1\n")) == {"a": 1}
    with pytest.raises(ReadError, match=r"^no standard input to read$"):
        read_stream(None, MiB, "a score sheet")


def test_a_definition_problem_keeps_its_line() -> None:
    with pytest.raises(YamlSyntaxError) as refused:
        load_with_lines("game: qwinto\nx: &a 1\n")
    assert (refused.value.message, refused.value.line) == (
        "anchors (&a) are not allowed: write the value out", 2)
