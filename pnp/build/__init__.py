"""``pnp build``: every material of every chosen game and language, fast, incremental, safe.

- **Plan**: :func:`plan` lists the targets (sheets and their variants, reference cards,
  decks, rulebooks as PDF and HTML, the scorer page with its app manifest and service
  worker) for the chosen games, languages and papers.
- **Incremental**: each target's inputs (definition, example, texts, templates,
  catalogues, fonts and pnp's own code) are hashed; the hash of every output is kept
  in ``<out>/.pnp-build.json``, and an output whose inputs have not changed is skipped.
- **Parallel**: one process pool fed by :func:`pieces`, the slowest first; each worker
  pays the expensive set-up (fonts, the WeasyPrint import) once, and a document's formats
  and papers share one layout.
- **Safe**: every file is written to a temporary name and renamed into place; a failing
  target is reported and the others go on; one build at a time writes into a folder
  (:func:`pnp.outputs.locked`), and its workers die with it.
- **Self-repairing**: state that cannot be read or trusted (a manifest entry of the wrong
  shape, an output whose size or SHA-256 no longer matches, a temporary file left by a
  killed build, something pnp made where a file or folder of its own goes) means
  "rebuild", never a failure.
- **Only its own**: a build folder is one with a manifest (:func:`claim`); pnp builds into
  a new or empty one (a lone ``.gitkeep`` counts as empty) and marks it so at once, and
  refuses any other, or one inside what it reads (:func:`check_out`). In a build folder,
  what stands in the way of an output and was not made by pnp is refused, never removed
  (:func:`clear_way`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import html
import importlib
import io
import json
import os
import re
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pnp.games import registry
from pnp.assets import FONTS, Edition, current, use
from pnp.errors import DefinitionError, PnpError, Problem, ReadError
from pnp.outputs import LOCK, TEMPORARY, OutputError, check_outside, clean_temporaries, clear, create, folder, locked, read_own, write
from pnp.games.registry import DECKS, GAMES, check_game
from pnp.i18n.catalogues import LANGUAGES
from pnp.preflight import Finding, PreflightError, check_bytes, checker, from_record, sound_record
from pnp.preflight import record as kept_finding
from pnp.reading import read_path

PACKAGE = Path(__file__).parents[1]
"""pnp's own folder: its code, catalogues and bundled data."""
INPUT_LIMIT = 16 * 1024 * 1024
"""Bytes an input of a build (a definition, a text, a font) may have."""
MANIFEST = ".pnp-build.json"
PLAN_CACHE = ".pnp-plan.json"
PAPERS = ("a4", "letter")
SCORER_FILES = {"html": "{game}-scorer.html", "webmanifest": "{game}-scorer.webmanifest",
                "js": "{game}-scorer-sw.js"}
"""The scorer page of each game and language, and beside it the two files that let a browser
install it as an app when it is served over http(s) (see :mod:`pnp.scorer.page`)."""
DECK_KINDS = ("poker", "calibration-long")
"""What the build makes of each deck: poker-size cards backed on the long edge, and the
calibration sheet that measures the printer's drift for that flip."""
BACK_MOVES = tuple((x, y) for y in (0.0, 1.0, -1.0) for x in (0.0, 1.0, -1.0))
"""The moves of the backs (mm right, mm up) the deck is built for, each its own file: the
calibration sheet tells a player whose printer shifts the backs which one to print. Steps of
1 mm, up to 1 mm each way: what is left over is hidden by the backs' 3 mm of bleed."""
THUMBNAIL_DPI = 24
PREVIEW_DPI = 50
PREVIEWS = {
    "qwinto-sheet": "qwinto/en/qwinto-sheet-a4.pdf",
    "kwingto-sheet": "kwingto/en/kwingto-sheet-a4.pdf",
    "kwingto-coto": "kwingto/en/kwingto-coto-a4.pdf",
    "xactika-pad": "xactika/en/xactika-pad-a4.pdf",
    "xactika-stats": "xactika/en/xactika-stats-a4.pdf",
    "xactika-deck": "xactika/en/xactika-deck-poker-a4.pdf",
    "ronda-pad": "ronda/en/ronda-pad-a4.pdf",
    "ronda-pad3": "ronda/en/ronda-pad3-a4.pdf",
    "ronda-teams": "ronda/en/ronda-teams-a4.pdf",
    "spectacle-aid": "spectacle/en/spectacle-aid-a4.pdf",
    "qwinto-rulebook": "qwinto/en/qwinto-rulebook-a4.pdf",
}
"""The pictures in ``docs/previews/`` that the README shows, and the built file each is the
first page of (``pnp build --previews docs/previews``)."""
MANIFEST_EVERY = 0.5
"""Seconds between saves of the manifest while building (a killed build loses at most these)."""


