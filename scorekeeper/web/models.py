"""The stored game: its setup and its ordered event log (the truth; scores are derived)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.web.extensions import db


def now() -> datetime:
    """The current UTC time, naive, as stored."""
    return datetime.now(UTC).replace(tzinfo=None)


class GameRow(db.Model):  # type: ignore[name-defined,misc]
    """A game's setup; ``status`` and ``winner`` are cached for the games list only."""

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)
    players: Mapped[list[str]] = mapped_column(JSON)
    preset: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    partners: Mapped[bool | None] = mapped_column(default=None)
    status: Mapped[str] = mapped_column(String(10), default="lead")
    winner: Mapped[str | None] = mapped_column(String(200), default=None)

    events: Mapped[list[EventRow]] = relationship(
        back_populates="game", order_by="EventRow.seq", cascade="all, delete-orphan"
    )


class EventRow(db.Model):  # type: ignore[name-defined,misc]
    """One entry of a game, numbered from 1 by ``seq``; ``data`` holds its fields as JSON."""

    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_event_game_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=now)

    game: Mapped[GameRow] = relationship(back_populates="events")
