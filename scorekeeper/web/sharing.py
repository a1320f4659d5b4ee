"""Sharing a game at the table: the share panel on the edit page, and the watch link's pages,
which show everything and change nothing."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException

from scorekeeper.rules import Game, MalformedInput, Play, Tile, parse_tile
from scorekeeper.rules.events import Adjust, Claim, Guess
from scorekeeper.rules.explain import Explanation, explain
from scorekeeper.rules.tiles import stored_tile
from scorekeeper.web import languages, network, rendered
from scorekeeper.web.bounded import capacity_setting
from scorekeeper.web.data import changes, games
from scorekeeper.web.data.database import db
from scorekeeper.web.data.doors import DOORS, NO_GAME, load_or_404, remember
from scorekeeper.web.data.games import NotFound
from scorekeeper.web.data.loaded import WATCH, Door, Loaded
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.routes import route
from scorekeeper.web.streaming import (
    HEARTBEAT_SECONDS,
    RETRY_MS,
    STREAM_SECONDS,
    can_hold_open,
    gevent_patched,
)
from scorekeeper.web.table import table_view

bp = Blueprint("sharing", __name__)
log = logging.getLogger(__name__)


@lru_cache(maxsize=1024)
def qr_svg(text: str, label: str) -> Markup:
    """``text`` as a QR code, inline SVG drawn on the server (sized by CSS, not attributes).

    Kept per link and label (the label is in the page's language): choosing the mask of a
    QR code would otherwise be most of an edit page's work, and a game's links never change.
    At most 1,024 codes of about 3 KB each.
    """
    code = segno.make(text, error="m")
    svg = code.svg_inline(
        scale=1, border=4, omitsize=True, svgclass="qr-code", lineclass=None, title=label
    )
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))


@dataclass(frozen=True)
class Link:
    """A link to share: its address, and its QR code."""

    url: str
    qr: Markup


@dataclass(frozen=True)
class SharePanel:
    """The two links of a game, shown on its edit page, and what to say of them when the page
    was opened by an address only this computer can reach (``127.0.0.1``, ``localhost``)."""

    watch: Link
    edit: Link
    only_here: str | None = None
    """Why the links would work on this computer alone, and what to do, in words; None when
    the page was opened by an address the phones can reach."""


@bp.app_template_global()
def share_panel(door: Door) -> SharePanel:
    """The watch and edit links of the game behind the edit ``door``, absolute, with QR codes.

    A page opened as ``127.0.0.1`` or ``localhost`` would hand out links no phone can open:
    they then use this computer's address on the local network (the one ``flask serve``
    printed), when the server listens there, and the panel says so."""
    base, only_here = request.host_url.rstrip("/"), None
    asked = urlsplit(request.host_url)
    if network.is_loopback(asked.hostname or ""):
        if network.is_loopback(str(request.environ.get("SERVER_NAME", ""))):
            only_here = _(
                "You opened this page by an address only this computer can reach, and the "
                "server listens on this computer alone: no other phone can open these links. "
                "Start it again with a plain “make run” (leave out HOST) to let the phones on "
                "your network in."
            )
        elif here := network.local_addresses():  # asked only when the server listens there
            address = f"{here[0]}:{asked.port}" if asked.port else here[0]
            base = f"{asked.scheme}://{address}"
            only_here = _(
                "You opened this page by an address only this computer can reach: the links "
                "and codes below use its address on your network instead, which the phones "
                "at the table open."
            )
        else:
            only_here = _(
                "You opened this page by an address only this computer can reach: these links "
                "work on this computer alone. Open it by this computer's address on your "
                "network (the one “make run” printed) to share the game."
            )
    watch = base + url_for("sharing.watch", key=door.watch_key)
    edit = base + url_for("games.table", key=door.key)
    return SharePanel(
        Link(watch, qr_svg(watch, _("QR code of the watch link"))),
        Link(edit, qr_svg(edit, _("QR code of the edit link"))),
        only_here,
    )


@bp.app_template_global()
def board_news(game: Game) -> Explanation | None:
    """What the board says of the last entry beyond the last play, in the log's words: a
    count called short ("Bob called 10: no score, Muggins! is open"), a Muggins! claim ("Bob
    called 10, the count was 15: Ann's Muggins! +15"), an adjustment ("Adjusted: Bob -10
    (drew while able to play)") or a guess of a hidden count (practice mode); None after
    anything else."""
    if not game.events:
        return None
    last = game.events[-1]
    hand = game.hand
    missed = isinstance(last, Play) and hand is not None and bool(hand.plays[-1].missed)
    if not (missed or isinstance(last, (Claim, Adjust, Guess))):
        return None
    return explain(game, len(game.events) - 1)


def _picked() -> Tile | None:
    """The tile a live page says it has picked (``?selected=6-4``), if that names a tile."""
    text = request.args.get("selected", "")
    if not text:
        return None
    try:
        return parse_tile(text)
    except MalformedInput:
        pass
    try:  # a larger set's tile, as the page writes it: "12-7"
        return stored_tile(text[:10])
    except MalformedInput:
        return None


def _selected(loaded: Loaded, chosen: Tile | None) -> Tile | None:
    """The tile a live page had picked, if it still waits for its end."""
    game, hand = loaded.game, loaded.game.hand
    if chosen is None or not loaded.door.editable or hand is None or game.phase != "play":
        return None
    if not game.rules.tile_set.holds(chosen):
        return None
    if chosen in hand.layout.on_table or len(game.fits(chosen)) < 2:
        return None
    return chosen


@dataclass(frozen=True)
class FirstTap:
    """What a live page of a larger set had tapped first: an open end and the number it
    showed (``?end=W&shows=7``), or before the lead a number (``?number=7``)."""

    end: str | None = None
    shows: int | None = None
    number: int | None = None


def _small_number(name: str) -> int | None:
    text = request.args.get(name, "")
    return int(text) if text.isdigit() and len(text) <= 2 else None


def _first_tap() -> FirstTap:
    """The end or number a live page says it has tapped first, as it sent it."""
    end = request.args.get("end", "")[:10] or None
    return FirstTap(end, _small_number("shows"), _small_number("number"))


def _still_chosen(loaded: Loaded, tapped: FirstTap) -> dict[str, object]:
    """The end (or lead's number) a live page had tapped first, while it still waits for its
    tile: the end still open and showing the same number, the lead still to be played."""
    game, hand = loaded.game, loaded.game.hand
    if not loaded.door.editable or hand is None or game.phase != "play":
        return {}
    if game.rules.tile_set.top == 6:
        return {}
    arm = hand.layout.arms.get(tapped.end or "")
    if arm is not None and arm.value == tapped.shows:
        return {"chosen_end": tapped.end}
    if not hand.plays and tapped.number is not None and tapped.number <= game.rules.tile_set.top:
        return {"chosen_number": tapped.number}
    return {}


@bp.get("/watch/<key:key>")
@route(watch=True)
def watch(key: str) -> tuple[str, int]:
    """The table as the edit link shows it, without a way to change anything."""
    loaded = load_or_404(key, WATCH)
    remember(loaded.row, WATCH)
    return render_template("game.html", t=table_view(loaded)), 200


@bp.get("/watch/<key:key>/board")
@route(watch=True)
def board(key: str) -> tuple[str, int]:
    """The board for a wall screen: big scores, whose turn, the layout and the last play."""
    loaded = load_or_404(key, WATCH)
    return render_template("board.html", t=table_view(loaded)), 200


@bp.get(f"/{DOORS}/<key:key>/live")
def live(door: str, key: str) -> Response:
    """What a live page polls: 304 while the game is unchanged, else its new table or board.

    The check reads the game's version alone (one column of one row): no events are loaded
    and nothing is replayed until the game has changed. The new table is rendered once per
    version for every phone that asks (see rendered.py). The page sends the version it shows
    and its language as ``If-None-Match: "v<version>-<language>"``: a page in another language
    than this request's is not answered 304.
    """
    version, language = _version_or_404(key, door), languages.current()
    if request.if_none_match.contains(etag(version, language)):
        return _kept_answer(Response(status=304), version, language)
    shown, text = _live_view(door, key, version, language, _picked(), _first_tap())
    return _kept_answer(Response(text), shown, language)


@bp.get(f"/{DOORS}/<key:key>/chart")
def chart(door: str, key: str) -> Response:
    """The game's score chart alone, as a table swapped in after a change asks for it when its
    fold is opened: drawn once per version for every phone that asks (rendered.py)."""
    version, language = _version_or_404(key, door), languages.current()

    def render() -> tuple[int, str]:
        loaded = load_or_404(key, door)
        return loaded.version, render_template("_chart_alone.html", game=loaded.game)

    shown, text = rendered.once(("chart", door, key, language), version, render)
    return _kept_answer(Response(text), shown, language)


def _version_or_404(key: str, door: str) -> int:
    """The game's version, read alone (no events, no replay), or the missing game's 404."""
    try:
        return games.version_of(key, door)
    except NotFound:
        abort(404, description=NO_GAME)


def _kept_answer(response: Response, version: int, language: str) -> Response:
    """A view of the game at ``version`` in ``language`` (or 304): its entity tag, never
    stored by a cache (the next poll must reach the server)."""
    response.set_etag(etag(version, language))
    response.headers["Cache-Control"] = "no-store"
    return response


def _live_view(
    door: str,
    key: str,
    version: int,
    language: str,
    chosen: Tile | None = None,
    tapped: FirstTap = FirstTap(),
) -> tuple[int, str]:
    """The table (or with ``?view=board`` the board) a live page swaps in, at ``version`` or
    newer: rendered once per version for every phone that asks, and every stream that pushes
    it (rendered.py). The version it shows, and its text."""
    kept_as = _kept_as(door, key, language, chosen, tapped)

    def render() -> tuple[int, str]:
        loaded = load_or_404(key, door)
        view = table_view(
            loaded, selected=_selected(loaded, chosen), **_still_chosen(loaded, tapped)
        )
        return loaded.version, render_template(kept_as[0], t=view)

    return rendered.once(kept_as, version, render)


def _kept_as(
    door: str, key: str, language: str, chosen: Tile | None, tapped: FirstTap
) -> tuple[str, str, str, str, Tile | None, FirstTap, bool]:
    """What makes two live views the same text (rendered.py): the template (the table, or the
    board with ``?view=board``), the door and key, the language, a picked tile or a larger
    set's end or number tapped first, the pegs."""
    template = "_board.html" if request.args.get("view") == "board" else "_table.html"
    return (template, door, key, language, chosen, tapped, request.args.get("board") == "pegs")


def etag(version: int, language: str) -> str:
    """The entity tag of a game at ``version`` said in ``language`` (the same for every page
    that shows it in that language): ``v7-sv``."""
    return f"v{version}-{language}"


@bp.get(f"/{DOORS}/<key:key>/changes")
def changes_stream(door: str, key: str) -> Response:
    """The game's changes, pushed as they are stored: an event stream (``text/event-stream``).

    It sends ``event: version`` with the game's version at once. Then, behind a watch link,
    ``event: page`` with the new table (or with ``?view=board`` the board) after every change:
    the same text the live URL answers, rendered once per version for every phone and stream
    (``static/js/live.js`` swaps it in); behind the edit link, ``event: version`` again (the
    page asks the live URL, which keeps its picked tile and its own form tokens). ``-1`` is
    the version of a deleted game, and the last event. Pages poll where there is no stream.
    Each event's ``id`` is the version it brings: a browser that opens the stream again sends
    the last as ``Last-Event-ID``, and a watching phone that missed a change while it was
    away is sent the new table first thing.

    204 No Content where the server cannot hold requests open, or holds as many as
    ``LIVE_STREAMS`` allows: the browser does not try again, and the page polls.
    """
    try:
        game_id, version = games.followed(key, door)
    except NotFound:
        abort(404, description=NO_GAME)
    if not can_hold_open():
        return Response(status=204)
    hub, address = changes.hub(), request.remote_addr or ""
    full = hub.streams >= current_app.config["LIVE_STREAMS"]
    if full or hub.streams_from(address) >= current_app.config["LIVE_STREAMS_PER_ADDRESS"]:
        return Response(status=204)
    language, heard = languages.current(), _last_heard()
    app, environ = current_app._get_current_object(), dict(request.environ)  # type: ignore[attr-defined]
    heartbeat = heartbeat_seconds(app)
    kept_as = _kept_as(door, key, language, None, FirstTap())

    def said(now: int, opening: bool) -> tuple[int, str]:
        """The event for version ``now``, and the version it says (GONE: the last event).
        ``opening``: the first event of a stream whose page shows ``now`` or did not say."""
        if opening or now == changes.GONE or door != WATCH:
            return now, _event("version", str(now), now)
        # Another stream of the game in this process has most likely rendered it already.
        text = rendered.peek(app, kept_as, now)
        if text is None:
            # Rendered in this stream's request, made again for the moment: a context held
            # across the waits would be on the stack of whatever runs between them.
            with app.request_context(environ):
                try:
                    text = _live_view(door, key, now, language)[1]
                except HTTPException:  # deleted since
                    return changes.GONE, _event("version", str(changes.GONE), changes.GONE)
                finally:
                    db.session.remove()  # no connection held while the stream waits
        return now, _event("page", text, now)

    def recheck() -> None:
        """Read the game's version from the database into the hub: a change this process
        was not told of (a lost notification, one stored while the stream opened) wakes the
        streams of the game now."""
        with app.app_context():
            try:
                hub.changed(game_id, games.version_of(key, door))
            except NotFound:
                hub.changed(game_id, changes.GONE)
            except SQLAlchemyError:  # the database is away: the next heartbeat asks again
                log.warning("Reading a followed game's version failed", exc_info=True)

    def stream() -> Iterator[str]:
        with (
            hub.following(game_id, version, address) as wake,
            _hang_up(environ, wake, heartbeat) as gone,
        ):
            # A change stored between reading the version above and following the game here
            # told no one: read it again, now that any later change wakes this stream.
            recheck()
            yield f"retry: {RETRY_MS}\n\n"
            sent: int | None = None
            deadline = time.monotonic() + STREAM_SECONDS
            while True:
                # Cleared before the version is read: a change stored while this stream
                # writes, waits on a slow phone or reads, sets it again, and the wait below
                # returns at once to send it.
                wake.clear()
                if gone():
                    return
                now = hub.version(game_id)
                if now is not None and now != sent:
                    says, event = said(now, sent is None and heard in (None, now))
                    yield event
                    sent = now
                    if says == changes.GONE:
                        return
                    continue
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                if not wake.wait(min(heartbeat, left)):
                    recheck()  # silent for a heartbeat: the stored version, in case
                    yield ": still here\n\n"

    response = Response(stream(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


def _event(name: str, data: str, version: int) -> str:
    """One server-sent event: its name, its data a line at a time, and as its id the version
    it brings (a browser that opens the stream again sends it back as ``Last-Event-ID``)."""
    return f"id: {version}\nevent: {name}\ndata: " + data.replace("\n", "\ndata: ") + "\n\n"


def _last_heard() -> int | None:
    """The version a page's stream last brought, which the browser sends back as
    ``Last-Event-ID`` when it opens the stream again by itself; None on a first opening."""
    said = request.headers.get("Last-Event-ID", "")
    try:
        return int(said) if len(said) <= 20 else None
    except ValueError:
        return None


@contextmanager
def _hang_up(
    environ: dict[str, Any], wake: threading.Event, heartbeat: float
) -> Iterator[Callable[[], bool]]:
    """Whether the phone behind a stream has gone (its side of the connection closed), to ask
    each time the stream wakes: at the latest at each heartbeat.

    A stream's client sends nothing after its request, so a connection with something to read
    has been closed (or sent a next request early, which the heartbeat's writes then judge).
    Under the gevent worker the connection is also watched while the stream waits, and
    ``wake`` set the moment the phone (or the proxy in front of it) closes it: the stream is
    let go at once, rather than when the second heartbeat after fails to be written.
    """
    connection = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
    if connection is None:
        yield lambda: False
        return
    _probe_when_silent(connection, heartbeat)
    if not gevent_patched():
        yield lambda: _closed(connection)
        return
    from gevent import get_hub

    readable: list[bool] = []
    watcher = get_hub().loop.io(connection.fileno(), 1)  # 1: readable

    def heard() -> None:
        watcher.stop()  # once: the stream looks at what came
        readable.append(True)
        wake.set()

    watcher.start(heard)
    try:
        # Asked only once readable: a gevent socket would wait for something to read.
        yield lambda: bool(readable) and _closed(connection)
    finally:
        watcher.stop()
        watcher.close()


def heartbeat_seconds(app: Flask) -> float:
    """The heartbeat of this app's game streams: the setting ``HEARTBEAT_SECONDS`` (seconds,
    more than 0), else :data:`HEARTBEAT_SECONDS`. The connection's probes are timed from it,
    so a test can shorten the whole wait for a vanished phone, not only the heartbeat."""
    return float(app.config.get("HEARTBEAT_SECONDS", HEARTBEAT_SECONDS))


PROBE_AFTER = 0.5
"""The part of a heartbeat a stream's connection may be silent (10 s of 20) before the system
asks the phone whether it is still there (TCP keepalive); it asks ``PROBES`` times,
``PROBE_EVERY`` of a heartbeat apart (3 s)."""
PROBE_EVERY = 0.15
PROBES = 3
GIVE_UP = 0.75
"""The part of a heartbeat without a word from the phone (an answer to a probe, or to data
sent) after which the system gives its connection up (``TCP_USER_TIMEOUT``, 15 s of 20): past
the second probe, before the next heartbeat. A phone on a poor line that loses its stream
opens it again by itself and is sent what it missed (``Last-Event-ID``)."""


def _probe_when_silent(connection: socket.socket, heartbeat: float) -> None:
    """Have the system find out that the phone behind a stream vanished without closing its
    side (out of the Wi-Fi's reach, its battery flat): nothing would ever arrive to say so,
    and a heartbeat's few bytes wait in the send buffer for many minutes of retries. With
    keepalive probes after ``PROBE_AFTER`` of a heartbeat of silence, and the connection given
    up after ``GIVE_UP`` of one without an answer, it fails within one heartbeat; the stream, watching it,
    is let go then. A connection that is not TCP (a Unix socket behind a proxy) has neither,
    and needs neither: its proxy holds the phone's connection."""
    try:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        # The system counts keepalive in whole seconds, at least one; and a heartbeat a test
        # shortens to a tenth of a second would give a busy machine's late answer up.
        idle, every = (max(1, round(heartbeat * part)) for part in (PROBE_AFTER, PROBE_EVERY))
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, idle)
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, every)
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, PROBES)
        give_up_ms = max(1000, round(heartbeat * GIVE_UP * 1000))
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, give_up_ms)
    except (OSError, AttributeError):  # not TCP, or a system without these options
        pass


