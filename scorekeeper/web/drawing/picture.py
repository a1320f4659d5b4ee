"""The table as it looks: where every tile of a layout lies, as an SVG scene.

The lead lies in the middle and the line runs west and east from it. Doubles lie crosswise.
A spinner's ``N`` arm grows up and its ``S`` arm down (sideways when the spinner lies in a
run that has turned). Tiles follow one another end to end, the touching halves adjacent, so
the half showing the arm's number faces outward at its tip. Like a real table running out of
room, a run turns a corner after a few tiles (always after a plain tile, never next to a
double), which keeps the picture narrow enough for a phone. A run that would land on a tile
already drawn turns the other way or carries on straight instead.

Known limits: a spinner never sits at a corner (its four sides are taken), so a run reaching
the corner with a spinner goes on a tile or two past it. With every double a spinner, a later
spinner's arm can be boxed in by other arms and is then drawn across them (well under 1% of
simulated layouts); such tables also run wider than the usual 9 tile lengths.

Geometry is worked out in tile widths (a tile is 1 wide and 2 long) and scaled to SVG units.

A scene holds no words: it is kept between requests (for readers of every language), so its
title, description and end names are said when read, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable
from dataclasses import dataclass

from scorekeeper.rules.layout import Layout, Placed
from scorekeeper.rules.tiles import Tile
from scorekeeper.web.bounded import Bounded
from scorekeeper.web.drawing.words import Facts, facts_of
from scorekeeper.web.languages import gettext as _

SCALE = 50.0
"""SVG units in one tile width (a tile is drawn 100 by 50)."""

_TURN_AFTER_ACROSS = 7.0  # a west-east run turns once it is this long (about 4 tiles)
_TURN_AFTER_UPDOWN = 11.0  # an up-down run may grow longer: phones scroll down, not across
_EDGE = 9.0  # runs going west or east turn before passing this far from the lead's centre
# With no spinner the whole layout is one line: its west-east runs turn sooner, which keeps a
# long line about 7 tiles wide instead of 10 (tiles half as big again on a phone). With
# spinners the arms crossing the line need the wider room to stay clear of one another.
_LINE_TURN_AFTER_ACROSS = 4.0
_LINE_EDGE = 6.0
_MARGIN = 0.4
_MARKER_R = 0.5
HALO_GAP = 7.0
"""SVG units between a fitting end's ring and the halo drawn round it."""
HALO_STROKE = 3.0
"""The halo's stroke width in SVG units."""
_LABEL_SIZE = 0.42
_MAX_ASPECT = 2.5
_MIN_WIDTH = 8.0
_MIN_HEIGHT = 3.0
_EPS = 1e-6

Vec = tuple[float, float]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1

LEFT: Vec = (-1.0, 0.0)
RIGHT: Vec = (1.0, 0.0)
UP: Vec = (0.0, -1.0)
DOWN: Vec = (0.0, 1.0)


@dataclass(frozen=True, slots=True)
class TileShape:
    """A tile as drawn: its box, and the numbers on its left/top (first) and right/bottom halves."""

    tile: Tile
    x: float
    y: float
    width: float
    height: float
    orientation: str
    first: int
    second: int
    double: bool
    spinner: bool
    arm: str | None

    @property
    def horizontal(self) -> bool:
        """Whether the tile lies across the picture (its halves side by side)."""
        return self.orientation == "horizontal"


@dataclass(frozen=True, slots=True)
class EndMarker:
    """An open end's marker at the tip of its arm: a circle showing the number, the arm's name.

    ``x``, ``y``, ``r`` are in SVG units; ``left`` and ``top`` place the marker's centre in %
    of the picture's width and height, and ``size`` is the width of its halo in % of the
    picture's width (where a tap target over it goes, and how big it must at least be).
    """

    name: str
    shows: int
    x: float
    y: float
    r: float
    label_x: float
    label_y: float
    label_anchor: str
    highlighted: bool
    left: float
    top: float
    size: float

    @property
    def halo_r(self) -> float:
        """The radius of the halo drawn round a fitting end's ring."""
        return self.r + HALO_GAP

    @property
    def text(self) -> str:
        """The end in words, as on its button: "W shows 3"."""
        return _("%(end)s shows %(number)s", end=self.name, number=self.shows)


