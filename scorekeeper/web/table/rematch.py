"""Rematch: from a finished game's edit page, a new game with the same players in the same
seats, the same preset and house rules (target included), its first leader chosen as the
house rule ``lead`` says for a first hand: by lot, or by each player drawing a tile."""

from __future__ import annotations

import random

from flask import Blueprint, flash, redirect, url_for

from scorekeeper.rules import Event, NewHand
from scorekeeper.rules.messages import say, say_list
from scorekeeper.web import languages
from scorekeeper.web.data import games
from scorekeeper.web.data.doors import load_or_404, remember
from scorekeeper.web.data.loaded import EDIT
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.routes import route
from scorekeeper.web.table.answers import render_table
from scorekeeper.web.table.clock import clock_view
from scorekeeper.web.table.view import table_view

bp = Blueprint("rematch", __name__)

NOT_OVER = _l("This game is not finished, so no rematch was started: finish it first.")
TIME_UP = _l(
    "The round's time is up: this table's match ends with this game, so no rematch was started."
)
_rng = random.SystemRandom()


@bp.post("/games/<key:key>/rematch")
@route(changes_game=True, starts_games=True)
def rematch(key: str) -> Answer:
    """Start the rematch of a finished game and open its table (behind the edit link only).

    The button's form carries the CSRF token, checked for every POST (CSRFProtect).
    """
    loaded = load_or_404(key, EDIT)
    if loaded.game.phase != "over":
        return render_table(table_view(loaded, notice=NOT_OVER, notice_kind="stale"), 409)
    clock = clock_view(loaded)
    if clock is not None and (clock.is_up or loaded.game.time is not None):
        # docs/rules.md 8f: a night table starts no new game of its match after time.
        return render_table(table_view(loaded, notice=TIME_UP, notice_kind="stale"), 409)
    setup = loaded.game.setup
    players = list(setup.players)
    events: list[Event] = []
    lead: str | None = None
    if setup.rules.lead == "draw-highest":
        news = say(
            "Rematch: %(players)s in the same seats, with the same house rules; "
            "each player draws a tile for the lead: the highest leads.",
            players=say_list(players),
        )
        lead = "draw"
    else:
        leader = _rng.randrange(len(players))
        events.append(NewHand(leader))
        news = say(
            "Rematch: %(players)s in the same seats, with the same house rules; "
            "%(leader)s leads hand 1, chosen by lot.",
            players=say_list(players),
            leader=players[leader],
        )
    # A club's rematch stays in the club; a second tap (or phone) opens the one started.
    again, started = games.start_rematch(key, events)
    remember(again.row, EDIT)
    if started:
        flash(languages.said(news))
    # url_for leaves out a value of None: the table opens the draw for the lead only then.
    return redirect(url_for("games.table", key=again.row.edit_key, lead=lead), code=303)
