"""Score sheets and pads: the layout every game's sheets share, and fillable PDFs."""
