"""Moving a club night round's clock in tests: its start put back so that its time is up in a
given number of seconds (0 or less: up already), without waiting for it."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from sqlalchemy import select

from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow, now
from scorekeeper.web.data.night_models import NightRoundRow, NightTableRow


def expire_round(app: Flask, round_id: int, seconds_left: float) -> None:
    """Put round ``round_id``'s start back so its time is up ``seconds_left`` from now."""
    with app.app_context():
        row = db.session.get(NightRoundRow, round_id)
        assert row is not None and row.started_at is not None, "a started round"
        minutes = row.night.minutes
        row.started_at = now() - timedelta(minutes=minutes) + timedelta(seconds=seconds_left)
        db.session.commit()


def round_id_of(app: Flask, edit_key: str) -> int:
    """The id of the round whose table's first game is the game behind ``edit_key``."""
    with app.app_context():
        found = db.session.scalar(
            select(NightTableRow.round_id)
            .join(GameRow, GameRow.id == NightTableRow.game_id)
            .where(GameRow.edit_key == edit_key)
        )
        assert found is not None, "a night table's first game"
        return int(found)
