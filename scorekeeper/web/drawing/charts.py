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
from dataclasses import dataclass

from scorekeeper.rules.game import Game
from scorekeeper.rules.progression import progression
from scorekeeper.rules.standings import Standings
from scorekeeper.web import languages
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import ngettext

WIDTH, HEIGHT = 320, 190
"""The drawing's own units (its viewBox); it is scaled to the width of the page."""
LEFT, RIGHT, TOP, BOTTOM = 34, 56, 10, 22
"""Room around the plot: tick labels on the left, line names on the right, the axis below."""


@dataclass(frozen=True, slots=True)
class Line:
    """One series: its name, its values, and where they are drawn."""

    name: str
    values: tuple[float, ...]
    points: str
    """The polyline's points, ``"x,y x,y ..."``."""
    end: tuple[float, float]
    """Where its name is written, beside its last point."""
    style: int
    """Which of the dash patterns and colours it is drawn with (1 to 4)."""


@dataclass(frozen=True, slots=True)
class Tick:
    """A value on the vertical axis and its height in the drawing."""

    value: int
    y: float


@dataclass(frozen=True, slots=True)
class Mark:
    """A vertical line at step ``step`` (such as where a hand begins), with its label."""

    step: int
    x: float
    label: str


@dataclass(frozen=True, slots=True)
class LineChart:
    """A chart ready to draw: the plot's box, lines, ticks, marks and an optional level line."""

    kind: str
    title: str
    summary: str
    lines: tuple[Line, ...]
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
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def line_chart(
    kind: str,
    title: str,
    summary: str,
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    level: int | None = None,
    level_label: str = "",
    marks: Sequence[tuple[int, str]] = (),
    x_label: str = "",
) -> LineChart:
    """Lay out ``series`` (name, one value per step; all of one length) in the drawing.

    ``level`` draws a horizontal line (a target) and widens the axis to show it; ``marks``
    are vertical lines at steps (name, label).
    """
    steps = max((len(values) for _, values in series), default=1)
    every = [v for _, values in series for v in values]
    if level is not None:
        every.append(level)
    low, high = ticks_for(min(every, default=0), max(every, default=1))[:2]
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def x_of(step: int) -> float:
        return left + (right - left) * (step / (steps - 1) if steps > 1 else 0.5)

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    # A long game's lines have a thousand points: each step's x is written once for every
    # line, and each score's y once for the chart (scores repeat: most plays score nothing).
    xs = [_round(x_of(step)) for step in range(steps)]
    ys: dict[float, str] = {}

    def y_text(value: float) -> str:
        text = ys.get(value)
        if text is None:
            text = ys[value] = _round(y_of(value))
        return text

    lines = []
    for number, (name, values) in enumerate(series):
        points = " ".join([f"{xs[step]},{y_text(value)}" for step, value in enumerate(values)])
        last = len(values) - 1
        end = (x_of(last), y_of(values[last])) if values else (right, bottom)
        lines.append(Line(name, tuple(values), points, end, number % 4 + 1))
    _spread_labels(lines, top, bottom)
    step = ticks_for(low, high)[2]
    ticks = tuple(Tick(value, y_of(value)) for value in range(low, high + 1, step))
    return LineChart(
        kind=kind,
        title=title,
        summary=summary,
        lines=tuple(lines),
        ticks=ticks,
        marks=tuple(Mark(at, x_of(at), label) for at, label in marks),
        level=None if level is None else Tick(level, y_of(level)),
        level_label=level_label,
        x_label=x_label,
    )


def _spread_labels(lines: list[Line], top: float, bottom: float, gap: float = 11) -> None:
    """Move the names at the lines' ends apart so that two lines ending together stay legible."""
    order = sorted(range(len(lines)), key=lambda i: lines[i].end[1])
    placed: list[float] = []
    for index in order:
        x, y = lines[index].end
        y = max(y, top + 4, placed[-1] + gap if placed else y)
        placed.append(min(y, bottom))
        line = lines[index]
        lines[index] = Line(line.name, line.values, line.points, (x, placed[-1]), line.style)


# -- the charts the site shows ----------------------------------------------------------------


def game_chart(game: Game) -> LineChart | None:
    """A game's scores play by play: a line per side, a mark where each hand begins, the
    target; in the game's units. None before the first tile is down (nothing to draw)."""
    if not any(hand.plays for hand in game.hands):
        return None
    steps = progression(game)
    final = languages.said_list(
        [f"{side} {score}" for side, score in zip(steps.sides, steps.steps[-1], strict=True)]
    )
    hands = len(steps.hand_starts)
    if steps.in_fives:
        summary = ngettext(
            "Scores in fives play by play over %(num)d hand: now %(final)s; "
            "the target is %(target)s.",
            "Scores in fives play by play over %(num)d hands: now %(final)s; "
            "the target is %(target)s.",
            hands,
            final=final,
            target=steps.target,
        )
    else:
        summary = ngettext(
            "Scores play by play over %(num)d hand: now %(final)s; the target is %(target)s.",
            "Scores play by play over %(num)d hands: now %(final)s; the target is %(target)s.",
            hands,
            final=final,
            target=steps.target,
        )
    return line_chart(
        "progression",
        _("The scores, play by play"),
        summary,
        [(side, steps.of(number)) for number, side in enumerate(steps.sides)],
        level=steps.target,
        level_label=_("target %(target)s", target=steps.target),
        marks=[
            (start, _("Hand %(number)s", number=number))
            for number, start in enumerate(steps.hand_starts, 1)
        ],
        x_label=_("plays →  (lines: a new hand)"),
    )


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
    series = [(name, (0, *history)) for name, history in shown]
    return line_chart("wins", _("Wins over time"), summary, series, x_label=_("games →"))
