"""A whole club to take away: a CSV of every hand, and its games as JSON Lines records.

The JSON Lines file holds one ``all-fives/1`` record per line, oldest game first; imported
into a new club it gives the same games, and exporting that club gives the same lines.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from scorekeeper.rules.record import write_record
from scorekeeper.rules.sheet import safe_cell, score_sheet
from scorekeeper.web.data import games
from scorekeeper.web.data.models import GameRow
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


def oldest_first(rows: Sequence[GameRow]) -> list[GameRow]:
    """The games in the order they were started."""
    return sorted(rows, key=lambda row: (row.created_at, row.id))


def club_csv(rows: Sequence[GameRow]) -> str:
    """Every hand of every game, one row per side (names neutralised for spreadsheets), under
    headings in the reader's language."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([str(heading) for heading in CSV_COLUMNS])
    for number, row in enumerate(oldest_first(rows), 1):
        game = games.replay(row)
        sheet = score_sheet(game)
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
                writer.writerow([safe_cell(cell) for cell in cells])
    return out.getvalue()


def club_records(rows: Sequence[GameRow]) -> str:
    """The games as JSON Lines: one compact ``all-fives/1`` record per line, oldest first."""
    lines = (
        json.dumps(write_record(games.replay(row)), ensure_ascii=False, separators=(",", ":"))
        for row in oldest_first(rows)
    )
    return "".join(line + "\n" for line in lines)
