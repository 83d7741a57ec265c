"""The games pnp knows, a folder each; :mod:`pnp.registry` lists them and finds their code."""
