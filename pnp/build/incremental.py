"""Build what has changed among a list of targets, safely, then the folder's index.

- **Incremental**: each target's inputs are hashed (:mod:`pnp.build.fingerprint`); the
  hash of every output is kept in the manifest (:mod:`pnp.build.manifest`), and an output
  whose inputs have not changed, and whose file is still the one built, is skipped.
- **Parallel**: one process pool (:mod:`pnp.build.workers`) fed by
  :func:`pnp.build.plan.pieces`; a document's formats and papers share one layout.
- **Safe**: every file is written to a temporary name and renamed into place; a failing
  target is reported and the others go on; one build at a time writes into a folder
  (:func:`pnp.outputs.writing.locked`), and its workers die with it. The manifest is saved
  now and then while building, so a killed build loses little.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pnp.assets import Edition, current
from pnp.build.fingerprint import files_digest, fingerprint, shared_inputs
from pnp.build.index import write_index
from pnp.build.manifest import (
    Manifest,
    check_out,
    checker_of,
    claim,
    clear_way,
    intact,
    kept_findings,
    manifest_bytes,
    read_manifest,
    write_manifest,
)
from pnp.build.outcomes import Outcome, Summary
from pnp.build.plan import pieces
from pnp.build.workers import make_all
from pnp.errors import DefinitionError, Problem
from pnp.outputs.targets import Target
from pnp.outputs.writing import clean_temporaries, folder, locked
from pnp.preflight import record as kept_finding

MANIFEST_EVERY = 0.5
"""Seconds between saves of the manifest while building (a killed build loses at most these)."""


def build(targets: Sequence[Target], out: Path, *, jobs: int | None = None, force: bool = False,
          rules_dir: Path | None = None, progress: Callable[[Outcome], None] | None = None,
          shared: str | None = None, waiting: Callable[[], None] | None = None) -> Summary:
    """Build what has changed among ``targets``; write the manifest and ``index.html``.

    One build at a time writes into ``out``: ``waiting`` is called if this one has to wait
    for another. Before building anything, the definitions of the games to rebuild are
    checked: a :class:`~pnp.errors.DefinitionError` carries every problem, each once.
    """
    from pnp.registry import rules_dir as default_rules

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
        seen: dict[tuple[Path, ...], str] = {}
        for target in targets:
            stamp = fingerprint(target, rules, shared, seen)
            known = manifest.get(target.relative.as_posix())
            if (not force and known is not None and known["hash"] == stamp
                    and known["checker"] == checker_of(target) and intact(out, target, known)):
                summary.outcomes.append(Outcome(
                    target, "skipped", known["size"], known["pages"],
                    findings=kept_findings(out / target.relative, known)))
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
        elif manifest_bytes(manifest) != recorded:
            write_manifest(out, manifest)
        write_index(out, manifest, rules, shared, force)
    summary.seconds = time.perf_counter() - start
    return summary


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
               manifest: Manifest, summary: Summary,
               progress: Callable[[Outcome], None] | None) -> None:
    """Build the targets of ``todo`` (each with its fingerprint), recording each outcome in
    ``summary`` and ``manifest``; the manifest is saved now and then, and at the end."""
    saved = time.perf_counter()

    def record(outcomes: list[Outcome]) -> None:
        nonlocal saved
        for outcome in outcomes:
            summary.outcomes.append(outcome)
            key = outcome.target.relative.as_posix()
            if outcome.status == "built":
                manifest[key] = {"hash": todo[outcome.target], "size": outcome.size,
                                 "pages": outcome.pages, "sha256": outcome.sha256,
                                 "checker": checker_of(outcome.target),
                                 "findings": [kept_finding(f) for f in outcome.findings]}
            else:
                manifest.pop(key, None)
            if progress:
                progress(outcome)
        if time.perf_counter() - saved > MANIFEST_EVERY:
            write_manifest(out, manifest)
            saved = time.perf_counter()

    make_all(pieces(list(todo)), out, edition, jobs, record)
    write_manifest(out, manifest)
