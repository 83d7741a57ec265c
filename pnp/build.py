"""``pnp build``: every material of every chosen game and language, fast, incremental, safe.

- **Plan**: :func:`plan` lists the targets (sheets and their variants, reference cards,
  rulebooks as PDF and HTML) for the chosen games, languages and papers.
- **Incremental**: each target's inputs (definition, example, texts, templates,
  catalogues, fonts and pnp's own code) are hashed; the hash of every output is kept
  in ``<out>/.pnp-build.json``, and an output whose inputs have not changed is skipped.
- **Parallel**: one process pool; each worker pays the expensive set-up (fonts, the
  WeasyPrint import) once.
- **Safe**: every file is written to a temporary name and renamed into place; a failing
  target is reported and the others go on.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import os
import subprocess
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pnp.files import write
from pnp.games import GAMES, check_game
from pnp.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ".pnp-build.json"
PLAN_CACHE = ".pnp-plan.json"
PAPERS = ("a4", "letter")
THUMBNAIL_DPI = 24


@dataclass(frozen=True)
class Target:
    """One file to build."""

    game: str
    lang: str
    document: str
    """``sheet``, ``rulebook`` or ``card``."""
    paper: str
    fmt: str = "pdf"
    kind: str = ""
    """For a sheet: the layout (``sheet``, ``pad``, ``stats``...)."""
    per_page: int = 1
    grayscale: bool = False
    fillable: bool = False
    """For a sheet: form fields whose totals the PDF viewer computes."""

    @property
    def material(self) -> str:
        if self.document != "sheet":
            return self.document
        return sheet_material(self.kind, self.per_page, self.grayscale, self.fillable)

    @property
    def relative(self) -> Path:
        return Path(self.game, self.lang, f"{self.game}-{self.material}-{self.paper}.{self.fmt}")


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


@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def size(self) -> int:
        return sum(o.size for o in self.outcomes)


Kinds = dict[str, dict[str, dict[str, Any]]]
"""Each game's sheet kinds: the copies per page each offers, and whether it has a fillable
variant (``{"qwinto": {"sheet": {"per_page": [1, 2, 4], "fillable": true}}}``)."""


def sheet_kinds(games: Sequence[str] = GAMES) -> Kinds:
    """Read the kinds from the sheet modules (this imports reportlab and the definitions)."""
    from pnp.render.fillable import FILLABLE
    from pnp.render.sheet import layouts

    return {game: {kind: {"per_page": list(layout.per_page),
                          "fillable": (game, kind) in FILLABLE}
                   for kind, layout in layouts(game).items()} for game in games}


def cached_kinds(out: Path, shared: str) -> Kinds:
    """:func:`sheet_kinds`, kept in ``out`` while pnp's code is unchanged.

    A build with nothing to do then never imports the renderers.
    """
    cache = out / PLAN_CACHE
    try:
        data = json.loads(cache.read_text())
        if data["shared"] == shared and set(data["kinds"]) == set(GAMES):
            return dict(data["kinds"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    kinds = sheet_kinds()
    write(cache, json.dumps({"shared": shared, "kinds": kinds}, sort_keys=True).encode())
    return kinds


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
    templates = ROOT / "templates"
    return [*_tree(ROOT / "pnp"), *_tree(ROOT / "fonts"), *sorted(templates.glob("*.css")),
            *sorted(templates.glob("*.j2"))]


def own_inputs(target: Target, rules_dir: Path) -> list[Path]:
    """The files only this target's game and language are made from."""
    files = [rules_dir / f"{target.game}.yaml"]
    if target.document != "sheet":
        folder = "rulebooks" if target.document == "rulebook" else "cards"
        files += [ROOT / "templates" / folder / target.game / f"{target.lang}.md",
                  ROOT / "examples" / f"{target.game}.yaml"]
    return files


@functools.cache
def _tree(folder: Path) -> tuple[Path, ...]:
    return tuple(sorted(p for p in folder.rglob("*")
                        if p.is_file() and "__pycache__" not in p.parts))


@functools.cache
def _digest(path: Path, _mtime: int, _size: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "absent"


def files_digest(paths: Sequence[Path]) -> str:
    """One hash of the names and contents of ``paths`` (absent files count as such)."""
    digest = hashlib.sha256()
    for path in paths:
        stat = path.stat() if path.exists() else None
        digest.update(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path).encode())
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


def _warm() -> None:
    """Pay each worker's set-up once: fonts and the WeasyPrint import."""
    import weasyprint  # noqa: F401

    from pnp.render import fonts

    fonts.register()


def make(target: Target, out: Path, rules_dir: Path | None = None) -> Outcome:
    """Build one target into ``out`` (in a worker process): never raises."""
    from pnp.errors import PnpError
    start = time.perf_counter()
    try:
        if target.document == "sheet":
            from pnp.render.sheet import render as render_sheet

            data = render_sheet(target.game, kind=target.kind, lang=target.lang,
                                paper=target.paper, per_page=target.per_page,
                                grayscale=target.grayscale, rules_dir=rules_dir,
                                fillable=target.fillable)
        else:
            from pnp.render.document import render as render_document

            data = render_document(target.document, target.game, target.lang, fmt=target.fmt,
                                   paper=target.paper, rules_dir=rules_dir)
        path = out / target.relative
        write(path, data)
        pages = _thumbnail(path, out) if target.fmt == "pdf" else 0
    except PnpError as exc:
        return Outcome(target, "failed", error=" ".join(str(exc).split()))
    except Exception as exc:  # one broken material must not stop the others
        return Outcome(target, "failed", error=f"{type(exc).__name__}: {exc}")
    return Outcome(target, "built", len(data), pages, time.perf_counter() - start)


