"""Whatever a stranger sends to a club's addresses (any method, any key-shaped path, any
form), the answer is a clear 4xx or a page, never a 500; the watch link changes nothing, and
a refused change to a real club leaves its roster and games as they were."""

from __future__ import annotations

import string

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubPlayerRow, ClubRow, EventRow, GameRow
from tests.web.test_clubs import jsonl, new_club, simulated_records, watch_link

KEYISH = st.one_of(
    st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=22, max_size=22),
    st.text(alphabet=string.ascii_letters + string.digits + "-_%.", min_size=0, max_size=30),
)
TAIL = st.sampled_from(
    ["", "/new", "/import", "/games", "/players", "/players/rename", "/players/merge",
     "/games.csv", "/games.jsonl", "/../new", "/%00"]
)  # fmt: skip
TEXT = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["0", "-1", "99999999999999999999", "", " ", "\x00", "Ann", "{}", "1.5"]),
)
FIELDS = st.dictionaries(
    st.sampled_from(["name", "player", "source", "target", "link", "text", "player1", "player2"]),
    TEXT,
    max_size=5,
)
METHOD = st.sampled_from(["get", "post", "put", "delete"])
SLOW = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture],
}


@settings(max_examples=150, **SLOW)
@given(method=METHOD, watch=st.booleans(), key=KEYISH, tail=TAIL, fields=FIELDS)
def test_no_request_to_a_club_address_is_a_500(client, method, watch, key, tail, fields):
    path = f"/clubs/{'watch/' if watch else ''}{key}{tail}"
    response = getattr(client, method)(path, data=fields)
    assert response.status_code < 500, (method, path, fields)


def _state(client: FlaskClient, club: str) -> tuple[object, ...]:
    """Everything stored of the club: its row, its roster, its games and their events.

    Read from the database rather than through the club's own export, which replays every
    game: the stored rows are what "changed nothing" is about, and the export is tested with
    the club's pages."""
    with client.application.app_context():
        found = db.session.scalars(select(ClubRow).where(ClubRow.edit_key == club.rsplit("/")[-1]))
        row = found.one()
        games = db.session.scalars(
            select(GameRow).where(GameRow.club_id == row.id).order_by(GameRow.id)
        ).all()
        events = db.session.execute(
            select(EventRow.game_id, EventRow.seq, EventRow.kind, EventRow.data, EventRow.undone_at)
            .where(EventRow.game_id.in_([game.id for game in games]))
            .order_by(EventRow.id)
        ).all()
        players = db.session.execute(
            select(ClubPlayerRow.id, ClubPlayerRow.name, ClubPlayerRow.name_key)
            .where(ClubPlayerRow.club_id == row.id)
            .order_by(ClubPlayerRow.id)
        ).all()
        return (
            (row.name, row.watch_key, row.defaults),
            tuple(players),
            tuple(
                (
                    g.id,
                    g.players,
                    g.preset,
                    g.options,
                    g.partners,
                    g.status,
                    g.winner,
                    g.version,
                    g.deleted_at,
                    g.redoable,
                    g.fingerprint,
                )
                for g in games
            ),
            tuple(tuple(event) for event in events),
        )


@settings(max_examples=60, **SLOW)
@given(method=METHOD, tail=TAIL, fields=FIELDS)
def test_a_real_club_survives_anything_sent_to_its_links(client, method, tail, fields):
    club = new_club(client)
    client.post(f"{club}/import", data={"text": jsonl(simulated_records(range(2)))})
    watch = watch_link(client, club)
    before = _state(client, club)
    assert before[1] and before[2] and before[3]  # a roster, games and events to keep
    response = getattr(client, method)(watch + tail, data=fields)
    assert response.status_code < 500
    if method != "get":
        assert response.status_code == 404
    assert _state(client, club) == before
    changed = getattr(client, method)(club + tail, data=fields)
    assert changed.status_code < 500, (method, tail, fields)
    if changed.status_code >= 400:
        assert _state(client, club) == before
