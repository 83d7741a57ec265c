"""The README stays true: every input it shows is accepted, every output it shows is real."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from click.testing import CliRunner

import pnp
from pnp.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_every_input_format_shown_is_scored() -> None:
    """Every YAML block under a game's input format (Ronda shows a deal and a whole game)."""
    shown: dict[str, list[object]] = {}
    parts = re.split(r"^\*\*(\w+)\*\* —", README, flags=re.M)
    for game, text in zip(parts[1::2], parts[2::2], strict=True):
        if game.lower() in pnp.GAMES:
            text = text.split("\n## ")[0]
            shown[game.lower()] = [yaml.safe_load(block)
                                   for block in re.findall(r"```yaml\n(.*?)```", text, re.S)]
    assert sorted(shown) == sorted(pnp.GAMES)
    assert len(shown["ronda"]) == 2
    for game, blocks in shown.items():
        assert blocks, game
        for data in blocks:
            pnp.score(game, data)


def test_the_breakdown_shown_is_what_the_command_prints() -> None:
    block = README.split("$ pnp score qwinto examples/qwinto.yaml --lang en\n")[1]
    expected = block.split("```")[0]
    run = CliRunner().invoke(main, ["score", "qwinto", str(ROOT / "examples/qwinto.yaml"),
                                    "--lang", "en"])
    assert run.output == expected
