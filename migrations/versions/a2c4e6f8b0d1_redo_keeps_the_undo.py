"""a redo keeps the undo it reverses: the log shows an entry undone and redone

A redo used to bring the undone rows back to life, and with them went every trace of the
undo. Now the undone rows stay undone, marked ``redone_at`` (when the redo brought their
entry back), and the redo stores the entry again as new live rows. The log shows the undone
entry struck through with when it was undone and when it was redone; the next redo takes
the latest undo not yet redone.

Revision ID: a2c4e6f8b0d1
Revises: f1b3d5e7a9c2
Create Date: 2026-11-26 06:45:00

"""

import sqlalchemy as sa
from alembic import op

revision = "a2c4e6f8b0d1"
down_revision = "f1b3d5e7a9c2"
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN on both databases (no batch copy of the event table).
    op.add_column("event", sa.Column("redone_at", sa.DateTime(), nullable=True))


def downgrade():
    # Before this revision a redo left no undone rows behind: the redone ones go.
    op.execute("DELETE FROM event WHERE redone_at IS NOT NULL")
    op.drop_column("event", "redone_at")
