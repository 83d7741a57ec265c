"""The Jinja2 sandbox a publisher's templates render in, and what it refuses.

A document's Markdown and its HTML page are templates of the edition, so they may be
anyone's: they render in a :class:`Sandbox` (``StrictUndefined``: a missing value fails the
build) that reads templates only from inside the edition's templates folder (links
followed), and is bounded in time, memory, length and the size of the numbers it computes.
Whatever goes wrong is one line naming the template's file and line
(:func:`render_template`).
"""

from __future__ import annotations

import functools
import math
import os
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, cast

import jinja2
from jinja2 import nodes
from jinja2.bccache import Bucket
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment

from pnp.assets import shown
from pnp.books.limits import TooSlow, memory_allowance, time_limit
from pnp.books.references import clipped
from pnp.definitions.base import in_language
from pnp.errors import DocumentError, OutsideError, ReadError
from pnp.reading import text_inside

TEMPLATE_SECONDS = 4.0
"""Processor time a document's templates may take to render (the longest bundled one takes
0.15 s), checked at every step and call and, for one long call, by :func:`time_limit`."""
CALL_GRACE = 0.5
"""Processor time past the deadline before one long call is stopped (:func:`time_limit`):
a loop runs out at a step check first, which names its line."""
TEMPLATE_MEMORY = 256 * 1024 * 1024
"""Memory a template may take while it renders, beyond what the process already uses."""
MAX_TEXT = 128 * 1024
"""Characters a document's text or its body in HTML may come to (its page, twice this).
The longest bundled page has about 31 000; WeasyPrint takes about 3 s to lay out this many."""
MAX_BITS = 4000
"""Bits a number computed in a template may have (about 1 200 digits)."""


class _Refused(jinja2.TemplateRuntimeError):
    """A template that went past a bound: too long, too slow, too big a number."""


class _EditionLoader(jinja2.BaseLoader):
    """Reads templates from the edition's templates folder and nowhere else: a name
    whose file, or a folder on its way, is a link leading outside is refused."""

    def __init__(self, templates: Path, read: list[tuple[Path, str]]) -> None:
        self.templates = templates
        self.read = read

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, Callable[[], bool]]:
        if isinstance(environment, Sandbox):
            environment.check()
        path = self.templates.joinpath(*split_template_path(template))
        try:
            text = text_inside(self.templates, path)
        except ReadError as exc:
            if not os.path.lexists(path):
                raise jinja2.TemplateNotFound(
                    template, f"no template '{clipped(template)}' in the edition's templates"
                ) from None
            if isinstance(exc, OutsideError):
                raise SecurityError(f"'{clipped(template)}' {exc}") from None
            raise _Refused(f"'{clipped(template)}' {exc}") from None
        self.read.append((path, text))
        return text, str(path), lambda: True


