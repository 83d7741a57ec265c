"""Words for each game's breakdown lines and notes, marked for gettext.

Each game has a module here with ``describe(item, _)`` and ``describe_note(note, _)``,
which turn an engine's plain :class:`~pnp.engines.result.Item` into a sentence in
the language of ``_``. Engines never hold words; these modules never score.
"""
