"""deleted games: a game deleted by its scorekeeper keeps its row a while, for an undo

``deleted_at`` is when it was deleted (UTC), or NULL for a game in use. A deleted game is
not found behind either key; after the undo window it is purged with its events.

Revision ID: e5b7a1c9d2f3
Revises: c3d1f0a7b2e4
Create Date: 2026-11-24 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "e5b7a1c9d2f3"
down_revision = "c3d1f0a7b2e4"
branch_labels = None
depends_on = None


# Plain ADD COLUMN, never a batch (copy-and-move) operation on the game table: on SQLite,
# with foreign keys on, dropping the old copy of the table would delete every event through
# ON DELETE CASCADE.


def upgrade():
    op.add_column("game", sa.Column("deleted_at", sa.DateTime(), nullable=True))
    op.create_index("ix_game_deleted_at", "game", ["deleted_at"])


def downgrade():
    # A game deleted stays deleted: without the column it would come back.
    op.execute(
        "DELETE FROM event WHERE game_id IN (SELECT id FROM game WHERE deleted_at IS NOT NULL)"
    )
    op.execute("DELETE FROM game WHERE deleted_at IS NOT NULL")
    op.drop_index("ix_game_deleted_at", table_name="game")
    op.execute("ALTER TABLE game DROP COLUMN deleted_at")
