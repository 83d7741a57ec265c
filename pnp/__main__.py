"""``python -m pnp``: the same as the ``pnp`` command."""

from pnp.cli import main

if __name__ == "__main__":
    main(prog_name="pnp")
