"""Drawing with reportlab: canvas, geometry, fonts, colours, paper, identity, pieces, SVG."""
