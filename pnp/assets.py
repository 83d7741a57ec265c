"""Where pnp finds every file it reads, and the editions that replace them.

pnp reads game definitions, rulebook and card texts, page templates and style sheets,
worked examples and fonts. They are package data under ``pnp/data/``: in the
repository those are links to the top-level ``rules/``, ``templates/``, ``examples/``
and ``fonts/`` folders, and a wheel carries copies, so a checkout, an editable install
and an installed wheel all read them from the same place inside the package. The
gettext catalogues live in ``pnp/i18n/locale/`` beside the code.

A publisher's own **edition** (``pnp init DIR``) is a folder with a ``pnp.toml`` that
names its own definitions, texts and examples; every command reads those instead of the
bundled ones. It may also bring languages of its own (``locale = "locale"``, a folder laid
out like ``pnp/i18n/locale/``: see :mod:`pnp.i18n.languages`); the fonts always come from
the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnp.errors import EditionError

PACKAGE = Path(__file__).parent
"""pnp's own folder: its code, catalogues and bundled data."""
DATA = PACKAGE / "data"
"""The bundled data folder inside the installed package: what
``importlib.resources.files("pnp") / "data"`` answers for a package installed as files,
without importing importlib.resources (12 ms of every ``pnp score``)."""

FONTS = DATA / "fonts"
"""The bundled fonts and their licence (never replaced by an edition)."""

CONFIG = "pnp.toml"
"""The file that makes a folder an edition."""

CONFIG_LIMIT = 64 * 1024
"""The largest ``pnp.toml`` read: the one ``pnp init`` writes has 700 bytes."""

EDITABLE = ("rules", "templates", "examples")
"""The folders an edition may replace, as named in ``pnp.toml`` and in ``pnp/data/``."""
ADDED = ("locale",)
"""The folders an edition may add to pnp's own: its languages (``pnp init`` copies none)."""


@dataclass(frozen=True)
class Edition:
    """The folders one edition of the games is made from."""

    rules: Path
    """Game definitions, ``<game>.yaml``."""
    templates: Path
    """Rulebook and card texts (``rulebooks/<game>/<lang>.md``), page templates, style sheets."""
    examples: Path
    """The worked example each rulebook scores, ``<game>.yaml``."""
    config: Path | None = None
    """The ``pnp.toml`` this edition was read from; none for the bundled one."""
    locale: Path | None = None
    """Languages the edition adds to pnp's own, ``<code>/language.yaml`` and
    ``<code>/LC_MESSAGES/<domain>.po``; none for the bundled one."""

    @classmethod
    def bundled(cls) -> Edition:
        """pnp's own edition, made once: every definition load asks for it."""
        return _BUNDLED

    @classmethod
    def from_folder(cls, folder: Path) -> Edition:
        """The edition described by ``folder/pnp.toml`` (folders relative to it)."""
        from pnp.errors import ReadError
        from pnp.reading import decode, read_path

        path = folder / CONFIG
        shown_path = shown(path)
        if not path.exists() and not path.is_symlink():
            raise EditionError(f"{shown_path}: not found (make an edition with "
                               f"'pnp init {shown(folder)}')")
        try:
            text = decode(read_path(path, CONFIG_LIMIT, "an edition's settings"))
        except ReadError as exc:
            place = f"{shown_path}:{exc.line}" if exc.line else shown_path
            raise EditionError(f"{place}: {exc.message}") from None
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise EditionError(f"{shown_path}: invalid TOML: {exc}") from None
        except RecursionError:
            raise EditionError(f"{shown_path}: nested too deeply to read (an edition's "
                               f"settings are a table of folder names)") from None
        table = data.get("edition", {})
        if not isinstance(table, dict):
            raise EditionError(f"{shown_path}: edition: expected a table, [edition]")
        allowed = (*EDITABLE, *ADDED)
        unknown = sorted(set(data) - {"edition"}) + [f"edition.{key}" for key in
                                                     sorted(set(table) - set(allowed))]
        if unknown:
            raise EditionError(f"{shown_path}: unknown setting '{unknown[0]}' (expected "
                               f"[edition] with {', '.join(allowed)})")
        bundled = cls.bundled()
        chosen = {}
        for name in allowed:
            value = table.get(name)
            if value is None:
                chosen[name] = getattr(bundled, name)
                continue
            if not isinstance(value, str) or not value:
                raise EditionError(f"{shown_path}: edition.{name}: expected a folder name")
            try:
                where = (folder / value).resolve()
                missing = "" if where.is_dir() else shown(where)
            except (OSError, ValueError):
                missing = repr(value)
            if missing:
                raise EditionError(f"{shown_path}: edition.{name}: no folder {missing}")
            chosen[name] = where
        return cls(**chosen, config=path.resolve())

    @property
    def name(self) -> str:
        """How the edition is shown to people: its folder, or "bundled"."""
        return shown(self.config.parent) if self.config else "bundled"


