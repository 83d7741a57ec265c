"""What every engine returns: a total per sheet or side, and the lines that make it.

Breakdown lines carry a stable ``what`` (the kind of line, e.g. ``"row"``) and
plain ``detail`` values; the report module turns them into words in a language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True, init=False)
class Item:
    """One line of a breakdown: what it is, its details, and the points it gives."""

    what: str
    points: int
    detail: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, what: str, points: int, detail: Mapping[str, Any] | None = None) -> None:
        _set_item_what(self, what)
        _set_item_points(self, points)
        _set_item_detail(self, {} if detail is None else detail)

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, **self.detail, "points": self.points}


@dataclass(frozen=True, slots=True, init=False)
class Score:
    """One sheet, hand record or side: its breakdown and its total."""

    items: tuple[Item, ...]
    total: int
    tiebreak: int = 0

    def __init__(self, items: tuple[Item, ...], total: int, tiebreak: int = 0) -> None:
        _set_score_items(self, items)
        _set_score_total(self, total)
        _set_score_tiebreak(self, tiebreak)

    @classmethod
    def of(cls, items: Iterable[Item], tiebreak: int = 0) -> Score:
        items = tuple(items)
        return cls(items, sum([i.points for i in items]), tiebreak)

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, "breakdown": [i.to_json() for i in self.items]}


@dataclass(frozen=True, slots=True, init=False)
class Note:
    """Something worth telling beside the totals (a warning, the winner, a target reached)."""

    what: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, what: str, detail: Mapping[str, Any] | None = None) -> None:
        _set_note_what(self, what)
        _set_note_detail(self, {} if detail is None else detail)

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, **self.detail}


# An engine makes tens of these per input. The ``__init__`` of a frozen dataclass sets each
# field through ``object.__setattr__`` (its own ``__setattr__`` refuses); setting the slots
# through their descriptors, as the ones above do, is twice as quick, and the classes stay
# frozen dataclasses (``==``, ``repr``, :func:`dataclasses.replace`, assignment refused).
_set_item_what, _set_item_points, _set_item_detail = (
    vars(Item)[name].__set__ for name in ("what", "points", "detail"))
_set_score_items, _set_score_total, _set_score_tiebreak = (
    vars(Score)[name].__set__ for name in ("items", "total", "tiebreak"))
_set_note_what, _set_note_detail = (vars(Note)[name].__set__ for name in ("what", "detail"))


@dataclass(frozen=True, slots=True)
class Result:
    """A scored input. ``single`` results have one score under the name ``""``."""

    game: str
    scores: Mapping[str, Score]
    ranking: tuple[tuple[str, ...], ...]
    single: bool = False
    notes: tuple[Note, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """The total of a single sheet."""
        if not self.single:
            raise AttributeError("a result for several players has totals, not one total")
        return self.scores[""].total

    @property
    def totals(self) -> dict[str, int]:
        return {name: s.total for name, s in self.scores.items()}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game}
        if self.single:
            out.update(self.scores[""].to_json())
        else:
            out["totals"] = self.totals
            out["ranking"] = [list(group) for group in self.ranking]
            out["players"] = {name: s.to_json() for name, s in self.scores.items()}
        out.update(self.extra)
        out["notes"] = [n.to_json() for n in self.notes]
        return out


def rank(scores: Mapping[str, Score], *, higher_wins: bool = True,
         key: Callable[[Score], tuple[int, ...]] | None = None) -> tuple[tuple[str, ...], ...]:
    """Group names from first place to last; names in one group are tied.

    The default key is the total (higher or lower better), then the tiebreak,
    which is always higher-better.

    >>> s = {"a": Score((), 5), "b": Score((), 7), "c": Score((), 5)}
    >>> rank(s)
    (('b',), ('a', 'c'))
    """
    sign = 1 if higher_wins else -1
    order = key or (lambda s: (sign * s.total, s.tiebreak))
    groups: dict[tuple[int, ...], list[str]] = {}
    for name, score in scores.items():
        groups.setdefault(order(score), []).append(name)
    return tuple(tuple(groups[k]) for k in sorted(groups, reverse=True))
