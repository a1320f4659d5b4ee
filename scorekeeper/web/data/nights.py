"""Club nights in the database: opening one, who plays, seating and starting rounds, ending a
table, and the standings read from the tables' games.

A night's tables play ordinary games of the club (``clubs.start_game``): the same referee,
play screen and share links. A table's match is its first game and, with the best 2 of 3, that
game's rematches. What the night stores is what was decided; scores and standings are always
computed from the games (``rules.nights.standings``). Every change here is all or nothing: a
problem is a :class:`NightProblem` and nothing is written.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import select

from scorekeeper.rules import Event, NewHand, Setup
from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.names import name_key
from scorekeeper.rules.nights.format import (
    MOST_PLAYERS,
    AtLimit,
    Match,
    NightFormat,
    TableSize,
    TieBreak,
)
from scorekeeper.rules.nights.seating import History, Seating, seat_round, swap
from scorekeeper.rules.nights.standings import (
    NightStanding,
    TableGames,
    match_result,
    night_standings,
)
from scorekeeper.rules.stats import GameFacts, game_facts
from scorekeeper.rules.stored import event_of
from scorekeeper.web.data import clubs, games, replayed
from scorekeeper.web.data.database import db
from scorekeeper.web.data.games.reading import fetch_rows
from scorekeeper.web.data.models import ClubRow, GameRow, now
from scorekeeper.web.data.night_models import (
    NightPlayerRow,
    NightRoundRow,
    NightRow,
    NightTableRow,
)

_rng = random.SystemRandom()
"""The first leader of each table's game, by lot (not part of the seating's replay)."""


class NightNotFound(Exception):
    """No night of this club has this number."""


class NightProblem(Exception):
    """A change of the night that cannot be made; ``said`` says why. Nothing was written."""

    def __init__(self, said: Message) -> None:
        super().__init__(str(said))
        self.said = said


class Unfinished(Exception):
    """The last round has tables whose match is not over: the director decides."""

    def __init__(self, tables: list[NightTableRow]) -> None:
        super().__init__(len(tables))
        self.tables = tables


def night_format(night: NightRow) -> NightFormat:
    """The night's format as the rules read it."""
    return NightFormat(
        table_size=cast(TableSize, night.table_size),
        rounds=night.rounds,
        minutes=night.minutes,
        match=cast(Match, night.match),
        at_limit=cast(AtLimit, night.at_limit),
        tie_breaks=tuple(cast(list[TieBreak], night.tie_breaks or [])),
    )


def _failing(problem: Message) -> NightProblem:
    db.session.rollback()
    return NightProblem(problem)


# -- opening a night and its players ----------------------------------------------------------


def open_night(
    club: ClubRow,
    night: NightFormat,
    preset: str,
    options: dict[str, object],
    present: Sequence[str],
) -> NightRow:
    """A new night of ``club`` with the players ``present`` (new names join the roster)."""
    games.begin_write()
    try:
        names = clubs.seat_names(club, present)
        if len(names) < 2:
            raise NightProblem(say("A night needs at least 2 players: tick who is here."))
        if len(names) > MOST_PLAYERS:
            raise NightProblem(say("A night seats at most %(most)s players.", most=MOST_PLAYERS))
        row = NightRow(
            club_id=club.id,
            preset=preset,
            options=dict(options),
            table_size=night.table_size,
            rounds=night.rounds,
            minutes=night.minutes,
            match=night.match,
            at_limit=night.at_limit,
            tie_breaks=list(night.tie_breaks),
        )
        row.players = [NightPlayerRow(name=n, name_key=name_key(n)) for n in names]
        db.session.add(row)
        db.session.commit()
    except clubs.RosterProblem as problem:
        raise _failing(problem.said) from None
    except BaseException:
        db.session.rollback()
        raise
    return row


def nights_of(club: ClubRow) -> list[NightRow]:
    """The club's nights, the newest first."""
    query = select(NightRow).where(NightRow.club_id == club.id)
    return sorted(db.session.scalars(query), key=lambda n: n.id, reverse=True)


