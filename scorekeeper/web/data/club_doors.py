"""The clubs this browser has created or opened, kept in its own signed session cookie (never
a server-wide list), shown on the home page."""

from __future__ import annotations

from flask import session
from sqlalchemy import select

from scorekeeper.web.data.clubs import CLUB_EDIT, CLUB_WATCH, ClubDoor
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubRow

REMEMBERED = 20
"""How many clubs a browser remembers; the oldest is forgotten first."""
_SESSION_KEY = "clubs"


def _keys() -> list[str]:
    keys = session.get(_SESSION_KEY, [])
    return [key for key in keys if isinstance(key, str)] if isinstance(keys, list) else []


def remember_club(door: ClubDoor) -> None:
    """Remember the club behind ``door``; its edit link wins over its watch link."""
    keys = _keys()
    club = door.club
    if door.key in keys or (not door.editable and club.edit_key in keys):
        return
    keys = [key for key in keys if key != club.watch_key]
    session[_SESSION_KEY] = [door.key, *keys][:REMEMBERED]


def my_clubs() -> list[ClubDoor]:
    """This browser's clubs, each behind the strongest door it knows, A to Z."""
    keys = _keys()
    if not keys:
        return []
    query = select(ClubRow).where(ClubRow.edit_key.in_(keys) | ClubRow.watch_key.in_(keys))
    clubs = db.session.scalars(query).all()
    doors = [ClubDoor(CLUB_EDIT if c.edit_key in keys else CLUB_WATCH, c) for c in clubs]
    return sorted(doors, key=lambda door: door.club.name.casefold())
