"""Clubs in the database: finding one by its key, its roster, its games and their facts.

A club's games are ordinary games with ``club_id`` set: they are played, shared and
undone exactly like any other. Their players are spelled the way the club's roster spells
them, so a name typed ``" ann"`` at the table joins Ann's history, and renaming Ann renames
her in every game of the club (each such game's version grows, so open pages follow).

The standings are added up from each finished game's :class:`~scorekeeper.rules.stats.
GameFacts`; those are cached in ``game_facts`` keyed by the game's version and computed
again from the events whenever the version differs (the events stay the only truth).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from scorekeeper.rules import Event, Game, Setup
from scorekeeper.rules.messages import Message, say
from scorekeeper.rules.names import name_key
from scorekeeper.rules.record import Timed, write_record
from scorekeeper.rules.standings import Played
from scorekeeper.rules.stats import GameFacts, game_facts
from scorekeeper.web.data import games
from scorekeeper.web.data.database import db
from scorekeeper.web.data.loaded import Loaded
from scorekeeper.web.data.models import ClubPlayerRow, ClubRow, GameFactsRow, GameRow, now

ClubDoorKind = Literal["clubs", "clubs/watch"]
CLUB_EDIT: Final = "clubs"
"""``/clubs/<edit key>``: may start and import games and change the roster."""
CLUB_WATCH: Final = "clubs/watch"
"""``/clubs/watch/<watch key>``: shows everything, changes nothing."""
MAX_CLUB_NAME = 80


class ClubNotFound(Exception):
    """There is no club with this key (behind this door)."""


class RosterProblem(Exception):
    """A roster change or a game's names cannot be accepted; ``said`` says why (a
    :class:`Message` the site says in the reader's language; ``str()`` is the English)."""

    def __init__(self, said: Message) -> None:
        super().__init__(str(said))
        self.said = said


@dataclass(frozen=True)
class ClubDoor:
    """How a page reached a club: by its edit link or its watch link."""

    kind: ClubDoorKind
    club: ClubRow

    @property
    def editable(self) -> bool:
        """Whether this door may change the club (start games, rename players...)."""
        return self.kind == CLUB_EDIT

    @property
    def key(self) -> str:
        """The key in this door's URL."""
        return self.club.edit_key if self.editable else self.club.watch_key


def create_club(name: str) -> ClubRow:
    """A new club called ``name``, with fresh keys."""
    club = ClubRow(name=name.strip())
    db.session.add(club)
    db.session.commit()
    return club


def find_club(key: str, kind: ClubDoorKind = CLUB_EDIT) -> ClubDoor:
    """The club behind door ``kind`` with ``key``, or ClubNotFound."""
    column = ClubRow.edit_key if kind == CLUB_EDIT else ClubRow.watch_key
    club = db.session.scalars(select(ClubRow).where(column == key)).first()
    if club is None:
        raise ClubNotFound(key)
    return ClubDoor(kind, club)


# -- the roster -------------------------------------------------------------------------------


def roster(club: ClubRow) -> list[ClubPlayerRow]:
    """The club's players, A to Z."""
    query = select(ClubPlayerRow).where(ClubPlayerRow.club_id == club.id)
    return sorted(db.session.scalars(query).all(), key=lambda p: p.name_key)


MAX_ROSTER = 500
"""The most players a club's roster holds (a bound on what one edit link can store)."""


def add_player(club: ClubRow, name: str) -> ClubPlayerRow:
    """Put ``name`` on the club's roster before anyone has played (committed).

    A name the roster has already, in any spelling (``ann`` for ``Ann``), or a full roster,
    is a RosterProblem and nothing changes."""
    games.begin_write()
    try:
        key = name_key(name)
        known = db.session.scalars(
            select(ClubPlayerRow).where(
                ClubPlayerRow.club_id == club.id, ClubPlayerRow.name_key == key
            )
        ).first()
        if known is not None:
            raise RosterProblem(say("%(name)s is on the roster already.", name=known.name))
        count = select(func.count()).where(ClubPlayerRow.club_id == club.id)
        if (db.session.scalar(count) or 0) >= MAX_ROSTER:
            raise RosterProblem(
                say("The roster is full: a club has at most %(most)s players.", most=MAX_ROSTER)
            )
        player = ClubPlayerRow(club_id=club.id, name=name.strip(), name_key=key)
        db.session.add(player)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return player


