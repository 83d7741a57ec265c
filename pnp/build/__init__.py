"""``pnp build``: every material of every chosen game and language, fast, incremental, safe.

:func:`run` is the one build sequence, for the command, the watch of ``pnp serve`` and the
benchmark: check where it writes, plan the targets (:mod:`pnp.build.plan`), build what has
changed and the landing page (:mod:`pnp.build.incremental`), then the README's pictures
(:mod:`pnp.build.previews`). The stages below it: :mod:`~pnp.build.fingerprint` (what a
target is made from), :mod:`~pnp.build.manifest` (the build folder and what it records),
:mod:`~pnp.build.workers` (the process pool) and :mod:`~pnp.build.make` (one piece of work,
in a worker).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnp.build.outcomes import Outcome, Summary
    from pnp.outputs.targets import Target


def run(out: Path, games: Sequence[str] = (), langs: Sequence[str] = (),
        papers: Sequence[str] = (), *, targets: Sequence[Target] | None = None,
        jobs: int | None = None, force: bool = False, rules_dir: Path | None = None,
        progress: Callable[[Outcome, int], None] | None = None,
        waiting: Callable[[], None] | None = None, previews: Path | None = None) -> Summary:
    """Build into ``out`` the targets of ``games``, ``langs`` and ``papers`` (every game and
    language on every paper by default), or the ``targets`` given; then, with ``previews``
    and if nothing failed or was found, write the README's pictures into that folder.

    Both folders are checked before anything is written. ``progress`` is called with each
    outcome and the number of targets; ``waiting`` if another build holds ``out``.
    """
    from pnp.build.fingerprint import files_digest, inputs, shared_inputs
    from pnp.build.incremental import build
    from pnp.build.manifest import check_out
    from pnp.build.plan import PAPERS, planned
    from pnp.build.previews import write_previews
    from pnp.outputs.writing import check_folder, check_outside, locked, writable_folder
    from pnp.registry import GAMES

    for place in (out, previews):
        if place:
            check_folder(place)
    check_out(out, rules_dir)
    if previews:
        check_outside(previews, inputs(rules_dir))
    writable_folder(out)
    if previews:
        writable_folder(previews)
    with locked(out, waiting):
        shared = files_digest(shared_inputs())
        chosen = list(targets) if targets is not None else planned(
            out, games or GAMES, langs, papers or PAPERS, shared, rules_dir)
        count = (lambda outcome: progress(outcome, len(chosen))) if progress else None
        summary = build(chosen, out, jobs=jobs, force=force, rules_dir=rules_dir,
                        progress=count, shared=shared)
    if previews and not summary.count("failed") and not summary.findings:
        summary.previews = write_previews(out, previews)
    return summary
