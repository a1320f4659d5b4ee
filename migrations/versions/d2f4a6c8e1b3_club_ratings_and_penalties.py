"""club ratings and penalties: the ratings' rule of the club, and the penalties it agreed

``club.rate_club_games`` is true for every club (ordinary club games count, as they did in the
standings); ``club_penalty`` holds each club's named penalties and their amounts, one name per
club (by its folded spelling). The ratings themselves are not stored: they are computed from
the games' events.

Revision ID: d2f4a6c8e1b3
Revises: c7e9a1b3d5f2
Create Date: 2026-11-29 02:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "d2f4a6c8e1b3"
down_revision = "c7e9a1b3d5f2"
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN on both databases (never a copy of the club table: on SQLite that
    # would delete its roster through ON DELETE CASCADE).
    op.add_column(
        "club",
        sa.Column("rate_club_games", sa.Boolean(), nullable=False, server_default=sa.true()),
    )
    op.create_table(
        "club_penalty",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "club_id", sa.Integer(), sa.ForeignKey("club.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("uq_club_penalty_name", "club_penalty", ["club_id", "name_key"], unique=True)


def downgrade():
    op.drop_index("uq_club_penalty_name", table_name="club_penalty")
    op.drop_table("club_penalty")
    if op.get_bind().dialect.name == "sqlite":
        # SQLite 3.35+ drops a column in place; the club table is not copied.
        op.execute("ALTER TABLE club DROP COLUMN rate_club_games")
    else:
        op.drop_column("club", "rate_club_games")
