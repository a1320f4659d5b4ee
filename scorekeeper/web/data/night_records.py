"""A club night as one ``all-fives-night/1`` record (docs/night-record.md): written from the
database, and read into a club (of this server or another) as a new night.

The record holds what the night decided (its settings, players, each round's seed and seats,
each table's games and whether the director ended it) and, to check by, the standings as the
exporting server computed them. Each game is its ``all-fives/1`` record exactly as a game's
own download writes it (``rules.record.write_record``). Reading a record replays every game,
recomputes the standings from them, and refuses a record whose stated standings differ; the
night and its games are then stored in one transaction, or nothing is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from scorekeeper.rules import RecordRefusal, Refusal, Setup
from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.game import Game
from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.names import name_key
from scorekeeper.rules.nights.format import (
    AT_LIMITS,
    MATCHES,
    MOST_MINUTES,
    MOST_PLAYERS,
    MOST_ROUNDS,
    TABLE_SIZES,
    TIE_BREAKS,
    AtLimit,
    Match,
    NightFormat,
    TableSize,
    TieBreak,
)
from scorekeeper.rules.nights.seating import Seating, sides_of
from scorekeeper.rules.nights.standings import NightStanding, TableGames, flat, night_standings
from scorekeeper.rules.options import PRESETS
from scorekeeper.rules.record import Timed, read_timed, write_record
from scorekeeper.rules.record_json import parse_json
from scorekeeper.rules.stats import game_facts
from scorekeeper.rules.times import utc, write_time
from scorekeeper.web.data import clubs, games, nights
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubRow, GameRow, now
from scorekeeper.web.data.night_models import (
    NightPlayerRow,
    NightRoundRow,
    NightRow,
    NightTableRow,
)

FORMAT = "all-fives-night/1"
"""The record's format and version: a reader refuses any other."""

STANDING_FIELDS = (
    "match_points",
    "won",
    "drawn",
    "lost",
    "byes",
    "points_for",
    "points_against",
    "difference",
)
"""A standings line's figures, as the record and the CSV name them (after place and player)."""


class NightRecordProblem(Exception):
    """A night record that cannot be imported; ``said`` says why and where. Nothing stored."""

    def __init__(self, said: Message) -> None:
        super().__init__(str(said))
        self.said = said


# -- writing ----------------------------------------------------------------------------------


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else write_time(moment.replace(microsecond=0, tzinfo=UTC))


def _game_record(row: GameRow) -> dict[str, Any]:
    """The game's record exactly as its own download writes it (with its times)."""
    found = games.replay_rows(row)
    return write_record(found.game, games.record_times(row, found), every_rule=True)


def standing_lines(groups: Sequence[Sequence[NightStanding]]) -> list[dict[str, Any]]:
    """The standings as the record writes them, best first."""
    return [
        {"place": e.place, "player": e.name, **{f: getattr(e, f) for f in STANDING_FIELDS}}
        for e in flat(groups)
    ]


def write_night(night: NightRow, club: ClubRow) -> dict[str, Any]:
    """The ``all-fives-night/1`` record of ``night``."""
    rounds: list[dict[str, Any]] = []
    for row in night.round_rows:
        written: dict[str, Any] = {
            "number": row.number,
            "seed": row.seed,
            "seats": Seating.from_json(row.seats).to_json(),
            "started_at": _time(row.started_at),
        }
        if row.started_at is not None:
            tables = []
            for table in nights.round_tables(row, night):
                ended = None
                if table.row.ended_at is not None:
                    ended = {
                        "at": _time(table.row.ended_at),
                        "entries": table.row.ended_events if table.games else None,
                    }
                tables.append(
                    {
                        "number": table.row.number,
                        "games": [_game_record(g) for g in table.games],
                        "ended": ended,
                    }
                )
            written["tables"] = tables
        rounds.append(written)
    return {
        "format": FORMAT,
        "club": club.name,
        "created_at": _time(night.created_at),
        "settings": {
            "preset": night.preset,
            "options": dict(night.options or {}),
            "table_size": night.table_size,
            "rounds": night.rounds,
            "minutes": night.minutes,
            "match": night.match,
            "at_limit": night.at_limit,
            "tie_breaks": list(night.tie_breaks or []),
        },
        "players": [
            {"name": p.name, "joined_round": p.joined_round, "left_round": p.left_round}
            for p in night.players
        ],
        "rounds": rounds,
        "standings": standing_lines(nights.standings(night)),
    }


# -- reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReadTable:
    """A table of a started round as the record gives it: its games and how it ended."""

    number: int
    games: tuple[Timed, ...]
    ended: bool
    ended_at: datetime | None
    entries: int | None


@dataclass(frozen=True)
class ReadRound:
    """A round as the record gives it."""

    number: int
    seed: int
    seating: Seating
    started_at: datetime | None
    tables: tuple[ReadTable, ...]


