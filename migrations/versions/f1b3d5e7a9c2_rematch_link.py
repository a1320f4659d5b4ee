"""a finished game links to its rematch: the watchers and the board follow it there

``game.rematch_id`` is the rematch started from this finished game (NULL until one is): its
watch page and wall board move to the rematch by themselves, and show a link to it without
JavaScript; a second tap on Rematch opens the same rematch instead of starting another.

Revision ID: f1b3d5e7a9c2
Revises: e8f0a2c4d6b7
Create Date: 2026-11-26 04:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "f1b3d5e7a9c2"
down_revision = "e8f0a2c4d6b7"
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN (never a copy of the game table: on SQLite that would delete every
    # event through ON DELETE CASCADE). SQLite takes the reference in the column definition.
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "ALTER TABLE game ADD COLUMN rematch_id INTEGER"
            " CONSTRAINT fk_game_rematch REFERENCES game (id) ON DELETE SET NULL"
        )
    else:
        op.add_column("game", sa.Column("rematch_id", sa.Integer(), nullable=True))
        op.create_foreign_key(
            "fk_game_rematch", "game", "game", ["rematch_id"], ["id"], ondelete="SET NULL"
        )


def downgrade():
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE game DROP COLUMN rematch_id")
    else:
        op.drop_constraint("fk_game_rematch", "game", type_="foreignkey")
        op.drop_column("game", "rematch_id")