def _thumbnail(pdf: Path, out: Path) -> int:
    """Write the first page as a small PNG beside the index; return the page count."""
    thumbs = out / "thumbs"
    thumbs.mkdir(parents=True, exist_ok=True)
    target = thumbs / pdf.relative_to(out).with_suffix("").as_posix().replace("/", "_")
    temporary = target.with_name(f".{target.name}.tmp")
    subprocess.run(["pdftoppm", "-png", "-singlefile", "-r", str(THUMBNAIL_DPI), "-f", "1",
                    "-l", "1", str(pdf), str(temporary)], check=True, capture_output=True)
    Path(f"{temporary}.png").replace(f"{target}.png")
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True)
    return next(int(line.split()[-1]) for line in info.stdout.splitlines()
                if line.startswith("Pages:"))


def build(targets: Sequence[Target], out: Path, *, jobs: int | None = None, force: bool = False,
          rules_dir: Path | None = None, progress: Callable[[Outcome], None] | None = None,
          shared: str | None = None) -> Summary:
    """Build what has changed among ``targets``; write the manifest and ``index.html``."""
    from pnp.games import rules_dir as default_rules

    start = time.perf_counter()
    rules = rules_dir or default_rules()
    out.mkdir(parents=True, exist_ok=True)
    manifest = _read_manifest(out)
    summary = Summary()
    todo: list[tuple[Target, str]] = []
    shared = shared or files_digest(shared_inputs())
    for target in targets:
        key = target.relative.as_posix()
        stamp = fingerprint(target, rules, shared)
        known = manifest.get(key, {})
        if not force and known.get("hash") == stamp and (out / target.relative).exists():
            outcome = Outcome(target, "skipped", known.get("size", 0), known.get("pages", 0))
            summary.outcomes.append(outcome)
            if progress:
                progress(outcome)
        else:
            todo.append((target, stamp))
    if todo:
        workers = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
        stamps = dict(todo)
        with ProcessPoolExecutor(max_workers=workers, initializer=_warm) as pool:
            futures = [pool.submit(make, target, out, rules_dir) for target, _ in todo]
            for future in as_completed(futures):
                outcome = future.result()
                summary.outcomes.append(outcome)
                key = outcome.target.relative.as_posix()
                if outcome.status == "built":
                    manifest[key] = {"hash": stamps[outcome.target], "size": outcome.size,
                                     "pages": outcome.pages}
                else:
                    manifest.pop(key, None)
                _write_manifest(out, manifest)
                if progress:
                    progress(outcome)
    write_index(out, manifest)
    summary.seconds = time.perf_counter() - start
    return summary


def _read_manifest(out: Path) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads((out / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_manifest(out: Path, manifest: dict[str, dict[str, Any]]) -> None:
    write(out / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True).encode())


def write_index(out: Path, manifest: dict[str, dict[str, Any]]) -> None:
    """``index.html``: every built file with its thumbnail, size and pages, by game and language."""
    rows: dict[tuple[str, str], list[str]] = {}
    for key in sorted(manifest):
        path = out / key
        if not path.exists():
            continue
        game, lang, name = key.split("/")
        entry = manifest[key]
        thumb = Path("thumbs", Path(key).with_suffix("").as_posix().replace("/", "_") + ".png")
        image = (f'<img src="{html.escape(thumb.as_posix())}" alt="">'
                 if (out / thumb).exists() and name.endswith(".pdf") else "")
        pages = f"{entry.get('pages', 0)} p." if entry.get("pages") else ""
        rows.setdefault((game, lang), []).append(
            f'<li><a href="{html.escape(key)}">{image}<span>{html.escape(name)}</span></a>'
            f"<small>{_size(entry.get('size', 0))} {pages}</small></li>")
    sections = []
    for game in GAMES:
        langs = [lang for lang in LANGUAGES if (game, lang) in rows]
        if not langs:
            continue
        sections.append(f'<h2 id="{game}">{game.capitalize()}</h2>')
        for lang in langs:
            sections.append(f"<h3>{lang}</h3><ul>{''.join(rows[game, lang])}</ul>")
    page = INDEX.format(body="\n".join(sections))
    write(out / "index.html", page.encode())


def _size(size: int) -> str:
    return f"{size / 1024:.0f} KB" if size >= 1024 else f"{size} B"


INDEX = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>pnp: print-and-play files</title>
<style>
body {{ font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 2rem; color: #111; }}
ul {{ list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1rem; }}
li {{ width: 11rem; font-size: 0.8rem; }}
li a {{ color: inherit; text-decoration: none; display: block; }}
li img {{ display: block; max-width: 100%; max-height: 10rem; border: 1px solid #ccc; }}
li span {{ display: block; word-break: break-all; margin-top: 0.2rem; }}
small {{ color: #666; }}
</style></head>
<body>
<h1>Print-and-play files</h1>
<p>Every sheet, reference card and rulebook, by game and language. Click a file to open it.</p>
{body}
</body></html>
"""
