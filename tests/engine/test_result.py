"""The breakdown's types: frozen dataclasses, however quickly they are built."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from pnp.engine.result import Item, Note, Score


def test_a_line_is_a_frozen_dataclass() -> None:
    item = Item("row", 4, {"row": "orange"})
    assert item == Item(what="row", points=4, detail={"row": "orange"})
    assert item != Item("row", 5, {"row": "orange"})
    assert repr(item) == "Item(what='row', points=4, detail={'row': 'orange'})"
    assert dataclasses.replace(item, points=0) == Item("row", 0, {"row": "orange"})
    assert pickle.loads(pickle.dumps(item)) == item
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.points = 5  # type: ignore[misc]
    assert [field.name for field in dataclasses.fields(Item)] == ["what", "points", "detail"]


def test_each_line_and_note_without_details_has_a_mapping_of_its_own() -> None:
    first, second = Item("failed", 0), Item("failed", 0)
    assert first.detail == {} and first.detail is not second.detail
    assert Note("winner").detail == {} and Note("winner").detail is not Note("winner").detail
    assert dataclasses.replace(Note("winner"), detail={"player": "Ana"}).to_json() == {
        "what": "winner", "player": "Ana"}


def test_a_score_adds_up_its_lines_and_hashes_like_its_fields() -> None:
    score = Score.of([Item("row", 4), Item("failed", -10)], tiebreak=2)
    assert (score.total, score.tiebreak, len(score.items)) == (-6, 2, 2)
    assert Score((), 5) == Score(items=(), total=5, tiebreak=0)
    assert hash(Score((), 5)) == hash(Score((), 5, 0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.total = 0  # type: ignore[misc]