_BUNDLED = Edition(**{name: DATA / name for name in EDITABLE})

_current: Edition | None = None


def current() -> Edition:
    """The edition every reader uses unless told otherwise: the bundled one by default."""
    return _current or Edition.bundled()


def use(edition: Edition | None) -> None:
    """Make ``edition`` the current one for this process (``None``: the bundled one)."""
    global _current
    _current = edition


def init(folder: Path) -> list[Path]:
    """Copy the editable definitions, texts, templates and examples into a new ``folder``.

    ``folder`` must not exist or be an empty folder (not a link). Everything is written
    into a working folder made for it beside ``folder`` (made anew, never one found there:
    a name planted in advance, or a link, is left alone) and renamed into place, so a
    failure leaves nothing half-made. Returns the top-level entries made.
    """
    if folder.is_symlink():
        raise EditionError(f"{folder}: is a link (name a new folder)")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise EditionError(f"{shown(folder)}: already exists and is not an empty folder")
    resolved = folder.resolve()
    parent = resolved.parent
    if not parent.is_dir():
        state = "not a folder" if parent.exists() else "no such folder"
        raise EditionError(f"{shown(parent)}: {state}")
    import os
    import shutil
    import tempfile

    try:
        staging = Path(tempfile.mkdtemp(dir=parent, prefix=f".{resolved.name}.pnp-init-"))
    except OSError as exc:
        raise EditionError(f"{shown(folder)}: cannot make the edition: {exc}") from None
    try:
        umask = os.umask(0o022)
        os.umask(umask)
        staging.chmod(0o777 & ~umask)
        bundled = Edition.bundled()
        for name in EDITABLE:
            shutil.copytree(getattr(bundled, name), staging / name,
                            ignore=shutil.ignore_patterns("__pycache__", ".*"))
        (staging / CONFIG).write_text(TEMPLATE, encoding="utf-8")
        if folder.exists():
            folder.rmdir()
        staging.replace(folder)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise EditionError(f"{shown(folder)}: cannot make the edition: {exc}") from None
    return sorted(folder.iterdir())


TEMPLATE = """\
# A pnp edition: pnp reads this folder's definitions, texts and examples instead of its
# own. Run pnp from this folder (or pass --project) and edit freely:
#   rules/<game>.yaml                  every number the sheets, books and calculator use
#   templates/rulebooks/<game>/<lang>.md, templates/cards/<game>/<lang>.md   the texts
#   templates/*.css, templates/*.html.j2   page design of rulebooks and cards
#   examples/<game>.yaml               the worked example each rulebook scores
# Remove a line below to use pnp's own copy of that folder again. To add languages, make a
# folder laid out like pnp's locale (<code>/language.yaml, <code>/LC_MESSAGES/*.po) and add
# the line: locale = "locale"
[edition]
rules = "rules"
templates = "templates"
examples = "examples"
"""


def shown(path: Path) -> str:
    """``path`` as a person would type it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)
