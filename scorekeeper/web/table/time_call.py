"""A night table's one-tap *Call time* once its round's clock is at zero (docs/rules.md 8f):
the time entry the table's next entry would carry in front, entered now, so the screen shows
what it means (a game between hands ends at once) without waiting for a tap on the table."""

from __future__ import annotations

from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.routes import route
from scorekeeper.web.table.answers import commit, incomplete, load_table, render_table
from scorekeeper.web.table.blueprint import bp
from scorekeeper.web.table.clock import clock_view
from scorekeeper.web.table.forms import EntryForm
from scorekeeper.web.table.view import table_view

NOT_DUE = _l(
    "Time is called once the round's time is up, in a game still on whose hand 1 is led, "
    "and once: nothing was entered."
)


@bp.post("/games/<key:key>/time")
@route(entry=True, changes_game=True)
def call_time(key: str) -> Answer:
    """Enter the round's time entry now, if it is due (the write path decides what it is)."""
    loaded = load_table(key)
    form = EntryForm()
    if not form.validate():
        return incomplete(loaded)
    clock, game = clock_view(loaded), loaded.game
    due = clock is not None and clock.is_up and game.time is None and game.winner is None
    if not due or game.hand is None:
        return render_table(table_view(loaded, notice=NOT_DUE, notice_kind="stale"), 409)
    return commit(loaded, form.seen, [], "actions")
