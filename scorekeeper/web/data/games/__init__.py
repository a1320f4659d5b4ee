"""The stored games: read (reading.py), changed (writing.py) and deleted (deleting.py).

A game is its event log, replayed by the referee. Every change of a game is one load and
one conditional UPDATE on the version that load read (see writing.py). The site uses the
names below, as ``games.load``, ``games.append`` and so on.
"""

from scorekeeper.web.data.games.deleting import (
    CannotDelete,
    delete,
    deleted_since,
    purge,
    restore,
)
from scorekeeper.web.data.games.reading import (
    NotFound,
    Undone,
    download_name,
    find,
    followed,
    games_with_keys,
    list_games,
    load,
    record_times,
    redo_events,
    rematch_of,
    replay,
    replay_rows,
    setup_of,
    undone_events,
    version_of,
)
from scorekeeper.web.data.games.writing import (
    NOTHING_TO_REDO,
    NothingToRedo,
    Stale,
    TimeRefused,
    append,
    begin_write,
    change_call,
    create,
    game_stored,
    redo,
    start_rematch,
    turn_lead,
    undo,
)

__all__ = [
    "NOTHING_TO_REDO",
    "CannotDelete",
    "NotFound",
    "NothingToRedo",
    "Stale",
    "TimeRefused",
    "Undone",
    "append",
    "begin_write",
    "change_call",
    "create",
    "delete",
    "deleted_since",
    "download_name",
    "find",
    "followed",
    "game_stored",
    "games_with_keys",
    "list_games",
    "load",
    "purge",
    "record_times",
    "redo",
    "redo_events",
    "rematch_of",
    "replay",
    "replay_rows",
    "restore",
    "setup_of",
    "start_rematch",
    "turn_lead",
    "undo",
    "undone_events",
    "version_of",
]
