"""The rules engines: one pure module per game that checks and scores its input (no I/O,
no rendering)."""
