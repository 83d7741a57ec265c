"""The ``pnp`` command: a thin shell over the package's API.

Every :class:`~pnp.errors.PnpError` is turned into its one-line message on
standard error and exit status 2, here and nowhere else.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from pnp.definitions import GAMES
from pnp.errors import DefinitionError, PnpError
from pnp.i18n import LANGUAGES, default_language


class Shell(click.Group):
    """A click group that reports pnp's errors as people-readable lines."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except DefinitionError as exc:
            for problem in exc.problems:
                click.echo(f"error: {problem}", err=True)
            ctx.exit(2)
        except PnpError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)


rules_option = click.option(
    "--rules", "rules_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Folder of game definitions (default: the project's rules/, or $PNP_RULES_DIR).")


@click.group(cls=Shell, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp")
def main() -> None:
    """pnp: print-and-play sheets, rulebooks and scoring for tabletop games."""


@main.command()
@click.argument("game", type=click.Choice(GAMES))
@click.argument("file", default="-", metavar="[FILE|-]")
@click.option("--lang", type=click.Choice(LANGUAGES), default=None,
              help="Language of the breakdown (default: the locale's, else English).")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable result.")
@rules_option
def score(game: str, file: str, lang: str | None, as_json: bool, rules_dir: Path | None) -> None:
    """Check a sheet, board, game record or deal and explain its score.

    FILE is YAML or JSON; '-' (the default) reads standard input.
    """
    import pnp
    from pnp.inputs import parse_text, read_file

    data = parse_text(sys.stdin.read(), "stdin") if file == "-" else read_file(file)
    result = pnp.score(game, data, rules_dir)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        click.echo(pnp.describe(result, lang or default_language(), rules_dir), nl=False)


@main.command()
@rules_option
def validate(rules_dir: Path | None) -> None:
    """Check every game definition; list all problems and exit 2 if there are any."""
    from pnp.definitions import rules_dir as default_dir
    from pnp.definitions import validate_all

    problems = validate_all(rules_dir)
    if problems:
        raise DefinitionError(problems)
    click.echo(f"{len(GAMES)} definitions are valid ({rules_dir or default_dir()})")


if __name__ == "__main__":
    main()
