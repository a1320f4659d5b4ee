"""club games' duplicate fingerprints name every house rule

A club tells a game imported again by its fingerprint: the SHA-256 of its record written
canonically. That record used to hold only the house rules the game's setup named, so the
same game had one fingerprint imported from an old export (``bonus_in_fives`` left out) and
another from a new one (every house rule named, as exports now write them), and migration
0394bad6dbdb, which wrote ``bonus_in_fives: "no"`` into totally-fives games, left their
fingerprints as they were before. The fingerprint now names every house rule with its value
(``write_record(..., every_rule=True)``); each stored one is computed again from the game's
setup and its live events, with the rules engine (the pure ``scorekeeper.rules`` code, no
ORM model, so that a later column cannot break this step). A game the engine can no longer
replay keeps the fingerprint it had. The downgrade writes them back as the older code
computes them (the house rules the setup names).

Revision ID: 5c1e9a7d3b20
Revises: 0394bad6dbdb
Create Date: 2026-11-28 23:00:00

"""

import hashlib
import json

import sqlalchemy as sa
from alembic import op

from scorekeeper.rules.errors import Refusal
from scorekeeper.rules.game import Game, Setup
from scorekeeper.rules.record import write_record
from scorekeeper.rules.stored import event_of

revision = "5c1e9a7d3b20"
down_revision = "0394bad6dbdb"
branch_labels = None
depends_on = None

game = sa.table(
    "game",
    sa.column("id", sa.Integer),
    sa.column("players", sa.JSON),
    sa.column("preset", sa.String),
    sa.column("options", sa.JSON),
    sa.column("partners", sa.Boolean),
    sa.column("fingerprint", sa.String),
)
event = sa.table(
    "event",
    sa.column("game_id", sa.Integer),
    sa.column("seq", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("data", sa.JSON),
    sa.column("undone_at", sa.DateTime),
)


def _loaded(value):
    """A JSON column as a plain SELECT gives it: text on SQLite, parsed on PostgreSQL."""
    return json.loads(value) if isinstance(value, str) else value


def _fingerprints(every_rule):
    """Compute each fingerprinted game's fingerprint again, naming every house rule or
    (``every_rule`` false) only those its setup names."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(game.c.id, game.c.players, game.c.preset, game.c.options, game.c.partners).where(
            game.c.fingerprint.is_not(None)
        )
    ).all()
    for game_id, players, preset, options, partners in rows:
        events = connection.execute(
            sa.select(event.c.kind, event.c.data)
            .where(event.c.game_id == game_id, event.c.undone_at.is_(None))
            .order_by(event.c.seq)
        ).all()
        try:
            setup = Setup.create(_loaded(players), preset, _loaded(options) or {}, partners)
            played = Game(setup)
            for kind, data in events:
                played.push(event_of(kind, _loaded(data)))
        except Refusal:
            continue  # not a game today's rules can replay: its fingerprint stays
        record = write_record(played, every_rule=every_rule)
        text = json.dumps(record, sort_keys=True, separators=(",", ":"))
        printed = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        connection.execute(game.update().where(game.c.id == game_id).values(fingerprint=printed))


def upgrade():
    _fingerprints(every_rule=True)


def downgrade():
    _fingerprints(every_rule=False)