@dataclass(frozen=True)
class Target:
    """One file to build."""

    game: str
    lang: str
    document: str
    """``sheet``, ``rulebook``, ``card``, ``deck`` or ``scorer``."""
    paper: str
    fmt: str = "pdf"
    kind: str = ""
    """For a sheet: the layout (``sheet``, ``pad``, ``stats``...); for a deck: a card size,
    or ``calibration-long``."""
    per_page: int = 1
    grayscale: bool = False
    fillable: bool = False
    """For a sheet: form fields whose totals the PDF viewer computes."""
    offset: tuple[float, float] = (0.0, 0.0)
    """For a deck: how far its backs are moved (mm right, mm up; see :data:`BACK_MOVES`)."""

    @property
    def material(self) -> str:
        if self.document == "deck":
            return f"deck-{self.kind}" + moved_name(self.offset)
        if self.document != "sheet":
            return self.document
        return sheet_material(self.kind, self.per_page, self.grayscale, self.fillable)

    @property
    def relative(self) -> Path:
        if self.document == "scorer":
            return Path(self.game, self.lang, SCORER_FILES[self.fmt].format(game=self.game))
        return Path(self.game, self.lang, f"{self.game}-{self.material}-{self.paper}.{self.fmt}")


def moved_name(offset: tuple[float, float]) -> str:
    """The part of a deck's file name that says how its backs are moved, as the calibration
    sheet says it.

    >>> moved_name((1.0, -1.0)), moved_name((0.0, 0.0))
    ('-backs-1mm-right-1mm-down', '')
    """
    x, y = offset
    parts = ([f"{abs(x):g}mm-{'right' if x > 0 else 'left'}"] if x else []) + (
        [f"{abs(y):g}mm-{'up' if y > 0 else 'down'}"] if y else [])
    return "".join(f"-{part}" for part in ["backs", *parts]) if parts else ""


def sheet_material(kind: str, per_page: int, grayscale: bool, fillable: bool = False) -> str:
    """A sheet's material name: its kind, then ``fillable``, ``grayscale`` and ``Nup``
    where they apply."""
    parts = [kind] + (["fillable"] if fillable else []) + (
        ["grayscale"] if grayscale else []) + (
        [f"{per_page}up"] if per_page > 1 else [])
    return "-".join(parts)


@dataclass
class Outcome:
    target: Target
    status: str
    """``built``, ``skipped`` or ``failed``."""
    size: int = 0
    pages: int = 0
    seconds: float = 0.0
    error: str = ""
    sha256: str = ""
    findings: tuple[Finding, ...] = ()
    """What the preflight found in the file (:mod:`pnp.preflight`)."""
    checking: float = 0.0
    """Seconds of ``seconds`` the preflight took."""

    @property
    def line(self) -> str:
        """What the command line prints for a failed target."""
        return f"failed: {self.target.relative.as_posix()}: {self.error}"


@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def findings(self) -> list[Finding]:
        return [finding for o in self.outcomes for finding in o.findings]

    @property
    def size(self) -> int:
        return sum(o.size for o in self.outcomes)


Kinds = dict[str, dict[str, dict[str, Any]]]
"""Each game's sheet kinds: the copies per page each offers, and whether it has a fillable
variant (``{"qwinto": {"sheet": {"per_page": [1, 2, 4], "fillable": true}}}``)."""


def sheet_kinds(games: Sequence[str] = GAMES) -> Kinds:
    """Read the kinds from the sheet modules (this imports reportlab and the definitions)."""
    from pnp.sheets.fillable import FILLABLE
    from pnp.sheets.layout import layouts

    return {game: {kind: {"per_page": list(layout.per_page),
                          "fillable": (game, kind) in FILLABLE}
                   for kind, layout in layouts(game).items()} for game in games}


def cached_kinds(out: Path, shared: str) -> Kinds:
    """:func:`sheet_kinds`, kept in ``out`` while pnp's code is unchanged.

    A build with nothing to do then never imports the renderers.
    """
    cache = out / PLAN_CACHE
    try:
        data = json.loads(read_own(cache) or b"null")
        if data["shared"] == shared and _sound_kinds(data["kinds"]):
            return dict(data["kinds"])
    except (ValueError, KeyError, TypeError, RecursionError):
        pass
    kinds = sheet_kinds()
    claim(out)
    clear(out, Path(PLAN_CACHE), "json", _own(read_own(out / MANIFEST)))
    write(cache, json.dumps({"shared": shared, "kinds": kinds}, sort_keys=True).encode(),
          within=out)
    return kinds


KIND = re.compile(r"[a-z][a-z0-9]*")


