"""Line charts drawn on the server as SVG: the numbers are worked out here, as data, and
``templates/_chart.html`` only writes them down (no script, no inline style: the site's
Content-Security-Policy allows neither, and a chart must work offline and on paper).

Lines are told apart by more than colour: each has its own dash pattern and its name at its
end, and the chart has a text alternative saying what it shows. A chart's words are said when
it is made, in the reader's language (charts are made per page, never kept).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from flask import Flask, current_app
from markupsafe import Markup

from scorekeeper.rules.game import Game, Hand
from scorekeeper.rules.progression import hand_steps
from scorekeeper.rules.standings import Standings
from scorekeeper.web import languages
from scorekeeper.web.bounded import Derived
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import ngettext

WIDTH, HEIGHT = 320, 190
"""The drawing's own units (its viewBox); it is scaled to the width of the page."""
LEFT, RIGHT, TOP, BOTTOM = 34, 56, 10, 22
"""Room around the plot: tick labels on the left, line names on the right, the axis below."""
NAME_CHARS = 12
"""A line's name at its end is cut to this many characters (templates/_chart.html)."""
CHAR_WIDTH = 6.8
"""The widest a character of a name is on average in the drawing's units (11-unit text)."""
LABEL_ROOM = 12
"""The height a label needs above a line."""
STYLES = 8
"""How many lines a chart tells apart by colour and dash pattern (a table of 8, a club's 8
leaders); a chart of more than 4 lines marks each line's end and name with a shape too."""
MARKED_FROM = 5
"""The fewest lines a chart marks with shapes (up to 4, colour, dashes and names suffice)."""
MARKER_ROOM = 9
"""The width a shape takes before a line's name, in the drawing's units."""
MARKERS = (
    "M-3 0a3 3 0 1 0 6 0a3 3 0 1 0-6 0z",
    "M-2.7-2.7h5.4v5.4h-5.4z",
    "M0-3.4L3.2 2.4H-3.2z",
    "M0-3.6L3.6 0L0 3.6L-3.6 0z",
    "M0 3.4L3.2-2.4H-3.2z",
    "M-1.1-3.4h2.2v2.3h2.3v2.2h-2.3v2.3h-2.2v-2.3h-2.3v-2.2h2.3z",
    "M-3.1-1.5L-1.5-3.1L0-1.6L1.5-3.1L3.1-1.5L1.6 0L3.1 1.5L1.5 3.1L0 1.6L-1.5 3.1L-3.1 1.5"
    "L-1.6 0z",
    "M0-3.5L3.3-1.1L2.1 2.8H-2.1L-3.3-1.1z",
)
"""Each style's shape (path data around 0,0): circle, square, triangle, diamond, triangle
down, plus, cross and pentagon, drawn at the line's last point and before its name."""


@dataclass(frozen=True, slots=True)
class Series:
    """One line's values written out once: what a chart is laid out from.

    ``points`` are in the line's own units, ``"step,value ..."``: the chart's ``transform``
    puts them in the drawing, so a long game's finished hands are written once and kept
    (:func:`game_chart`) however the plot's scale changes as the game goes on.
    """

    name: str
    values: str
    """The values, ``"v0 v1 ..."`` (a line's ``data-values``)."""
    points: str
    steps: int
    last: float
    low: float
    high: float

    def then(self, more: Sequence[float]) -> Series:
        """This series with ``more`` values after its own."""
        if not more:
            return self
        tail = series(self.name, more, start=self.steps)
        if not self.steps:
            return tail
        return Series(
            self.name,
            f"{self.values} {tail.values}",
            f"{self.points} {tail.points}",
            self.steps + tail.steps,
            tail.last,
            min(self.low, tail.low),
            max(self.high, tail.high),
        )


def series(name: str, values: Sequence[float], start: int = 0) -> Series:
    """A series of ``values``, its first at step ``start``."""
    if not values:
        return Series(name, "", "", 0, 0, 0, 0)
    texts = [_round(value) for value in values]
    return Series(
        name,
        " ".join(texts),
        " ".join([f"{step},{text}" for step, text in enumerate(texts, start)]),
        len(values),
        values[-1],
        min(values),
        max(values),
    )


