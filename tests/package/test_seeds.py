"""Rules are facts; the prose we publish is our own: no file repeats the sources' sentences."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 9
TEXT = {".md", ".yaml", ".yml", ".py", ".po", ".j2", ".html", ".txt", ".toml", ".json", ".css"}
FOLDERS = ("rules", "templates", "pnp", "tests", "examples", "bench", "docs")


def runs(text: str) -> set[str]:
    words = re.findall(r"\w+", text.lower())
    return {" ".join(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


def our_files() -> list[Path]:
    found = [ROOT / "README.md"]
    for folder in FOLDERS:
        found += [p for p in sorted((ROOT / folder).rglob("*"))
                  if p.suffix in TEXT and p.is_file() and "node_modules" not in p.parts]
    return found


def test_the_check_catches_a_copied_sentence() -> None:
    sample = "one two three four five six seven eight nine ten"
    assert runs(sample) & runs(f"Intro. {sample}!")
    assert not runs("one two three four five six seven eight") & runs(sample)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not beside this checkout")
def test_no_file_shares_nine_words_in_a_row_with_a_source() -> None:
    seed: set[str] = set()
    for path in SEEDS.glob("*.txt"):
        seed |= runs(path.read_text(encoding="utf-8", errors="ignore"))
    assert seed
    copied = {}
    for path in our_files():
        shared = runs(path.read_text(encoding="utf-8", errors="ignore")) & seed
        if shared:
            copied[str(path.relative_to(ROOT))] = sorted(shared)[:3]
    assert copied == {}
