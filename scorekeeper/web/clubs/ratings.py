"""The club page's ratings: each player's rating and its uncertainty, a chart of the ratings over
the club's rated games, and the change the games of a chosen day brought.

The ratings are computed on every view from the games' facts and end times (``rules.ratings``,
``data.ratings``); nothing here is stored. A night (when the club has them) passes its own
games' ids to :meth:`~scorekeeper.rules.ratings.Ratings.change`; until then a day stands for an
evening: the games that ended on it (a day of the server's clock, UTC).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date

from babel.dates import format_date

from scorekeeper.rules.ratings import Change, Ratings
from scorekeeper.rules.stats import GameFacts
from scorekeeper.web import languages
from scorekeeper.web.data.models import ClubRow, GameRow
from scorekeeper.web.data.ratings import club_ratings
from scorekeeper.web.drawing.charts import LineChart, line_chart, series
from scorekeeper.web.languages import gettext as _

CHARTED = 8
"""The most players the chart draws (the highest rated): the chart's styles tell 8 apart."""


def shown(value: float) -> str:
    """A rating as the page writes it: to one decimal, in the reader's digits (never -0.0)."""
    return languages.number(round(value, 1) + 0.0)


def signed(value: float) -> str:
    """A change of rating with its sign, as the page writes a rating: +1.5, -0.3, 0.0."""
    rounded = round(value, 1) + 0.0
    text = shown(rounded)
    return f"+{text}" if rounded > 0 else text


def day_label(day: date) -> str:
    """A day as the reader's language writes a date ("29 Nov 2026", "29 nov. 2026")."""
    code = languages.current()
    return format_date(day, format="medium", locale="en_GB" if code == "en" else code)


@dataclass(frozen=True)
class RatingRow:
    """A player's line of the ratings table."""

    name: str
    rating: str
    skill: str
    uncertainty: str
    games: int


@dataclass(frozen=True)
class ChangeRow:
    """A player's line of the change a day brought."""

    name: str
    before: str
    after: str
    change: str
    games: int


@dataclass(frozen=True)
class RatingsView:
    """What the club page shows of its ratings."""

    rows: list[RatingRow]
    games: int
    chart: LineChart | None
    days: list[tuple[str, str]]
    """The days with rated games, the latest first: (``YYYY-MM-DD``, as the reader writes it)."""
    day: str | None
    """The day whose change is shown (``YYYY-MM-DD``)."""
    changes: list[ChangeRow]
    counts_club_games: bool


def ratings_chart(ratings: Ratings) -> LineChart | None:
    """The highest rated players' ratings after each rated game, oldest first (None before two
    rated games)."""
    if len(ratings.steps) < 2:
        return None
    ranked = ratings.ranked()[:CHARTED]
    leaders = languages.said_list(
        [f"{name} {shown(rating.ordinal)}" for name, rating in ranked[:4]]
    )
    summary = _(
        "Ratings over the club's %(games)s rated games, oldest first: %(leaders)s.",
        games=len(ratings.steps),
        leaders=leaders,
    )
    lines = [series(name, ratings.history(name)) for name, _rating in ranked]
    return line_chart("ratings", _("Ratings over time"), summary, lines, x_label=_("games →"))


def change_rows(changes: Sequence[Change]) -> list[ChangeRow]:
    """The change some games brought, as the page writes it."""
    return [
        ChangeRow(
            change.name,
            shown(change.before.ordinal),
            shown(change.after.ordinal),
            signed(change.delta),
            change.games,
        )
        for change in changes
    ]


def ratings_view(
    club: ClubRow,
    rows: Sequence[GameRow],
    facts: dict[int, GameFacts],
    roster: dict[str, str],
    chosen_day: str | None,
    always: Collection[int] = (),
) -> RatingsView:
    """The club's ratings and the change the day ``chosen_day`` (``YYYY-MM-DD``; the latest
    day with rated games when it names none of them) brought; the games ``always`` (its
    nights') count whatever the club says of its ordinary games."""
    ratings = club_ratings(club, rows, facts, roster, always)
    table = [
        RatingRow(
            name,
            shown(rating.ordinal),
            shown(rating.mu),
            shown(rating.uncertainty),
            rating.games,
        )
        for name, rating in ratings.ranked()
    ]
    days = ratings.days()
    day = next((d for d in days if d.isoformat() == chosen_day), days[0] if days else None)
    changes = change_rows(ratings.change(ratings.ended_on(day))) if day else []
    return RatingsView(
        rows=table,
        games=len(ratings.steps),
        chart=ratings_chart(ratings),
        days=[(d.isoformat(), day_label(d)) for d in days],
        day=day.isoformat() if day else None,
        changes=changes,
        counts_club_games=club.rate_club_games,
    )
