"""What scoring loads: nothing that draws. (What every game must do is ``test_games.py``.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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
    package = ROOT / "pnp"
    paths = [*package.glob("engine/*.py"), *package.glob("games/*/engine.py"),
             *package.glob("games/*/definition.py")]
    assert len(paths) >= 12
    for path in paths:
        source = path.read_text()
        for banned in ("reportlab", "weasyprint", "jinja2", "open(", "print(", "import click"):
            assert banned not in source, f"{path.relative_to(package)} uses {banned}"