def _sound_kinds(kinds: Any) -> bool:
    """Whether ``kinds`` read from the cache has the shape of :data:`Kinds`, with names
    that make file names inside the build folder and nowhere else."""
    return (isinstance(kinds, dict) and set(kinds) == set(GAMES)
            and all(isinstance(offers, dict) and offers for offers in kinds.values())
            and all(isinstance(kind, str) and KIND.fullmatch(kind) and isinstance(offer, dict)
                    and set(offer) == {"per_page", "fillable"}
                    and isinstance(offer["fillable"], bool)
                    and isinstance(offer["per_page"], list) and offer["per_page"]
                    and all(type(n) is int and 1 <= n <= 64 for n in offer["per_page"])
                    for offers in kinds.values() for kind, offer in offers.items()))


def plan(games: Sequence[str] = GAMES, langs: Sequence[str] = LANGUAGES,
         papers: Sequence[str] = PAPERS, kinds: Kinds | None = None) -> list[Target]:
    """Every target for these games, languages and papers, rulebooks first (the slowest)."""
    kinds = kinds or sheet_kinds(games)
    targets: list[Target] = []
    for game in games:
        check_game(game)
        for lang in langs:
            for paper in papers:
                targets.append(Target(game, lang, "rulebook", paper))
                targets.append(Target(game, lang, "rulebook", paper, fmt="html"))
            targets.append(Target(game, lang, "card", "a5"))
            targets += [Target(game, lang, "scorer", "", fmt=fmt) for fmt in SCORER_FILES]
            if game in DECKS:
                targets += [Target(game, lang, "deck", paper, kind=kind, offset=offset)
                            for paper in papers for kind in DECK_KINDS
                            for offset in ([(0.0, 0.0)] if kind.startswith("calibration")
                                           else BACK_MOVES)]
            for paper in papers:
                for kind, offer in kinds[game].items():
                    targets.append(Target(game, lang, "sheet", paper, kind=kind))
                    targets.append(Target(game, lang, "sheet", paper, kind=kind,
                                          grayscale=True))
                    targets += [Target(game, lang, "sheet", paper, kind=kind, per_page=n)
                                for n in offer["per_page"] if n > 1]
                    if offer["fillable"]:
                        targets.append(Target(game, lang, "sheet", paper, kind=kind,
                                              fillable=True))
    return targets


def shared_inputs() -> list[Path]:
    """The files every target is made from: pnp's code and catalogues, fonts, page templates."""
    templates = current().templates
    code = [path for path in _tree(PACKAGE) if path.relative_to(PACKAGE).parts[0] != "data"]
    return [*code, *_tree(FONTS), *sorted(templates.glob("*.css")),
            *sorted(templates.glob("*.j2"))]


def own_inputs(target: Target, rules_dir: Path) -> list[Path]:
    """The files only this target's game and language are made from."""
    files = [rules_dir / f"{target.game}.yaml"]
    if target.document == "scorer":
        from pnp.scorer.page import files as page_files

        return files + page_files(target.game)
    if target.document != "sheet":
        folder = "rulebooks" if target.document == "rulebook" else "cards"
        edition = current()
        files += [edition.templates / folder / target.game / f"{target.lang}.md",
                  edition.examples / f"{target.game}.yaml"]
    return files


@functools.cache
def _tree(folder: Path) -> tuple[Path, ...]:
    return tuple(sorted(p for p in folder.rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts))


@functools.cache
def _digest(path: Path, _mtime: int, _size: int) -> str:
    """The hash of one input, read as every input is (a regular file, bounded): a pipe or
    device in the rules folder is "unreadable", and the definitions check then names it."""
    if not path.exists():
        return "absent"
    try:
        return hashlib.sha256(read_path(path, INPUT_LIMIT, "an input of pnp")).hexdigest()
    except ReadError:
        return "unreadable"


def files_digest(paths: Sequence[Path]) -> str:
    """One hash of the names and contents of ``paths`` (absent files count as such)."""
    digest = hashlib.sha256()
    for path in paths:
        stat = path.stat() if path.exists() else None
        name = path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path
        digest.update(name.as_posix().encode())
        digest.update(_digest(path, stat.st_mtime_ns if stat else 0,
                              stat.st_size if stat else 0).encode())
    return digest.hexdigest()


def fingerprint(target: Target, rules_dir: Path, shared: str | None = None) -> str:
    """A hash of everything ``target`` is made from, and of how it is made.

    ``shared`` is :func:`files_digest` of :func:`shared_inputs`, computed once per build.
    """
    from pnp import __version__

    shared = shared or files_digest(shared_inputs())
    digest = hashlib.sha256(f"{__version__}|{json.dumps(asdict(target))}|{shared}".encode())
    digest.update(files_digest(own_inputs(target, rules_dir)).encode())
    return digest.hexdigest()


