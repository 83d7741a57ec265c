"""One piece of work made into its files, in a worker process: each target rendered,
written to a temporary name and renamed into place, pictured and measured by the preflight.

A failing target is reported and the others go on.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from pnp import registry
from pnp.assets import Edition, current, use
from pnp.build.outcomes import Outcome
from pnp.build.previews import write_thumbnail
from pnp.errors import PnpError, PreflightError
from pnp.outputs.targets import Target, thumbnail
from pnp.outputs.writing import write
from pnp.preflight import Finding, check_bytes


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
        start = time.process_time()
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
            pages = write_thumbnail(data, out / thumbnail(target.relative), out) if \
                target.fmt == "pdf" else 0
        except Exception as exc:
            outcomes.append(Outcome(target, "failed", error=_reason(exc)))
            continue
        checked = time.process_time()
        findings = preflight(data, out / target.relative) if target.fmt == "pdf" else ()
        end = time.process_time()
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
        from pnp.books.render import renderings

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
