"""A club night's rows: the night and its format, who plays, each round's seats, each table.

The rows hold what was decided (the format, who came and left, the seed and the seats of each
round, which game each table plays, a table the director ended); never a score or a standing:
those are computed from the tables' games every time (``rules.nights.standings``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.web.data.database import Base
from scorekeeper.web.data.models import now


class NightRow(Base):
    """A club night, reached only under its club's edit link (``/clubs/<key>/nights/<id>``).

    ``preset`` and ``options`` (the house rules that differ from the preset for a table of
    ``table_size``) are every table's; ``tie_breaks`` the director's order of them."""

    __tablename__ = "night"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    preset: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    table_size: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    minutes: Mapped[int] = mapped_column(Integer)
    match: Mapped[str] = mapped_column(String(20))
    at_limit: Mapped[str] = mapped_column(String(20))
    tie_breaks: Mapped[list[str]] = mapped_column(JSON, default=list)

    players: Mapped[list[NightPlayerRow]] = relationship(
        back_populates="night", order_by="NightPlayerRow.id", cascade="all, delete-orphan"
    )
    round_rows: Mapped[list[NightRoundRow]] = relationship(
        back_populates="night", order_by="NightRoundRow.number", cascade="all, delete-orphan"
    )


class NightPlayerRow(Base):
    """A player of the night, spelled as the club's roster spells them: seated from round
    ``joined_round`` on, and before round ``left_round`` only (None: still here)."""

    __tablename__ = "night_player"
    __table_args__ = (Index("uq_night_player_name", "night_id", "name_key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    name_key: Mapped[str] = mapped_column(String(200))
    joined_round: Mapped[int] = mapped_column(Integer, default=1)
    left_round: Mapped[int | None] = mapped_column(Integer, default=None)

    night: Mapped[NightRow] = relationship(back_populates="players")


class NightRoundRow(Base):
    """A round: its ``seed`` (the seating is a function of it and the night before it) and
    its ``seats`` as drawn (and swapped); ``started_at`` once its games exist."""

    __tablename__ = "night_round"
    __table_args__ = (Index("uq_night_round_number", "night_id", "number", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    seats: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=now)
    started_at: Mapped[datetime | None] = mapped_column(default=None)

    night: Mapped[NightRow] = relationship(back_populates="round_rows")
    tables: Mapped[list[NightTableRow]] = relationship(
        back_populates="round", order_by="NightTableRow.number", cascade="all, delete-orphan"
    )


class NightTableRow(Base):
    """A table of a started round: its first game (a match's next games are that game's
    rematches). ``ended_game_id`` and ``ended_events``: the director ended the match as it
    stood, in that game after that many of its entries."""

    __tablename__ = "night_table"
    __table_args__ = (Index("uq_night_table_number", "round_id", "number", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("night_round.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL"), default=None, index=True
    )
    ended_game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL"), default=None
    )
    ended_events: Mapped[int | None] = mapped_column(Integer, default=None)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)

    round: Mapped[NightRoundRow] = relationship(back_populates="tables")