def warm_worker(parent: int | None = None) -> None:
    """Pay each worker's set-up once: fonts, the WeasyPrint import, the PDF rasteriser;
    and end with ``parent``, the process that started this one (see :func:`die_with_parent`).

    Never raises: a worker whose set-up fails would break the whole pool. Whatever is
    missing fails the pieces that need it, each with its own message.
    """
    die_with_parent(parent)
    for step in (lambda: importlib.import_module("pypdfium2"),
                 lambda: importlib.import_module("weasyprint"),
                 lambda: importlib.import_module("pnp.draw.fonts").register()):
        try:
            step()
        except Exception:
            continue


PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when the thread that forked it ends."""


def die_with_parent(parent: int | None = None) -> None:
    """End this worker when the build that started it ends, even by ``kill -9``.

    On Linux the kernel sends SIGKILL; elsewhere a thread notices the parent is gone
    (the worker is handed to another parent) within half a second. ``parent`` is the
    process id of that build, passed down when the worker is made: a build killed before
    the worker gets here has already handed it to another parent, which it must not take
    for its own (it would wait for work for ever, holding the build folder's lock).
    """
    import threading

    parent = parent or os.getppid()
    if sys.platform == "linux":
        import ctypes
        import signal

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
        if armed:
            if os.getppid() != parent:
                os._exit(1)
            return
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def starter(context: Any) -> int | None:
    """The parent a process started through the multiprocessing ``context`` has: this
    process, unless a fork server starts it (then it cannot know)."""
    return None if context.get_start_method() == "forkserver" else os.getpid()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def pieces(targets: Sequence[Target]) -> list[list[Target]]:
    """The targets grouped into pieces of work, the slowest first.

    A document's formats and papers are one piece: they share one composition and
    one layout. Putting the slowest first keeps every worker busy to the end.
    """
    groups: dict[object, list[Target]] = {}
    for target in targets:
        key = (target.game, target.lang, target.document) if target.document != "sheet" else target
        groups.setdefault(key, []).append(target)
    cost = {"rulebook": 0, "card": 1, "deck": 1, "scorer": 4}
    return sorted(groups.values(),
                  key=lambda group: cost.get(group[0].document, 2 if group[0].fillable else 3))


def make(targets: Sequence[Target], out: Path, edition: Edition | None = None) -> list[Outcome]:
    """Build one piece of work of ``edition`` into ``out`` (in a worker process): never raises.

    A failure while making the shared document fails every target of the piece; a
    failure while writing one file fails that file only.
    """
    edition = edition or current()
    use(edition)
    outcomes: list[Outcome] = []
    error = ""
    made = _renderings(targets, edition.rules)
    for target in targets:
        start = time.perf_counter()
        if not error:
            try:
                data = next(made)
            except Exception as exc:  # one broken material must not stop the others
                error = _reason(exc)
        if error:
            outcomes.append(Outcome(target, "failed", error=error))
            continue
        try:
            path = out / target.relative
            write(path, data, within=out)
            pages = _thumbnail(data, out / thumbnail(target.relative), out) if \
                target.fmt == "pdf" else 0
        except Exception as exc:
            outcomes.append(Outcome(target, "failed", error=_reason(exc)))
            continue
        checked = time.perf_counter()
        findings = preflight(data, out / target.relative) if target.fmt == "pdf" else ()
        end = time.perf_counter()
        outcomes.append(Outcome(target, "built", len(data), pages, end - start,
                                sha256=hashlib.sha256(data).hexdigest(), findings=findings,
                                checking=end - checked))
    return outcomes


def preflight(pdf: bytes, path: Path) -> tuple[Finding, ...]:
    """The preflight's findings on a PDF just built at ``path``: never raises (a PDF the
    preflight cannot read is itself a finding)."""
    try:
        return tuple(check_bytes(pdf, str(path)))
    except PreflightError as exc:
        return (Finding(str(path), 0, 0.0, 0.0, "structure", exc.reason),)
    except Exception as exc:  # a checker's failure must not lose the file it checks
        return (Finding(str(path), 0, 0.0, 0.0, "structure",
                        f"the preflight could not read it: {_reason(exc)}"),)


def _reason(exc: Exception) -> str:
    """Why a target failed, in one line: pnp's own message, else the exception's."""
    if isinstance(exc, PnpError):
        return " ".join(str(exc).split())
    return f"{type(exc).__name__}: {exc}"


def _renderings(targets: Sequence[Target], rules_dir: Path | None) -> Iterator[bytes]:
    first = targets[0]
    if first.document == "scorer":
        yield from (_scorer(target, rules_dir) for target in targets)
        return
    if first.document == "deck":
        yield from (_deck(target, rules_dir) for target in targets)
        return
    if first.document != "sheet":
        from pnp.books.compose import renderings

        yield from renderings(first.document, first.game, first.lang,
                              [(target.fmt, target.paper) for target in targets], rules_dir)
        return
    from pnp.sheets.layout import render as render_sheet

    for target in targets:
        yield render_sheet(target.game, kind=target.kind, lang=target.lang, paper=target.paper,
                           per_page=target.per_page, grayscale=target.grayscale,
                           rules_dir=rules_dir, fillable=target.fillable)


def _scorer(target: Target, rules_dir: Path | None) -> bytes:
    from pnp.scorer import page as scorer

    if target.fmt == "webmanifest":
        return scorer.manifest(target.game, target.lang, rules_dir)
    if target.fmt == "js":
        return scorer.service_worker(target.game)
    return scorer.render(target.game, target.lang, rules_dir)


def _deck(target: Target, rules_dir: Path | None) -> bytes:
    deck = registry.game(target.game).deck_maker
    if target.kind == "calibration-long":
        data: bytes = deck.render_calibration(lang=target.lang, paper=target.paper, flip="long",
                                              rules_dir=rules_dir)
    else:
        data = deck.render(lang=target.lang, paper=target.paper, size=target.kind,
                           flip="long", offset=target.offset, rules_dir=rules_dir)
    return data


def _thumbnail(pdf: bytes, picture: Path, out: Path) -> int:
    """Write the first page as a small PNG beside the index; return the page count."""
    png, pages = first_page(pdf, THUMBNAIL_DPI)
    write(picture, png, within=out)
    return pages


def thumbnail(relative: Path) -> Path:
    """Where the thumbnail of the built file ``relative`` goes, relative to the build folder."""
    return Path("thumbs", relative.with_suffix("").as_posix().replace("/", "_") + ".png")


def first_page(pdf: bytes, dpi: float) -> tuple[bytes, int]:
    """The first page of ``pdf`` as PNG bytes at ``dpi``, and the number of pages."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = len(document)
        image = document[0].render(scale=dpi / 72).to_pil()
    finally:
        document.close()
    png = io.BytesIO()
    image.save(png, format="PNG")
    return png.getvalue(), pages


