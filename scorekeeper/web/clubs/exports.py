"""A whole club to take away: a CSV of every hand, and its games as JSON Lines records.

The JSON Lines file begins with the club's roster, a line of its own (:data:`CLUB_FORMAT`:
every player on it, those who have not played yet too, and the house rules the club's new
games start with), then holds one ``all-fives/1`` record per line, oldest game first, each
with its times (when it began and ended, when each entry was made). Imported into a new
club, on this server or another, it gives the same club: the same roster and house rules,
the same games played at the same times, so the same standings and charts; and exporting
that club gives the same lines. A file of records alone (an export from before the roster
line, records gathered by hand) imports as it always did.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.rules.record import write_record
from scorekeeper.rules.sheet import Sheet, adjustment_text, safe_cell, score_sheet
from scorekeeper.web.data import games
from scorekeeper.web.data.models import ClubPlayerRow, ClubRow, GameRow
from scorekeeper.web.data.replayed import Replayed
from scorekeeper.web.languages import lazy_gettext as _l

CSV_COLUMNS = (
    _l("game"),
    _l("date"),
    _l("players"),
    _l("hand"),
    _l("side"),
    _l("points from plays"),
    _l("settlement"),
    _l("score after the hand"),
    _l("units"),
)
"""One row per hand per side. ``game`` numbers the club's games from the oldest (1); a
settlement cell is empty while a hand is not settled; ``units`` is points or fives. The
headings are said in the reader's language; the cells are data, the same in every language."""

CORRECTION_COLUMNS = (
    _l("adjustments"),
    _l("adjustment reasons"),
    _l("muggins claims"),
)
"""After the others, only when a game of the export has adjustments or Muggins! claims
(docs/rules.md 8b, 8c): what adjustments changed the side's score by in the hand (points from
plays, settlement and adjustments then add up to the change in the score), each adjustment
of the side in words with its reason and when it was entered, and how many missed counts
the side claimed (their points are in the points from plays)."""


def oldest_first(rows: Sequence[GameRow]) -> list[GameRow]:
    """The games in the order they were started."""
    return sorted(rows, key=lambda row: (row.created_at, row.id))


def _corrected(sheet: Sheet) -> bool:
    return sheet.adjusted or bool(sheet.claims)


def club_csv(rows: Sequence[GameRow]) -> str:
    """Every hand of every game, one row per side (names and reasons neutralised for
    spreadsheets), under headings in the reader's language.

    The columns a game without corrections has are always the same; the export has
    :data:`CORRECTION_COLUMNS` after them only when one of its games has an adjustment or a
    claim, so a club that never uses them exports what it always did."""
    played: list[tuple[GameRow, Replayed, Sheet]] = []
    for row in oldest_first(rows):
        found = games.replay_rows(row)
        played.append((row, found, score_sheet(found.game)))
    corrected = any(_corrected(sheet) for _row, _found, sheet in played)
    out = io.StringIO()
    writer = csv.writer(out)
    headings = CSV_COLUMNS + CORRECTION_COLUMNS if corrected else CSV_COLUMNS
    writer.writerow([str(heading) for heading in headings])
    for number, (row, found, sheet) in enumerate(played, 1):
        game = found.game
        times = found.entered_at(adjustment.index for adjustment in sheet.adjustments)
        units = "fives" if game.rules.in_fives else "points"
        players = ", ".join(game.players)
        for hand in sheet.rows:
            for side, name in enumerate(sheet.header.sides):
                settled = "" if hand.settlement is None else hand.settlement[side]
                cells: list[str | int] = [
                    number,
                    row.created_at.date().isoformat(),
                    players,
                    hand.number,
                    name,
                    hand.plays[side],
                    settled,
                    hand.totals[side],
                    units,
                ]
                if corrected:
                    reasons = [
                        str(adjustment_text(adjustment, times.get(adjustment.index)))
                        for adjustment in hand.adjustments
                        if adjustment.side == side
                    ]
                    claimed = sum(1 for claim in hand.claims if claim.side == side)
                    cells += [
                        hand.adjusted[side],
                        "; ".join(reasons),
                        claimed,
                    ]
                writer.writerow([safe_cell(cell) for cell in cells])
    return out.getvalue()


CLUB_FORMAT = "all-fives-club/1"
"""The ``format`` of a club export's roster line: ``{"format": "all-fives-club/1", "roster":
[NAME, ...], "defaults": {"preset": ..., "options": {...}}}``, the roster A to Z as the club
spells it and, when the club has its own, the house rules its new games start with. Not a
game record, so a record reader that meets it refuses its format instead of taking it for
a game."""


def _line(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def club_defaults(defaults: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The house rules a club's new games start with as its roster line gives them, in the
    shape of a record's: ``preset``, ``options`` only when some differ from the preset,
    ``partners`` only when not the preset's way; None when the club has none of its own."""
    if not defaults or not isinstance(defaults.get("preset"), str):
        return None
    given: dict[str, Any] = {"preset": defaults["preset"]}
    if defaults.get("options"):
        given["options"] = dict(defaults["options"])
    if isinstance(defaults.get("partners"), bool):
        given["partners"] = defaults["partners"]
    return given


def club_records(club: ClubRow, rows: Sequence[GameRow], roster: Sequence[ClubPlayerRow]) -> str:
    """The club as JSON Lines: its roster line (with its house rules when it has its own),
    then one compact ``all-fives/1`` record per game with its times, oldest first."""
    heading: dict[str, Any] = {"format": CLUB_FORMAT, "roster": [p.name for p in roster]}
    defaults = club_defaults(club.defaults)
    if defaults is not None:
        heading["defaults"] = defaults
    lines = [_line(heading)]
    for row in oldest_first(rows):
        found = games.replay_rows(row)
        lines.append(
            _line(write_record(found.game, games.record_times(row, found), every_rule=True))
        )
    return "".join(lines)
