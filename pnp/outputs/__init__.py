"""pnp's output files: what each is called (:mod:`pnp.outputs.targets`), what a PDF says it
is (:mod:`pnp.outputs.documents`), and how each is written, never half-written nor where not
asked (:mod:`pnp.outputs.writing`)."""
