"""undone events indexed: what a redo brings back, read without the game's other events

The edit table asks what the next redo would bring back whenever an undo may be redone, and
the log asks for the undone events of the hand it shows. Both looked through every event of
the game (the index on ``game_id`` alone), so after an undo each page of a long game cost
more. A partial index holds the undone events only, by game and undo: both questions read
just those rows, however long the game.

Revision ID: d4a6c8e0f2b3
Revises: b8d3e6f1a2c4
Create Date: 2026-11-26 03:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "d4a6c8e0f2b3"
down_revision = "b8d3e6f1a2c4"
branch_labels = None
depends_on = None

UNDONE = sa.text("undone_at IS NOT NULL")


def upgrade():
    op.create_index(
        "ix_event_undone",
        "event",
        ["game_id", "undo_mark"],
        sqlite_where=UNDONE,
        postgresql_where=UNDONE,
    )


def downgrade():
    op.drop_index("ix_event_undone", table_name="event")
