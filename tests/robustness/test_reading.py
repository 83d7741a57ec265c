"""Hostile and careless input to the readers: every one refused in one line, in bounds.

Generated from the worked examples and the bundled definitions: each class of defect is
planted into each game's own file (a calculator input for ``pnp score``, a definition for
``pnp validate --rules``), and given alternately as a file and on standard input. The
in-process properties at the end feed arbitrary bytes and text to the readers.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.definitions import load_file
from pnp.errors import DefinitionError, FormatError
from pnp.inputs import parse_bytes, parse_text
from refusal import WALL_SECONDS, Run, _limits, assert_refused, pnp

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("qwinto", "kwingto", "xactika", "ronda", "spectacle")
MiB = 1024 * 1024

LAUGHS = "".join(
    [f"l0: &l0 [{', '.join(['lol'] * 9)}]\n"]
    + [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10)])
"""The billion laughs: nine aliases deep, 9⁹ strings when expanded."""


def example(game: str) -> str:
    return (ROOT / "examples" / f"{game}.yaml").read_text(encoding="utf-8")


def as_json(game: str) -> str:
    return json.dumps(yaml.safe_load(example(game)), indent=1)


def first_key(game: str) -> str:
    return next(iter(yaml.safe_load(example(game))))


def first_line_of(text: str, start: str) -> int:
    """The line (from 1) of the first line of ``text`` that starts with ``start``."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


# Each defect: (name, make(game) -> (bytes, suffix), words the refusal must say). The
# expected words are worked out here from the planted text, not asked of pnp.

def deep_json(game: str) -> tuple[bytes, str, list[str]]:
    return b"[" * 200_000, ".json", ["nested deeper than 64 levels"]


def deep_yaml_flow(game: str) -> tuple[bytes, str, list[str]]:
    return (f"{first_key(game)}: " + "[" * 200_000).encode(), ".yaml", ["nesting"]


def deep_yaml_block(game: str) -> tuple[bytes, str, list[str]]:
    text = example(game) + "deep:\n" + "".join(" " * i + "-\n" for i in range(1, 100))
    line = first_line_of(text, "deep:") + 64
    return text.encode(), ".yaml", [f":{line}: nested deeper than 64 levels"]


def deep_yaml_compact(game: str) -> tuple[bytes, str, list[str]]:
    return ("- " * 100_000 + "x\n").encode(), ".yaml", ["nest"]


def long_integer_yaml(game: str) -> tuple[bytes, str, list[str]]:
    text = example(game) + "extra: " + "7" * 5000 + "\n"
    line = first_line_of(text, "extra:")
    return text.encode(), ".yaml", [f":{line}: a number of 5000 digits (at most 18)"]


def long_integer_json(game: str) -> tuple[bytes, str, list[str]]:
    text = as_json(game)
    text = text[:-2] + ',\n "extra": ' + "7" * 5000 + "\n}"
    line = text.count("\n")
    return text.encode(), ".json", [f":{line}: a number of 5000 digits"]


def non_decimal_yaml(game: str) -> tuple[bytes, str, list[str]]:
    text = example(game) + "extra: 0x11\n"
    line = first_line_of(text, "extra:")
    return text.encode(), ".yaml", [
        f':{line}: 0x11 is not a decimal number (write 17, or "0x11" for text)']


def nineteen_digits_json(game: str) -> tuple[bytes, str, list[str]]:
    return b'{"x": -1234567890123456789}', ".json", ["a number of 19 digits (at most 18)"]


