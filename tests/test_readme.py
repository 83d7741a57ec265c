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
    shown = {}
    for match in re.finditer(r"^\*\*(\w+)\*\* —.*?```yaml\n(.*?)```", README, re.S | re.M):
        game = match.group(1).lower()
        if game in pnp.GAMES:
            shown[game] = yaml.safe_load(match.group(2))
    assert sorted(shown) == sorted(pnp.GAMES)
    for game, data in shown.items():
        pnp.score(game, data)


def test_the_breakdown_shown_is_what_the_command_prints() -> None:
    block = README.split("$ pnp score qwinto examples/qwinto.yaml --lang en\n")[1]
    expected = block.split("```")[0]
    run = CliRunner().invoke(main, ["score", "qwinto", str(ROOT / "examples/qwinto.yaml"),
                                    "--lang", "en"])
    assert run.output == expected
