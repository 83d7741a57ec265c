"""Shared pieces of every game definition: the frozen dataclass base and common sections.

Definitions are standard-library dataclasses, frozen, their fields given by name, so that
a command reading a cached definition never imports pydantic, which costs more than the
rest of ``pnp score``. Pydantic only validates them (:mod:`pnp.definitions.validation`):
unknown keys forbidden, scalars strict (YAML's ``"5"`` is not the number 5), every problem
reported at once with its location. What pydantic checks beyond a field's type is written
here without it: ``Annotated`` metadata (:class:`Constrained`, :class:`Check`) that builds
its part of the schema when pydantic asks, and ``__post_init__`` methods that raise
``ValueError`` for rules across the fields of one object.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, fields
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, cast, dataclass_transform


class Constrained:
    """``Annotated`` metadata: keys added to the field's pydantic-core schema, such as
    ``strict=True``, ``ge=1`` or ``pattern=...``, with pydantic's own messages."""

    def __init__(self, **keys: object) -> None:
        self.keys = keys

    def __get_pydantic_core_schema__(self, source: Any, handler: Callable[[Any], Any]) -> Any:
        return {**handler(source), **self.keys}


class Check:
    """``Annotated`` metadata: ``check(value, earlier)`` once the value has its type, where
    ``earlier`` holds the object's fields validated before this one. It returns the value
    or raises ``ValueError``, reported at this field."""

    def __init__(self, check: Callable[[Any, Mapping[str, Any]], Any]) -> None:
        self.check = check

    def __get_pydantic_core_schema__(self, source: Any, handler: Callable[[Any], Any]) -> Any:
        from pydantic_core import core_schema

        check = self.check
        return core_schema.with_info_after_validator_function(
            lambda value, info: check(value, info.data or {}), handler(source))


def _colour(value: str, earlier: Mapping[str, Any]) -> str:
    if not re.fullmatch(r"#[0-9A-Fa-f]{6}", value):
        raise ValueError(f"'{value}' is not a colour like #1F5C7A")
    return value


def _printed(value: str, earlier: Mapping[str, Any]) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


def unique(what: str) -> Check:
    """Items of a list whose ``what`` (an attribute) must differ from each other's."""

    def check(items: tuple[Any, ...], earlier: Mapping[str, Any]) -> tuple[Any, ...]:
        seen = [getattr(item, what) for item in items]
        repeated = sorted({key for key in seen if seen.count(key) > 1})
        if repeated:
            raise ValueError(f"{what} {', '.join(map(repr, repeated))} appears more than once")
        return items

    return Check(check)


MAX_PLAYERS = 12
"""The most players a definition may allow: more than any sheet, pad or aid has room for."""

STRICT = Constrained(strict=True)
Int = Annotated[int, STRICT]
Str = Annotated[str, STRICT, Check(_printed)]
"""A text: every one is printed or shown somewhere, so none may be empty."""
Bool = Annotated[bool, STRICT]
Positive = Annotated[int, STRICT, Constrained(ge=1)]
NonNegative = Annotated[int, STRICT, Constrained(ge=0)]
Points = Annotated[int, STRICT, Constrained(ge=0, le=999)]
"""Points, penalties and targets: printed in a writing box, so at most three digits."""
Count = Annotated[int, STRICT, Constrained(ge=1, le=99)]
"""How many of something a sheet draws or a check goes through: at most two digits (the
sheets' own room is checked by :func:`pnp.sheets.layout.drawable`)."""
Colour = Annotated[str, STRICT, Check(_colour)]
"""A printed colour, ``#rrggbb``."""
Grey = Annotated[float, STRICT, Constrained(ge=0, le=1, allow_inf_nan=False)]
"""A grey for black-and-white printing: 0 is black, 1 white."""