@dataclass(frozen=True, slots=True)
class Line:
    """One series as drawn: its name, values and points, and its name's place."""

    name: str
    values: str
    points: str
    end: tuple[float, float]
    """Where its name is written, beside its last point (in the drawing's units)."""
    style: int
    """Which of the dash patterns and colours it is drawn with (1 to 8)."""
    tip: tuple[float, float] = (0.0, 0.0)
    """Its last point in the drawing's units, where a marked chart draws its shape."""
    marker: str = ""
    """Its shape's path data when the chart marks its lines (more than 4), else empty."""


@dataclass(frozen=True, slots=True)
class Tick:
    """A value on the vertical axis and its height in the drawing."""

    value: int
    y: float


@dataclass(frozen=True, slots=True)
class Mark:
    """A vertical line at step ``step`` (such as where a hand begins), with its label; drawn
    under the plot's transform, like the lines."""

    step: int
    label: str


@dataclass(frozen=True, slots=True)
class LineChart:
    """A chart ready to draw: the plot's box, lines, ticks, marks and an optional level line."""

    kind: str
    title: str
    summary: str
    lines: tuple[Line, ...]
    transform: str
    """Puts the lines' points (step, value) in the drawing: ``matrix(...)`` for the plot."""
    low: int
    high: int
    """The values at the bottom and the top of the axis."""
    ticks: tuple[Tick, ...]
    marks: tuple[Mark, ...]
    level: Tick | None
    """A horizontal line across the plot (a game's target), or None."""
    level_label: str
    x_label: str
    width: int = WIDTH
    height: int = HEIGHT
    left: float = LEFT
    right: float = WIDTH - RIGHT
    top: float = TOP
    bottom: float = HEIGHT - BOTTOM

    @property
    def level_label_y(self) -> float:
        """Where the level line's label sits: just above the line, or below it where the
        line runs along the top of the plot and there is no room above."""
        assert self.level is not None
        if self.level.y - self.top >= LABEL_ROOM:
            return self.level.y - 3
        return self.level.y + LABEL_ROOM

    def drawn(self, step: float, value: float) -> tuple[float, float]:
        """Where the point (``step``, ``value``) of a line is in the drawing."""
        a, _, _, d, e, f = (float(n) for n in self.transform[7:-1].split())
        return a * step + e, d * value + f


def nice_step(span: float, most: int = 5) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving at most ``most`` steps in ``span``."""
    if span <= 0:
        return 1
    rough = span / most
    power = 10 ** math.floor(math.log10(rough)) if rough >= 1 else 1
    for factor in (1, 2, 5, 10):
        if factor * power >= rough:
            return int(factor * power)
    return int(10 * power)


def ticks_for(low: float, high: float) -> tuple[int, int, int]:
    """The axis from ``low`` to ``high`` widened to round values: (bottom, top, step)."""
    step = nice_step(high - low if high > low else max(abs(high), 1))
    bottom = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if top == bottom:
        top = bottom + step
    return int(bottom), int(top), step


def _round(value: float) -> str:
    if value == int(value):
        return str(int(value))
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def line_chart(
    kind: str,
    title: str,
    summary: str,
    lines: Sequence[Series],
    *,
    level: int | None = None,
    level_label: str = "",
    marks: Sequence[tuple[int, str]] = (),
    x_label: str = "",
) -> LineChart:
    """Lay out ``lines`` (one value per step; all of one length) in the drawing.

    ``level`` draws a horizontal line (a target) and widens the axis to show it; ``marks``
    are vertical lines at steps (name, label). The cost is the same however long the lines
    are: their points are used as they are, under one transform.
    """
    steps = max((line.steps for line in lines), default=1)
    drawn = [line for line in lines if line.steps]
    lows = [line.low for line in drawn] or [0]
    highs = [line.high for line in drawn] or [1]
    if level is not None:
        lows.append(level)
        highs.append(level)
    low, high, every = ticks_for(min(lows), max(highs))
    # The right-hand margin holds the longest name whole (as cut by the template), after its
    # line's shape when the lines are marked.
    marked = len(lines) >= MARKED_FROM
    longest = max((min(len(line.name), NAME_CHARS) for line in lines), default=0)
    room = max(RIGHT, round(6 + CHAR_WIDTH * longest + (MARKER_ROOM if marked else 0)))
    left, right, top, bottom = LEFT, WIDTH - room, TOP, HEIGHT - BOTTOM
    across = (right - left) / (steps - 1) if steps > 1 else 1.0
    start = left if steps > 1 else (left + right) / 2
    up = (bottom - top) / (high - low)

    def x_of(step: int) -> float:
        return start + across * step

    def y_of(value: float) -> float:
        return bottom - up * (value - low)

    laid = []
    for number, line in enumerate(lines):
        tip = (x_of(line.steps - 1), y_of(line.last)) if line.steps else (right, bottom)
        style = number % STYLES
        marker = MARKERS[style] if marked else ""
        laid.append(Line(line.name, line.values, line.points, tip, style + 1, tip, marker))
    _spread_labels(laid, top, bottom)
    transform = f"matrix({_number(across)} 0 0 {_number(-up)} {_number(start)} {_number(bottom + up * low)})"
    return LineChart(
        kind=kind,
        title=title,
        summary=summary,
        lines=tuple(laid),
        transform=transform,
        low=low,
        high=high,
        ticks=tuple(Tick(value, y_of(value)) for value in range(low, high + 1, every)),
        marks=tuple(Mark(at, label) for at, label in marks),
        level=None if level is None else Tick(level, y_of(level)),
        level_label=level_label,
        x_label=x_label,
        right=right,
    )


NAME_GAP = 14
"""How far apart the names at the lines' ends are put: the line box of an 11-unit name is
about 13 units tall, so eight names (a table of 8) stand apart in the plot's 158 units."""


