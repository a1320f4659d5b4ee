"""The blueprint of the games' own pages (``games.*``): My games, a new game, the table and
its entries, import and export. Its routes are spread over the modules beside this one."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("games", __name__)