@dataclass(frozen=True, slots=True)
class Picture:
    """The table as an SVG scene: viewBox, tiles, open-end markers, and the same in words."""

    view_box: tuple[float, float, float, float]
    tiles: tuple[TileShape, ...]
    ends: tuple[EndMarker, ...]
    facts: Facts

    @property
    def view_box_text(self) -> str:
        """The viewBox attribute: "x y width height"."""
        return " ".join(_num(v) for v in self.view_box)

    @property
    def title(self) -> str:
        """The picture's title, in the reader's language."""
        return self.facts.title

    @property
    def lines(self) -> list[str]:
        """The description, one line per item, in the reader's language."""
        return self.facts.lines()

    @property
    def description(self) -> str:
        """The description, a line per item."""
        return "\n".join(self.lines)

    @property
    def highlighted(self) -> list[EndMarker]:
        """The markers of the ends the selected tile fits."""
        return [end for end in self.ends if end.highlighted]


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _add(a: Vec, b: Vec, k: float = 1.0) -> Vec:
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def _clockwise(v: Vec) -> Vec:
    """The heading a quarter turn clockwise on screen (y grows downward)."""
    return (-v[1], v[0])


def _anticlockwise(v: Vec) -> Vec:
    return (v[1], -v[0])


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] - _EPS and b[0] < a[2] - _EPS and a[1] < b[3] - _EPS and b[1] < a[3] - _EPS


def _box(start: Vec, heading: Vec, along: float, across: float) -> Rect:
    """The box reaching ``along`` from ``start`` in ``heading``, ``across`` wide, centred."""
    end = _add(start, heading, along)
    side = (abs(heading[1]), abs(heading[0]))
    a = _add(start, side, -across / 2)
    b = _add(end, side, across / 2)
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))


@dataclass(slots=True)
class _Run:
    """An arm being drawn: the centre of its tip's outer edge, its heading, the current run."""

    name: str
    point: Vec
    heading: Vec
    length: float = 0.0
    tip_double: bool = True
    across: float = _TURN_AFTER_ACROSS
    edge: float = _EDGE

    def limit(self) -> float:
        """How long the current straight run may grow before it turns a corner."""
        return self.across if self.heading[1] == 0 else _TURN_AFTER_UPDOWN

    def options(self, along: float) -> list[tuple[Vec, Vec, bool]]:
        """Where something ``along`` long may go next: (start, heading, turned), best first.

        A run turns once it is long enough, or when going on would pass the table's edge;
        next to a double it waits a tile longer. Turning is also the way round a tile in the way.
        """
        straight = (self.point, self.heading, False)
        if self.length == 0:
            return [straight]
        back = _add(self.point, self.heading, -0.5)  # the centre of the tip's outer half
        reach = 1.0 if self.tip_double else 0.5
        turns = [
            (_add(back, h, reach), h, True)
            for h in (_clockwise(self.heading), _anticlockwise(self.heading))
        ]
        past_edge = (
            self.heading[1] == 0 and abs(self.point[0] + self.heading[0] * along) > self.edge + _EPS
        )
        limit = self.limit() + (2.0 if self.tip_double else 0.0)
        if past_edge or self.length >= limit - _EPS:
            return [*turns, straight]
        return [straight, *turns]


def _spinner_ends(box: Rect, heading: Vec) -> list[tuple[Vec, Vec, Rect]]:
    """A spinner's two ends (N first): where each arm starts, its heading, its first tile's room."""
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    ways = (UP, DOWN) if heading[1] == 0 else (LEFT, RIGHT)
    return [
        (_add(centre, way, 1.0), way, _box(_add(centre, way, 1.0), way, 2.0, 2.0)) for way in ways
    ]


