"""Whatever a stranger sends (any method, any path shaped like the site's, any form), the
answer is a clear 4xx or a page, never a 500, and a game changes only through its edit link."""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.webtable import new_game

KEYISH = st.one_of(
    st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=22, max_size=22),
    st.text(alphabet=string.ascii_letters + string.digits + "-_%.", min_size=0, max_size=30),
    st.integers(min_value=0, max_value=10**6).map(str),
)
DOOR = st.sampled_from(["games", "watch"])
TAIL = st.sampled_from(
    ["", "/play", "/draw", "/pass", "/undo", "/settle", "/lead", "/turn", "/live", "/board",
     "/log", "/rules", "/sheet", "/sheet.csv", "/record.json", "/../new", "/%00", "/call",
     "/muggins", "/adjust"]
)  # fmt: skip
FIELDS = st.dictionaries(
    st.sampled_from(
        [
            "version",
            "tile",
            "end",
            "how",
            "leader",
            "among",
            "held-0",
            "drawn-1",
            "key",
            "west",
            "called",
            "claimant",
            "side",
            "way",
            "points",
            "reason",
        ]
    ),
    st.text(max_size=30),
    max_size=5,
)
METHOD = st.sampled_from(["get", "post", "put", "delete", "patch"])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(method=METHOD, door=DOOR, key=KEYISH, tail=TAIL, fields=FIELDS)
def test_no_request_to_a_game_address_is_a_500(client, method, door, key, tail, fields):
    response = getattr(client, method)(f"/{door}/{key}{tail}", data=fields)
    assert response.status_code < 500, (method, door, key, tail, fields)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(method=METHOD, tail=TAIL, fields=FIELDS, live=st.booleans())
def test_a_real_game_survives_anything_sent_to_its_links(client, method, tail, fields, live):
    table = new_game(client, ["Ann", "Bob"], leader="table")
    watch = (
        client.get(table.url)
        .get_data(as_text=True)
        .split('id="watch-link" type="url" value="http://localhost')[1]
        .split('"')[0]
    )
    before = client.get(watch + "/record.json").get_data()
    headers = {"HX-Request": "true"} if live else {}
    response = getattr(client, method)(watch + tail, data=fields, headers=headers)
    assert response.status_code < 500
    if method != "get":
        assert response.status_code == 404
    assert client.get(watch + "/record.json").get_data() == before
    response = getattr(client, method)(table.url + tail, data=fields, headers=headers)
    assert response.status_code < 500, (method, tail, fields, response.get_data(as_text=True))
