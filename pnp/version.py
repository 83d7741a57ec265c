"""pnp's version, in this one place: the package metadata reads it from here (see
``pyproject.toml``) and :data:`pnp.__version__` is it. A module of its own, so that the
lowest layers (the definitions' cache) can read it without importing the public API."""

VERSION = "0.1.0"