def _spread_labels(lines: list[Line], top: float, bottom: float, gap: float = NAME_GAP) -> None:
    """Move the names at the lines' ends apart so that two lines ending together stay legible:
    down from the top, then, where several would pile up at the bottom, up from it."""
    order = sorted(range(len(lines)), key=lambda i: lines[i].end[1])
    placed: list[float] = []
    for index in order:
        y = lines[index].end[1]
        y = max(y, top + 4, placed[-1] + gap if placed else y)
        placed.append(min(y, bottom))
    for at in range(len(placed) - 2, -1, -1):
        placed[at] = min(placed[at], placed[at + 1] - gap)
    for index, y in zip(order, placed, strict=True):
        lines[index] = replace(lines[index], end=(lines[index].end[0], y))


# -- the charts the site shows ----------------------------------------------------------------


PAST_KEPT = 1024
"""How many games' finished hands' lines are kept (one entry per game and number of hands; the
least recently used go first). Each is about 0.8 KB a hand: some 20 MB when full of entries
of 25-hand games."""


_PAST: Derived[Hand, tuple[tuple[Series, ...], tuple[int, ...]]] = Derived(PAST_KEPT)
"""The lines of a game's finished hands and the step each begins at, a hand longer as each
ends: a request in hand 25 finds hand 24's, or hand 23's and adds one hand."""


def _drawn_on(lines: Sequence[Series], steps: list[tuple[int, ...]]) -> tuple[Series, ...]:
    return tuple(line.then([scores[side] for scores in steps]) for side, line in enumerate(lines))


def has_chart(game: Game) -> bool:
    """Whether ``game`` has a chart to draw: a tile is down."""
    return any(hand.plays for hand in game.hands)