class _Compiled(jinja2.BytecodeCache):
    """The code of the templates compiled in this process, by name and source: a template
    is read through the edition's reader every time, and compiled again only when its text
    has changed."""

    def __init__(self) -> None:
        self.code: dict[str, tuple[str, Any]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        checksum, code = self.code.get(bucket.key, ("", None))
        if checksum == bucket.checksum:
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = (bucket.checksum, bucket.code)


_COMPILED: dict[tuple[tuple[str, Any], ...], _Compiled] = {}
"""A cache for each set of options (they change the code a template compiles to)."""


class Sandbox(SandboxedEnvironment):
    """The environment a document's templates render in: sandboxed, reading only the
    edition's templates, and bounded in time (every loop step, call and filter checks
    the deadline), in the numbers and sequences it computes, and (see :func:`render_template`)
    in memory and length."""

    intercepted_binops = frozenset({"*", "**", "+"})

    def __init__(self, templates: Path, **options: Any) -> None:
        self.templates = templates
        self.read: list[tuple[Path, str]] = []
        """(path, text) of every template read, the first being the one rendered."""
        compiled = _COMPILED.setdefault(tuple(sorted(options.items())), _Compiled())
        super().__init__(loader=_EditionLoader(templates, self.read),
                         undefined=jinja2.StrictUndefined, optimized=False,
                         bytecode_cache=compiled, **options)
        self.deadline = math.inf
        del self.globals["lipsum"]
        self.filters.update(signed=_signed, tr=in_language, pnp_steps=self._steps)
        self.filters = {name: self._timed(function) for name, function in self.filters.items()}

    def check(self) -> None:
        if time.process_time() > self.deadline:
            raise _Refused(f"takes longer than {TEMPLATE_SECONDS:g} s to render "
                           f"(a loop too long?)")

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Filter(loop.iter, "pnp_steps", [], [], None, None,
                                     lineno=loop.lineno)
        return tree

    def _steps(self, items: Any) -> Iterator[Any]:
        """A loop's items, checking the deadline at each step."""
        for item in items:
            self.check()
            yield item

    def _timed(self, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.check()
            return function(*args, **kwargs)

        return timed

    def call(self, context: jinja2.runtime.Context, obj: Any, /, *args: Any,
             **kwargs: Any) -> Any:
        self.check()
        return super().call(context, obj, *args, **kwargs)

    def getattr(self, obj: Any, attribute: str) -> Any:
        self.check()
        return super().getattr(obj, attribute)

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any,
                   right: Any) -> Any:
        self.check()
        numbers = isinstance(left, int) and isinstance(right, int)
        if operator == "**" and numbers and right > 0 and abs(left) > 1 and \
                right * abs(left).bit_length() > MAX_BITS:
            raise _Refused(f"{clipped(str(left), 20)} ** {clipped(str(right), 20)} is too "
                           f"large a number")
        if operator == "*" and numbers and left.bit_length() + right.bit_length() > MAX_BITS:
            raise _Refused("multiplies numbers into too large a number")
        sequences = (str, list, tuple)
        if operator == "*" and not numbers:
            count, items = (right, left) if isinstance(right, int) else (left, right)
            if isinstance(count, int) and isinstance(items, sequences) and \
                    len(items) * count > MAX_TEXT:
                raise _Refused(f"repeats a text or list into more than {MAX_TEXT} items")
        if operator == "+" and isinstance(left, sequences) and isinstance(right, sequences) \
                and len(left) + len(right) > MAX_TEXT:
            raise _Refused(f"joins texts or lists into more than {MAX_TEXT} items")
        return super().call_binop(context, operator, left, right)


def render_template(env: Sandbox, name: str, context: dict[str, Any],
                    limit: int = MAX_TEXT) -> str:
    """``name`` rendered in ``env``, within the deadline, the memory allowance and
    ``limit`` characters; whatever goes wrong is one line naming the file and line."""
    env.deadline = time.process_time() + TEMPLATE_SECONDS
    main = env.templates / name
    parts: list[str] = []
    size = 0
    try:
        with memory_allowance(TEMPLATE_MEMORY), time_limit(TEMPLATE_SECONDS + CALL_GRACE):
            generator = cast(Generator[str, None, None],
                             env.get_template(name).generate(context))
            for part in generator:
                size += len(part)
                try:
                    if size > limit:
                        raise _Refused(f"too long: more than {limit // 1024} KiB of text")
                    env.check()
                except _Refused as exc:
                    generator.throw(exc)  # raised where the template is, for its line
                parts.append(part)
    except TooSlow as exc:  # one call that ran past the deadline, which only loops check
        slow = _Refused(f"takes longer than {TEMPLATE_SECONDS:g} s to render")
        raise DocumentError(_failure(slow.with_traceback(exc.__traceback__), main)) from None
    except Exception as exc:  # a publisher's template may fail in any way: say where
        raise DocumentError(_failure(exc, main)) from None
    return "".join(parts)


def _failure(exc: Exception, main: Path) -> str:
    """The one line saying where and why a template failed."""
    file, line = _template_frame(exc.__traceback__) or (str(main), 0)
    if isinstance(exc, jinja2.TemplateSyntaxError):
        file, line = exc.filename or str(main), exc.lineno
    if isinstance(exc, MemoryError):
        why = f"takes more than {TEMPLATE_MEMORY // 1024 // 1024} MiB of memory to render"
    elif isinstance(exc, RecursionError):
        why = "nested too deeply (a macro or include that calls itself?)"
    elif isinstance(exc, OverflowError) and not str(exc).startswith("Range"):
        why = "computes too large a number"
    elif isinstance(exc, SecurityError):
        why = f"not allowed: {exc}"
    elif isinstance(exc, jinja2.TemplateSyntaxError):
        why = exc.message or "syntax error"
    else:
        why = str(exc) or type(exc).__name__
    where = f"{shown(Path(file))}:{line}" if line else shown(Path(file))
    return f"{where}: {clipped(' '.join(why.split()), 300)}"


def _template_frame(tb: TracebackType | None) -> tuple[str, int] | None:
    """The file and line of the innermost template frame of a traceback, as Jinja
    rewrites it (its frames stand for template lines)."""
    found = None
    while tb is not None:
        if "__jinja_exception__" in tb.tb_frame.f_globals:
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found



def _signed(value: int) -> str:
    """``-5`` as ``−5`` and ``5`` as ``+5``: points as people write them."""
    return f"+{value}" if value > 0 else str(value).replace("-", "−")