def _closed(connection: socket.socket) -> bool:
    """Whether the other side closed ``connection``, looked at without waiting or reading."""
    try:
        return not connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return False  # nothing to read: still there
    except OSError:
        return True


LIVE_STREAMS = 3000
"""Event streams one worker process holds open at most (the setting ``LIVE_STREAMS``), one per
phone following a game; past it, pages poll. Keep it under gunicorn's ``--worker-connections``
(4,000 in the recipe), so that streams never take the room ordinary requests need."""
LIVE_STREAMS_PER_ADDRESS = 300
"""Streams one client address holds open in a worker at most (``LIVE_STREAMS_PER_ADDRESS``):
a club's phones share its router's address, so it is generous, but one machine cannot take a
worker's every stream; past it, its pages poll, under the rate limits."""


def init_app(app: Flask) -> None:
    """Register the pages."""
    heartbeat = app.config.get("HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)
    # A bool is an int to Python, and a string is the environment's text that was no number.
    if isinstance(heartbeat, bool) or not isinstance(heartbeat, int | float) or heartbeat <= 0:
        raise ValueError(
            f"The setting HEARTBEAT_SECONDS must be a number above 0, not {heartbeat!r}"
        )
    app.config["LIVE_STREAMS"] = capacity_setting(app, "LIVE_STREAMS", LIVE_STREAMS)
    app.config["LIVE_STREAMS_PER_ADDRESS"] = capacity_setting(
        app, "LIVE_STREAMS_PER_ADDRESS", LIVE_STREAMS_PER_ADDRESS
    )
    app.register_blueprint(bp)