def write_previews(out: Path, folder: Path) -> list[Path]:
    """The README's pictures (:data:`PREVIEWS`) from the files built in ``out``."""
    written = []
    for name, built in PREVIEWS.items():
        source = out / built
        pdf = read_own(source)
        if pdf is None:
            raise PnpError(f"{source}: not built, so its preview cannot be made "
                           f"(build English on A4 first)")
        png, _pages = first_page(pdf, PREVIEW_DPI)
        picture = folder / f"{name}.png"
        write(picture, png)
        written.append(picture)
    return written


def build(targets: Sequence[Target], out: Path, *, jobs: int | None = None, force: bool = False,
          rules_dir: Path | None = None, progress: Callable[[Outcome], None] | None = None,
          shared: str | None = None, waiting: Callable[[], None] | None = None) -> Summary:
    """Build what has changed among ``targets``; write the manifest and ``index.html``.

    One build at a time writes into ``out``: ``waiting`` is called if this one has to wait
    for another. Before building anything, the definitions of the games to rebuild are
    checked: a :class:`~pnp.errors.DefinitionError` carries every problem, each once.
    """
    from pnp.games.registry import rules_dir as default_rules

    start = time.perf_counter()
    rules = rules_dir or default_rules()
    edition = dataclasses.replace(current(), rules=rules)
    check_out(out, rules)
    folder(out)
    with locked(out, waiting):
        claim(out, rules)
        clean_temporaries(out)
        manifest, recorded = read_manifest(out)
        summary = Summary()
        todo: dict[Target, str] = {}
        shared = shared or files_digest(shared_inputs())
        for target in targets:
            stamp = fingerprint(target, rules, shared)
            known = manifest.get(target.relative.as_posix())
            if (not force and known is not None and known["hash"] == stamp
                    and known["checker"] == _checker(target) and _intact(out, target, known)):
                summary.outcomes.append(Outcome(
                    target, "skipped", known["size"], known["pages"],
                    findings=_recorded(out / target.relative, known)))
            else:
                todo[target] = stamp
        if todo:
            check_definitions(list(dict.fromkeys(target.game for target in todo)), rules)
        clear_way(out, list(todo), recorded)
        for outcome in summary.outcomes:
            if progress:
                progress(outcome)
        if todo:
            _build_all(todo, out, edition, jobs, manifest, summary, progress)
        elif _manifest_bytes(manifest) != recorded:
            _write_manifest(out, manifest)
        write_index(out, manifest)
    summary.seconds = time.perf_counter() - start
    return summary


