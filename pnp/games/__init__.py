"""The games pnp knows: a folder each, and the registry every stage asks."""