@dataclass(frozen=True)
class NightRecord:
    """A night record read and checked: everything needed to store it."""

    created_at: datetime | None
    preset: str
    options: dict[str, object]
    night: NightFormat
    players: tuple[tuple[str, int, int | None], ...]
    rounds: tuple[ReadRound, ...]


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise NightRecordProblem(
            say("The night record's %(where)s is not a JSON object.", where=where)
        )
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise NightRecordProblem(say("The night record's %(where)s is not a list.", where=where))
    return value


def _int(value: object, where: str, least: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise NightRecordProblem(
            say(
                "The night record's %(where)s is a whole number from %(least)s to %(most)s.",
                where=where,
                least=least,
                most=most,
            )
        )
    return value


def _choice(value: object, where: str, choices: Sequence[object]) -> Any:
    if value not in choices:
        raise NightRecordProblem(
            say(
                "The night record's %(where)s is one of %(choices)s.",
                where=where,
                choices=", ".join(str(c) for c in choices),
            )
        )
    return value


def _moment(value: object, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        moment = None
    if not isinstance(value, str) or moment is None or moment.tzinfo is None:
        raise NightRecordProblem(
            say("The night record's %(where)s is not a time with its offset.", where=where)
        )
    return utc(moment)


def _settings(data: Mapping[str, Any]) -> tuple[str, dict[str, object], NightFormat]:
    settings = _object(data.get("settings"), "settings")
    preset = _choice(settings.get("preset"), "preset", PRESETS)
    options = dict(_object(settings.get("options", {}), "options"))
    breaks = _list(settings.get("tie_breaks", []), "tie_breaks")
    for value in breaks:
        _choice(value, "tie_breaks", TIE_BREAKS)
    if len(set(breaks)) != len(breaks):
        raise NightRecordProblem(say("The night record names a tie-break twice."))
    night = NightFormat(
        table_size=cast(TableSize, _choice(settings.get("table_size"), "table_size", TABLE_SIZES)),
        rounds=_int(settings.get("rounds"), "rounds", 1, MOST_ROUNDS),
        minutes=_int(settings.get("minutes"), "minutes", 1, MOST_MINUTES),
        match=cast(Match, _choice(settings.get("match"), "match", MATCHES)),
        at_limit=cast(AtLimit, _choice(settings.get("at_limit"), "at_limit", AT_LIMITS)),
        tie_breaks=tuple(cast(list[TieBreak], breaks)),
    )
    try:
        size = night.table_size
        Setup.create([f"P{n}" for n in range(size)], preset, dict(options), size == 4 or None)
    except Refusal as refusal:
        raise NightRecordProblem(
            say("The night's house rules cannot be played: %(why)s", why=refusal.said)
        ) from None
    return preset, options, night


def _players(data: Mapping[str, Any], rounds: int) -> tuple[tuple[str, int, int | None], ...]:
    listed = _list(data.get("players"), "players")
    if not 2 <= len(listed) <= MOST_PLAYERS:
        raise NightRecordProblem(say("A night has from 2 to %(most)s players.", most=MOST_PLAYERS))
    read: list[tuple[str, int, int | None]] = []
    keys: set[str] = set()
    for entry in listed:
        player = _object(entry, "player")
        name = player.get("name")
        if not isinstance(name, str) or not name.strip():
            raise NightRecordProblem(say("A player of the night record has no name."))
        if name_key(name) in keys:
            raise NightRecordProblem(say("The night record lists %(name)s twice.", name=name))
        keys.add(name_key(name))
        joined = _int(player.get("joined_round", 1), "joined_round", 1, rounds + 1)
        left = player.get("left_round")
        if left is not None:
            left = _int(left, "left_round", joined, rounds + 1)
        read.append((name.strip(), joined, left))
    return tuple(read)


def _where(number: int, table: int, game: int) -> Message:
    return say(
        "Round %(round)s, table %(table)s, game %(game)s", round=number, table=table, game=game
    )


def _game(
    value: object, number: int, table: int, index: int, seats: tuple[str, ...], partners: bool
) -> Timed:
    where = _where(number, table, index)
    try:
        timed = read_timed(value, unsettled_last_hand=True)
    except RecordRefusal as refusal:
        located = refusal.said
        if refusal.hand is not None:
            located = say(
                "hand %(hand)s, entry %(event)s: %(why)s",
                hand=refusal.hand,
                event=refusal.event or 0,
                why=refusal.said,
            )
        raise NightRecordProblem(say("%(where)s: %(why)s", where=where, why=located)) from None
    except Refusal as refusal:
        raise NightRecordProblem(say("%(where)s: %(why)s", where=where, why=refusal.said)) from None
    if [name_key(n) for n in timed.game.players] != [name_key(n) for n in seats] or len(
        timed.game.sides
    ) != len(sides_of(seats, partners)):
        raise NightRecordProblem(
            say(
                "%(where)s is played by other players than the round seats at the table.",
                where=where,
            )
        )
    return timed


def _round(value: object, number: int, night: NightFormat, keys: set[str], last: bool) -> ReadRound:
    data = _object(value, "round")
    if data.get("number") != number:
        raise NightRecordProblem(
            say("The night record's rounds are not numbered 1, 2, 3 in order.")
        )
    seed = _int(data.get("seed"), "seed", 0, 2**31 - 1)
    seats = _object(data.get("seats"), "seats")
    tables_seated = _list(seats.get("tables"), "seats")
    byes = _list(seats.get("byes", []), "byes")
    for table in tables_seated:
        if not isinstance(table, list) or not 2 <= len(table) <= 4:
            raise NightRecordProblem(
                say("Round %(round)s has a table that is not 2 to 4 players.", round=number)
            )
    seated = [*(n for t in tables_seated for n in t), *byes]
    seen: set[str] = set()
    for name in seated:
        if not isinstance(name, str) or name_key(name) not in keys:
            raise NightRecordProblem(
                say(
                    "Round %(round)s seats %(name)s, who is not a player of the night.",
                    round=number,
                    name=str(name),
                )
            )
        if name_key(name) in seen:
            raise NightRecordProblem(
                say("Round %(round)s seats %(name)s twice.", round=number, name=name)
            )
        seen.add(name_key(name))
    seating = Seating.from_json({"tables": tables_seated, "byes": byes})
    started_at = _moment(data.get("started_at"), "started_at")
    if started_at is None:
        if not last:
            raise NightRecordProblem(
                say("Only the last round of a night can be seated and not started.")
            )
        return ReadRound(number, seed, seating, None, ())
    listed = _list(data.get("tables"), "tables")
    if len(listed) != len(seating.tables):
        raise NightRecordProblem(
            say(
                "Round %(round)s seats %(seated)s tables but gives %(given)s.",
                round=number,
                seated=len(seating.tables),
                given=len(listed),
            )
        )
    tables: list[ReadTable] = []
    for index, (entry, seats_at) in enumerate(zip(listed, seating.tables, strict=True), 1):
        table = _object(entry, "table")
        given = _list(table.get("games"), "games")
        if len(given) > night.games_per_match:
            raise NightRecordProblem(
                say(
                    "Round %(round)s, table %(table)s has more games than its match plays.",
                    round=number,
                    table=index,
                )
            )
        played = tuple(
            _game(g, number, index, n, seats_at, night.partners) for n, g in enumerate(given, 1)
        )
        ended_data = table.get("ended")
        entries = None
        ended_at = None
        if ended_data is not None:
            ended = _object(ended_data, "ended")
            ended_at = _moment(ended.get("at"), "ended at")
            if played:
                most = len(played[-1].game.events)
                entries = _int(ended.get("entries"), "entries", 0, most)
        tables.append(ReadTable(index, played, ended_data is not None, ended_at, entries))
    return ReadRound(number, seed, seating, started_at, tuple(tables))


def _facts_of(table: ReadTable, number: int) -> TableGames:
    facts = []
    for index, timed in enumerate(table.games):
        game = timed.game
        if table.ended and index == len(table.games) - 1:
            game = Game(game.setup, game.events[: table.entries or 0])
        facts.append(game_facts(game))
    seats = tuple(table.games[0].game.players) if table.games else ()
    return TableGames(number, seats, tuple(facts), table.ended)


def recompute(read: NightRecord) -> list[list[NightStanding]]:
    """The standings of the record's night, from its games."""
    tables = []
    for played in read.rounds:
        for table, seats in zip(played.tables, played.seating.tables, strict=True):
            games_at = _facts_of(table, played.number)
            tables.append(TableGames(played.number, seats, games_at.games, table.ended))
    byes = [(r.number, name) for r in read.rounds if r.started_at for name in r.seating.byes]
    return night_standings([p[0] for p in read.players], tables, byes, read.night)


def _check_standings(stated: object, computed: list[dict[str, Any]]) -> None:
    lines = _list(stated, "standings")
    if len(lines) != len(computed):
        raise NightRecordProblem(
            say(
                "The night record's standings have %(stated)s lines; its games give %(computed)s.",
                stated=len(lines),
                computed=len(computed),
            )
        )
    for number, (line, ours) in enumerate(zip(lines, computed, strict=True), 1):
        given = _object(line, "standings line")
        if name_key(str(given.get("player", ""))) != name_key(ours["player"]):
            raise NightRecordProblem(
                say(
                    "Standings line %(line)s is %(stated)s; the games put %(computed)s there.",
                    line=number,
                    stated=str(given.get("player")),
                    computed=ours["player"],
                )
            )
        for field in ("place", *STANDING_FIELDS):
            if given.get(field) != ours[field]:
                raise NightRecordProblem(
                    say(
                        "Standings line %(line)s (%(player)s) says %(field)s %(stated)s; "
                        "the games give %(computed)s.",
                        line=number,
                        player=ours["player"],
                        field=field,
                        stated=str(given.get(field)),
                        computed=ours[field],
                    )
                )


def read_night(text: str | bytes) -> NightRecord:
    """The night in a record's JSON text, checked (its games replayed, its standings
    recomputed), or a :class:`NightRecordProblem`."""
    try:
        parsed = parse_json(text)
    except MalformedInput as refused:
        raise NightRecordProblem(refused.said) from None
    data = _object(parsed, "top")
    if data.get("format") != FORMAT:
        raise NightRecordProblem(
            say(
                "This is not a night record of this version: its format is %(given)s, not %(format)s.",
                given=str(data.get("format")),
                format=FORMAT,
            )
        )
    preset, options, night = _settings(data)
    players = _players(data, night.rounds)
    keys = {name_key(p[0]) for p in players}
    listed = _list(data.get("rounds", []), "rounds")
    if len(listed) > night.rounds:
        raise NightRecordProblem(say("The night record has more rounds than its settings allow."))
    rounds = tuple(_round(r, n, night, keys, n == len(listed)) for n, r in enumerate(listed, 1))
    read = NightRecord(
        _moment(data.get("created_at"), "created_at"), preset, options, night, players, rounds
    )
    _check_standings(data.get("standings"), standing_lines(recompute(read)))
    return read


# -- storing ----------------------------------------------------------------------------------


def import_night(club: ClubRow, read: NightRecord) -> NightRow:
    """Store the night ``read`` as a new night of ``club``: its players join the roster (as
    the club spells them), every table's games are new games of the club. All or nothing."""
    games.begin_write()
    try:
        spelled = dict(
            zip(
                (name_key(p[0]) for p in read.players),
                clubs.seat_names(club, [p[0] for p in read.players]),
                strict=True,
            )
        )
        fmt = read.night
        night = NightRow(
            club_id=club.id,
            preset=read.preset,
            options=dict(read.options),
            table_size=fmt.table_size,
            rounds=fmt.rounds,
            minutes=fmt.minutes,
            match=fmt.match,
            at_limit=fmt.at_limit,
            tie_breaks=list(fmt.tie_breaks),
        )
        if read.created_at is not None:
            night.created_at = read.created_at
        night.players = [
            NightPlayerRow(
                name=spelled[name_key(n)], name_key=name_key(n), joined_round=j, left_round=lft
            )
            for n, j, lft in read.players
        ]
        db.session.add(night)
        for played in read.rounds:
            seating = Seating(
                tuple(tuple(spelled[name_key(n)] for n in t) for t in played.seating.tables),
                tuple(spelled[name_key(n)] for n in played.seating.byes),
            )
            row = NightRoundRow(
                number=played.number,
                seed=played.seed,
                seats=seating.to_json(),
                started_at=played.started_at,
            )
            night.round_rows.append(row)
            for table in played.tables:
                row.tables.append(_stored_table(club, table))
        db.session.commit()
    except clubs.RosterProblem as problem:
        db.session.rollback()
        raise NightRecordProblem(problem.said) from None
    except BaseException:
        db.session.rollback()
        raise
    return night


def _stored_table(club: ClubRow, table: ReadTable) -> NightTableRow:
    """The table's games stored as the club's (each the rematch of the one before)."""
    stored: list[GameRow] = []
    for timed in table.games:
        setup = clubs.spelled_setup(club, timed.game.setup)
        loaded = games.create(
            setup, timed.game.events, club_id=club.id, commit=False, times=timed.times
        )
        if stored:
            stored[-1].rematch_id = loaded.row.id
        stored.append(loaded.row)
    row = NightTableRow(number=table.number, game_id=stored[0].id if stored else None)
    if table.ended:
        row.ended_at = table.ended_at or now()
        if stored:
            row.ended_game_id = stored[-1].id
            row.ended_events = table.entries
    return row


# -- listing ----------------------------------------------------------------------------------


def night_state(night: NightRow) -> str:
    """Where the night is, in English words for the operator's list."""
    started = nights.started_rounds(night)
    waiting = nights.waiting_round(night)
    if waiting is not None:
        return f"round {waiting.number} seated"
    if not started:
        return "open, no round seated"
    last = started[-1]
    if nights.unfinished_tables(last, night):
        return f"round {last.number} playing"
    if len(started) >= night.rounds:
        return "over"
    return f"round {last.number} over"
