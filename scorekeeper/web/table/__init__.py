"""The table: a game's own pages, from My games and the new-game form to the play screen, its
entries, the settlement, the rematch and deleting a game.

This package is the one seam between the areas: what other areas show of a table (the watch
page, a club's new-game form, a club night's house rules, the page a refused form comes back
to) they take from here, and from no module inside it.
"""

from __future__ import annotations

from flask import Flask

from scorekeeper.web.table import (
    adjusting,
    deleting,
    entries,
    home,
    new_game,
    records,
    rematch,
    time_call,
)
from scorekeeper.web.table.answers import render_table
from scorekeeper.web.table.blueprint import bp
from scorekeeper.web.table.forms import NewGameForm, house_rule_field
from scorekeeper.web.table.new_game import new_game_page
from scorekeeper.web.table.records import LeftOut, left_out_rules
from scorekeeper.web.table.view import TableView, table_view

ROUTES = (home, entries, adjusting, new_game, records, time_call)
"""The modules whose routes make up the ``games`` blueprint (imported for their routes)."""


def init_app(app: Flask) -> None:
    """Register the table's pages, the rematch, deleting a game and its purge command."""
    app.register_blueprint(bp)
    app.register_blueprint(rematch.bp)
    deleting.init_app(app)


__all__ = [
    "ROUTES",
    "LeftOut",
    "NewGameForm",
    "TableView",
    "house_rule_field",
    "init_app",
    "left_out_rules",
    "new_game_page",
    "render_table",
    "table_view",
]