def inputs(rules_dir: Path | None = None) -> list[tuple[str, Path]]:
    """What every command reads, by name: the current edition's definitions, texts and
    templates, examples and ``pnp.toml``, the definitions of ``rules_dir`` (``--rules``)
    or ``$PNP_RULES_DIR``, and pnp's own code, catalogues and fonts. No output goes there."""
    from pnp.games.registry import rules_dir as default_rules

    edition = current()
    named = [("the edition's definitions", edition.rules),
             ("the edition's texts and templates", edition.templates),
             ("the edition's examples", edition.examples),
             ("the definitions folder", rules_dir or default_rules()),
             ("pnp's fonts", FONTS), ("pnp's own code", PACKAGE)]
    if edition.config:
        named.append(("the edition's settings", edition.config))
    return named


SKIPPED = (".gitkeep", LOCK, PLAN_CACHE)
"""What a folder may hold and still be empty to :func:`check_out`: the file that keeps an
empty folder in git, and what a build writes before its manifest (or wrote, before pnp
wrote the manifest first)."""


def check_out(out: Path, rules_dir: Path | None = None) -> None:
    """Refuse to build into ``out``, before anything is written, unless it is a build
    folder (:func:`claim`), new or empty, and outside what pnp reads (:func:`inputs`)."""
    check_outside(out, inputs(rules_dir))
    if not os.path.lexists(out / MANIFEST) and not _empty(out):
        raise OutputError(f"{out}: holds files and is not a pnp build folder (it has no "
                          f"{MANIFEST}): build into a new or empty folder")


def _empty(out: Path) -> bool:
    """Whether ``out`` holds nothing but what :data:`SKIPPED` names and temporary files
    (or is no folder that can be listed: what makes it, or writes in it, says why)."""
    try:
        with os.scandir(out) as entries:
            return all(entry.name in SKIPPED or TEMPORARY.fullmatch(entry.name)
                       for entry in entries)
    except OSError:
        return True


def claim(out: Path, rules_dir: Path | None = None) -> None:
    """:func:`check_out`, then make ``out`` a build folder if it is not one: give it a
    manifest with no entries, before any other file, so that a build killed at once
    leaves a folder the next one recognises (under the folder's lock)."""
    check_out(out, rules_dir)
    mark(out)


def fresh(out: Path) -> bool:
    """Whether ``out`` is new or empty, and no build folder yet."""
    return not os.path.lexists(out / MANIFEST) and _empty(out)


def mark(out: Path) -> None:
    """Make ``out`` a build folder, unless it is one: a new or empty folder a command
    writes its file into by default (``pnp sheet``, into ./output/) becomes one, which a
    later ``pnp build`` may use."""
    folder(out)
    create(out / MANIFEST, _manifest_bytes({}))


def clear_way(out: Path, targets: Sequence[Target], recorded: bytes | None) -> None:
    """:func:`pnp.outputs.clear` the way of what a build writes: the files of ``targets``
    and their thumbnails, the manifest and the index; ``recorded`` is the manifest's bytes,
    which say what pnp made."""
    own = _own(recorded)
    files = [(Path(MANIFEST), "json"), (Path("index.html"), "html")]
    for target in targets:
        files.append((target.relative, target.fmt))
        if target.fmt == "pdf":
            files.append((thumbnail(target.relative), "png"))
    for relative, kind in files:
        clear(out, relative, kind, own)


def _own(recorded: bytes | None) -> Callable[[Path], bool]:
    """What pnp made in a build folder, by path relative to it: the build folder's own
    files, the files its manifest (``recorded``) names, whatever their entries hold, and
    their thumbnails."""
    try:
        data = json.loads(recorded or b"null")
    except (ValueError, RecursionError):
        data = None
    made = {Path(name) for name in (MANIFEST, PLAN_CACHE, LOCK)}
    for key in data if isinstance(data, dict) else ():
        relative = Path(key)
        if (key and not relative.is_absolute() and "\\" not in key
                and all(part not in (".", "..") for part in key.split("/"))):
            made |= {relative, thumbnail(relative)}
    return made.__contains__


def check_definitions(games: Sequence[str], rules_dir: Path) -> None:
    """Raise one :class:`~pnp.errors.DefinitionError` with every problem of these games'
    definitions (rather than one failure per target made from them)."""
    from pnp.sheets.layout import check_drawable

    problems: list[Problem] = []
    for game in games:
        try:
            check_drawable(game, rules_dir)
        except DefinitionError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DefinitionError(problems)