class _Table:
    """The scene under construction."""

    def __init__(self, highlight: Collection[str]) -> None:
        self.highlight = set(highlight)
        self.shapes: list[TileShape] = []
        self.boxes: list[Rect] = []
        self.reserved: dict[str, Rect] = {}
        self.spinner_ends: dict[str, tuple[Vec, Vec]] = {}
        self.runs: dict[str, _Run] = {}
        self.markers: list[tuple[str, int, Vec, Vec]] = []
        self.marker_boxes: list[Rect] = []

    def free(self, box: Rect, skip: str = "") -> bool:
        """Whether ``box`` touches no tile drawn and no space kept for a spinner's arm."""
        if any(_overlaps(box, other) for other in self.boxes):
            return False
        return not any(_overlaps(box, kept) for name, kept in self.reserved.items() if name != skip)

    def draw(self, placed: Placed, inner: int, box: Rect, heading: Vec, arm: str | None) -> None:
        """Record a tile in ``box``; ``inner`` is the half nearer where its arm starts."""
        tile, outer = placed.tile, placed.outer
        width, height = box[2] - box[0], box[3] - box[1]
        horizontal = width > height
        if heading in (LEFT, UP):
            first, second = outer, inner
        else:
            first, second = inner, outer
        self.boxes.append(box)
        self.shapes.append(
            TileShape(
                tile,
                box[0] * SCALE,
                box[1] * SCALE,
                width * SCALE,
                height * SCALE,
                "horizontal" if horizontal else "vertical",
                first,
                second,
                tile.is_double,
                placed.spinner,
                arm,
            )
        )

    def keep_spinner(self, box: Rect, heading: Vec, ends: tuple[str, str]) -> None:
        """Note a spinner's two ends and keep the room of each arm's first tile free."""
        for name, (start, way, room) in zip(ends, _spinner_ends(box, heading), strict=True):
            self.spinner_ends[name] = (start, way)
            self.reserved[name] = room

    def lay(self, run: _Run, placed: Placed) -> tuple[Rect, Vec]:
        """Find room for the next tile of ``run``, move the run on; return its box and heading.

        A spinner also needs room for the first tile of each of its arms.
        """
        double = placed.tile.is_double
        along, across = (1.0, 2.0) if double else (2.0, 1.0)
        choices = run.options(along)
        chosen = choices[0]
        for start, heading, turned in choices:
            box = _box(start, heading, along, across)
            rooms = [box]
            if placed.spinner:
                rooms += [room for _s, _w, room in _spinner_ends(box, heading)]
            if all(self.free(room, skip=run.name) for room in rooms):
                chosen = (start, heading, turned)
                break
        start, heading, turned = chosen
        run.point = _add(start, heading, along)
        run.heading = heading
        run.length = along if turned else run.length + along
        run.tip_double = double
        return _box(start, heading, along, across), heading

    def grow(
        self, run: _Run, base: int, tiles: list[Placed], ends: dict[Tile, tuple[str, str]]
    ) -> None:
        """Draw an arm's tiles in order, starting from the number ``base`` it was opened on."""
        self.reserved.pop(run.name, None)
        self.runs[run.name] = run
        shows = base
        for placed in tiles:
            box, heading = self.lay(run, placed)
            self.draw(placed, shows, box, heading, run.name)
            if placed.spinner and placed.tile in ends:
                self.keep_spinner(box, heading, ends[placed.tile])
            shows = placed.outer

    def mark(self, name: str, shows: int) -> None:
        """Put an open end's marker and name just past the tip of its arm, where there is room."""
        run = self.runs[name]
        best: tuple[Vec, Vec, list[Rect]] | None = None
        for start, heading, _turned in run.options(2 * _MARKER_R + 0.1):
            centre = _add(start, heading, _MARKER_R + 0.1)
            r = _MARKER_R
            rooms = [(centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)]
            rooms.append(_label(centre, heading, name)[2])
            if best is None:
                best = (centre, heading, rooms)
            if all(self.free(room) for room in rooms) and not any(
                _overlaps(room, other) for room in rooms for other in self.marker_boxes
            ):
                best = (centre, heading, rooms)
                break
        assert best is not None
        centre, heading, rooms = best
        self.marker_boxes += rooms
        self.markers.append((name, shows, centre, heading))


_KEPT = 512
"""Scenes kept: a table page draws the layout its game has now, which the last entry's answer
or another phone's page often drew already."""
_scenes: Bounded[Hashable, Picture] = Bounded(_KEPT)


def picture(layout: Layout, highlight: Collection[str] = ()) -> Picture:
    """The table of ``layout`` as a scene; the ends named in ``highlight`` are marked as fitting.

    A scene depends on nothing but the layout's tiles and the ends highlighted, so the last
    few hundred are kept (a Picture is immutable) and a page drawing one again takes it.
    """
    return _scenes.kept(_scene_key(layout, highlight), lambda: _draw(layout, highlight))


def _scene_key(layout: Layout, highlight: Collection[str]) -> Hashable:
    """Everything a scene is drawn from: the rules of the layout, its tiles, the highlight."""
    return (
        layout.spinner_mode,
        layout.spinner_counts,
        layout.lead,
        tuple(
            (arm.name, arm.base, arm.from_spinner_end, tuple(arm.tiles))
            for arm in layout.arms.values()
        ),
        tuple((s.tile, s.arm, s.position, s.ends, s.opened) for s in layout.spinners),
        tuple(highlight),
    )


