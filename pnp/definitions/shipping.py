"""The bundled definitions validated when pnp is built, so that no run of pnp validates them.

:func:`compile_bundled` writes each of ``pnp/data/rules/<game>.yaml``, validated, into
:data:`pnp.definitions.cache.SHIPPED`, and :class:`BuildPy`, the package's ``build_py``
command (named in ``pyproject.toml``), runs it whenever a wheel or an editable install is
made. A definition edited since is not the one shipped: it is validated and cached as any
edition's is.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools.command.build_py import build_py


def compile_bundled(into: Path, rules: Path) -> list[Path]:
    """Validate every definition in ``rules`` and write it into ``into``, as shipped."""
    from pnp.definitions import GAMES, cache, load_file
    from pnp.definitions.source import read_bytes

    return [cache.ship(into, game, read_bytes(rules / f"{game}.yaml"),
                       load_file(rules / f"{game}.yaml", game)) for game in GAMES]


class BuildPy(build_py):  # type: ignore[misc]
    """setuptools' ``build_py``, then the bundled definitions validated into the build (into
    the source tree for an editable install, which runs the package from there)."""

    def run(self) -> None:
        super().run()
        root = Path.cwd()
        sys.path.insert(0, str(root))
        try:
            into = root if getattr(self, "editable_mode", False) else Path(self.build_lib)
            for path in compile_bundled(into / "pnp" / "definitions" / "shipped",
                                        root / "pnp" / "data" / "rules"):
                self.announce(f"validated {path.name}", level=2)
        finally:
            sys.path.remove(str(root))
