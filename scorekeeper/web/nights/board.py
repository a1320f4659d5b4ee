"""The director's board: every table of the night's current round on one screen, live, with the
standings beside; and its wall version for the room (large type, no controls).

The director's board opens with the club's edit link (as every night page does); the wall with
the club's watch link, and it shows no link at all, so a table's edit link never reaches the
room's screen. A table's edit link in place of the club's is refused with a page that says so.

Live, as a single game's watchers are: the board holds one event stream open
(``…/changes``) that follows the games of the round's tables in this process's hub
(``data/changes.py``: NOTIFY on PostgreSQL, one query per interval on SQLite). When a game
changes the stream sends ``event: table`` with ``"<table> <version>"``: the page asks for that
table's card alone (``…/tables/<n>``), so a change costs one card whatever the number of
tables. A card whose finished games changed brings the standings after it. Every event of a
stream's opening says each table's version, so a page that reconnects catches up. Where no
stream can be held open (a sync worker) the page asks the versions every few seconds instead.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, render_template, request, url_for
from sqlalchemy import select

from scorekeeper.rules.nights.format import NightFormat
from scorekeeper.rules.nights.seating import Seating, sides_of
from scorekeeper.rules.nights.standings import flat, match_result
from scorekeeper.web import languages
from scorekeeper.web.data import changes, clubs, games, nights
from scorekeeper.web.data.clubs import CLUB_WATCH, ClubDoor, ClubNotFound
from scorekeeper.web.data.database import db
from scorekeeper.web.data.games import NotFound
from scorekeeper.web.data.loaded import WATCH
from scorekeeper.web.data.models import GameRow
from scorekeeper.web.data.night_models import NightRoundRow, NightRow, NightTableRow
from scorekeeper.web.data.nights import NightNotFound
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.nights import pages
from scorekeeper.web.routes import route
from scorekeeper.web.streaming import HEARTBEAT_SECONDS, RETRY_MS, STREAM_SECONDS, can_hold_open
from scorekeeper.web.table import TableView, table_view

bp = Blueprint("night_board", __name__)

DIRECTOR = "board"
WALL = "wall"
BOARD = "/clubs/<key:key>/nights/<int:night_id>/board"
WALL_URL = "/clubs/watch/<key:key>/nights/<int:night_id>/wall"


@bp.context_processor
def _figures() -> dict[str, Any]:
    return {"figure": languages.number}


# -- the doors --------------------------------------------------------------------------------


def _director(key: str, night_id: int) -> tuple[ClubDoor, NightRow]:
    """The night behind the club's edit link; any other link refused as the night pages do."""
    return pages._night(key, night_id)


def _wall(key: str, night_id: int) -> tuple[ClubDoor, NightRow]:
    """The night behind the club's watch link (a missing night or link: 404)."""
    try:
        door = clubs.find_club(key, CLUB_WATCH)
        return door, nights.find_night(door.club, night_id)
    except (ClubNotFound, NightNotFound):
        abort(404)


def _open(kind: str, key: str, night_id: int) -> tuple[ClubDoor, NightRow]:
    return _director(key, night_id) if kind == DIRECTOR else _wall(key, night_id)


# -- the tables -------------------------------------------------------------------------------


def _current_round(night: NightRow) -> NightRoundRow | None:
    started = nights.started_rounds(night)
    return started[-1] if started else None


def _chain_ids(table: NightTableRow, fmt: NightFormat) -> list[int]:
    """The games a table may play, read from their rematch links alone (no entries): its
    first game and the rematches after it, as many as a match can have."""
    found: list[int] = []
    ident = table.game_id
    while ident is not None and len(found) < fmt.games_per_match:
        found.append(ident)
        ident = db.session.scalar(select(GameRow.rematch_id).where(GameRow.id == ident))
    return found


def _versions(ids: list[int]) -> dict[int, int]:
    if not ids:
        return {}
    rows = db.session.execute(
        select(GameRow.id, GameRow.version, GameRow.deleted_at).where(GameRow.id.in_(ids))
    )
    return {i: (v or 0) if d is None else 0 for i, v, d in rows}


def _token(chain: list[int], versions: dict[int, int], ended: bool) -> int:
    """A table's version: grows with every change of any of its games (a rematch adds one,
    and counts a change of the game before), and once more when the director ends it."""
    return sum(max(versions.get(i, 0), 0) for i in chain) + (1 if ended else 0)


@dataclass(frozen=True)
class Card:
    """A table as its card shows it."""

    number: int
    version: int
    sides: list[list[str]]
    view: TableView | None
    """The game being played (or the last one); None when it was deleted."""
    over: bool
    finished: int
    games_won: tuple[int, ...]
    ended: bool
    edit_key: str | None