@dataclass_transform(frozen_default=True, kw_only_default=True)
class Model:
    """Base of every definition object: each subclass is made a frozen dataclass whose
    fields are given by name (so a subclass may add fields after defaulted ones).

    What :func:`dataclasses.dataclass` would write for each class (``__init__``, ``__eq__``,
    ``__hash__``, ``__repr__`` and the refusal to change a field) is written once, here:
    writing it compiles code for every class, which was most of what importing a game's
    definition cost ``pnp score``. The dataclass machinery still lists each class's fields,
    for :func:`dataclasses.fields`, :func:`dataclasses.replace` and pydantic.
    """

    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}
    """Read by pydantic when it validates, inherited by every subclass."""
    __names: ClassVar[tuple[str, ...]] = ()
    __defaults: ClassVar[dict[str, Field[Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.__dict__.get("__doc__"):
            cls.__doc__ = f"A definition's {cls.__name__}."
        dataclass(init=False, repr=False, eq=False, kw_only=True)(cls)
        listed = fields(cast(Any, cls))
        cls.__names = tuple(f.name for f in listed)
        cls.__defaults = {f.name: f for f in listed
                          if f.default is not MISSING or f.default_factory is not MISSING}

    def __init__(self, **values: Any) -> None:
        name = type(self).__qualname__
        for field in self.__names:
            if field in values:
                value = values.pop(field)
            elif field in self.__defaults:
                default = self.__defaults[field]
                value = (default.default if default.default_factory is MISSING
                         else default.default_factory())
            else:
                raise TypeError(f"{name}.__init__() missing 1 required keyword-only argument: "
                                f"'{field}'")
            object.__setattr__(self, field, value)
        if values:
            raise TypeError(f"{name}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(values))}'")
        post_init = getattr(self, "__post_init__", None)
        if post_init is not None:
            post_init()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.__values() == other.__values()

    def __hash__(self) -> int:
        return hash(self.__values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{field}={getattr(self, field)!r}" for field in self.__names)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, field) for field in self.__names)


class Text(Mapping[str, str]):
    """A short text in each of its game's languages: a mapping of language codes to texts,
    ``{es: Ronda, en: Ronda, fr: Ronda}``. Which languages a game has is said by its
    ``name:``, and every other text of its definition must be written in exactly those
    (see :func:`pnp.definitions.languages_problems`).

    >>> name = Text({"es": "morada", "en": "purple"})
    >>> name("es"), list(name)
    ('morada', ['es', 'en'])
    """

    __slots__ = ("_texts",)
    _texts: dict[str, str]

    def __init__(self, texts: Mapping[str, str]) -> None:
        object.__setattr__(self, "_texts", dict(texts))

    def __call__(self, lang: str) -> str:
        """The text in ``lang``."""
        return self._texts[lang]

    def __getitem__(self, lang: str) -> str:
        return self._texts[lang]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and self._texts == other._texts

    def __hash__(self) -> int:
        return hash(tuple(self._texts.items()))

    def __repr__(self) -> str:
        return f"Text({self._texts!r})"

    def __reduce__(self) -> tuple[type[Text], tuple[dict[str, str]]]:
        return (Text, (self._texts,))

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field '{name}'")

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Callable[[Any], Any]) -> Any:
        from pydantic_core import core_schema

        texts = core_schema.dict_schema(
            keys_schema=core_schema.str_schema(strict=True, pattern=LANGUAGE_CODE),
            values_schema=handler.generate_schema(Str), min_length=1, strict=True)  # type: ignore[attr-defined]
        return core_schema.no_info_after_validator_function(cls, texts)


LANGUAGE_CODE = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"
"""How a language is named in a text: its code, as its locale folder is (``es``, ``pt-BR``)."""


class Tint(Model):
    """A colour for colour printers and the grey that stands for it in black and white."""

    colour: Colour
    grey: Grey


class Identity(Model):
    """A game's look, shared by its sheets, reference card, rulebook cover and deck.

    ``colours`` are the game's own colours in order (the first leads); ``ink`` draws the
    title and heavy frames; ``lockup`` is how the title is drawn: ``tiles`` sets each letter
    on a tile, the tiles taking the colours in turn, like dice in a row; ``band`` reverses the
    title out of a band of the first colour, with the other colours as a rule beneath.
    """

    colours: Annotated[tuple[Tint, ...], Constrained(min_length=1, max_length=4)]
    ink: Tint
    lockup: Literal["tiles", "band"]


class Printing(Model):
    """The ``print:`` section every game has: its identity, then what its own sheets need."""

    identity: Identity


class PlayerCount(Model):
    min: Positive
    max: Annotated[int, STRICT, Constrained(ge=1, le=MAX_PLAYERS)]

    def __post_init__(self) -> None:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is more than max {self.max}")


class Decision(Model):
    """Where the source is silent, ambiguous or contradicts itself: what we chose and why.

    Written in each published language (a plain text counts as English only, and the
    translation report lists it as missing in the others).
    """

    id: Str
    decision: Text | Str
    why: Text | Str
    applies: Literal["play", "calculator", "wording", "credits"] = "play"
    """Whom it concerns: the players (each rulebook marks it where it applies), only the
    calculator (``pnp score``; listed in ``docs/input-formats.md``), only the words of one
    language's texts (recorded here for the translators), or the credits (the licence a
    silent source leaves this edition to state: see :attr:`Credits.licence`)."""


class Completion(Model):
    """A rule the source lacks, written by the editors so the game is playable."""

    id: Str
    rule: Text | Str
    why: Text | Str


def in_language(text: Text | str, lang: str) -> str:
    """``text`` in ``lang``; an English-only text stays English."""
    return text(lang) if isinstance(text, Text) else text


LICENCE = "licence"
"""The id of the decision that states the licence where the source states none."""


class Credits(Model):
    designers: tuple[Str, ...]
    traditional: Bool = False
    """A folk game: no known designer."""
    source: Str
    source_language: Str
    """The language the source is written in, whose words the game keeps (its code)."""
    licence: Text | Str | None = ""
    """The licence the source states, as the credits print it; ``null`` where the source
    states none: the game's decision ``licence`` (``applies: credits``) then says what this
    edition takes, and the credits print that instead. Left out (as in a definition written
    before pnp knew of licences), the credits state none."""
    notes: Str | None = None


def _licence_stated_once(decisions: tuple[Decision, ...],
                         earlier: Mapping[str, Any]) -> tuple[Decision, ...]:
    credits = earlier.get("credits")
    if credits is None:  # reported at credits already
        return decisions
    given = [d for d in decisions if d.id == LICENCE]
    if credits.licence is None and not given:
        raise ValueError(f"credits.licence is null, so a decision '{LICENCE}' (applies: "
                         "credits) must say what this edition takes where the source is silent")
    if credits.licence and given:
        raise ValueError(f"decision '{LICENCE}' repeats the credits.licence the source states")
    if any(d.applies == "credits" and d.id != LICENCE for d in decisions) \
            or any(d.applies != "credits" for d in given):
        raise ValueError(f"only the decision '{LICENCE}' applies to the credits, and it does")
    return decisions


class GameInfo(Model):
    """The facts every game shares: names, credits, player count, decisions, and a ``print:``
    section of its own (see :attr:`print`).

    The stages that serve every game (a sheet's title, a book's cover, the landing page) take
    a ``GameInfo`` and read only what it declares; a game's own modules take its subclass.
    """

    __pydantic_config__: ClassVar[dict[str, Any]] = {**Model.__pydantic_config__,
                                                     "validate_default": True}
    """A definition without ``decisions:`` is checked too (see :attr:`Credits.licence`)."""

    game: Str
    name: Text
    credits: Credits
    players: PlayerCount
    minutes: Positive | None = None
    minutes_estimated: Bool = False
    """The playing time is this edition's estimate: the source gives none."""
    decisions: Annotated[tuple[Decision, ...], unique("id"), Check(_licence_stated_once)] = ()

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages the game is published in: those its ``name:`` is written in, in
        the order of :func:`pnp.i18n.languages.known`."""
        from pnp.i18n.languages import ordered

        return ordered(self.name)

    def licence(self, lang: str) -> str:
        """The credits' licence line in ``lang``: the source's, or this edition's decision
        where the source states none."""
        if self.credits.licence is not None:
            return in_language(self.credits.licence, lang)
        return next(in_language(d.decision, lang) for d in self.decisions if d.id == LICENCE)

    if TYPE_CHECKING:
        @property
        def print(self) -> Printing:
            """The game's ``print:`` section, which each game declares among its own fields
            with its own :class:`Printing` (a field here would come first, and pydantic
            reports a file's problems in the order of the fields)."""
