"""game changes notified by the database: a trigger on the game row, on PostgreSQL

Pages that follow a game hear of its changes through ``NOTIFY scorekeeper_changes`` (see
``scorekeeper/web/data/changes.py``). Each write sent the notification itself, a statement
and a round trip of its own in every entry. A trigger on the game row now sends it in the
same statement that counts the change (``version``) or deletes the game (``deleted_at``), for
every way a game is changed: ``'<game id>:<version>'``, or ``'<game id>:-1'`` once deleted.
Delivered, as before, only if the transaction commits. SQLite has no notifications: nothing
changes there.

Revision ID: e8f0a2c4d6b7
Revises: d4a6c8e0f2b3
Create Date: 2026-11-26 04:00:00

"""

from alembic import op

revision = "e8f0a2c4d6b7"
down_revision = "d4a6c8e0f2b3"
branch_labels = None
depends_on = None

FUNCTION = """
CREATE OR REPLACE FUNCTION scorekeeper_game_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(
        'scorekeeper_changes',
        NEW.id || ':' || CASE WHEN NEW.deleted_at IS NULL THEN NEW.version ELSE -1 END
    );
    RETURN NULL;
END
$$
"""
TRIGGER = """
CREATE TRIGGER game_changed AFTER UPDATE ON game FOR EACH ROW
WHEN (OLD.version IS DISTINCT FROM NEW.version OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
EXECUTE FUNCTION scorekeeper_game_changed()
"""


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FUNCTION)
    op.execute(TRIGGER)


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER game_changed ON game")
    op.execute("DROP FUNCTION scorekeeper_game_changed()")
