"""What is missing or left untranslated, per game and language.

A game is published in the languages its ``name:`` is written in (:attr:`GameInfo.languages`);
in each of them four kinds of text must be complete:

- gettext messages marked in the code and templates (``_()``), per domain: the shared
  ``pnp`` domain and one per game; English is the source, every other language has its
  catalogues in its locale folder (:mod:`pnp.i18n.languages`);
- the rulebook and the reference card of each game, one Markdown file per language;
- each game's ``decisions:`` (and ``completion:``), which must be written in every language.

Each game's words also follow its glossary (:mod:`pnp.i18n.glossary`): no rejected variant
of a term in a language's rulebook, reference card or catalogue.
"""

from __future__ import annotations

import functools
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
from pnp.i18n.catalogues import COMMON, read_catalogue
from pnp.i18n.glossary import AVOID, Term, avoided, found_in
from pnp.i18n.languages import SOURCE, codes, language, ordered
from pnp.reading import decode, read_inside

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
    return set(_extracted(domain))


@functools.cache
def _extracted(domain: str) -> dict[str, tuple[str, ...]]:
    """The messages marked in ``domain``'s sources, each with its ``avoid:`` comments."""
    from babel.messages.extract import extract_from_file

    found: dict[str, tuple[str, ...]] = {}
    for path in sources(domain):
        method = "jinja2.ext:babel_extract" if path.suffix == ".j2" else "python"
        for _line, message, comments, _context in extract_from_file(
                method, str(path), comment_tags=(AVOID,), strip_comment_tags=False):
            found[str(message)] = (*found.get(str(message), ()), *comments)
    return found


def catalogue_gaps(domain: str, lang: str) -> Iterator[Gap]:
    """Messages of ``domain`` missing, untranslated, fuzzy, mistranslated or stale in ``lang``."""
    path = language(lang).catalogue(domain)
    wanted = marked(domain)
    messages = _catalogue(lang, domain)
    if messages is None:
        yield Gap(domain, lang, f"no catalogue {shown(path)} ({len(wanted)} messages)")
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
        if lang != SOURCE and not all(isinstance(t, Text) for t in texts):
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
    if lang == SOURCE:
        texts["its messages"] = "\n".join(sorted(marked(game)))
    else:
        messages = _catalogue(lang, game)
        if messages is not None:
            texts[f"{game}.po"] = "\n".join(str(m.string) for m in messages.values())
    return texts


MAX_WRITTEN = 1024 * 1024
"""The most bytes of a rulebook or card text the glossary's check reads."""


def _catalogue(lang: str, domain: str) -> dict[str, Any] | None:
    """The messages of ``domain``'s catalogue in ``lang``, by id; None if there is none."""
    facts = language(lang)
    if not facts.catalogue(domain).is_file():
        return None
    return read_catalogue(facts, domain)


def rejected(game: str, term: Term, lang: str) -> tuple[str, ...]:
    """The variants of ``term`` no text of ``game`` in ``lang`` may use: the ``avoid:``
    comments on its entry in the language's catalogue (in English, on the message itself)."""
    if lang == SOURCE:
        return avoided(_extracted(game).get(term.word, ()))
    message = (_catalogue(lang, game) or {}).get(term.word)
    return avoided(message.user_comments) if message is not None else ()


def glossary_gaps(game: str, lang: str) -> Iterator[Gap]:
    """Rejected variants of ``game``'s glossary terms that its texts in ``lang`` use."""
    texts = written(game, lang)
    for term in glossary(game):
        variants = rejected(game, term, lang)
        for where, text in texts.items():
            for variant in found_in(text, variants):
                yield Gap(game, lang, f"{where} says '{variant}': the glossary's word for "
                                      f"'{term.word}' is another")


def gaps(rules_dir: Path | None = None) -> list[Gap]:
    """Everything missing, in every language of every game."""
    found: list[Gap] = []
    published = {game: load(game, rules_dir).languages for game in GAMES}
    for lang in ordered({lang for languages in published.values() for lang in languages}):
        if lang != SOURCE:
            found += catalogue_gaps(COMMON, lang)
        for game in GAMES:
            if lang not in published[game]:
                continue
            if lang != SOURCE:
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
                            for lang in codes()}))
    return rows
