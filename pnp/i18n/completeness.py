"""What is missing or left untranslated, per game and language.

Four kinds of text are published in every language:

- gettext messages marked in the code and templates (``_()``), per domain: the shared
  ``pnp`` domain and one per game; English is the source, Spanish and French have
  catalogues in ``pnp/i18n/locale``;
- the rulebook and the reference card of each game, one Markdown file per language;
- each game's ``decisions:`` (and ``completion:``), which must be written in every language.

Each game's words also follow its glossary (:mod:`pnp.i18n.glossary`): no rejected variant
of a term in a language's rulebook, reference card or catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp import registry
from pnp.assets import PACKAGE, current, shown
from pnp.definitions import GAMES, load
from pnp.definitions.base import Text
from pnp.errors import ReadError
from pnp.i18n.catalogues import COMMON, LANGUAGES, LOCALE_DIR
from pnp.i18n.glossary import Term
from pnp.reading import decode, read_inside

SOURCE_LANGUAGE = "en"
PLACEHOLDER = re.compile(r"\{(\w*)\}")


@dataclass(frozen=True)
class Gap:
    """One thing missing in one language."""

    game: str
    lang: str
    what: str

    def __str__(self) -> str:
        return f"{self.game} ({self.lang}): {self.what}"


def sources(domain: str) -> list[Path]:
    """The files whose marked messages belong to ``domain``: a game's folder, or for the
    common catalogue every other module of pnp and the shared templates."""
    games = PACKAGE / "games"
    if domain == COMMON:
        return [*(path for path in sorted(PACKAGE.rglob("*.py")) if games not in path.parents),
                *sorted(current().templates.glob("*.j2"))]
    return sorted(registry.game(domain).folder.glob("*.py"))


def marked(domain: str) -> set[str]:
    """Every message marked for translation in ``domain``'s sources."""
    from babel.messages.extract import extract_from_file

    found = set()
    for path in sources(domain):
        method = "jinja2.ext:babel_extract" if path.suffix == ".j2" else "python"
        found |= {str(m[1]) for m in extract_from_file(method, str(path))}
    return found


def catalogue_gaps(domain: str, lang: str) -> Iterator[Gap]:
    """Messages of ``domain`` missing, untranslated, fuzzy, mistranslated or stale in ``lang``."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    wanted = marked(domain)
    messages = _catalogue(path)
    if messages is None:
        yield Gap(domain, lang, f"no catalogue {path.name} ({len(wanted)} messages)")
        return
    for message_id in sorted(wanted):
        message = messages.get(message_id)
        if message is None:
            yield Gap(domain, lang, f"message {message_id!r} is not in {path.name}")
        elif not message.string or message.fuzzy:
            yield Gap(domain, lang, f"message {message_id!r} is not translated")
        elif sorted(PLACEHOLDER.findall(message_id)) != sorted(
                PLACEHOLDER.findall(str(message.string))):
            yield Gap(domain, lang, f"message {message_id!r}: placeholders differ")
    for message_id in sorted(set(messages) - wanted):
        yield Gap(domain, lang, f"message {message_id!r} is no longer used")


def document_gaps(game: str, lang: str) -> Iterator[Gap]:
    for kind, folder in (("rulebook", "rulebooks"), ("reference card", "cards")):
        path = current().templates / folder / game / f"{lang}.md"
        if not path.is_file():
            yield Gap(game, lang, f"no {kind} text ({shown(path)})")


def definition_gaps(game: str, lang: str, rules_dir: Path | None = None) -> Iterator[Gap]:
    rules = load(game, rules_dir)
    entries = [("decision", d.id, d.decision, d.why) for d in rules.decisions]
    entries += [("completion", c.id, c.rule, c.why) for c in getattr(rules, "completion", ())]
    for kind, ident, *texts in entries:
        if lang != SOURCE_LANGUAGE and not all(isinstance(t, Text) for t in texts):
            yield Gap(game, lang, f"{kind} '{ident}' is written in English only")


def glossary(game: str) -> tuple[Term, ...]:
    """The terms of ``game``'s glossary (its ``glossary`` module's ``GLOSSARY``)."""
    terms: tuple[Term, ...] = registry.game(game).part("glossary").GLOSSARY
    return terms


def written(game: str, lang: str) -> dict[str, str]:
    """``game``'s own texts in ``lang`` before they are built: its rulebook and reference card
    as written, and its messages (the catalogue's translations, or in English the messages)."""
    texts = {}
    templates = current().templates
    for kind, folder in (("rulebook", "rulebooks"), ("reference card", "cards")):
        path = templates / folder / game / f"{lang}.md"
        if path.is_file():
            where = f"the {kind} ({shown(path)})"
            try:
                texts[where] = decode(read_inside(templates, path, MAX_WRITTEN, f"a {kind}"))
            except ReadError as exc:
                line = f":{exc.line}" if exc.line else ""
                raise ReadError(f"{shown(path)}{line}: {exc.message}") from None
    if lang == SOURCE_LANGUAGE:
        texts["its messages"] = "\n".join(sorted(marked(game)))
    else:
        path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{game}.po"
        messages = _catalogue(path)
        if messages is not None:
            texts[path.name] = "\n".join(str(m.string) for m in messages.values())
    return texts


MAX_WRITTEN = 1024 * 1024
"""The most bytes of a rulebook or card text the glossary's check reads."""


def _catalogue(path: Path) -> dict[str, Any] | None:
    """The messages of pnp's own catalogue at ``path``, by id; None if there is none."""
    from babel.messages.pofile import read_po

    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return {str(m.id): m for m in read_po(handle) if m.id}


def glossary_gaps(game: str, lang: str) -> Iterator[Gap]:
    """Rejected variants of ``game``'s glossary terms that its texts in ``lang`` use."""
    texts = written(game, lang)
    for term in glossary(game):
        for where, text in texts.items():
            for variant in term.found_in(text, lang):
                yield Gap(game, lang, f"{where} says '{variant}': the glossary's word for "
                                      f"'{term.word}' is another")


def gaps(rules_dir: Path | None = None) -> list[Gap]:
    """Everything missing, in every language."""
    found: list[Gap] = []
    for lang in LANGUAGES:
        if lang != SOURCE_LANGUAGE:
            found += catalogue_gaps(COMMON, lang)
        for game in GAMES:
            if lang != SOURCE_LANGUAGE:
                found += catalogue_gaps(game, lang)
            found += document_gaps(game, lang)
            found += definition_gaps(game, lang, rules_dir)
            found += glossary_gaps(game, lang)
    return found


def summary(found: list[Gap]) -> list[tuple[str, dict[str, int]]]:
    """Counts of gaps per game (and the shared domain) and language, for a table."""
    rows = []
    for name in (COMMON, *GAMES):
        rows.append((name, {lang: sum(1 for g in found if g.game == name and g.lang == lang)
                            for lang in LANGUAGES}))
    return rows