def find_night(club: ClubRow, night_id: int) -> NightRow:
    """The club's night ``night_id``, or NightNotFound (a number no column holds too)."""
    if not 0 < night_id < 2**31:
        raise NightNotFound(night_id)
    night = db.session.get(NightRow, night_id)
    if night is None or night.club_id != club.id:
        raise NightNotFound(night_id)
    return night


def present_in(night: NightRow, number: int) -> list[str]:
    """Who is seated in round ``number``: joined by then and not left before it."""
    return [
        p.name
        for p in night.players
        if p.joined_round <= number and (p.left_round is None or p.left_round > number)
    ]


def started_rounds(night: NightRow) -> list[NightRoundRow]:
    """The rounds whose games have begun."""
    return [r for r in night.round_rows if r.started_at is not None]


def waiting_round(night: NightRow) -> NightRoundRow | None:
    """The round seated and not started yet, if there is one."""
    rows = night.round_rows
    return rows[-1] if rows and rows[-1].started_at is None else None


def _next_to_seat(night: NightRow) -> int:
    """The first round a walk-in or a leaver changes: the one after the last started."""
    return len(started_rounds(night)) + 1


def add_walk_in(night: NightRow, club: ClubRow, name: str) -> int:
    """Seat ``name`` from the next round on (a seated round not started is seated again);
    the round they join."""
    games.begin_write()
    try:
        spelled = clubs.seat_names(club, [name])[0]
        key = name_key(spelled)
        if any(p.name_key == key for p in night.players):
            raise NightProblem(say("%(name)s is on tonight's list already.", name=spelled))
        if len(night.players) >= MOST_PLAYERS:
            raise NightProblem(say("A night seats at most %(most)s players.", most=MOST_PLAYERS))
        joins = _next_to_seat(night)
        night.players.append(NightPlayerRow(name=spelled, name_key=key, joined_round=joins))
        _reseat_waiting(night)
        db.session.commit()
    except clubs.RosterProblem as problem:
        raise _failing(problem.said) from None
    except BaseException:
        db.session.rollback()
        raise
    return joins


def leave(night: NightRow, player_id: int) -> tuple[str, int]:
    """``player_id`` leaves: not seated from the next round on (a seated round not started is
    seated again). Their name and the first round without them."""
    games.begin_write()
    try:
        player = next((p for p in night.players if p.id == player_id), None)
        if player is None:
            raise NightProblem(say("That player is not on tonight's list (reload the page)."))
        if player.left_round is not None:
            raise NightProblem(say("%(name)s has left already.", name=player.name))
        player.left_round = _next_to_seat(night)
        _reseat_waiting(night)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return player.name, player.left_round


# -- seating ----------------------------------------------------------------------------------


def _seating_of(number: int, night: NightRow) -> Seating:
    """Round ``number``'s seats drawn from the rounds before it and the seed stored with it."""
    row = next(r for r in night.round_rows if r.number == number)
    before = [Seating.from_json(r.seats) for r in night.round_rows if r.number < number]
    fmt = night_format(night)
    present = present_in(night, number)
    if fmt.table_size == 2:
        wanted = {name_key(n) for n in present}
        groups = [
            [e.name for e in group if name_key(e.name) in wanted]
            for group in standings(night, after_round=number - 1)
        ]
        ranked = [g for g in groups if g]
    else:
        ranked = [present]
    return seat_round(ranked, fmt.table_size, History.of(before, fmt.table_size), row.seed)


def _reseat_waiting(night: NightRow) -> None:
    waiting = waiting_round(night)
    if waiting is not None:
        waiting.seats = _seating_of(waiting.number, night).to_json()


