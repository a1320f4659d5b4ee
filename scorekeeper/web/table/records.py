"""A game as an ``all-fives/1`` record: its download, and a new game made from one."""

from __future__ import annotations

import json

from flask import (
    Response,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)

from scorekeeper.rules import (
    RecordRefusal,
)
from scorekeeper.rules.messages import say, say_list
from scorekeeper.rules.record import load_timed, write_record
from scorekeeper.web import languages
from scorekeeper.web.data import games
from scorekeeper.web.data.doors import DOORS, load_or_404, remember
from scorekeeper.web.data.games import (
    download_name,
)
from scorekeeper.web.data.loaded import EDIT
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.routes import route
from scorekeeper.web.table.answers import (
    INCOMPLETE,
)
from scorekeeper.web.table.blueprint import bp
from scorekeeper.web.table.forms import (
    ImportForm,
)


@bp.get(f"/{DOORS}/<key:key>/record.json")
def record(door: str, key: str) -> Response:
    """Download the game as an all-fives/1 record (behind either door), with its times."""
    loaded = load_or_404(key, door)
    assert loaded.replayed is not None, "a loaded game comes with the rows it was replayed from"
    times = games.record_times(loaded.row, loaded.replayed)
    body = (
        json.dumps(write_record(loaded.game, times, every_rule=True), indent=2, ensure_ascii=False)
        + "\n"
    )
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{download_name(loaded.row)}.json"'
    )
    return response


@bp.route("/games/import", methods=["GET", "POST"])
@route(starts_games=True)
def import_game() -> Answer:
    """Create a game from an all-fives/1 record, or show why the record is refused; the
    game keeps the times the record gives (else it was played now)."""
    form = ImportForm()
    if request.method == "GET":
        return render_template("import.html", form=form), 200
    if not form.validate():
        return render_template("import.html", form=form, problem=INCOMPLETE), 400
    upload = form.record.data
    data: bytes | str = upload.read() if upload else b""
    if not data:
        data = form.text.data or ""
    if not data.strip():
        problem = _("Choose a record file or paste a record: nothing was imported.")
        return render_template("import.html", form=form, problem=problem), 422
    try:
        timed = load_timed(data, unsettled_last_hand=True)
    except RecordRefusal as refusal:
        return render_template("import.html", form=form, refusal=refusal), 422
    game = timed.game
    loaded = games.create(game.setup, game.events, times=timed.times)
    remember(loaded.row, EDIT)
    flash(languages.said(say("Imported: %(players)s.", players=say_list(list(game.players)))))
    return redirect(url_for("games.table", key=loaded.row.edit_key), code=303)
