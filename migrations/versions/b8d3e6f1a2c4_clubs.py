"""clubs: groups that play together, their rosters, and a cache of each game's facts

``club`` has two secret keys like a game, and the house rules its new games start with; ``club_player`` is its roster (one row per
player, unique by the folded name); ``game.club_id`` files a game under a club (NULL for
every game stored before, which stay exactly as they were) and ``game.fingerprint`` tells a
record imported into a club again; ``game_facts`` caches what the
club pages add up, keyed by the game's version, and can always be computed again.

Revision ID: b8d3e6f1a2c4
Revises: f7c2d4e8a1b5
Create Date: 2026-11-24 10:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "b8d3e6f1a2c4"
down_revision = "f7c2d4e8a1b5"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "club",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("edit_key", sa.String(32), nullable=False),
        sa.Column("watch_key", sa.String(32), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("defaults", sa.JSON(), nullable=True),
    )
    op.create_index("uq_club_edit_key", "club", ["edit_key"], unique=True)
    op.create_index("uq_club_watch_key", "club", ["watch_key"], unique=True)
    op.create_table(
        "club_player",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "club_id", sa.Integer(), sa.ForeignKey("club.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("uq_club_player_name", "club_player", ["club_id", "name_key"], unique=True)
    op.create_table(
        "game_facts",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("game.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("facts", sa.JSON(), nullable=False),
    )
    # A plain ADD COLUMN (never a copy of the game table: on SQLite that would delete every
    # event through ON DELETE CASCADE). SQLite takes the reference in the column definition.
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "ALTER TABLE game ADD COLUMN club_id INTEGER"
            " CONSTRAINT fk_game_club REFERENCES club (id) ON DELETE SET NULL"
        )
    else:
        op.add_column("game", sa.Column("club_id", sa.Integer(), nullable=True))
        op.create_foreign_key(
            "fk_game_club", "game", "club", ["club_id"], ["id"], ondelete="SET NULL"
        )
    op.create_index("ix_game_club_id", "game", ["club_id"])
    op.add_column("game", sa.Column("fingerprint", sa.String(64), nullable=True))


def downgrade():
    op.drop_index("ix_game_club_id", table_name="game")
    if op.get_bind().dialect.name == "sqlite":
        # SQLite 3.35+ drops a column in place; the game table is not copied.
        op.execute("ALTER TABLE game DROP COLUMN fingerprint")
        op.execute("ALTER TABLE game DROP COLUMN club_id")
    else:
        op.drop_column("game", "fingerprint")
        op.drop_constraint("fk_game_club", "game", type_="foreignkey")
        op.drop_column("game", "club_id")
    op.drop_table("game_facts")
    op.drop_index("uq_club_player_name", table_name="club_player")
    op.drop_table("club_player")
    op.drop_index("uq_club_watch_key", table_name="club")
    op.drop_index("uq_club_edit_key", table_name="club")
    op.drop_table("club")
