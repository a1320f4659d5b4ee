"""undo keeps events: an undone event keeps its row, marked undone, so redo can bring it back

``event.undone_at`` is when the event was undone (NULL for a live event) and
``event.undo_mark`` the game's version that undo made (the events undone together share it).
Only live events are unique by number now: the unique constraint on ``(game_id, seq)``
becomes a unique index on the live ones. ``game.redoable`` counts the undos Redo can bring
back. Every stored event is live, so older databases keep their games exactly.

Revision ID: f7c2d4e8a1b5
Revises: e5b7a1c9d2f3
Create Date: 2026-11-25 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "f7c2d4e8a1b5"
down_revision = "e5b7a1c9d2f3"
branch_labels = None
depends_on = None

LIVE = sa.text("undone_at IS NULL")


# The game table only gets a plain ADD COLUMN: on SQLite, with foreign keys on, copying and
# dropping it would delete every event through ON DELETE CASCADE. The event table is copied
# (SQLite cannot drop a constraint otherwise); nothing refers to it, so nothing cascades.


def upgrade():
    op.add_column("event", sa.Column("undone_at", sa.DateTime(), nullable=True))
    op.add_column("event", sa.Column("undo_mark", sa.Integer(), nullable=True))
    op.add_column(
        "game", sa.Column("redoable", sa.Integer(), nullable=False, server_default="0")
    )
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("event", recreate="always") as batch_op:
            batch_op.drop_constraint("uq_event_game_seq", type_="unique")
    else:
        op.drop_constraint("uq_event_game_seq", "event", type_="unique")
    op.create_index(
        "uq_event_live_seq",
        "event",
        ["game_id", "seq"],
        unique=True,
        sqlite_where=LIVE,
        postgresql_where=LIVE,
    )


def downgrade():
    # The old schema has no place for undone events: they are dropped, as an undo did then.
    op.execute("DELETE FROM event WHERE undone_at IS NOT NULL")
    op.drop_index("uq_event_live_seq", table_name="event")
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("event", recreate="always") as batch_op:
            batch_op.drop_column("undo_mark")
            batch_op.drop_column("undone_at")
            batch_op.create_unique_constraint("uq_event_game_seq", ["game_id", "seq"])
    else:
        op.drop_column("event", "undo_mark")
        op.drop_column("event", "undone_at")
        op.create_unique_constraint("uq_event_game_seq", "event", ["game_id", "seq"])
    op.execute("ALTER TABLE game DROP COLUMN redoable")
