"""Adjusting a score: a correction the table agreed (docs/rules.md 8c), on a page of its own.

A penalty for drawing while able to play, a misdeal, a score agreed by hand: the referee
cannot see these, so the scorekeeper enters them with their reason. The table's "± Adjust" link
(edit link only: the form posts to the edit key) opens this page; the form is a plain POST
that comes back to the table, so it works without JavaScript, and it carries the game's
version like every entry, so a page that fell behind adjusts nothing.
"""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined,unused-ignore]

from scorekeeper.rules import Adjust, Refusal
from scorekeeper.rules.wording import signed
from scorekeeper.web.data import games
from scorekeeper.web.data.loaded import Loaded
from scorekeeper.web.data.penalties import find_penalty
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.routes import route
from scorekeeper.web.table.answers import (
    ENTERED,
    Unwritten,
    commit,
    incomplete,
    load_table,
    render_table,
    written,
)
from scorekeeper.web.table.blueprint import bp
from scorekeeper.web.table.forms import AdjustForm, PenaltyForm
from scorekeeper.web.table.view import table_view


def _form(loaded: Loaded) -> AdjustForm:
    form = AdjustForm()
    form.side.choices = [
        SelectChoice(str(side), name) for side, name in enumerate(loaded.game.sides)
    ]
    return form


def _page(
    loaded: Loaded,
    form: AdjustForm,
    status: int = 200,
    refusal: Refusal | None = None,
    notice: str | None = None,
) -> tuple[str, int]:
    page = render_template(
        "adjust.html",
        t=table_view(loaded),
        form=form,
        refusal=refusal,
        notice=notice,
    )
    return page, status


@bp.get("/games/<key:key>/adjust")
def adjust_page(key: str) -> tuple[str, int]:
    """The form to adjust a side's score, with the scores as they stand."""
    loaded = load_table(key)
    return _page(loaded, _form(loaded))


@bp.post("/games/<key:key>/adjust")
@route(entry=True, changes_game=True)
def adjust(key: str) -> Response | tuple[str, int]:
    """Store the adjustment and go back to the table; a refusal keeps the form as typed."""
    loaded = load_table(key)
    form = _form(loaded)
    if not form.validate():
        return _page(loaded, form, 400)
    side = int(form.side.data or 0)
    seat = loaded.game.setup.first_seats()[side]
    reason = " ".join((form.reason.data or "").split())
    event = Adjust(seat, form.change, reason)
    after = written(loaded, form.seen, lambda: games.append(key, form.seen, [event], loaded))
    if isinstance(after, Unwritten):
        return _page(after.loaded, form, after.status, after.refusal, after.notice)
    flash(
        _(
            "Adjusted: %(side)s %(points)s (%(reason)s).",
            side=loaded.game.sides[side],
            points=signed(form.change),
            reason=reason,
        )
    )
    flash("", ENTERED)
    return redirect(url_for("games.table", key=key), code=303)


@bp.post("/games/<key:key>/penalty")
@route(entry=True, changes_game=True)
def penalty(key: str) -> Answer:
    """A penalty the game's club agreed, tapped on the play screen: an ordinary adjustment of
    the chosen player's side by the penalty's amount, its name the reason. The referee checks
    it as any adjustment (refused once the game is won, or before hand 1 is led)."""
    loaded = load_table(key)
    form = PenaltyForm()
    if not form.validate():
        return incomplete(loaded)
    game, club_id = loaded.game, loaded.row.club_id
    agreed = None if club_id is None else find_penalty(club_id, form.penalty.data or 0)
    seat = form.seat.data
    problem = None
    if agreed is None:
        problem = _(
            "That penalty is not one of the club's penalties any more (reload the page). "
            "Nothing was entered."
        )
    elif seat is None or seat >= len(game.players):
        problem = _("Choose the player first, then tap the penalty. Nothing was entered.")
    if problem is not None or agreed is None or seat is None:
        return render_table(table_view(loaded, notice=problem, notice_kind="refused"), 422)
    points = agreed.amount // 5 if game.rules.in_fives else agreed.amount
    return commit(loaded, form.seen, [Adjust(seat, points, agreed.name)], "penalty")
