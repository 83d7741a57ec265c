"""One test over every game: its example scores what was worked out by hand (``worked.py``),
deterministically, and adds up."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import pnp
from pnp.cli import main
from pnp.definitions import GAMES
from pnp.inputs import read_file
from worked import EXAMPLES

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", GAMES)
def test_example_scores_what_was_worked_out_by_hand(game: str) -> None:
    worked = EXAMPLES[game]
    result = pnp.score(game, copy.deepcopy(worked.data))
    lines = {name: [(item.what, item.points) for item in score.items]
             for name, score in result.scores.items()}
    assert lines == worked.lines
    assert result.totals == worked.totals
    assert [list(group) for group in result.ranking] == worked.ranking
    run = CliRunner().invoke(main, ["score", game, "-", "--json"], input=json.dumps(worked.data))
    assert run.exit_code == 0, run.output
    shown = json.loads(run.output)
    assert (shown["totals"] if "totals" in shown else {"": shown["total"]}) == worked.totals


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_example_is_the_one_worked_out(game: str) -> None:
    """The README and the rulebooks show ``examples/<game>.yaml``: a change to it needs
    its figures worked out again in ``worked.py``."""
    assert read_file(ROOT / "examples" / f"{game}.yaml") == EXAMPLES[game].data


@pytest.mark.parametrize("game", GAMES)
def test_example_scores_deterministically_and_adds_up(game: str) -> None:
    data = read_file(ROOT / "examples" / f"{game}.yaml")
    result = pnp.score(game, data)
    for score in result.scores.values():
        assert sum(item.points for item in score.items) == score.total
    first = json.dumps(result.to_json(), sort_keys=True)
    assert json.dumps(pnp.score(game, data).to_json(), sort_keys=True) == first
    out = result.to_json()
    if result.single:
        assert isinstance(out["total"], int)
    else:
        assert set(out["totals"]) == set(result.scores)
        assert sorted(n for group in out["ranking"] for n in group) == sorted(result.scores)


@pytest.mark.parametrize("game", GAMES)
def test_example_reads_in_three_languages(game: str) -> None:
    example = str(ROOT / "examples" / f"{game}.yaml")
    texts = {}
    for lang in ("en", "es", "fr"):
        run = CliRunner().invoke(main, ["score", game, example, "--lang", lang])
        assert run.exit_code == 0, run.output
        texts[lang] = run.output
    assert len(set(texts.values())) == 3


def test_score_command_does_not_load_renderers() -> None:
    code = ("import sys; from pnp.cli import main\n"
            "try:\n    main(['score', 'qwinto', sys.argv[1], '--lang', 'es'])\n"
            "except SystemExit:\n    pass\n"
            "heavy = [m for m in ('reportlab', 'weasyprint', 'pdfplumber', 'jinja2') "
            "if m in sys.modules]\n"
            "print('LOADED', heavy)")
    run = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples/qwinto.yaml")],
                         capture_output=True, text=True, check=True)
    assert "LOADED []" in run.stdout


def test_engines_import_no_renderer_or_io_module() -> None:
    for path in (ROOT / "pnp" / "engines").glob("*.py"):
        source = path.read_text()
        for banned in ("reportlab", "weasyprint", "jinja2", "open(", "print(", "import click"):
            assert banned not in source, f"{path.name} uses {banned}"