def spellings(club: ClubRow) -> dict[str, str]:
    """Each roster player's :func:`name_key` and the name the club spells."""
    return {player.name_key: player.name for player in roster(club)}


def seat_names(club: ClubRow, names: Sequence[str]) -> list[str]:
    """``names`` as the club spells them, the new ones added to its roster (not committed).

    Two seats naming one player (``Ann`` and ``ann``) is a RosterProblem.
    """
    known = spellings(club)
    seen: dict[str, str] = {}
    spelled = []
    for name in names:
        key = name_key(name)
        if key in seen:
            raise RosterProblem(
                say(
                    "%(first)s and %(second)s are the same player: each seat needs another player.",
                    first=repr(seen[key]),
                    second=repr(name.strip()),
                )
            )
        seen[key] = name.strip()
        if key not in known:
            known[key] = name.strip()
            db.session.add(ClubPlayerRow(club_id=club.id, name=name.strip(), name_key=key))
        spelled.append(known[key])
    return spelled


def spelled_setup(club: ClubRow, setup: Setup) -> Setup:
    """``setup`` with its players spelled as the club spells them (new ones join the roster)."""
    names = seat_names(club, setup.players)
    return Setup.create(names, setup.preset, dict(setup.options), setup.partners)


def start_game(club: ClubRow, setup: Setup, events: Sequence[Event] = ()) -> Loaded:
    """Store a new game of the club (the roster gains its new names in the same commit)."""
    return games.create(spelled_setup(club, setup), events, club_id=club.id)


class AlreadyImported(Exception):
    """The batch's game number ``index`` (from 0) is already in the club, or twice in it."""

    def __init__(self, index: int, twice: bool) -> None:
        super().__init__(index)
        self.index = index
        self.twice = twice