def _build_all(todo: dict[Target, str], out: Path, edition: Edition, jobs: int | None,
               manifest: dict[str, dict[str, Any]], summary: Summary,
               progress: Callable[[Outcome], None] | None) -> None:
    """Build the targets of ``todo`` (each with its fingerprint), recording each outcome in
    ``summary`` and ``manifest``; the manifest is saved now and then, and at the end."""
    work = pieces(list(todo))
    workers = max(1, min(jobs or os.cpu_count() or 1, len(work)))
    saved = time.perf_counter()

    def record(outcomes: list[Outcome]) -> None:
        nonlocal saved
        for outcome in outcomes:
            summary.outcomes.append(outcome)
            key = outcome.target.relative.as_posix()
            if outcome.status == "built":
                manifest[key] = {"hash": todo[outcome.target], "size": outcome.size,
                                 "pages": outcome.pages, "sha256": outcome.sha256,
                                 "checker": _checker(outcome.target),
                                 "findings": [kept_finding(f) for f in outcome.findings]}
            else:
                manifest.pop(key, None)
            if progress:
                progress(outcome)
        if time.perf_counter() - saved > MANIFEST_EVERY:
            _write_manifest(out, manifest)
            saved = time.perf_counter()

    pending = work
    while pending:
        pending, suspects = _pool_round(pending, out, edition, workers, record)
        for piece in suspects:
            record(_make_alone(piece, out, edition))
    _write_manifest(out, manifest)


def _intact(out: Path, target: Target, entry: dict[str, Any]) -> bool:
    """Whether ``target``'s file is still the one the manifest's ``entry`` records: a
    regular file of its size and SHA-256 (one truncated or replaced from outside is
    rebuilt), with its thumbnail if it is a PDF."""
    data = read_own(out / target.relative, entry["size"])
    if data is None or len(data) != entry["size"]:
        return False
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        return False
    if target.fmt != "pdf":
        return True
    with contextlib.suppress(OSError):
        return stat.S_ISREG((out / thumbnail(target.relative)).lstat().st_mode)
    return False


def _pool_round(pending: list[list[Target]], out: Path, edition: Edition, workers: int,
                record: Callable[[list[Outcome]], None],
                ) -> tuple[list[list[Target]], list[list[Target]]]:
    """Build ``pending`` in one process pool until it is done or a worker dies.

    Returns the pieces still to build in a fresh pool, and the suspects: the pieces that
    may have killed the worker, to build each in a process of its own. The pool hands
    pieces out in order, at most one more than its workers at a time, so the pieces being
    built when a worker died are among the first ``workers + 1`` unfinished ones.
    """
    import multiprocessing
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    unfinished = dict(enumerate(pending))
    futures: dict[Future[list[Outcome]], int] = {}
    try:
        context = multiprocessing.get_context()
        with ProcessPoolExecutor(max_workers=min(workers, len(pending)), initializer=warm_worker,
                                 initargs=(starter(context),), mp_context=context) as pool:
            for index, piece in enumerate(pending):
                futures[pool.submit(make, piece, out, edition)] = index
            for future in as_completed(futures):
                record(future.result())
                del unfinished[futures[future]]
        return [], []
    except BrokenProcessPool:
        pass
    for future, index in futures.items():
        if (index in unfinished and future.done() and not future.cancelled()
                and future.exception() is None):
            record(future.result())
            del unfinished[index]
    left = list(unfinished.values())
    return left[workers + 1:], left[:workers + 1]


def _make_alone(piece: list[Target], out: Path, edition: Edition) -> list[Outcome]:
    """:func:`make` in a process of its own: if the process dies, its exit tells why."""
    import multiprocessing

    context = multiprocessing.get_context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_make_and_send,
                              args=(piece, out, edition, sender.send, starter(context)))
    process.start()
    sender.close()
    outcomes: list[Outcome] | None
    try:
        outcomes = receiver.recv()
    except EOFError:
        outcomes = None
    finally:
        receiver.close()
    process.join()
    if outcomes is not None:
        return outcomes
    error = f"the process building it died ({death(process.exitcode)})"
    return [Outcome(target, "failed", error=error) for target in piece]


def _make_and_send(piece: list[Target], out: Path, edition: Edition,
                   send: Callable[[list[Outcome]], None], parent: int | None) -> None:
    warm_worker(parent)  # which also ends this process with its parent
    send(make(piece, out, edition))


