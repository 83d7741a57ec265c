"""A scored result in words, for people: one line per breakdown item, then the totals."""

from __future__ import annotations

from pnp.definitions.base import GameInfo
from pnp.engine.result import Result, Score
from pnp.i18n.catalogues import Translate, translator, typography
from pnp.registry import Texts, game

Line = str | tuple[str, int]
"""A heading, or a label with its points (aligned in a column when printed)."""


def describe(result: Result, rules: GameInfo, lang: str) -> str:
    """The breakdown of ``result`` as text in ``lang``."""
    _ = translator(lang, result.game)
    texts = game(result.game).texts
    lines: list[Line] = [rules.name(lang)]
    if result.single:
        lines += _score_lines(result.scores[""], texts, _, lang)
    else:
        for name, score in result.scores.items():
            lines += ["", name, *_score_lines(score, texts, _, lang)]
        lines += ["", _("Ranking")]
        for place, group in _places(result):
            lines += [(f"  {place}. {name}", result.scores[name].total) for name in group]
    for note in result.notes:
        text = typography(texts.describe_note(note, _), lang)
        player = note.detail.get("player")
        lines.append(f"! {player}: {text}" if player else f"! {text}")
    return _aligned(lines)


def _score_lines(score: Score, texts: Texts, _: Translate, lang: str) -> list[Line]:
    """Each breakdown line in words, set in ``lang``'s typography once the names are in."""
    lines: list[Line] = [(f"  {typography(texts.describe(item, _), lang)}", item.points)
                         for item in score.items]
    total = _("Total")
    lines.append((f"  {total}", score.total))
    return lines


def _places(result: Result) -> list[tuple[int, tuple[str, ...]]]:
    places, place = [], 1
    for group in result.ranking:
        places.append((place, group))
        place += len(group)
    return places


def _aligned(lines: list[Line]) -> str:
    """Lines as text, every number right-aligned in one column."""
    entries = [line for line in lines if isinstance(line, tuple)]
    label_width = max((len(label) for label, _ in entries), default=0)
    number_width = max((len(_number(points)) for _, points in entries), default=0)
    out = []
    for line in lines:
        if isinstance(line, tuple):
            label, points = line
            out.append(f"{label:<{label_width}}  {_number(points):>{number_width}}")
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def _number(points: int) -> str:
    return str(points).replace("-", "−")
