"""The stored game: its setup and its ordered event log (the truth; scores are derived)."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, text, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.web.data.database import Base


def now() -> datetime:
    """The current UTC time, naive, as stored."""
    return datetime.now(UTC).replace(tzinfo=None)


KEY_BYTES = 16
"""A game's keys are 128 random bits from ``secrets``, written in 22 URL-safe characters."""
KEY_PATTERN = r"[A-Za-z0-9_-]{22}"


def new_key() -> str:
    """A fresh, unguessable game key."""
    return secrets.token_urlsafe(KEY_BYTES)


class GameRow(Base):
    """A game's setup; ``status`` and ``winner`` are cached for the games list only.

    The sequential ``id`` never leaves the server: pages reach a game by its ``edit_key``
    (may change it) or its ``watch_key`` (may only look). ``version`` counts every change
    (an undo too), so an unchanged game is recognised without loading its events.
    ``deleted_at`` is set while a deleted game waits for its undo window to pass: such a game
    is not found behind either key (see ``store``). ``redoable`` counts the undos that Redo
    can still bring back: each undo adds one, each redo takes one, a new entry empties it.
    """

    __tablename__ = "game"
    __table_args__ = (
        Index("uq_game_edit_key", "edit_key", unique=True),
        Index("uq_game_watch_key", "watch_key", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edit_key: Mapped[str] = mapped_column(String(32), default=new_key)
    watch_key: Mapped[str] = mapped_column(String(32), default=new_key)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)
    players: Mapped[list[str]] = mapped_column(JSON)
    preset: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    partners: Mapped[bool | None] = mapped_column(default=None)
    status: Mapped[str] = mapped_column(String(10), default="lead")
    winner: Mapped[str | None] = mapped_column(String(200), default=None)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    redoable: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    club_id: Mapped[int | None] = mapped_column(
        ForeignKey("club.id", ondelete="SET NULL", name="fk_game_club"), default=None, index=True
    )
    fingerprint: Mapped[str | None] = mapped_column(String(64), default=None)
    """For a game imported into a club: the SHA-256 of its record as stored, so importing the
    same game into the club again (a double tap, a file sent twice) is refused."""
    rematch_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL", name="fk_game_rematch"), default=None
    )
    """For a finished game: the rematch started from it, which its watch page and board follow
    (and a second tap on Rematch opens, instead of starting another)."""

    events: Mapped[list[EventRow]] = relationship(
        back_populates="game", order_by="EventRow.seq", cascade="all, delete-orphan"
    )


LIVE = "undone_at IS NULL"
"""The events the game is replayed from: those not undone."""
UNDONE = "undone_at IS NOT NULL"
"""The events undone (kept for the log and for redo)."""


class EventRow(Base):
    """One entry of a game; ``data`` holds its fields as JSON.

    Nothing is ever deleted by an undo: an undone event keeps its row, with ``undone_at``
    (when) and ``undo_mark`` (the game's version that undo made: the events undone together
    share it, and the latest undo has the highest). A redo stores the entry again as new rows
    and marks the undone ones ``redone_at``: the log keeps both. The live events (not undone)
    are numbered 1, 2, 3... by ``seq``, the order the game is replayed in; an undone event
    keeps the ``seq`` it had, so only the live ones are unique by number.
    """

    __tablename__ = "event"
    __table_args__ = (
        Index(
            "uq_event_live_seq",
            "game_id",
            "seq",
            unique=True,
            sqlite_where=text(LIVE),
            postgresql_where=text(LIVE),
        ),
        # The undone events alone, by game and undo: what a redo brings back and the log's
        # undone entries are read without the game's other events.
        Index(
            "ix_event_undone",
            "game_id",
            "undo_mark",
            sqlite_where=text(UNDONE),
            postgresql_where=text(UNDONE),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=now)
    undone_at: Mapped[datetime | None] = mapped_column(default=None)
    undo_mark: Mapped[int | None] = mapped_column(Integer, default=None)
    redone_at: Mapped[datetime | None] = mapped_column(default=None)

    game: Mapped[GameRow] = relationship(back_populates="events")


class ClubRow(Base):
    """A group that plays together: its games, its roster, behind two secret links.

    Like a game, a club is reached only by a key: ``edit_key`` may start and import games and
    change the roster, ``watch_key`` may only look.
    """

    __tablename__ = "club"
    __table_args__ = (
        Index("uq_club_edit_key", "edit_key", unique=True),
        Index("uq_club_watch_key", "watch_key", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edit_key: Mapped[str] = mapped_column(String(32), default=new_key)
    watch_key: Mapped[str] = mapped_column(String(32), default=new_key)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=now)
    defaults: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """The house rules the club's new-game form starts with: ``preset``, ``options`` (those
    that differ from the preset) and ``partners``, or None for the preset's own."""
    rate_club_games: Mapped[bool] = mapped_column(default=True, server_default=true())
    """Whether the club's ordinary games (played outside a night) count toward its ratings."""

    players: Mapped[list[ClubPlayerRow]] = relationship(
        back_populates="club", order_by="ClubPlayerRow.name", cascade="all, delete-orphan"
    )


class ClubPlayerRow(Base):
    """A name on a club's roster. ``name_key`` (see ``rules.names.name_key``) tells players
    apart, so ``"ann "`` and ``"Ann"`` are one player; ``name`` is how the club spells it,
    and how its games spell it too."""

    __tablename__ = "club_player"
    __table_args__ = (Index("uq_club_player_name", "club_id", "name_key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    name_key: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=now)

    club: Mapped[ClubRow] = relationship(back_populates="players")


class ClubPenaltyRow(Base):
    """A penalty the club agreed once ("drew and could play: -30"): on the play screen of the
    club's games it is an adjustment with this ``name`` as its reason and ``amount`` points.
    ``name_key`` (see ``rules.names.name_key``) keeps two penalties of one name apart."""

    __tablename__ = "club_penalty"
    __table_args__ = (Index("uq_club_penalty_name", "club_id", "name_key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    name_key: Mapped[str] = mapped_column(String(200))
    amount: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=now)


class GameFactsRow(Base):
    """A cache of a game's facts (``rules.stats.GameFacts``) as of its ``version``.

    Never the truth: the facts are computed from the game's events, and a row whose version
    is not the game's is computed again. The club pages read these instead of replaying
    every finished game.
    """

    __tablename__ = "game_facts"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
