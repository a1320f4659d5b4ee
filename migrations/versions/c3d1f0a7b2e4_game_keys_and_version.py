"""game keys and version: secret edit and watch keys, and a change counter

Every stored game gets two new random keys (128 bits from ``secrets``) and a version equal
to its number of events, so existing games keep working under their new links.

Revision ID: c3d1f0a7b2e4
Revises: a92279f79972
Create Date: 2026-11-23 10:05:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "c3d1f0a7b2e4"
down_revision = "a92279f79972"
branch_labels = None
depends_on = None


# No batch (copy-and-move) operations on the game table: on SQLite, with foreign keys on,
# dropping the old copy of the table would delete every event through ON DELETE CASCADE.
# Plain ADD COLUMN, unique indexes, and NOT NULL where the database can add it in place.


def upgrade():
    op.add_column("game", sa.Column("edit_key", sa.String(length=32), nullable=True))
    op.add_column("game", sa.Column("watch_key", sa.String(length=32), nullable=True))
    op.add_column("game", sa.Column("version", sa.Integer(), nullable=True))

    connection = op.get_bind()
    game = sa.table(
        "game",
        sa.column("id", sa.Integer),
        sa.column("edit_key", sa.String),
        sa.column("watch_key", sa.String),
        sa.column("version", sa.Integer),
    )
    event = sa.table("event", sa.column("game_id", sa.Integer))
    counts = dict(
        connection.execute(
            sa.select(event.c.game_id, sa.func.count()).group_by(event.c.game_id)
        ).all()
    )
    for (game_id,) in connection.execute(sa.select(game.c.id)).all():
        connection.execute(
            game.update()
            .where(game.c.id == game_id)
            .values(
                edit_key=secrets.token_urlsafe(16),
                watch_key=secrets.token_urlsafe(16),
                version=counts.get(game_id, 0),
            )
        )

    op.create_index("uq_game_edit_key", "game", ["edit_key"], unique=True)
    op.create_index("uq_game_watch_key", "game", ["watch_key"], unique=True)
    if connection.dialect.name != "sqlite":
        op.alter_column("game", "edit_key", existing_type=sa.String(length=32), nullable=False)
        op.alter_column("game", "watch_key", existing_type=sa.String(length=32), nullable=False)
        op.alter_column("game", "version", existing_type=sa.Integer(), nullable=False)


def downgrade():
    op.drop_index("uq_game_watch_key", table_name="game")
    op.drop_index("uq_game_edit_key", table_name="game")
    for column in ("version", "watch_key", "edit_key"):
        op.execute(f"ALTER TABLE game DROP COLUMN {column}")