def _draw(layout: Layout, highlight: Collection[str]) -> Picture:
    """The scene of ``layout``, worked out."""
    table = _Table(highlight)
    lead = layout.lead
    if lead is None:
        return _empty()
    ends = {spinner.tile: spinner.ends for spinner in layout.spinners}
    double = lead.tile.is_double
    half = 0.5 if double else 1.0
    box = (-half, -1.0, half, 1.0) if double else (-1.0, -0.5, 1.0, 0.5)
    table.draw(lead, layout.arms["W"].base, box, RIGHT, None)
    if lead.spinner and lead.tile in ends:
        table.keep_spinner(box, RIGHT, ends[lead.tile])
    line = layout.spinner_mode == "none"
    across, edge = (_LINE_TURN_AFTER_ACROSS, _LINE_EDGE) if line else (_TURN_AFTER_ACROSS, _EDGE)
    for name, way in (("W", LEFT), ("E", RIGHT)):
        arm = layout.arms[name]
        run = _Run(name, (way[0] * half, 0.0), way, across=across, edge=edge)
        table.grow(run, arm.base, arm.tiles, ends)
    for spinner in layout.spinners:
        for name in spinner.ends:
            if name in layout.arms and name in table.spinner_ends:
                start, way = table.spinner_ends[name]
                arm = layout.arms[name]
                table.grow(_Run(name, start, way), arm.base, arm.tiles, ends)
    for end in layout.ends():
        if end.name in table.runs:
            table.mark(end.name, end.shows)
    return _finish(table, layout)


def _empty() -> Picture:
    view = (
        -_MIN_WIDTH / 2 * SCALE,
        -_MIN_HEIGHT / 2 * SCALE,
        _MIN_WIDTH * SCALE,
        _MIN_HEIGHT * SCALE,
    )
    return Picture(view, (), (), Facts(0, 0))


def _label(centre: Vec, heading: Vec, name: str) -> tuple[Vec, str, Rect]:
    """Where an end's name is written: just beyond its circle; also its anchor and rough box."""
    gap = _MARKER_R + 0.1
    width = len(name) * _LABEL_SIZE * 0.62
    x, y = centre
    if heading == LEFT:
        spot, anchor, box = (
            (x - gap, y + _LABEL_SIZE * 0.35),
            "end",
            (x - gap - width, y - 0.3, x, y + 0.3),
        )
    elif heading == RIGHT:
        spot, anchor, box = (
            (x + gap, y + _LABEL_SIZE * 0.35),
            "start",
            (x, y - 0.3, x + gap + width, y + 0.3),
        )
    elif heading == UP:
        spot, anchor = (x, y - gap), "middle"
        box = (x - width / 2, y - gap - _LABEL_SIZE, x + width / 2, y)
    else:
        spot, anchor = (x, y + gap + _LABEL_SIZE * 0.75), "middle"
        box = (x - width / 2, y, x + width / 2, y + gap + _LABEL_SIZE)
    return spot, anchor, box


def _fit(boxes: list[Rect]) -> tuple[float, float, float, float]:
    """The viewBox around ``boxes`` with a margin, at least a few tiles wide, not too flat."""
    x0 = min(b[0] for b in boxes) - _MARGIN
    y0 = min(b[1] for b in boxes) - _MARGIN
    x1 = max(b[2] for b in boxes) + _MARGIN
    y1 = max(b[3] for b in boxes) + _MARGIN
    width, height = x1 - x0, y1 - y0
    wide = max(width, _MIN_WIDTH)
    high = max(height, _MIN_HEIGHT, wide / _MAX_ASPECT)
    x0 -= (wide - width) / 2
    y0 -= (high - height) / 2
    return (x0 * SCALE, y0 * SCALE, wide * SCALE, high * SCALE)


def _finish(table: _Table, layout: Layout) -> Picture:
    """Scale the markers, fit the viewBox and describe the table in words."""
    boxes = [
        (s.x / SCALE, s.y / SCALE, (s.x + s.width) / SCALE, (s.y + s.height) / SCALE)
        for s in table.shapes
    ]
    labels = []
    for name, shows, centre, heading in table.markers:
        spot, anchor, label_box = _label(centre, heading, name)
        boxes += [
            label_box,
            _add(centre, (-_MARKER_R, -_MARKER_R)) + _add(centre, (_MARKER_R, _MARKER_R)),
        ]
        labels.append((name, shows, centre, spot, anchor))
    view = _fit(boxes)
    vx, vy, vw, vh = view
    # A tap target over a marker covers its halo: the width in % of the picture's width.
    halo_size = round((2 * (_MARKER_R * SCALE + HALO_GAP) + HALO_STROKE) / vw * 100, 2)
    markers = tuple(
        EndMarker(
            name,
            shows,
            round(centre[0] * SCALE, 2),
            round(centre[1] * SCALE, 2),
            _MARKER_R * SCALE,
            round(spot[0] * SCALE, 2),
            round(spot[1] * SCALE, 2),
            anchor,
            name in table.highlight,
            round((centre[0] * SCALE - vx) / vw * 100, 2),
            round((centre[1] * SCALE - vy) / vh * 100, 2),
            halo_size,
        )
        for name, shows, centre, spot, anchor in labels
    )
    return Picture(view, tuple(table.shapes), markers, facts_of(layout, table.highlight))