def fingerprint(game: Game) -> str:
    """The SHA-256 of ``game``'s record, written canonically (sorted keys, no spaces) and
    naming every house rule: a record that leaves a house rule out and one that names its
    value are the same game, and a later change of a preset's default changes no
    fingerprint. (Migration 5c1e9a7d3b20 rewrote the fingerprints stored before.)"""
    text = json.dumps(write_record(game, every_rule=True), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def join_roster(club: ClubRow, names: Sequence[str]) -> None:
    """Put ``names`` on the club's roster, those it has already (in any spelling) left as the
    club spells them (not committed). More players than a roster holds is a RosterProblem."""
    known = spellings(club)
    for name in names:
        key = name_key(name)
        if key not in known:
            known[key] = name.strip()
            db.session.add(ClubPlayerRow(club_id=club.id, name=name.strip(), name_key=key))
    if len(known) > MAX_ROSTER:
        raise RosterProblem(
            say("The roster is full: a club has at most %(most)s players.", most=MAX_ROSTER)
        )


@dataclass(frozen=True)
class Imported:
    """What an import did: the games it stored, how many players joined the roster (the
    roster line's and the games' new names) and what became of the house rules the batch
    gave: ``"set"`` (the club's new games start with them), ``"kept"`` (the club has house
    rules of its own, other than the batch's, and keeps them) or None (the batch gave none,
    or the club's are the same)."""

    rows: list[GameRow]
    joined: int
    defaults: Literal["set", "kept"] | None


def _take_defaults(
    club: ClubRow, defaults: Mapping[str, object] | None
) -> Literal["set", "kept"] | None:
    """Give the club the house rules ``defaults`` when it has none of its own (not
    committed). A club that chose its own on this server keeps them: an import brings games
    and players, and only fills in what the club has not decided."""
    if defaults is None or defaults == club.defaults:
        return None
    if club.defaults:
        return "kept"
    club.defaults = dict(defaults)
    return "set"


def import_games(
    club: ClubRow,
    played: Sequence[Timed],
    roster: Sequence[str] = (),
    defaults: Mapping[str, object] | None = None,
) -> Imported:
    """Store the games ``played`` in the club with their times, the players ``roster``
    names on its roster (a club's export lists them all, those who never played too) and,
    when the club has none of its own, the house rules ``defaults`` (as the new-game form
    stores them) for its new games; all of it or (on any error) none.

    A game already imported into the club (the same record, names spelled as the club spells
    them) is refused with :class:`AlreadyImported`, and so is one given twice in the batch.
    Its times play no part in that: the same game, exported again with its times, is the
    same game.
    """
    rows, prints = [], []
    try:
        before = len(spellings(club))
        join_roster(club, roster)
        for timed in played:
            setup = spelled_setup(club, timed.game.setup)
            loaded = games.create(
                setup, timed.game.events, club_id=club.id, commit=False, times=timed.times
            )
            rows.append(loaded.row)
            prints.append(fingerprint(loaded.game))
        known = set(
            db.session.scalars(
                select(GameRow.fingerprint).where(
                    GameRow.club_id == club.id, GameRow.fingerprint.in_(set(prints))
                )
            )
        )
        seen: set[str] = set()
        for index, (row, printed) in enumerate(zip(rows, prints, strict=True)):
            if printed in known or printed in seen:
                raise AlreadyImported(index, printed in seen)
            seen.add(printed)
            row.fingerprint = printed
        taken = _take_defaults(club, defaults)
        joined = len(spellings(club)) - before
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return Imported(rows, joined, taken)


def file_game(club: ClubRow, edit_key: str) -> GameRow:
    """Move the game with ``edit_key`` into the club, its names joining the roster.

    Raises games.NotFound for a key that is no game's edit key, RosterProblem when the game
    already belongs to a club or names one player twice.
    """
    games.begin_write()
    try:
        row = games.find(edit_key)
        if row.club_id == club.id:
            raise RosterProblem(say("That game is already one of this club's games."))
        if row.club_id is not None:
            raise RosterProblem(say("That game belongs to another club already."))
        names = seat_names(club, row.players)
        if names != list(row.players):
            _rename_seats(row, names)
        row.club_id = club.id
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return row


def _rename_seats(row: GameRow, names: list[str]) -> None:
    """Give a game's seats ``names``: a new version, so cached replays and open pages follow,
    and the winner as the games list shows it, spelled anew."""
    old_sides = games.setup_of(row).sides
    row.players = names
    row.version = (row.version or 0) + 1
    row.updated_at = now()
    if row.winner in old_sides:
        row.winner = games.setup_of(row).sides[old_sides.index(row.winner)]


def _player(club: ClubRow, player_id: int) -> ClubPlayerRow:
    player = db.session.get(ClubPlayerRow, player_id)
    if player is None or player.club_id != club.id:
        raise RosterProblem(say("That player is not on this club's roster (reload the page)."))
    return player


def _games_naming(club: ClubRow, key: str) -> list[GameRow]:
    """The club's games (deleted ones too) with a seat whose name is ``key``."""
    query = select(GameRow).where(GameRow.club_id == club.id)
    return [
        row for row in db.session.scalars(query) if any(name_key(n) == key for n in row.players)
    ]


def rename(club: ClubRow, player_id: int, new_name: str) -> tuple[str, str, int]:
    """Rename a roster player, and them in every game of the club: (old, new, games).

    A new spelling of the same name (``ann`` to ``Ann``) is a rename too; a name another
    roster player has is a RosterProblem (merge them instead).
    """
    games.begin_write()
    try:
        player = _player(club, player_id)
        old, new, key = player.name, new_name.strip(), name_key(new_name)
        other = db.session.scalars(
            select(ClubPlayerRow).where(
                ClubPlayerRow.club_id == club.id,
                ClubPlayerRow.name_key == key,
                ClubPlayerRow.id != player.id,
            )
        ).first()
        if other is not None:
            raise RosterProblem(
                say(
                    "%(other)s is on the roster already. To make %(old)s and %(other)s one "
                    "player, merge them.",
                    other=other.name,
                    old=old,
                )
            )
        naming = _games_naming(club, player.name_key)
        for row in naming:
            _rename_seats(row, [new if name_key(n) == player.name_key else n for n in row.players])
        player.name, player.name_key = new, key
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return old, new, len(naming)


def merge(club: ClubRow, from_id: int, into_id: int) -> tuple[str, str, int]:
    """Make two roster entries one: ``from`` becomes ``into`` in every game and leaves the
    roster: (from's name, into's name, games changed).

    Refused (RosterProblem) when both sat in one game: a game cannot seat a player twice.
    """
    games.begin_write()
    try:
        source, target = _player(club, from_id), _player(club, into_id)
        if source.id == target.id:
            raise RosterProblem(say("Choose two different players to merge."))
        naming = _games_naming(club, source.name_key)
        for row in naming:
            if any(name_key(n) == target.name_key for n in row.players):
                raise RosterProblem(
                    say(
                        "%(source)s and %(target)s played in the same game (%(players)s): "
                        "they are two players. Nothing was merged.",
                        source=source.name,
                        target=target.name,
                        players=", ".join(row.players),
                    )
                )
        for row in naming:
            names = [target.name if name_key(n) == source.name_key else n for n in row.players]
            _rename_seats(row, names)
        merged = source.name, target.name
        db.session.delete(source)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return merged[0], merged[1], len(naming)


# -- games and their facts --------------------------------------------------------------------


def club_games(club: ClubRow) -> list[GameRow]:
    """The club's games (not deleted), the newest first."""
    query = (
        select(GameRow)
        .where(GameRow.club_id == club.id, GameRow.deleted_at.is_(None))
        .order_by(GameRow.created_at.desc(), GameRow.id.desc())
    )
    return list(db.session.scalars(query).all())


def facts_of(rows: Sequence[GameRow]) -> dict[int, GameFacts]:
    """Each game's facts at its version: from the cache, or replayed and cached anew.

    A cached row of another version or an older format is replaced. Writing the cache is best
    effort: when another request wrote the same game's facts first, its are as good.
    """
    if not rows:
        return {}
    by_id = {row.id: row for row in rows}
    cached = db.session.scalars(
        select(GameFactsRow).where(GameFactsRow.game_id.in_(list(by_id)))
    ).all()
    found: dict[int, GameFacts] = {}
    stale: dict[int, GameFactsRow] = {}
    for entry in cached:
        facts = GameFacts.from_json(entry.facts)
        if facts is not None and entry.version == (by_id[entry.game_id].version or 0):
            found[entry.game_id] = facts
        else:
            stale[entry.game_id] = entry
    missing = [row for row in rows if row.id not in found]
    for row in missing:
        found[row.id] = game_facts(games.replay(row))
    if missing:
        _store_facts(missing, found, stale)
    return found


def _store_facts(
    rows: Sequence[GameRow], found: dict[int, GameFacts], stale: dict[int, GameFactsRow]
) -> None:
    """Write the facts just computed (one commit; given up quietly if another wrote them)."""
    session = db.session
    for row in rows:
        data = found[row.id].to_json()
        entry = stale.get(row.id)
        if entry is not None:
            entry.version, entry.facts = row.version or 0, data
        else:
            session.add(GameFactsRow(game_id=row.id, version=row.version or 0, facts=data))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()


def finished_facts(rows: Sequence[GameRow]) -> dict[int, GameFacts]:
    """The facts of the finished games among ``rows``, by game id."""
    return facts_of([row for row in rows if row.status == "over"])


def played(rows: Sequence[GameRow], facts: dict[int, GameFacts]) -> list[Played]:
    """The games among ``rows`` with ``facts`` (the finished ones), as the standings read them,
    oldest first (games imported together share a moment: they keep the order they came in)."""
    oldest_first = sorted(rows, key=lambda row: (row.created_at, row.id))
    return [
        Played(tuple(row.players), facts[row.id], row.created_at)
        for row in oldest_first
        if row.id in facts
    ]
