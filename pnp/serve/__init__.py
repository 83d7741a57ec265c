"""``pnp serve``: the local HTTP server, the watch that rebuilds, and QR codes."""
