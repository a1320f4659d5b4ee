"""My games: the games this browser has started, imported or opened, and forgetting one."""

from __future__ import annotations

from flask import (
    flash,
    redirect,
    render_template,
    url_for,
)

from scorekeeper.web.data.club_doors import my_clubs
from scorekeeper.web.data.doors import forget, my_games
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.routes import route
from scorekeeper.web.table.blueprint import bp
from scorekeeper.web.table.deleting import recently_deleted
from scorekeeper.web.table.forms import (
    ForgetForm,
)


@bp.get("/")
@route(shows_keys=True)
def index() -> str:
    """This browser's games: those in progress and those finished (never anyone else's)."""
    games = my_games()
    playing = [(door, g) for door, g in games if g.status != "over"]
    finished = [(door, g) for door, g in games if g.status == "over"]
    return render_template(
        "index.html",
        playing=playing,
        finished=finished,
        deleted=recently_deleted(),
        clubs=my_clubs(),
    )


@bp.post("/my-games/forget")
def forget_game() -> Answer:
    """Forget a game on this browser (the game itself stays; its links still work)."""
    form = ForgetForm()
    if form.validate() and forget(form.key.data or ""):
        flash(_("Forgotten on this browser. Its links still open the game."))
    return redirect(url_for("games.index"), code=303)