def _card(round_row: NightRoundRow, night: NightRow, table: NightTableRow) -> Card:
    fmt = nights.night_format(night)
    seats = Seating.from_json(round_row.seats).tables[table.number - 1]
    now = nights.table_now(table, night, seats)
    result = match_result(now.played, fmt)
    chain = _chain_ids(table, fmt)
    version = _token(chain, _versions(chain), table.ended_at is not None)
    current = now.current
    view = None
    if current is not None:
        try:
            view = table_view(games.load(current.watch_key, WATCH), clock=None)
        except NotFound:
            view = None
    finished = sum(1 for g in now.games if g.status == "over") + (1 if now.row.ended_at else 0)
    return Card(
        number=table.number,
        version=version,
        sides=[list(side) for side in sides_of(seats, fmt.partners)],
        view=view,
        over=result.over,
        finished=finished,
        games_won=tuple(result.games_won),
        ended=table.ended_at is not None,
        edit_key=current.edit_key if current is not None else None,
    )


def _clock(night: NightRow, round_row: NightRoundRow) -> tuple[str, int]:
    """When the round's time is up (ISO, UTC) and the seconds left now (0 once up)."""
    assert round_row.started_at is not None
    ends = round_row.started_at.replace(tzinfo=UTC) + timedelta(minutes=night.minutes)
    left = max(0, int((ends - datetime.now(UTC)).total_seconds()))
    return ends.isoformat(), left


def _urls(kind: str, key: str, night_id: int) -> dict[str, str]:
    named = "night_board.director" if kind == DIRECTOR else "night_board.wall"
    return {
        "changes": url_for(f"{named}_changes", key=key, night_id=night_id),
        "versions": url_for(f"{named}_versions", key=key, night_id=night_id),
        "standings": url_for(f"{named}_standings", key=key, night_id=night_id),
        "card": url_for(f"{named}_card", key=key, night_id=night_id, number=0)[:-1],
    }


def _board_page(kind: str, key: str, night_id: int) -> Answer:
    door, night = _open(kind, key, night_id)
    round_row = _current_round(night)
    cards = [_card(round_row, night, t) for t in round_row.tables] if round_row else []
    clock = _clock(night, round_row) if round_row else None
    page = render_template(
        "nights/board.html",
        kind=kind,
        door=door,
        club=door.club,
        night=night,
        fmt=nights.night_format(night),
        round=round_row,
        cards=cards,
        clock=clock,
        lines=flat(nights.standings(night)),
        urls=_urls(kind, key, night_id),
        night_url=pages._night_url,
        wall_url=url_for("night_board.wall", key=door.club.watch_key, night_id=night.id),
    )
    return page, 200


@bp.get(BOARD)
def director(key: str, night_id: int) -> Answer:
    """The director's board: the current round's tables, live, and the standings."""
    return _board_page(DIRECTOR, key, night_id)


@bp.get(WALL_URL)
@route(watch=True)
def wall(key: str, night_id: int) -> Answer:
    """The board for the room's wall: large type, no controls, no links."""
    return _board_page(WALL, key, night_id)


def _one_card(kind: str, key: str, night_id: int, number: int) -> Response:
    night = _open(kind, key, night_id)[1]
    round_row = _current_round(night)
    table = next((t for t in round_row.tables if t.number == number), None) if round_row else None
    if round_row is None or table is None:
        abort(404)
    text = render_template(
        "nights/_board_table.html", kind=kind, card=_card(round_row, night, table)
    )
    response = Response(text)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get(f"{BOARD}/tables/<int:number>")
def director_card(key: str, night_id: int, number: int) -> Response:
    """One table's card, as the board swaps it in after its game changed."""
    return _one_card(DIRECTOR, key, night_id, number)


@bp.get(f"{WALL_URL}/tables/<int:number>")
@route(watch=True)
def wall_card(key: str, night_id: int, number: int) -> Response:
    """One table's card on the wall."""
    return _one_card(WALL, key, night_id, number)


def _standings(kind: str, key: str, night_id: int) -> Response:
    night = _open(kind, key, night_id)[1]
    text = render_template("nights/_board_standings.html", lines=flat(nights.standings(night)))
    response = Response(text)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get(f"{BOARD}/standings")
def director_standings(key: str, night_id: int) -> Response:
    """The standings alone, as the board swaps them in after a game ended."""
    return _standings(DIRECTOR, key, night_id)


@bp.get(f"{WALL_URL}/standings")
@route(watch=True)
def wall_standings(key: str, night_id: int) -> Response:
    """The standings on the wall."""
    return _standings(WALL, key, night_id)


# -- following the tables ---------------------------------------------------------------------


def _followed(night: NightRow) -> tuple[int, dict[int, list[int]], dict[int, bool]]:
    """The current round's id, each table's games, and whether the director ended it."""
    round_row = _current_round(night)
    if round_row is None:
        return 0, {}, {}
    fmt = nights.night_format(night)
    chains = {t.number: _chain_ids(t, fmt) for t in round_row.tables}
    ended = {t.number: t.ended_at is not None for t in round_row.tables}
    return round_row.id, chains, ended


