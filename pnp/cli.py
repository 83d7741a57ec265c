"""The ``pnp`` command: a thin shell over the package's API.

Every :class:`~pnp.errors.PnpError` is turned into its one-line message on
standard error and exit status 2, here and nowhere else.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pnp import registry
from pnp.errors import SHOWN, DefinitionError, PnpError, error_lines, one_line
from pnp.i18n.catalogues import default_language
from pnp.i18n.languages import SOURCE, codes
from pnp.outputs.targets import OUTPUT, Target
from pnp.registry import DECKS, GAMES

if TYPE_CHECKING:
    from pnp.build.outcomes import Summary

EVERY_PROBLEM = "pnp.every_problem"
SHOWN_FINDINGS = 20
"""Preflight findings ``pnp build`` prints; ``pnp preflight`` prints all."""


class Misuse(click.ClickException):
    """A command line that click cannot read, told in pnp's one line (exit status 2)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {one_line(self.format_message())}", err=True)


def _misuse(exc: click.UsageError) -> click.ClickException:
    """``exc`` as one line naming the command's help; a usage error that shows something
    else (the help, for ``pnp`` alone) is kept."""
    if type(exc).show is not click.UsageError.show:
        return exc
    where = exc.ctx.command_path if exc.ctx else "pnp"
    return Misuse(f"{exc.format_message()} (see '{where} --help')")


class Shell(click.Group):
    """A click group that reports pnp's errors as people-readable lines."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise _misuse(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise _misuse(exc) from None
        except PnpError as exc:
            for line in error_lines(exc, ctx.meta.get(EVERY_PROBLEM, False)):
                click.echo(line, err=True)
            ctx.exit(2)


class Place(click.Path):
    """A file or folder name: click's, refusing an empty one (which would mean ".")."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty name", param, ctx)
        converted = super().convert(value, param, ctx)
        if not self.file_okay and os.path.exists(value) and not os.path.isdir(value):
            self.fail(f"{value!r} is not a folder", param, ctx)
        return converted


class Language(click.ParamType[str, str]):
    """A language pnp knows, its own or the edition's: the edition is read first (``pnp
    --project``), so the choices are asked for only when a value is checked or shown."""

    name = "language"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return f"[{'|'.join(codes())}]"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if value in codes():
            return value
        self.fail(f"{value!r} is not one of {', '.join(map(repr, codes()))}", param, ctx)


LANGUAGE = Language()


def _published(game: str, rules_dir: Path | None) -> tuple[str, ...]:
    from pnp.definitions import load

    return load(game, rules_dir).languages


def _language(game: str, lang: str | None, rules_dir: Path | None) -> str:
    """``lang``, which ``game`` must be published in; by default the locale's language if
    the game has it, else English, else the game's first language."""
    published = _published(game, rules_dir)
    if lang is None:
        lang = default_language()
        fallback = SOURCE if SOURCE in published else published[0]
        return lang if lang in published else fallback
    if lang not in published:
        raise Misuse(f"{game} is published in {', '.join(published)}, not in '{lang}'")
    return lang


MAX_JOBS = 4 * (os.cpu_count() or 2)
"""More worker processes than this only costs memory (each holds WeasyPrint and fonts)."""