def binary(game: str) -> tuple[bytes, str, list[str]]:
    data = example(game).encode()
    middle = data.index(b"\n", len(data) // 2) + 1
    line = data[:middle].count(b"\n") + 1
    planted = data[:middle] + b"\xff\xfe\x00\x80" + data[middle:]
    return planted, ".yaml", [f":{line}: not UTF-8 text at byte {middle + 1}"]


def random_binary(game: str) -> tuple[bytes, str, list[str]]:
    return bytes(range(256)) * 64, ".yaml", ["not UTF-8 text at byte 129"]


def duplicate_yaml(game: str) -> tuple[bytes, str, list[str]]:
    text = example(game)
    key = first_key(game)
    line = first_line_of(text, f"{key}:")
    text += f"{key}: 1\n"
    return text.encode(), ".yaml", [
        f":{text.count(chr(10))}: duplicate key '{key}' (first at line {line})"]


def duplicate_json(game: str) -> tuple[bytes, str, list[str]]:
    key = first_key(game)
    text = as_json(game)
    text = text[:-2] + f',\n "{key}": null\n}}'
    return text.encode(), ".json", [f"duplicate key '{key}' (first at line 2)"]


def duplicate_nested(game: str) -> tuple[bytes, str, list[str]]:
    return b"a:\n  b: 1\n  c: 2\n  b: 3\n", ".yaml", [":4: duplicate key 'b' (first at line 2)"]


def recursive_alias(game: str) -> tuple[bytes, str, list[str]]:
    return b"loop: &l [*l]\n", ".yaml", [":1: anchors (&l) are not allowed"]


def billion_laughs(game: str) -> tuple[bytes, str, list[str]]:
    return (LAUGHS + example(game)).encode(), ".yaml", [":1: anchors (&l0) are not allowed"]


def alias_only(game: str) -> tuple[bytes, str, list[str]]:
    return (example(game) + "again: *nothing\n").encode(), ".yaml", ["aliases (*nothing)"]


def merge_key(game: str) -> tuple[bytes, str, list[str]]:
    return b"a: {<<: {b: 1}}\n", ".yaml", [":1: merge keys (<<) are not allowed"]


def tag(game: str) -> tuple[bytes, str, list[str]]:
    return b"a: !!python/object:os.system {}\n", ".yaml", [":1: tags (!!python/object"]


def list_key(game: str) -> tuple[bytes, str, list[str]]:
    return b"? [a, b]\n: 1\n", ".yaml", [":1: a key must be a single value, not a list"]


def mapping_key(game: str) -> tuple[bytes, str, list[str]]:
    return b"{a: 1}: 2\n", ".yaml", [":1: a key must be a single value, not a mapping"]


def empty_key(game: str) -> tuple[bytes, str, list[str]]:
    return (example(game) + "~: 1\n").encode(), ".yaml", ["a key is empty"]


def control_character(game: str) -> tuple[bytes, str, list[str]]:
    return b"a: b\n\x1b[31m: 1\n", ".yaml", [":2: invalid YAML: character U+001B"]


def too_large(game: str) -> tuple[bytes, str, list[str]]:
    padding = ("# " + "x" * 98 + "\n") * (MiB // 100 + 1)
    return (example(game) + padding).encode(), ".yaml", ["larger than 1 MiB"]


def two_documents(game: str) -> tuple[bytes, str, list[str]]:
    text = example(game) + "---\n" + example(game)
    return text.encode(), ".yaml", ["more than one document"]


CALCULATOR: list[Callable[[str], tuple[bytes, str, list[str]]]] = [
    deep_json, deep_yaml_flow, deep_yaml_block, deep_yaml_compact, long_integer_yaml,
    long_integer_json, non_decimal_yaml, nineteen_digits_json, binary, random_binary,
    duplicate_yaml, duplicate_json, duplicate_nested, recursive_alias, billion_laughs,
    alias_only, merge_key, tag, list_key, mapping_key, empty_key, control_character,
    too_large, two_documents,
]


def calculator_cases() -> list[tuple[str, str, bool]]:
    """Each defect in two games' inputs, one as a file and one on standard input, the
    games taken in turn so that every game meets every kind of reading."""
    cases = []
    for number, defect in enumerate(CALCULATOR):
        for turn in (0, 1):
            game = GAMES[(number * 2 + turn) % len(GAMES)]
            cases.append((defect.__name__, game, (number + turn) % 2 == 0))
    return cases


@pytest.mark.parametrize(("defect", "game", "from_file"), calculator_cases())
def test_the_calculator_refuses(defect: str, game: str, from_file: bool,
                                tmp_path: Path) -> None:
    make = next(d for d in CALCULATOR if d.__name__ == defect)
    data, suffix, words = make(game)
    if from_file:
        path = tmp_path / f"input{suffix}"
        path.write_bytes(data)
        run = pnp("score", game, str(path))
        prefix = f"error: {path}"
    else:
        run = pnp("score", game, "-", stdin=data)
        prefix = "error: stdin"
    assert_refused(run, *(prefix + w if w.startswith(":") else w for w in words))
    assert run.stderr.startswith(prefix)


def test_the_limit_is_1_mib_exactly(tmp_path: Path) -> None:
    text = example("qwinto")
    fits = text + "#" * (MiB - len(text.encode()) - 1) + "\n"
    assert len(fits.encode()) == MiB
    path = tmp_path / "fits.yaml"
    path.write_text(fits, encoding="utf-8")
    assert pnp("score", "qwinto", str(path)).stdout.splitlines()[-1].split() == ["Total", "43"]
    path.write_text(fits + "\n", encoding="utf-8")
    assert_refused(pnp("score", "qwinto", str(path)),
                   f"error: {path}: larger than 1 MiB, not a score sheet")


def test_a_byte_order_mark_and_windows_lines_are_read() -> None:
    data = b"\xef\xbb\xbf" + example("qwinto").replace("\n", "\r\n").encode()
    assert pnp("score", "qwinto", "-", stdin=data).stdout.splitlines()[-1].split() == [
        "Total", "43"]


# Things that are not files.

def run_with_stdin(stdin: int, *args: str) -> Run:
    """``pnp ARGS`` with standard input on an open file descriptor, bounded like
    :func:`refusal.pnp`."""
    try:
        done = subprocess.run([sys.executable, "-m", "pnp", *args], stdin=stdin,
                              capture_output=True, timeout=WALL_SECONDS, preexec_fn=_limits,
                              env={**os.environ, "LANG": "C.UTF-8"}, check=False)
    except subprocess.TimeoutExpired:
        raise AssertionError(
            f"pnp {' '.join(args)}: still running after {WALL_SECONDS} s") from None
    return Run(done.returncode, done.stdout.decode(errors="replace"),
               done.stderr.decode(errors="replace"))


def test_a_device_is_not_a_file() -> None:
    assert_refused(pnp("score", "kwingto", "/dev/zero"), "error: /dev/zero: a device, not a file")


def test_a_link_to_a_device_is_not_a_file(tmp_path: Path) -> None:
    (tmp_path / "sheet.yaml").symlink_to("/dev/urandom")
    assert_refused(pnp("score", "ronda", str(tmp_path / "sheet.yaml")), "a device, not a file")


def test_endless_standard_input_stops_at_the_bound() -> None:
    with open("/dev/zero", "rb") as zero:
        assert_refused(run_with_stdin(zero.fileno(), "score", "xactika", "-"),
                       "error: stdin: larger than 1 MiB, not a score sheet")


def test_a_named_pipe_without_a_writer_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "sheet.yaml"
    os.mkfifo(fifo)
    assert_refused(pnp("score", "spectacle", str(fifo)), "a named pipe (FIFO), not a file")


def test_a_folder_is_not_a_file(tmp_path: Path) -> None:
    assert_refused(pnp("score", "qwinto", str(tmp_path)), f"error: {tmp_path}: a folder")


def test_a_missing_file_and_a_file_under_a_file(tmp_path: Path) -> None:
    assert_refused(pnp("score", "qwinto", str(tmp_path / "none.yaml")), "file not found")
    (tmp_path / "plain").write_text("x")
    assert_refused(pnp("score", "qwinto", str(tmp_path / "plain" / "x.yaml")), "file not found")


def test_a_file_name_that_would_break_the_line_is_shown_escaped(tmp_path: Path) -> None:
    odd = tmp_path / "a\x1b[31m\nTotal 999.yaml"
    odd.write_bytes(b"\xff")
    assert_refused(pnp("score", "qwinto", str(odd)),
                   f"error: {tmp_path}/a\\x1b[31m\\nTotal 999.yaml:1: not UTF-8 text at byte 1")
    long = tmp_path / ("x" * 250) / ("y" * 250) / "sheet.yaml"
    run = pnp("score", "qwinto", str(long))
    assert_refused(run, "...", "y" * 100 + "/sheet.yaml: file not found")


def test_closed_standard_input() -> None:
    done = subprocess.run([sys.executable, "-m", "pnp", "score", "qwinto", "-"],
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=WALL_SECONDS,
                          preexec_fn=lambda: (_limits(), os.close(0)), check=False)
    assert_refused(Run(done.returncode, done.stdout.decode(), done.stderr.decode()),
                   "error: stdin: no standard input")


# Definitions: `pnp validate --rules DIR` with one broken file, in each game in turn.

def rules_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", folder)
    return folder


def definition(game: str) -> str:
    return (ROOT / "rules" / f"{game}.yaml").read_text(encoding="utf-8")


def appended(text: str, below: int = 0) -> Callable[[str], tuple[bytes, str]]:
    """A definition with ``text`` added at its end, at fault ``below`` lines into ``text``."""
    def make(game: str) -> tuple[bytes, str]:
        original = definition(game)
        return (original + text).encode(), f":{original.count(chr(10)) + 1 + below}: "
    return make


def def_binary(game: str) -> tuple[bytes, str]:
    data = definition(game).encode()
    at = data.index(b"\n", len(data) // 3) + 1
    line = data[:at].count(b"\n") + 1
    return data[:at] + b"\xc3\x28" + data[at:], f":{line}: not UTF-8 text at byte {at + 1}"


def def_duplicate(game: str) -> tuple[bytes, str]:
    text = definition(game)
    line = first_line_of(text, "game:")
    return (text + f"game: {game}\n").encode(), (
        f":{text.count(chr(10)) + 1}: duplicate key 'game' (first at line {line})")


def def_deep(game: str) -> tuple[bytes, str]:
    text = definition(game)
    return (text + "x: " + "[" * 200_000 + "\n").encode(), f":{text.count(chr(10)) + 1}: "


def def_large(game: str) -> tuple[bytes, str]:
    return (definition(game) + "#" * MiB + "\n").encode(), (
        ": larger than 1 MiB, not a game definition")


DEFINITIONS: list[tuple[str, Callable[[str], tuple[bytes, str]], str]] = [
    ("recursive alias", appended("loop: &l [*l]\n"), "anchors (&l) are not allowed"),
    ("billion laughs", appended(LAUGHS), "anchors (&l0) are not allowed"),
    ("long integer", appended("extra: " + "9" * 5000 + "\n"), "a number of 5000 digits"),
    ("octal number", appended("extra: 017\n"), '017 is not a decimal number (write 17, or'),
    ("block nesting", appended("deep:\n" + "".join(" " * i + "-\n" for i in range(1, 80)), 64),
     "nested deeper than 64 levels"),
    ("tag", appended("extra: !!binary aGVsbG8=\n"), "tags (!!binary) are not allowed"),
    ("list key", appended("? [a]\n: 1\n"), "a key must be a single value, not a list"),
    ("empty key", appended("null: 1\n"), "a key is empty"),
    ("binary", def_binary, ""),
    ("duplicate key", def_duplicate, ""),
    ("flow nesting", def_deep, "nest"),
    ("too large", def_large, ""),
]


@pytest.mark.parametrize("number", range(len(DEFINITIONS)),
                         ids=[name for name, _, _ in DEFINITIONS])
def test_validate_refuses_a_broken_definition(number: int, tmp_path: Path) -> None:
    _, make, words = DEFINITIONS[number]
    game = GAMES[number % len(GAMES)]
    folder = rules_copy(tmp_path)
    data, where = make(game)
    (folder / f"{game}.yaml").write_bytes(data)
    run = pnp("validate", "--rules", "rules", cwd=tmp_path)
    assert_refused(run, f"error: rules/{game}.yaml" + where, words)
    assert len(run.stderr.splitlines()) == 1


@pytest.mark.parametrize(("kind", "game"), [("fifo", "kwingto"), ("folder", "xactika"),
                                            ("device", "ronda")])
def test_a_definition_must_be_a_file(kind: str, game: str, tmp_path: Path) -> None:
    folder = rules_copy(tmp_path)
    path = folder / f"{game}.yaml"
    path.unlink()
    if kind == "device" and os.geteuid() != 0:
        pytest.skip("making a device needs root")
    {"fifo": os.mkfifo, "folder": os.mkdir,
     "device": lambda p: os.mknod(p, stat.S_IFCHR | 0o644, os.makedev(1, 5))}[kind](path)
    expected = {"fifo": "a named pipe (FIFO)", "folder": "a folder", "device": "a device"}[kind]
    assert_refused(pnp("validate", "--rules", "rules", cwd=tmp_path),
                   f"error: rules/{game}.yaml: {expected}, not a file")
    assert_refused(pnp("score", game, str(ROOT / "examples" / f"{game}.yaml"),
                       "--rules", "rules", cwd=tmp_path), f"rules/{game}.yaml: {expected}")


def test_the_calculator_reports_a_broken_definition(tmp_path: Path) -> None:
    folder = rules_copy(tmp_path)
    (folder / "spectacle.yaml").write_text(definition("spectacle") + LAUGHS, encoding="utf-8")
    assert_refused(pnp("score", "spectacle", str(ROOT / "examples" / "spectacle.yaml"),
                       "--rules", "rules", cwd=tmp_path),
                   "error: rules/spectacle.yaml:", "anchors (&l0) are not allowed")


# In process: whatever the bytes, the readers return data or refuse in their own terms.

PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-10**18 + 1, 10**18 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(min_size=1, max_size=6), inner, max_size=4),
    max_leaves=30)
"""Data the calculator could be given: nothing here is to be refused."""


@settings(max_examples=200, deadline=None)
@given(data=st.dictionaries(st.text(min_size=1, max_size=6), PLAIN, max_size=4))
def test_sound_data_reads_back_unchanged(data: dict[str, object]) -> None:
    assert parse_text(json.dumps(data), "sheet.json") == data
    assert parse_text(json.dumps(data, ensure_ascii=False), "stdin") == data
    dumped = yaml.safe_dump(data, allow_unicode=True)
    assert parse_text(dumped, "sheet.yaml") == yaml.safe_load(dumped)

YAMLISH = st.text(alphabet=st.sampled_from([*"[]{}:,-?&*!|>'\"#~.\\ \n\t0123456789eE+abxyu<%",
                                            "\ud800", "\x00", "\ufeff", "é", "\r"]),
                  max_size=200)
"""Text made of what YAML and JSON are built of, with a few characters they refuse."""


def refused_in_one_line(error: Exception) -> None:
    message = str(error)
    assert "\n" not in message and len(message) <= 500, message


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(st.binary(max_size=300), YAMLISH.map(
    lambda t: t.encode("utf-8", "surrogatepass"))),
       name=st.sampled_from(["sheet.yaml", "sheet.json", "stdin"]))
def test_any_bytes_are_read_or_refused(data: bytes, name: str) -> None:
    try:
        parse_bytes(data, name)
    except FormatError as error:
        refused_in_one_line(error)
        assert str(error).startswith(name)


@settings(max_examples=300, deadline=None)
@given(text=YAMLISH, name=st.sampled_from(["sheet.yaml", "sheet.json", "stdin"]))
def test_any_text_is_read_or_refused(text: str, name: str) -> None:
    try:
        parse_text(text, name)
    except FormatError as error:
        refused_in_one_line(error)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(st.binary(max_size=300), YAMLISH.map(
    lambda t: t.encode("utf-8", "surrogatepass"))))
def test_any_definition_bytes_are_read_or_refused(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "qwinto.yaml"
        path.write_bytes(b"game: qwinto\n" + data)
        try:
            load_file(path, "qwinto")
        except DefinitionError as error:
            for problem in error.problems:
                assert problem.file == str(path)
                assert "\n" not in str(problem) and len(str(problem)) <= 500