def seat_next_round(night: NightRow, end_unfinished: bool = False) -> NightRoundRow:
    """Seat the next round (not started). The last round's unfinished tables raise
    :class:`Unfinished`, unless ``end_unfinished``: then they end as they stand."""
    games.begin_write()
    try:
        if waiting_round(night) is not None:
            raise NightProblem(
                say(
                    "Round %(round)s is seated already: start it first.",
                    round=len(night.round_rows),
                )
            )
        number = len(night.round_rows) + 1
        if number > night.rounds:
            raise NightProblem(
                say(
                    "The night has %(rounds)s rounds, and every one is seated.", rounds=night.rounds
                )
            )
        if night.round_rows:
            unfinished = unfinished_tables(night.round_rows[-1], night)
            if unfinished and not end_unfinished:
                raise Unfinished(unfinished)
            for table in unfinished:
                _end(table)
        if len(present_in(night, number)) < 2:
            raise NightProblem(say("Fewer than 2 players are here: nobody can be seated."))
        row = NightRoundRow(number=number, seed=secrets.randbelow(2**31), seats={})
        night.round_rows.append(row)
        row.seats = _seating_of(number, night).to_json()
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return row


def swap_seats(night: NightRow, number: int, one: str, other: str) -> None:
    """Exchange two players' seats in round ``number`` before it starts."""
    games.begin_write()
    try:
        row = round_row(night, number)
        if row.started_at is not None:
            raise NightProblem(
                say(
                    "Round %(round)s has begun: its seats are its games' now, and cannot be "
                    "swapped.",
                    round=number,
                )
            )
        seating = Seating.from_json(row.seats)
        if one == other or one not in seating.seated() or other not in seating.seated():
            raise NightProblem(say("Choose two different players of this round to swap."))
        row.seats = swap(seating, one, other).to_json()
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


def round_row(night: NightRow, number: int) -> NightRoundRow:
    """Round ``number`` of the night, or NightNotFound."""
    found = next((r for r in night.round_rows if r.number == number), None)
    if found is None:
        raise NightNotFound(number)
    return found


def _first_leader(setup: Setup) -> list[Event]:
    """As a new game does: by lot, unless the table draws for the lead or the highest double
    leads (the table's page asks then)."""
    if setup.rules.lead in ("draw-highest", "highest-double"):
        return []
    return [NewHand(_rng.randrange(len(setup.players)), "lot")]


def start_round(night: NightRow, club: ClubRow, number: int) -> list[NightTableRow]:
    """Start round ``number``: one game of the club per table, all or none."""
    games.begin_write()
    try:
        row = round_row(night, number)
        if row.started_at is not None:
            raise NightProblem(say("Round %(round)s has begun already.", round=number))
        seating = Seating.from_json(row.seats)
        names = seating.seated()
        if len({name_key(n) for n in names}) != len(names):
            raise NightProblem(say("A player is seated twice in this round: nothing was started."))
        fmt = night_format(night)
        for index, seats in enumerate(seating.tables, 1):
            partners = fmt.partners if len(seats) == 4 else None
            setup = Setup.create(list(seats), night.preset, dict(night.options), partners)
            loaded = clubs.start_game(club, setup, _first_leader(setup), commit=False)
            db.session.flush()
            row.tables.append(NightTableRow(number=index, game_id=loaded.row.id))
        row.started_at = now()
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return list(row.tables)


# -- the tables' games ------------------------------------------------------------------------


@dataclass(frozen=True)
class TableNow:
    """A started table as its games stand: its games (first, then rematches) and its match."""

    row: NightTableRow
    seats: tuple[str, ...]
    games: tuple[GameRow, ...]
    played: TableGames

    @property
    def current(self) -> GameRow | None:
        """The game being played, or the last one."""
        return self.games[-1] if self.games else None


def _prefix_facts(game: GameRow, events: int) -> GameFacts:
    """The facts of ``game`` after its first ``events`` live entries (as the director ended
    it): replayed from the stored entries, so nothing entered later counts."""
    found = fetch_rows(game.id, None)
    rows = found[1][:events] if found is not None else []
    return game_facts(replayed.replay_whole(games.setup_of(game), 0, rows, event_of).game)


def table_now(table: NightTableRow, night: NightRow, seats: tuple[str, ...]) -> TableNow:
    """The table's match as its games stand now."""
    fmt = night_format(night)
    chain: list[GameRow] = []
    game = db.session.get(GameRow, table.game_id) if table.game_id is not None else None
    while game is not None and game.deleted_at is None and len(chain) < fmt.games_per_match:
        chain.append(game)
        if table.ended_game_id == game.id:
            break
        partial = TableGames(table.round.number, seats, tuple(_facts(chain, table)))
        if match_result(partial, fmt).over or game.status != "over":
            break
        game = games.rematch_of(game)
    facts = tuple(_facts(chain, table))
    ended = table.ended_at is not None
    return TableNow(table, seats, tuple(chain), TableGames(table.round.number, seats, facts, ended))