def _latest_round(night_id: int) -> int:
    """The id of the night's latest started round (0 before the first)."""
    found = db.session.scalar(
        select(NightRoundRow.id)
        .where(NightRoundRow.night_id == night_id, NightRoundRow.started_at.is_not(None))
        .order_by(NightRoundRow.number.desc())
        .limit(1)
    )
    return found or 0


def _versions_text(chains: dict[int, list[int]], ended: dict[int, bool]) -> str:
    versions = _versions([i for chain in chains.values() for i in chain])
    return "\n".join(f"{n} {_token(c, versions, ended[n])}" for n, c in sorted(chains.items()))


def _versions_answer(kind: str, key: str, night_id: int) -> Response:
    night = _open(kind, key, night_id)[1]
    round_id, chains, ended = _followed(night)
    response = Response(
        f"round {round_id}\n" + _versions_text(chains, ended), mimetype="text/plain"
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get(f"{BOARD}/versions")
def director_versions(key: str, night_id: int) -> Response:
    """Each table's version, a line each (``<table> <version>``): what a board without a
    stream asks every few seconds."""
    return _versions_answer(DIRECTOR, key, night_id)


@bp.get(f"{WALL_URL}/versions")
@route(watch=True)
def wall_versions(key: str, night_id: int) -> Response:
    """Each table's version, for a wall without a stream."""
    return _versions_answer(WALL, key, night_id)


def _event(name: str, data: str) -> str:
    return f"event: {name}\ndata: " + data.replace("\n", "\ndata: ") + "\n\n"


def _stream(kind: str, key: str, night_id: int) -> Response:
    night = _open(kind, key, night_id)[1]
    round_id, chains, ended = _followed(night)
    if not can_hold_open():
        return Response(status=204)
    hub, address = changes.hub(), request.remote_addr or ""
    ids = [i for chain in chains.values() for i in chain]
    if hub.streams + len(ids) > current_app.config["LIVE_STREAMS"]:
        return Response(status=204)
    if hub.streams_from(address) + len(ids) > current_app.config["LIVE_STREAMS_PER_ADDRESS"]:
        return Response(status=204)
    start = _versions(ids)
    db.session.remove()  # no connection held while the stream waits
    app = current_app._get_current_object()  # type: ignore[attr-defined]

    def recheck() -> int:
        """Read the followed games' versions into the hub (a change this process was not
        told of wakes the stream now) and which tables the director has ended (no game
        changes then); the night's latest started round's id."""
        with app.app_context():
            try:
                for ident, version in _versions(ids).items():
                    hub.changed(ident, version)
                rows = db.session.execute(
                    select(NightTableRow.number, NightTableRow.ended_at).where(
                        NightTableRow.round_id == round_id
                    )
                )
                ended.update({number: at is not None for number, at in rows})
                return _latest_round(night_id)
            finally:
                db.session.remove()

    def stream() -> Iterator[str]:
        wake = threading.Event()
        with ExitStack() as following:
            for ident in ids:
                following.enter_context(_follow(hub, ident, start.get(ident, 0), address, wake))
            recheck()
            yield f"retry: {RETRY_MS}\n\n"
            yield _event("round", str(round_id))
            sent: dict[int, int] = {}
            deadline = time.monotonic() + STREAM_SECONDS
            while True:
                wake.clear()
                known = {i: hub.version(i) or 0 for i in ids}
                for number, chain in sorted(chains.items()):
                    token = _token(chain, known, ended[number])
                    if sent.get(number) != token:
                        sent[number] = token
                        yield _event("table", f"{number} {token}")
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                if not wake.wait(min(HEARTBEAT_SECONDS, left)):
                    latest = recheck()
                    if latest != round_id:
                        # The next round has begun: the page draws its tables anew.
                        yield _event("round", str(latest))
                        return
                    yield ": still here\n\n"

    response = Response(stream(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _follow(hub: changes.Hub, ident: int, version: int, address: str, wake: threading.Event) -> Any:
    return hub.following(ident, version, address, wake=wake)


@bp.get(f"{BOARD}/changes")
def director_changes(key: str, night_id: int) -> Response:
    """The round's tables' changes, pushed as they are stored (``text/event-stream``):
    ``event: round`` with the round's id first, then ``event: table`` with ``"<table>
    <version>"`` for every table at once and for each change after. 204 where no stream can
    be held open: the page asks ``…/versions`` instead."""
    return _stream(DIRECTOR, key, night_id)


@bp.get(f"{WALL_URL}/changes")
@route(watch=True)
def wall_changes(key: str, night_id: int) -> Response:
    """The wall's stream of the round's tables' changes."""
    return _stream(WALL, key, night_id)


def time_left_words(seconds: int) -> str:
    """The round's time left as the clock shows it: ``12:05``, or that time is up."""
    if seconds <= 0:
        return _("Time is up")
    return f"{seconds // 60}:{seconds % 60:02d}"


def init_app(app: Flask) -> None:
    """Register the board."""
    app.register_blueprint(bp)
    app.add_template_global(time_left_words)