def game_chart(game: Game) -> LineChart | None:
    """A game's scores play by play: a line per side, a mark where each hand begins, the
    target; in the game's units. None before the first tile is down (nothing to draw).

    Its cost does not grow with the game: the finished hands' lines are kept and the hand in
    play is added to them.
    """
    hand = game.hand
    if hand is None or not has_chart(game):
        return None

    def add(
        past: tuple[tuple[Series, ...], tuple[int, ...]], done: Hand
    ) -> tuple[tuple[Series, ...], tuple[int, ...]]:
        lines, starts = past
        return _drawn_on(lines, hand_steps(game, done)), (*starts, lines[0].steps)

    start = tuple(series(side, [0]) for side in game.sides), ()
    past, starts = _PAST.grown(game.hands[:-1], start, add)
    lines = _drawn_on(past, hand_steps(game, hand))
    starts = (*starts, past[0].steps)
    final = languages.said_list([f"{line.name} {_round(line.last)}" for line in lines])
    hands = len(starts)
    target = game.rules.target
    if game.rules.in_fives:
        summary = ngettext(
            "Scores in fives play by play over %(num)d hand: now %(final)s; "
            "the target is %(target)s.",
            "Scores in fives play by play over %(num)d hands: now %(final)s; "
            "the target is %(target)s.",
            hands,
            final=final,
            target=target,
        )
    else:
        summary = ngettext(
            "Scores play by play over %(num)d hand: now %(final)s; the target is %(target)s.",
            "Scores play by play over %(num)d hands: now %(final)s; the target is %(target)s.",
            hands,
            final=final,
            target=target,
        )
    return line_chart(
        "progression",
        _("The scores, play by play"),
        summary,
        lines,
        level=target,
        level_label=_("target %(target)s", target=target),
        marks=_hand_marks(starts, languages.current()),
        x_label=_("plays →  (lines: a new hand)"),
    )


@lru_cache(maxsize=PAST_KEPT)
def _hand_marks(starts: tuple[int, ...], language: str) -> tuple[tuple[int, str], ...]:
    """Where each hand begins, labelled in ``language`` (this request's): the same for every
    chart of a game until a hand ends, so labelled once, not once per hand per chart."""
    return tuple(
        (start, _("Hand %(number)s", number=number)) for number, start in enumerate(starts, 1)
    )


DRAWN_KEPT = 256
"""How many drawn score charts are kept (one per score line, language and page; 2-25 KB each,
so at most about 6 MB)."""

_DRAWN: Derived[Game | Hand, Markup] = Derived(DRAWN_KEPT)
"""Score charts drawn as SVG, by what they show (the game's last finished hand, which later
versions of the game share, and the steps of the hand in play), the language and the element
id."""


def drawn_game_chart(game: Game, element_id: str) -> Markup:
    """:func:`game_chart` drawn by ``templates/_chart.html`` with the element ids
    ``element_id``: once per score line, language and id, for every page and phone that shows
    it (the table, the chart alone, the sheet). Empty when there is nothing to draw.

    The finished hands' lines are kept already; this keeps the drawing, whose labels, ticks and
    marks were still worked out again and escaped for every page that showed the chart.
    """

    def draw() -> Markup:
        chart = game_chart(game)
        if chart is None:
            return Markup()
        drawing = current_app.jinja_env.get_template("_chart.html").module
        return Markup(drawing.line_chart(chart, element_id))  # type: ignore[attr-defined]

    hand = game.hand
    if current_app.jinja_env.auto_reload or hand is None:  # `flask run --debug`: edits show
        return draw()
    # What the chart shows: the finished hands (kept objects, shared by every later version of
    # the game) and the steps of the hand in play. A draw, a pass or an undo back to a state
    # already drawn changes neither.
    finished = game.hands[:-1]
    shown = (len(game.hands), tuple(hand_steps(game, hand)))
    return _DRAWN.of(
        finished[-1] if finished else game, draw, also=(languages.current(), element_id, shown)
    )


def init_app(app: Flask) -> None:
    """Offer the drawn score chart to templates."""
    app.add_template_global(drawn_game_chart, "drawn_game_chart")


def wins_chart(table: Standings) -> LineChart | None:
    """Each player's wins so far after each of a club's finished games (None before two)."""
    if table.games < 2:
        return None
    ordered = sorted(
        table.wins_over_time.items(), key=lambda item: (-item[1][-1], item[0].casefold())
    )
    shown = ordered[:8]
    leaders = languages.said_list([f"{name} {history[-1]}" for name, history in shown[:4]])
    summary = _(
        "Wins over the club's %(games)s finished games, oldest first: %(leaders)s.",
        games=table.games,
        leaders=leaders,
    )
    lines = [series(name, (0, *history)) for name, history in shown]
    return line_chart("wins", _("Wins over time"), summary, lines, x_label=_("games →"))