rules_option = click.option(
    "--rules", "rules_dir", type=Place(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Folder of game definitions (default: the edition's, or $PNP_RULES_DIR).")


@click.group(cls=Shell, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp")
@click.option("--project", type=Place(file_okay=False, path_type=Path), default=None,
              envvar="PNP_PROJECT",
              help="Read definitions, texts and examples from this edition (a folder made by "
                   "'pnp init', with a pnp.toml). Default: the current folder if it has a "
                   "pnp.toml, else pnp's own.")
def main(project: Path | None) -> None:
    """pnp: print-and-play sheets, rulebooks and scoring for tabletop games.

    Files are written under ./output/ in the current folder unless a command is told
    otherwise.
    """
    from pnp.assets import CONFIG, Edition, use

    if project is None and (Path(CONFIG).exists() or Path(CONFIG).is_symlink()):
        project = Path.cwd()
    use(Edition.from_folder(project) if project is not None else None)


@main.command()
@click.argument("folder", type=Place(path_type=Path))
def init(folder: Path) -> None:
    """Make FOLDER an edition of your own: a copy of the definitions, texts, templates and
    examples to edit, with a pnp.toml. Commands run in FOLDER read these copies."""
    from pnp.assets import init as make_edition
    from pnp.assets import shown

    made = make_edition(folder)
    for path in made:
        click.echo(shown(path) + ("/" if path.is_dir() else ""))
    click.echo(f"edit {shown(folder / 'rules')}/<game>.yaml, then run 'pnp build' in "
               f"{shown(folder)}")


@main.command()
@click.argument("game", type=click.Choice(GAMES))
@click.argument("file", default="-", metavar="[FILE|-]")
@click.option("--lang", type=LANGUAGE, default=None,
              help="Language of the breakdown (default: the locale's, else English).")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable result.")
@rules_option
def score(game: str, file: str, lang: str | None, as_json: bool, rules_dir: Path | None) -> None:
    """Check a sheet, board, game record or deal and explain its score.

    FILE is YAML or JSON, at most 1 MiB; '-' (the default) reads standard input.
    """
    import pnp
    from pnp.inputs import read_file, read_stdin

    lang = _language(game, lang, rules_dir)
    data = read_stdin() if file == "-" else read_file(file)
    result = pnp.score(game, data, rules_dir)
    if as_json:
        import json

        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        click.echo(pnp.describe(result, lang, rules_dir), nl=False)


@main.command()
@click.argument("game", type=click.Choice(GAMES))
@click.option("--kind", default=None, metavar="KIND",
              help="Which sheet: qwinto sheet; kwingto sheet, coto; xactika pad, stats; "
                   "ronda pad, pad3, teams; spectacle aid (default: the first).")
@click.option("--lang", type=LANGUAGE, default=None,
              help="Language of the labels (default: the locale's, else English).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--per-page", type=int, default=None,
              help="Copies per page where the sheet is small (e.g. 1, 2 or 4).")
@click.option("--grayscale", is_flag=True, help="For black-and-white printers.")
@click.option("--fillable", is_flag=True,
              help="Form fields whose totals the PDF viewer computes (qwinto sheet, kwingto "
                   "sheet, xactika pad, ronda pads; one per page, in colour).")
@click.option("-o", "--output", type=Place(dir_okay=False, path_type=Path), default=None,
              help="Where to write the PDF (default: ./output/GAME/LANG/GAME-KIND-PAPER.pdf).")
@rules_option
def sheet(game: str, kind: str | None, lang: str | None, paper: str, per_page: int | None,
          grayscale: bool, fillable: bool, output: Path | None,
          rules_dir: Path | None) -> None:
    """Make a printable score sheet, pad or card of GAME as a PDF."""
    from pnp.sheets.layout import default_kind, render

    lang = _language(game, lang, rules_dir)
    if kind is None:
        kind = default_kind(game)
    output, mark = _destination(output, Target(game, lang, "sheet", paper, kind=kind,
                                                 per_page=per_page or 1, grayscale=grayscale,
                                                 fillable=fillable), rules_dir)
    data = render(game, kind=kind, lang=lang, paper=paper, per_page=per_page,
                  grayscale=grayscale, rules_dir=rules_dir, fillable=fillable)
    _save(output, data, mark)


@main.command()
@click.argument("game", type=click.Choice(GAMES))
@click.option("--lang", type=LANGUAGE, default=None,
              help="Language of the page (default: the locale's, else English).")
@click.option("-o", "--output", type=Place(dir_okay=False, path_type=Path), default=None,
              help="Where to write the page (default: ./output/GAME/LANG/GAME-scorer.html).")
@rules_option
def scorer(game: str, lang: str | None, output: Path | None, rules_dir: Path | None) -> None:
    """Make GAME's scorer page: one self-contained HTML file to score a game on a phone.

    It works from a file, a USB stick or any web server, saves the game on the device as it
    is typed, and exports it for 'pnp score'. 'pnp build' also writes, beside each page, the
    manifest and service worker that let a browser install it when it is served over http(s).
    """
    from pnp.scorer.page import render

    lang = _language(game, lang, rules_dir)
    output, mark = _destination(output, Target(game, lang, "scorer", "", fmt="html"),
                                rules_dir)
    data = render(game, lang, rules_dir)
    _save(output, data, mark)


def _document(kind: str, game: str, lang: str | None, fmt: str, paper: str,
              output: Path | None, rules_dir: Path | None) -> None:
    from pnp.books.render import render

    lang = _language(game, lang, rules_dir)
    output, mark = _destination(output, Target(game, lang, kind, paper, fmt=fmt), rules_dir)
    data = render(kind, game, lang, fmt=fmt, paper=paper, rules_dir=rules_dir)
    _save(output, data, mark)


def _destination(output: Path | None, target: Target,
                 rules_dir: Path | None) -> tuple[Path, bool]:
    """Where a command writes ``target``'s file, checked before the work is done:
    ``output``, else its place under :data:`~pnp.outputs.targets.OUTPUT`; and whether that
    folder is new or empty (it is then made a build folder, for a later 'pnp build', once
    the file is in)."""
    from pnp.build.fingerprint import inputs
    from pnp.build.manifest import fresh
    from pnp.outputs.targets import destination
    from pnp.outputs.writing import place

    path = destination(target, output)
    place(path, target.fmt, inputs(rules_dir))
    return path, output is None and fresh(OUTPUT)


def _save(output: Path, data: bytes, mark: bool) -> None:
    """Write ``data`` to the file :func:`_destination` chose, and say where it is."""
    from pnp.build.manifest import mark as make_build_folder
    from pnp.outputs.writing import write

    write(output, data)
    if mark:
        make_build_folder(OUTPUT)
    click.echo(str(output))


Command = TypeVar("Command", bound=Callable[..., None])


def document_options(papers: list[str]) -> Callable[[Command], Command]:
    """The options every document command shares (``papers``: the sizes it offers)."""
    return lambda function: _with_options(function, papers)


def _with_options(function: Command, papers: list[str]) -> Command:
    for option in reversed([
        click.argument("game", type=click.Choice(GAMES)),
        click.option("--lang", type=LANGUAGE, default=None,
                     help="Language (default: the locale's, else English)."),
        click.option("--format", "fmt", type=click.Choice(["pdf", "html"]), default="pdf",
                     show_default=True, help="A print-ready PDF or a standalone HTML page."),
        click.option("--paper", type=click.Choice(papers), default=papers[0],
                     show_default=True),
        click.option("-o", "--output", type=Place(dir_okay=False, path_type=Path),
                     default=None, help="Where to write it (default: under ./output/GAME/LANG/)."),
        rules_option,
    ]):
        function = option(function)
    return function


@main.command()
@document_options(["a4", "letter"])
def rulebook(game: str, lang: str | None, fmt: str, paper: str, output: Path | None,
             rules_dir: Path | None) -> None:
    """Make the rulebook of GAME (cover, contents, rules, worked example, about this edition)."""
    _document("rulebook", game, lang, fmt, paper, output, rules_dir)


@main.command()
@document_options(["a5"])
def card(game: str, lang: str | None, fmt: str, paper: str, output: Path | None,
         rules_dir: Path | None) -> None:
    """Make the one-page A5 reference card of GAME."""
    _document("card", game, lang, fmt, paper, output, rules_dir)


@main.command()
@click.argument("games", nargs=-1, type=click.Choice(GAMES), metavar="[GAME]...")
@click.option("--lang", "langs", multiple=True, type=LANGUAGE,
              help="Languages to build (repeat; default: all).")
@click.option("--paper", type=click.Choice(["a4", "letter", "all"]), default="all",
              show_default=True)
@click.option("--out", type=Place(file_okay=False, path_type=Path), default=OUTPUT,
              show_default=True, help="Folder to build into (under the current folder).")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None,
              help="Worker processes (default: one per core).")
@click.option("--force", is_flag=True, help="Rebuild everything, changed or not.")
@click.option("--previews", type=Place(file_okay=False, path_type=Path), default=None,
              help="Also write the README's preview pictures into this folder.")
@rules_option
def build(games: tuple[str, ...], langs: tuple[str, ...], paper: str, out: Path,
          jobs: int | None, force: bool, previews: Path | None, rules_dir: Path | None) -> None:
    """Build every sheet, card, deck and rulebook of the chosen games and languages.

    All of them by default. Unchanged outputs are kept; output/index.html lists every file
    with a preview. One build at a time writes into a folder: a second one waits.
    """
    for lang in langs:
        for game in games:
            _language(game, lang, rules_dir)
        if not games and not any(lang in _published(game, rules_dir) for game in GAMES):
            raise Misuse(f"no game is published in '{lang}'")
    summary = _build(out, games, langs, paper, jobs=jobs, force=force, rules_dir=rules_dir,
                     previews=previews)
    findings = summary.findings
    for finding in findings[:SHOWN_FINDINGS]:
        click.echo(str(finding), err=True)
    if len(findings) > SHOWN_FINDINGS:
        files = len({finding.file for finding in findings})
        click.echo(f"and {len(findings) - SHOWN_FINDINGS} more findings, in {files} files in "
                   f"all ('pnp preflight {out}' lists every one)", err=True)
    click.echo(f"{'built':<10}{summary.count('built'):>6}\n{'skipped':<10}"
               f"{summary.count('skipped'):>6}\n{'failed':<10}{summary.count('failed'):>6}\n"
               f"{'findings':<10}{len(findings):>6}\n"
               f"{'size':<10}{summary.size / 1024 / 1024:>6.1f} MB\n"
               f"{'time':<10}{summary.seconds:>6.1f} s\n"
               f"index: {out / 'index.html'}")
    if summary.count("failed") or findings:
        sys.exit(1)
    if previews:
        click.echo(f"previews: {len(summary.previews)} in {previews}")


def _build(out: Path, games: Sequence[str] = (), langs: Sequence[str] = (), paper: str = "all",
           *, jobs: int | None = None, force: bool = False, rules_dir: Path | None = None,
           previews: Path | None = None) -> Summary:
    """:func:`pnp.build.run` into ``out`` (every game, language and paper by default) with
    a progress bar on standard error, then print each failure's line."""
    from pnp.build import run
    from pnp.build.outcomes import Outcome

    failures: list[Outcome] = []
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def advance(outcome: Outcome, targets: int) -> None:
            """Count ``outcome`` of ``targets``; the bar starts with the first, once the
            definitions are known to be sound."""
            if not bars:
                bars.append(stack.enter_context(click.progressbar(
                    length=targets, label="Building", show_pos=True, file=sys.stderr)))
            if outcome.status == "failed":
                failures.append(outcome)
            bars[0].update(1)

        def waiting() -> None:
            click.echo(f"waiting for another build of {out}/ to finish", err=True)

        summary = run(out, games, langs, () if paper == "all" else (paper,), jobs=jobs,
                      force=force, rules_dir=rules_dir, progress=advance, waiting=waiting,
                      previews=previews)
    for failure in failures:
        click.echo(failure.line, err=True)
    return summary


@main.command()
@click.option("--out", type=Place(file_okay=False, path_type=Path), default=OUTPUT,
              show_default=True, help="The build folder to serve (built first if it has no "
                                      "build yet).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on; another free one if it is taken (0: any).")
@click.option("--lan", is_flag=True,
              help="Listen on this computer's address on its network, for phones and other "
                   "computers there, and print a QR code of it (default: this computer only).")
@click.option("--watch", is_flag=True,
              help="Rebuild what each edit of the definitions, texts, examples or catalogues "
                   "changes (the HTML rulebooks first) and reload the pages open in browsers.")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None,
              help="Worker processes for builds (default: one per core).")
def serve(out: Path, port: int, lan: bool, watch: bool, jobs: int | None) -> None:
    """Serve the build folder (read-only) to a browser: the rulebooks, sheets and scorers.

    Ctrl-C stops it.
    """
    from pnp.assets import shown
    from pnp.build.manifest import check_out
    from pnp.outputs.writing import check_folder, writable_folder
    from pnp.serve.http import LOOPBACK, lan_address, listen
    from pnp.serve.qr import terminal
    from pnp.serve.watch import Watcher

    check_folder(out)
    if watch or not (out / "index.html").is_file():
        check_out(out)  # what is built into it: a build folder, outside what pnp reads
    host = lan_address() if lan else LOOPBACK
    try:
        if not (out / "index.html").is_file():
            click.echo(f"{shown(out)}/ has no build yet: building it first", err=True)
            writable_folder(out)
            _build_apart(out, jobs)
        watcher = Watcher.start(out, click.echo, jobs) if watch else None
        try:
            server = listen(out, host, port, watcher.live if watcher else None)
            if port and server.port != port:
                click.echo(f"port {port} is in use: serving on port {server.port} instead")
            click.echo(f"serving {shown(out)}/ at {server.url}")
            if lan:
                click.echo(terminal(server.url, colour=sys.stdout.isatty()), nl=False)
                click.echo("scan the code with a phone on the same network, or type the "
                           "address")
            else:
                click.echo("(this computer only: add --lan to open it on a phone)")
            if watch:
                click.echo("watching the definitions, texts, examples and catalogues")
            click.echo("Ctrl-C stops")
            try:
                server.serve_forever()
            finally:
                server.server_close()
        finally:
            if watcher:
                watcher.stop()
    except KeyboardInterrupt:
        click.echo("stopped")


def _build_apart(out: Path, jobs: int | None) -> None:
    """:func:`_build` in a process of its own, which Ctrl-C ends at once (a build is made
    to be killed: the next one repairs what it left); exit 2 if it could not build."""
    import multiprocessing

    from pnp.assets import current
    from pnp.build.workers import starter
    from pnp.serve.watch import start_without_ctrl_c

    context = multiprocessing.get_context()
    process = context.Process(target=_build_alone, args=(out, jobs, current(), starter(context)))
    try:
        start_without_ctrl_c(process)
        process.join()
    finally:
        if process.is_alive():
            process.kill()
            process.join()
    if process.exitcode == 2:
        sys.exit(2)


def _build_alone(out: Path, jobs: int | None, edition: Any, parent: int | None) -> None:
    from pnp.assets import use
    from pnp.build.workers import die_with_parent
    from pnp.serve.watch import ignore_ctrl_c

    ignore_ctrl_c()
    use(edition)
    die_with_parent(parent)
    try:
        _build(out, jobs=jobs)
    except PnpError as exc:
        for line in error_lines(exc):
            click.echo(line, err=True)
        sys.exit(2)


@main.command()
@click.argument("paths", nargs=-1, metavar="[PDF|FOLDER]...",
                type=Place(exists=True, path_type=Path))
def preflight(paths: tuple[Path, ...]) -> None:
    """Measure PDFs against the rules of print; exit 1 if anything is found.

    Type too small, text or marks too near the paper's edge, text across the edge of a
    box or line, copies too near a cut line, marks in a deck's bleed, command-line text,
    fonts not embedded, structure qpdf warns about: one line each, FILE:page N: (x, y) mm
    from the page's top-left corner, then what. A FOLDER means every PDF in it; with
    nothing named, the build in ./output (what its build measured is not measured again).
    """
    from pnp.build.manifest import recorded
    from pnp.preflight import check_files, pdfs_under

    files: list[Path] = []
    known: dict[Path, Any] = {}
    for path in paths or (OUTPUT,):
        if path.is_dir() or not paths:
            files += pdfs_under(path)
            known.update(recorded(path))
        else:
            files.append(path)
    findings = check_files(files, known)
    for finding in findings:
        click.echo(str(finding))
    checked = f"{len(files)} PDF{'s' if len(files) != 1 else ''}"
    if findings:
        failing = len({finding.file for finding in findings})
        click.echo(f"{len(findings)} findings in {failing} of {checked}", err=True)
        sys.exit(1)
    click.echo(f"{checked}: no findings")


@main.command()
@click.option("--verbose", "-v", is_flag=True, help="List every gap, not only the counts.")
@rules_option
def translations(verbose: bool, rules_dir: Path | None) -> None:
    """Report, per game and language, what is missing or untranslated; exit 1 if anything is."""
    from pnp.i18n.completeness import gaps, summary

    found = gaps(rules_dir)
    click.echo(f"{'':<12}" + "".join(f"{lang:>6}" for lang in codes()))
    for name, counts in summary(found):
        click.echo(f"{name:<12}" + "".join(f"{counts[lang]:>6}" for lang in codes()))
    if verbose or len(found) <= 20:
        for gap in found:
            click.echo(f"  {gap}")
    if found:
        click.echo(f"{len(found)} gaps", err=True)
        sys.exit(1)
    click.echo("every text is complete in every language")


@main.command()
@click.argument("game", type=click.Choice(DECKS))
@click.option("--lang", type=LANGUAGE, default=None,
              help="Language of the labels (default: the locale's, else English).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--size", type=click.Choice(["poker", "bridge", "mini"]), default="poker",
              show_default=True, help="Card size: poker 63×88 mm, bridge 57×89, mini 44×63.")
@click.option("--bleed", default="3", show_default=True, metavar="MM",
              help="Art printed beyond each card's cut line, in mm (0 to 6).")
@click.option("--flip", type=click.Choice(["long", "short", "none"]), default="long",
              show_default=True,
              help="How the printer turns the sheet for the backs: on its long edge, its short "
                   "edge, or none (backs at the same place as their fronts).")
@click.option("--offset", default="0,0", show_default=True, metavar="X,Y",
              help="Move the backs by this many mm (right, up, as seen on the back), as read "
                   "on the calibration sheet.")
@click.option("--calibration", is_flag=True,
              help="Make the two-page sheet that measures the printer's back-side drift "
                   "instead of the deck.")
@click.option("-o", "--output", type=Place(dir_okay=False, path_type=Path), default=None,
              help="Where to write the PDF (default: ./output/GAME/LANG/GAME-deck-SIZE-PAPER.pdf, "
                   "with the backs' move before the paper: ...-poker-backs-1mm-right-a4.pdf).")
@rules_option
def deck(game: str, lang: str | None, paper: str, size: str, bleed: str, flip: str,
         offset: str, calibration: bool, output: Path | None, rules_dir: Path | None) -> None:
    """Make GAME's card deck to print double-sided: faces, reference cards and backs, N to a
    page with bleed and crop marks."""
    from pnp.decks.backs import FLIPS, offset_of
    from pnp.decks.cards import hint

    maker = registry.game(game).deck_maker
    lang = _language(game, lang, rules_dir)
    side = next(f for f in FLIPS if f == flip)
    shift = offset_of(offset)
    note = None if calibration else hint(maker.grid(size, paper, bleed))
    target = (Target(game, lang, "deck", paper, kind=f"calibration-{flip}") if calibration
              else Target(game, lang, "deck", paper, kind=size, offset=shift))
    output, mark = _destination(output, target, rules_dir)
    if calibration:
        data = maker.render_calibration(lang=lang, paper=paper, flip=side, offset=shift,
                                        rules_dir=rules_dir)
    else:
        data = maker.render(lang=lang, paper=paper, size=size, bleed=bleed, flip=side,
                            offset=shift, rules_dir=rules_dir)
    if note:
        click.echo(f"note: {note}", err=True)
    _save(output, data, mark)


@main.command()
@click.option("--all", "every", is_flag=True,
              help=f"List every problem (default: the first {SHOWN - 1} and a count when "
                   f"there are more than {SHOWN}).")
@rules_option
@click.pass_context
def validate(ctx: click.Context, every: bool, rules_dir: Path | None) -> None:
    """Check every game definition; report its problems and exit 2 if there are any."""
    from pnp.assets import shown
    from pnp.definitions import rules_dir as default_dir
    from pnp.definitions import validate_all
    from pnp.sheets.layout import drawable

    ctx.meta[EVERY_PROBLEM] = every
    problems = validate_all(rules_dir, drawable)
    if problems:
        raise DefinitionError(problems)
    click.echo(f"{len(GAMES)} definitions are valid ({shown(rules_dir or default_dir())})")


if __name__ == "__main__":
    main()
