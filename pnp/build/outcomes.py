"""What a build reports: each target's :class:`Outcome`, and the :class:`Summary` of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pnp.outputs.targets import Target
from pnp.preflight import Finding


@dataclass
class Outcome:
    target: Target
    status: str
    """``built``, ``skipped`` or ``failed``."""
    size: int = 0
    pages: int = 0
    seconds: float = 0.0
    """Processor seconds the worker spent making the file (steady on a busy machine): its
    share of the piece's rendering, writing, thumbnail and preflight."""
    error: str = ""
    sha256: str = ""
    findings: tuple[Finding, ...] = ()
    """What the preflight found in the file (:mod:`pnp.preflight`)."""
    checking: float = 0.0
    """Processor seconds of ``seconds`` the preflight took."""

    @property
    def line(self) -> str:
        """What the command line prints for a failed target."""
        return f"failed: {self.target.relative.as_posix()}: {self.error}"


@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    previews: list[Path] = field(default_factory=list)
    """The README's pictures written after the build (:func:`pnp.build.run`)."""

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def findings(self) -> list[Finding]:
        return [finding for o in self.outcomes for finding in o.findings]

    @property
    def size(self) -> int:
        return sum(o.size for o in self.outcomes)
