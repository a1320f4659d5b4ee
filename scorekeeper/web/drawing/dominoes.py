"""Dominoes drawn as SVG markup, in Python: the faces that every table page repeats.

A play screen draws 50 to 80 tile faces (the tray's 28 and the layout's), each a rectangle,
a line and up to twelve pips. As Jinja macros that was 2,500 escaped numbers and about half
the time of a play request. Here a face is formatted once per distinct box and kept
(``functools.lru_cache``): a tray tile never changes, and a layout tile keeps its place
while the layout grows. ``templates/_dominoes.html`` documents the macros that call these;
the markup is exactly what those macros drew before.

The words in a drawing (a tile's name to screen readers, an end's button) are said in the
reader's language: a drawing kept with words in it is kept per language.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from flask import Flask
from markupsafe import Markup, escape

from scorekeeper.rules.tiles import Tile
from scorekeeper.web import languages
from scorekeeper.web.drawing.tilenames import tile_spoken
from scorekeeper.web.languages import gettext as _

if TYPE_CHECKING:
    from scorekeeper.web.drawing.picture import EndMarker, TileShape

_PIP_GRID: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}
"""Where the pips of each number sit on a 3 by 3 grid (column, row), as on a die."""

_SIZES = {"sm": 20, "md": 32, "lg": 48}
"""A tile's height in CSS pixels by size name (the width and height attributes' fallback)."""


def end_text(end: EndMarker) -> str:
    """An open end in words, as on its button: "W shows 3"."""
    return _("%(end)s shows %(number)s", end=end.name, number=end.shows)


def end_play_text(end: EndMarker, tile: Tile) -> str:
    """An end's button to screen readers: "W shows 3: play six-three there"."""
    return _(
        "%(end)s shows %(number)s: play %(tile)s there",
        end=end.name,
        number=end.shows,
        tile=tile_spoken(tile),
    )


def _n(value: float) -> str:
    """A coordinate as the templates printed it: rounded to two places, Python's repr."""
    return str(round(value, 2))


def _pips(number: int, x: float, y: float, side: float, horizontal: bool) -> str:
    """The pips of one half (a square of side ``side`` at (x, y)) as path data: one round
    subpath a pip, two half-circle arcs from its left edge."""
    radius = side * 0.095
    arc = f"a{_n(radius)} {_n(radius)} 0 1 0"
    circles = []
    for col, row in _PIP_GRID.get(number, _PIP_GRID[number % 7]):
        if horizontal and number == 6:
            col, row = row, col
        left = _n(x + side * (0.22 + 0.28 * col) - radius)
        cy = _n(y + side * (0.22 + 0.28 * row))
        circles.append(f"M{left} {cy}{arc} {_n(2 * radius)} 0{arc} {_n(-2 * radius)} 0")
    return "".join(circles)


def _pip_path(data: str) -> str:
    """Every pip of a face in one ``<path>``: a tray of 28 tiles is 28 elements of pips, not
    some 170 circles, for the phone to parse and swap in after each entry."""
    return f'<path class="pip" d="{data}" fill="#1c1c1c"/>' if data else ""


@lru_cache(maxsize=4096)
def tile_face(first: int, second: int, x: float, y: float, width: float, height: float) -> Markup:
    """A tile's face, dividing line and pips in the box (x, y, width, height)."""
    horizontal = width > height
    side = height if horizontal else width
    face = (
        f'<rect class="domino__face" x="{_n(x + 0.5)}" y="{_n(y + 0.5)}"'
        f' width="{_n(width - 1)}" height="{_n(height - 1)}" rx="{_n(side * 0.14)}"'
        ' fill="#fbf6e9" stroke="#5b5447" stroke-width="1"/>'
    )
    stroke = f'stroke="#5b5447" stroke-width="{_n(side * 0.04)}"/>'
    if horizontal:
        line = (
            f'\n  <line class="domino__line" x1="{_n(x + side)}" y1="{_n(y + side * 0.14)}"'
            f' x2="{_n(x + side)}" y2="{_n(y + side * 0.86)}" {stroke}'
        )
        pips = _pip_path(_pips(first, x, y, side, True) + _pips(second, x + side, y, side, True))
    else:
        line = (
            f'\n  <line class="domino__line" x1="{_n(x + side * 0.14)}" y1="{_n(y + side)}"'
            f' x2="{_n(x + side * 0.86)}" y2="{_n(y + side)}" {stroke}'
        )
        pips = _pip_path(_pips(first, x, y, side, False) + _pips(second, x, y + side, side, False))
    return Markup(face + line + pips)


def domino(tile: Tile, size: str = "md", vertical: bool = False, label: bool = True) -> Markup:
    """One tile as a standalone ``<svg>``; ``label`` names it to screen readers, else hidden."""
    return _domino(tile, size, vertical, label, languages.current() if label else "")


@lru_cache(maxsize=1024)
def _domino(tile: Tile, size: str, vertical: bool, label: bool, language: str) -> Markup:
    """:func:`domino` drawn once per tile, size, way up and (when named) language."""
    px = _SIZES[size]
    width, height = (50, 100) if vertical else (100, 50)
    name = f'role="img" aria-label="{escape(tile_spoken(tile))}"'
    hidden = 'aria-hidden="true" focusable="false"'
    return Markup(
        f'<svg class="domino domino--{size}{" domino--vertical" if vertical else ""}"'
        f' viewBox="0 0 {width} {height}" width="{px * width // 50}"'
        f' height="{px * height // 50}" xmlns="http://www.w3.org/2000/svg"'
        f' data-tile="{escape(str(tile))}" {name if label else hidden}>'
        f"{tile_face(tile.high, tile.low, 0, 0, width, height)}</svg>"
    )


def layout_tiles(tiles: tuple[TileShape, ...] | list[TileShape]) -> Markup:
    """The ``<g class="table-tile">`` of every tile in a layout picture, in drawing order."""
    groups = []
    for shape in tiles:
        classes = "table-tile"
        if shape.double:
            classes += " table-tile--double"
        if shape.spinner:
            classes += " table-tile--spinner"
        arm = f' data-arm="{escape(shape.arm)}"' if shape.arm else ""
        face = tile_face(shape.first, shape.second, shape.x, shape.y, shape.width, shape.height)
        groups.append(
            f'\n    <g class="{classes}" data-tile="{escape(str(shape.tile))}"{arm}>{face}</g>'
        )
    return Markup("".join(groups))


TEMPLATE_GLOBALS = {
    "domino_svg": domino,
    "layout_tiles": layout_tiles,
    "tile_spoken": tile_spoken,
    "end_text": end_text,
    "end_play_text": end_play_text,
    "said": languages.said,
}
"""What ``templates/_dominoes.html`` (and the tiles of the table's tray) call, by the names
they call them; ``said`` says a picture's words, the referee's messages or plain text."""


def init_app(app: Flask) -> None:
    """Offer the drawing functions to templates."""
    app.jinja_env.globals.update(TEMPLATE_GLOBALS)
