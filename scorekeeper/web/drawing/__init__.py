"""Pictures, drawn in Python from plain data: domino faces, the layout as an SVG scene, the
score charts, the cribbage board, a tile's spoken name, and page fragments kept once made.
A shared leaf: it imports the referee and the site's words, never a page or the database."""