def death(exitcode: int | None) -> str:
    """Why a process ended, from its exit code: ``killed by signal SIGKILL``, ``exit status 3``."""
    import signal

    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by signal {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


def read_manifest(out: Path) -> tuple[dict[str, dict[str, Any]], bytes | None]:
    """The manifest's sound entries, and its bytes: an unreadable manifest, or an entry of
    another shape, is left out, and its files are rebuilt."""
    recorded = read_own(out / MANIFEST)
    try:
        data = json.loads(recorded or b"null")
    except (ValueError, RecursionError):
        return {}, recorded
    if not isinstance(data, dict):
        return {}, recorded
    return {key: entry for key, entry in data.items() if _sound_entry(key, entry)}, recorded


OUTPUT_NAME = re.compile(r"[a-z0-9][a-z0-9-]*\.(?:pdf|html|js|webmanifest)")
SHA256 = re.compile(r"[0-9a-f]{64}")


MAX_FINDINGS = 100_000
"""Findings a manifest entry may keep (a deck today has a few thousand)."""


def _sound_entry(key: str, entry: Any) -> bool:
    """Whether a manifest entry is one :func:`build` writes: ``game/lang/name`` with the
    fingerprint, size, pages and SHA-256 of the file, and the preflight's findings with
    what measured them (nothing, for an HTML page)."""
    parts = key.split("/")
    return (len(parts) == 3 and parts[0] in GAMES and parts[1] in LANGUAGES
            and OUTPUT_NAME.fullmatch(parts[2]) is not None
            and isinstance(entry, dict)
            and set(entry) == {"hash", "size", "pages", "sha256", "checker", "findings"}
            and all(isinstance(entry[name], str) and SHA256.fullmatch(entry[name])
                    for name in ("hash", "sha256"))
            and all(type(entry[name]) is int and 0 <= entry[name] < 2 ** 48
                    for name in ("size", "pages"))
            and isinstance(entry["checker"], str)
            and (entry["checker"] == "" or SHA256.fullmatch(entry["checker"]) is not None)
            and isinstance(entry["findings"], list) and len(entry["findings"]) <= MAX_FINDINGS
            and all(sound_record(kept) for kept in entry["findings"]))


def _checker(target: Target) -> str:
    """What measures ``target``'s findings: the preflight, for a PDF; nothing for a page."""
    return checker() if target.fmt == "pdf" else ""


def _recorded(path: Path, entry: dict[str, Any]) -> tuple[Finding, ...]:
    return tuple(from_record(str(path), kept) for kept in entry["findings"])


def recorded(out: Path) -> dict[Path, tuple[str, tuple[Finding, ...]]]:
    """The findings the build in ``out`` keeps, by file (its resolved path): the SHA-256
    of the bytes they were measured on, and the findings, if today's preflight measured
    them."""
    manifest, _ = read_manifest(out)
    return {(out / key).resolve(): (entry["sha256"], _recorded(out / key, entry))
            for key, entry in manifest.items() if entry["checker"] == checker()}


def _manifest_bytes(manifest: dict[str, dict[str, Any]]) -> bytes:
    return json.dumps(manifest, indent=1, sort_keys=True).encode()


def _write_manifest(out: Path, manifest: dict[str, dict[str, Any]]) -> None:
    write(out / MANIFEST, _manifest_bytes(manifest), within=out)


def write_index(out: Path, manifest: dict[str, dict[str, Any]]) -> None:
    """``index.html``, the landing page (:mod:`pnp.build.landing`) of the files built in ``out``."""
    from pnp.build import landing

    def picture(key: str) -> str | None:
        thumb = thumbnail(Path(key))
        return thumb.as_posix() if key.endswith(".pdf") and (out / thumb).exists() else None

    built = {key: entry for key, entry in manifest.items() if (out / key).exists()}
    page = landing.page(built, _landing_games(), picture)
    write(out / "index.html", page.encode(), within=out)


def _landing_games() -> list[Any]:
    """Each game's name, facts and lockup for the landing page (a definition that does not
    load is shown by its name alone: the build has reported it already)."""
    from pnp.build import landing
    from pnp.definitions import load
    from pnp.draw.identity import lockup_svg

    games = []
    for game in GAMES:
        try:
            rules = load(game)
        except PnpError:
            games.append(landing.Game(game, game.capitalize(), "", None, html.escape(game)))
            continue
        name = rules.name("en")
        players = (f"{rules.players.min}" if rules.players.min == rules.players.max
                   else f"{rules.players.min}–{rules.players.max}")
        try:
            lockup = lockup_svg(rules.print.identity, name, label=name)
        except OSError:  # the fonts that measure a band's title are unreadable: say so in words
            lockup = html.escape(name)
        games.append(landing.Game(game, name, players, rules.minutes, lockup))
    return games


def _size(size: int) -> str:
    return f"{size / 1024:.0f} KB" if size >= 1024 else f"{size} B"


