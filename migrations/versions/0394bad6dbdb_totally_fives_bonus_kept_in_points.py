"""totally-fives games stored before keep their bonus in points: bonus_in_fives "no" written

The preset ``totally-fives`` now collects in fives (house rule ``bonus_in_fives`` defaults to
``yes``, as S3 says: "rounded to the closest 5 and then divided by 5"); it used to default to
``no``. A game's ``options`` hold only the house rules that differ from its preset, so a
totally-fives game stored before, with no ``bonus_in_fives`` of its own, would now be scored
by the new default and its scores would change. Each such game gets ``bonus_in_fives: "no"``
written into its options, and so keeps its scores (its export says so too). A club whose
new-game defaults are totally-fives without a ``bonus_in_fives`` gets the same, so its next
games start as they did. A game or club that names ``bonus_in_fives`` is left alone.

A game changed here gets a new ``version`` (as a club renaming a player does): a replay kept
by a running worker is of the old setup, and open pages follow the change.

Revision ID: 0394bad6dbdb
Revises: a2c4e6f8b0d1
Create Date: 2026-11-27 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0394bad6dbdb"
down_revision = "a2c4e6f8b0d1"
branch_labels = None
depends_on = None

PRESET = "totally-fives"
RULE = "bonus_in_fives"

game = sa.table(
    "game",
    sa.column("id", sa.Integer),
    sa.column("preset", sa.String),
    sa.column("options", sa.JSON),
    sa.column("version", sa.Integer),
)
club = sa.table("club", sa.column("id", sa.Integer), sa.column("defaults", sa.JSON))


def _write_default(value):
    """Write ``bonus_in_fives: value`` into every totally-fives game and club default that
    names no ``bonus_in_fives``: those that play by the preset's default."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(game.c.id, game.c.options, game.c.version).where(game.c.preset == PRESET)
    ).all()
    for game_id, options, version in rows:
        options = options or {}
        if RULE in options:
            continue
        connection.execute(
            game.update()
            .where(game.c.id == game_id)
            .values(options={**options, RULE: value}, version=(version or 0) + 1)
        )
    for club_id, defaults in connection.execute(sa.select(club.c.id, club.c.defaults)).all():
        if not isinstance(defaults, dict) or defaults.get("preset") != PRESET:
            continue
        options = defaults.get("options") or {}
        if RULE in options:
            continue
        connection.execute(
            club.update()
            .where(club.c.id == club_id)
            .values(defaults={**defaults, "options": {**options, RULE: value}})
        )


def upgrade():
    _write_default("no")


def downgrade():
    # What the upgrade wrote stays: "no" is what the older code's default says anyway, and it
    # cannot be told from a "no" a game or club chose itself (a record imported with it, a
    # game started after the upgrade). A totally-fives game or club without a bonus_in_fives
    # now plays by the new default "yes": that is written, so it keeps its scores too.
    _write_default("yes")
