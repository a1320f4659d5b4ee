"""club nights: a night's format, its players, its rounds' seats and its tables' games

``night`` belongs to a club and holds the format the director chose once (preset and house
rules, players per table, rounds, minutes, match play, the time-limit rule, tie-breaks);
``night_player`` who plays, from which round and until which; ``night_round`` each round's
seed and seats; ``night_table`` each started table's first game and, when the director ended
it, where it stood. No score or standing is stored: they are computed from the games.

Revision ID: c7e9a1b3d5f2
Revises: 5c1e9a7d3b20
Create Date: 2026-11-29 02:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "c7e9a1b3d5f2"
down_revision = "5c1e9a7d3b20"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "night",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "club_id", sa.Integer(), sa.ForeignKey("club.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("preset", sa.String(20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("match", sa.String(20), nullable=False),
        sa.Column("at_limit", sa.String(20), nullable=False),
        sa.Column("tie_breaks", sa.JSON(), nullable=False),
    )
    op.create_index("ix_night_club_id", "night", ["club_id"])
    op.create_table(
        "night_player",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "night_id", sa.Integer(), sa.ForeignKey("night.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("joined_round", sa.Integer(), nullable=False),
        sa.Column("left_round", sa.Integer(), nullable=True),
    )
    op.create_index("uq_night_player_name", "night_player", ["night_id", "name_key"], unique=True)
    op.create_table(
        "night_round",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "night_id", sa.Integer(), sa.ForeignKey("night.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
    )
    op.create_index("uq_night_round_number", "night_round", ["night_id", "number"], unique=True)
    op.create_table(
        "night_table",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "round_id",
            sa.Integer(),
            sa.ForeignKey("night_round.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("game.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column(
            "ended_game_id",
            sa.Integer(),
            sa.ForeignKey("game.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("ended_events", sa.Integer(), nullable=True),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
    )
    op.create_index("uq_night_table_number", "night_table", ["round_id", "number"], unique=True)
    op.create_index("ix_night_table_game_id", "night_table", ["game_id"])


def downgrade():
    op.drop_table("night_table")
    op.drop_table("night_round")
    op.drop_table("night_player")
    op.drop_table("night")
