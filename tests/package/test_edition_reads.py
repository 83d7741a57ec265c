"""No module of pnp reads a file but through the readers that know an edition is shared.

An edition's files may be links leading outside it, named pipes that never end, devices or
gigabytes: :func:`pnp.reading.read_path` (a regular file, bounded) and
:func:`pnp.reading.text_inside` (that, and inside its folder once links are
followed) refuse them. This test reads pnp's sources (their syntax trees, nothing is run)
and fails on any other way of reading a file: ``read_text``, ``read_bytes``, ``open`` (the
built-in, ``os``, ``io``, ``Path``, a library's), ``fdopen`` and ``shutil``'s copies.

Which module handles an edition's paths a scan cannot tell for sure (a path comes in as an
argument), so every module is scanned, and each read that is not of an edition is listed in
:data:`READERS` with why it is safe. An entry that no longer reads anything fails too, so
the list says what pnp does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).parents[2] / "pnp"

READS = {"read_text", "read_bytes", "open", "fdopen", "copy", "copy2", "copyfile",
         "copytree", "copyfileobj"}
"""Calls that read a file, whatever they are called on."""

READERS = {
    # the hardened readers
    ("reading.py", "read_path"): "the hardened reader: stat before open, regular files only, "
                                 "non-blocking, bounded",
    ("outputs/writing.py", "read_own"): "reads pnp's own build state: no link followed, "
                                        "regular, bounded",
    # pnp's own files, never an edition's
    ("outputs/writing.py", "create"): "writes a new output file (O_EXCL, no link followed)",
    ("outputs/writing.py", "_temporary"): "writes the temporary file it has just made",
    ("outputs/writing.py", "_head"): "the first bytes of an output before it is replaced, "
                                     "non-blocking, bounded to HEAD",
    ("outputs/writing.py", "clean_temporaries"): "locks pnp's own temporary files (regular, "
                                                 "no link followed) to remove them; reads "
                                                 "nothing",
    ("outputs/writing.py", "_lock_file"): "the build's lock file, opened to be locked",
    ("definitions/cache.py", "_sources"): "pnp's own definition modules, hashed",
    ("definitions/cache.py", "_validator"): "pydantic's version.py, from its package",
    ("definitions/cache.py", "_read"): "the definition cache or the package's shipped "
                                       "definitions: no link followed, a regular file owned by "
                                       "this user (or the package's owner), written by no one "
                                       "else",
    ("definitions/cache.py", "_write"): "writes the definition cache (or, building the "
                                        "package, its shipped definitions)",
    ("scorer/scripts.py", "_text"): "pnp's own scripts (the .js files of its package), never "
                                    "an edition's",
    ("preflight/__init__.py", "checker"): "preflight's own source, hashed",
    ("preflight/digest.py", "drawing"): "a page's content stream inside a PDF already read "
                                        "(pikepdf's Stream.read_bytes), not a file",
    ("books/limits.py", "memory_allowance"): "/proc/self/statm",
    ("assets.py", "init"): "copies the bundled edition (pnp's data) into a new one",
}
"""(module under pnp/, function) -> why its reads are safe."""


def _in_memory(call: ast.Call) -> bool:
    """``pikepdf.open(io.BytesIO(data))`` and the like: bytes already read, not a file."""
    made = call.args[0].func if call.args and isinstance(call.args[0], ast.Call) else None
    return (made.attr if isinstance(made, ast.Attribute) else
            made.id if isinstance(made, ast.Name) else None) == "BytesIO"


def reads(source: str) -> Iterator[tuple[str, int, str]]:
    """Each read in ``source``: the function it is in (``Class.method``; ``<module>`` at
    the top), its line and its text."""
    found: list[tuple[str, int, str]] = []

    class Scan(ast.NodeVisitor):
        def __init__(self) -> None:
            self.inside: list[str] = []

        def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef
                              | ast.ClassDef) -> None:
            self.inside.append(node.name)
            self.generic_visit(node)
            self.inside.pop()

        visit_AsyncFunctionDef = visit_FunctionDef
        visit_ClassDef = visit_FunctionDef

        def visit_Call(self, node: ast.Call) -> None:
            called = node.func
            name = (called.attr if isinstance(called, ast.Attribute) else
                    called.id if isinstance(called, ast.Name) and called.id == "open" else None)
            if name in READS and not _in_memory(node):
                found.append((".".join(self.inside) or "<module>", node.lineno,
                              ast.unparse(node)[:80]))
            self.generic_visit(node)

    Scan().visit(ast.parse(source))
    yield from found


def _function(qualname: str) -> str:
    """The outermost function a read is in: the allow-list names functions, not closures."""
    parts = qualname.split(".")
    return ".".join(parts[:2]) if parts[0][:1].isupper() and len(parts) > 1 else parts[0]


def _all_reads() -> list[tuple[str, str, int, str]]:
    return [(path.relative_to(PACKAGE).as_posix(), qualname, line, text)
            for path in sorted(PACKAGE.rglob("*.py"))
            for qualname, line, text in reads(path.read_text(encoding="utf-8"))]


def test_every_read_goes_through_a_hardened_reader() -> None:
    stray = [f"pnp/{module}:{line}: {text} (in {qualname})"
             for module, qualname, line, text in _all_reads()
             if (module, _function(qualname)) not in READERS]
    assert stray == [], "read an edition's file with pnp/reading.read_path or " \
                        "reading.text_inside, or say in READERS why it is safe:\n" + \
                        "\n".join(stray)


def test_every_listed_reader_still_reads() -> None:
    found = {(module, _function(qualname)) for module, qualname, _, _ in _all_reads()}
    assert sorted(set(READERS) - found) == []


def test_the_scan_finds_each_way_of_reading() -> None:
    """The scan itself, on code written to read in each way it must catch (and the ways it
    must let pass)."""
    source = '''
import io, os, shutil
from pathlib import Path
def plain(path):
    return path.read_text(encoding="utf-8")
def binary(path):
    return Path(path).read_bytes()
def builtin(name):
    with open(name) as handle:
        return handle.read()
class Edition:
    def method(self):
        return self.templates.joinpath("x").open("rb")
def low(path):
    fd = os.open(path, os.O_RDONLY)
    return os.fdopen(fd)
def copied(a, b):
    shutil.copyfile(a, b)
def memory(data):
    import pikepdf
    return pikepdf.open(io.BytesIO(data))
def hardened(root, path):
    from pnp.reading import text_inside
    return text_inside(root, path)
'''
    assert [(q, line) for q, line, _ in reads(source)] == [
        ("plain", 5), ("binary", 7), ("builtin", 9), ("Edition.method", 13), ("low", 15),
        ("low", 16), ("copied", 18)]