def _facts(chain: list[GameRow], table: NightTableRow) -> list[GameFacts]:
    found = clubs.facts_of([g for g in chain if g.id != table.ended_game_id])
    return [
        _prefix_facts(g, table.ended_events or 0) if g.id == table.ended_game_id else found[g.id]
        for g in chain
    ]


def round_tables(row: NightRoundRow, night: NightRow) -> list[TableNow]:
    """The started round's tables as their games stand."""
    seating = Seating.from_json(row.seats)
    return [table_now(t, night, seating.tables[t.number - 1]) for t in row.tables]


def unfinished_tables(row: NightRoundRow, night: NightRow) -> list[NightTableRow]:
    """The tables of a started round whose match is not over."""
    fmt = night_format(night)
    return [t.row for t in round_tables(row, night) if not match_result(t.played, fmt).over]


def _end(table: NightTableRow) -> None:
    """End the table's match as it stands (not committed)."""
    night = table.round.night
    seats = Seating.from_json(table.round.seats).tables[table.number - 1]
    current = table_now(table, night, seats).current
    table.ended_at = now()
    if current is None:  # its game was deleted: the match ends level, nothing to count
        return
    found = fetch_rows(current.id, None)
    table.ended_game_id = current.id
    table.ended_events = len(found[1]) if found is not None else 0


def end_table(night: NightRow, number: int, table_number: int) -> TableNow:
    """End table ``table_number`` of round ``number`` as it stands (a player left, or time)."""
    games.begin_write()
    try:
        row = round_row(night, number)
        table = next((t for t in row.tables if t.number == table_number), None)
        if table is None:
            raise NightProblem(say("Round %(round)s has no such table.", round=number))
        seats = Seating.from_json(row.seats).tables[table_number - 1]
        if match_result(table_now(table, night, seats).played, night_format(night)).over:
            raise NightProblem(
                say("Table %(table)s's match is over already: nothing to end.", table=table_number)
            )
        _end(table)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return table_now(table, night, seats)


def night_game_ids(club: ClubRow, rows: Sequence[GameRow]) -> set[int]:
    """The ids of the club's games ``rows`` played at a table of one of its nights, a best of
    3's rematches too: they count toward the club's ratings whatever the club says of its
    ordinary games. One query for the tables' first games; rematches are followed among
    ``rows``."""
    first = db.session.scalars(
        select(NightTableRow.game_id)
        .join(NightRoundRow, NightTableRow.round_id == NightRoundRow.id)
        .join(NightRow, NightRoundRow.night_id == NightRow.id)
        .where(NightRow.club_id == club.id, NightTableRow.game_id.is_not(None))
    ).all()
    by_id = {row.id: row for row in rows}
    found: set[int] = set()
    for game_id in first:
        row = by_id.get(game_id) if game_id is not None else None
        while row is not None and row.id not in found:
            found.add(row.id)
            row = by_id.get(row.rematch_id) if row.rematch_id is not None else None
    return found


# -- standings --------------------------------------------------------------------------------


def night_tables(night: NightRow) -> list[TableGames]:
    """Every started table of the night as its games stand."""
    return [t.played for r in started_rounds(night) for t in round_tables(r, night)]


def night_byes(night: NightRow) -> list[tuple[int, str]]:
    """Each bye of a started round: (round, player)."""
    return [
        (r.number, name) for r in started_rounds(night) for name in Seating.from_json(r.seats).byes
    ]


def standings(night: NightRow, after_round: int | None = None) -> list[list[NightStanding]]:
    """The night's standings from its games (after round ``after_round`` only, if given)."""
    return night_standings(
        [p.name for p in night.players],
        night_tables(night),
        night_byes(night),
        night_format(night),
        after_round,
    )
