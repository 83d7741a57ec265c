"""A scored result in words, for people: one line per breakdown item, then the totals."""

from __future__ import annotations

import importlib
from typing import Any

from pnp.engines.result import Result, Score
from pnp.i18n import Translate, translator

WIDTH = 60


def describe(result: Result, rules: Any, lang: str) -> str:
    """The breakdown of ``result`` as text in ``lang``."""
    _ = translator(lang)
    texts = importlib.import_module(f"pnp.texts.{result.game}")
    lines = [rules.name(lang)]
    if result.single:
        lines += _score_lines(result.scores[""], texts, _)
    else:
        for name, score in result.scores.items():
            lines += ["", name, *_score_lines(score, texts, _)]
        lines += ["", _("Ranking")]
        for place, group in _places(result):
            for name in group:
                lines.append(_row(f"  {place}. {name}", result.scores[name].total))
    for note in result.notes:
        text = texts.describe_note(note, _)
        player = note.detail.get("player")
        lines.append(f"! {player}: {text}" if player else f"! {text}")
    return "\n".join(lines) + "\n"


def _score_lines(score: Score, texts: Any, _: Translate) -> list[str]:
    lines = [_row(f"  {texts.describe(item, _)}", item.points) for item in score.items]
    total = _("Total")
    lines.append(_row(f"  {total}", score.total))
    return lines


def _places(result: Result) -> list[tuple[int, tuple[str, ...]]]:
    places, place = [], 1
    for group in result.ranking:
        places.append((place, group))
        place += len(group)
    return places


def _row(label: str, points: int) -> str:
    number = f"{points:+d}" if points < 0 else str(points)
    number = number.replace("-", "−")
    gap = max(1, WIDTH - len(label) - len(number))
    return f"{label}{' ' * gap}{number}"
