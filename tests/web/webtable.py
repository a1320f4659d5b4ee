"""Using a game's table through its forms, as a browser without JavaScript does."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import unescape
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.rules.game import Setup
from scorekeeper.rules.options import HOUSE_RULES
from scorekeeper.rules.practice_rule import SCORELESS
from tests.web.webforms import form_for

LEGAL = {
    "format": "all-fives/1",
    "players": ["Ann", "Bob"],
    "hands": [
        {
            "lead": "Ann",
            "events": [
                {"player": "Ann", "play": "5-5"},
                {"player": "Bob", "play": "5-0", "end": "E"},
            ],
        }
    ],
}
"""A short legal record: Ann leads 5-5 (10), Bob plays 5-0 on E (10)."""
FINISHED = {
    "format": "all-fives/1",
    "options": {"target": 10, "win_check": "immediate"},
    "players": ["Ann", "Bob"],
    "hands": [{"lead": "Ann", "events": [{"player": "Ann", "play": "5-5"}]}],
}
"""A game Ann won with her lead."""
TIME_FIELDS = ("started", "finished", "at", "settled_at")


def without_times(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its times left out: the game it holds, whenever it was played."""
    bare = {key: value for key, value in record.items() if key not in TIME_FIELDS}
    bare["hands"] = []
    for hand in record["hands"]:
        untimed = {key: value for key, value in hand.items() if key not in TIME_FIELDS}
        for listed in ("events", "after_settlement"):
            if listed in hand:
                untimed[listed] = [
                    {key: value for key, value in event.items() if key not in TIME_FIELDS}
                    for event in hand[listed]
                ]
        bare["hands"].append(untimed)
    return bare


def as_exported(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as an export writes it: the preset named, every house rule named (those
    the record leaves out with its preset's value, read from the registry; practice only
    when it is on) and, with 4
    players, ``partners``. Yes/no options the record spells as JSON booleans are words."""
    preset = record.get("preset", "all-fives")
    players = record["players"]
    setup = Setup.create(players, preset, record.get("options", {}), record.get("partners"))
    written: dict[str, Any] = {"format": record["format"], "preset": preset}
    rules = setup.rules
    # A house rule that changes no score (practice) is named only when it is on.
    written["options"] = {
        rule.name: rules.value(rule.name)
        for rule in HOUSE_RULES
        if rule.name not in SCORELESS or rules.value(rule.name) != SCORELESS[rule.name]
    }
    written["players"] = players
    if len(players) == 4:
        written["partners"] = setup.in_partnership
    rest = {key: value for key, value in record.items() if key not in written}
    rest.pop("partners", None)
    return written | rest


NO_KEY = "No-such-game-key-here0"
"""Shaped like a game key, but no game has it."""
_EDIT_LINK = re.compile(r"^/games/([A-Za-z0-9_-]{22})(\?.*)?$")
_WATCH_LINK = re.compile(r'id="watch-link" type="url" value="http://localhost(/watch/[^"]+)"')
_SEQ = re.compile(r'id="table"[^>]*data-seq="(\d+)"')
_VERSION = re.compile(r'name="version" value="(\d+)"')
_SCORE = re.compile(r'data-side-score="([^"]+)">(-?\d+)<')


def key_in(location: str) -> str:
    """The edit key of an edit link ("/games/<key>", maybe with a query)."""
    found = _EDIT_LINK.match(location)
    assert found, f"not an edit link: {location}"
    return found.group(1)


def page_seq(html: str) -> int:
    """How many events the page's table shows (its ``data-seq``)."""
    found = set(_SEQ.findall(html))
    assert len(found) == 1, f"expected one table on the page, got {found}"
    return int(found.pop())


def page_version(html: str) -> int:
    """The game's version the page's entry forms carry."""
    found = set(_VERSION.findall(html))
    assert len(found) == 1, f"expected one version on the page, got {found}"
    return int(found.pop())


def side_scores(html: str) -> dict[str, int]:
    """The scores the scoreboard shows, by side name."""
    return {unescape(name): int(score) for name, score in _SCORE.findall(html)}


class Table:
    """A game's table driven through its forms, as a browser without JavaScript drives it."""

    def __init__(self, client: FlaskClient, key: str, htmx: bool = False) -> None:
        self.client = client
        self.key = key
        self.htmx = htmx
        self.url = f"/games/{key}"

    def page(self) -> str:
        """The table page as it is now."""
        response = self.client.get(self.url)
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def watch_url(self) -> str:
        """The watch link the edit page's share panel offers, as a path."""
        found = _WATCH_LINK.search(self.page())
        assert found, "the edit page shows no watch link"
        return found.group(1)

    def seq(self) -> int:
        """How many events the table shows now."""
        return page_seq(self.page())

    def version(self) -> int:
        """The version the page's entry forms carry now."""
        return page_version(self.page())

    def post(self, action: str, data: dict[str, Any], version: int | None = None) -> TestResponse:
        """Submit an entry form as the page renders it (its version unless one is given)."""
        form = {"version": str(self.version() if version is None else version), **data}
        headers = {"HX-Request": "true"} if self.htmx else {}
        return self.client.post(f"{self.url}/{action}", data=form, headers=headers)

    def play(self, tile: str, end: str | None = None) -> TestResponse:
        """Tap a tile, then (if given) an end."""
        data = {"tile": tile} if end is None else {"tile": tile, "end": end}
        return self.post("play", data)

    def scores(self) -> dict[str, int]:
        """The scoreboard's scores."""
        return side_scores(self.page())


def new_game(client: FlaskClient, players: list[str], **fields: str) -> Table:
    """Start a game through the new-game form as a browser submits it; return its table.

    ``fields`` are typed over the form's pre-filled values (``leader`` defaults to "table").
    """
    form = form_for(client.get("/games/new").get_data(as_text=True), "/games/new")
    typed = {f"player{seat}": name for seat, name in enumerate(players, 1)}
    if "preset" in fields:
        # Choose the preset and press "Load the preset's defaults", as without JavaScript.
        load = form.data(form.button(name="load"), **typed, preset=fields["preset"])
        page = client.post("/games/new", data=load)
        assert page.status_code == 200
        form = form_for(page.get_data(as_text=True), "/games/new")
    typed.setdefault("leader", "table")
    typed.update(fields)
    data = form.data(form.button(name="start"), **typed)
    if len(players) != 4 or data.get("partners") in ("", None):
        data.pop("partners", None)
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return Table(client, key_in(response.headers["Location"]))


def started(
    client: FlaskClient, players: Sequence[str] = ("Ann", "Bob"), leader: int = 0, **fields: str
) -> Table:
    """A new game whose first hand ``leader`` leads, chosen on the table."""
    table = new_game(client, list(players), **fields)
    response = table.post("lead", {"how": "seat", "leader": str(leader)})
    assert response.status_code == 303
    return table


def import_record(client: FlaskClient, record: dict[str, Any]) -> Table:
    """Create a game by importing ``record`` through the import form; return its table."""
    import io
    import json

    body = json.dumps(record).encode()
    response = client.post(
        "/games/import",
        data={"record": (io.BytesIO(body), "game.json")},
        content_type="multipart/form-data",
    )
    response = take_left_out(client, response)
    assert response.status_code == 303, response.get_data(as_text=True)
    return Table(client, key_in(response.headers["Location"]))


def take_left_out(client: FlaskClient, response: TestResponse, **chosen: str) -> TestResponse:
    """After an import of a record that leaves house rules out, the page that lists them:
    import from it with the values it offers, or those ``chosen`` (``take-<rule>`` fields
    by rule name); any other answer as it is."""
    page = response.get_data(as_text=True)
    if response.status_code != 200 or "data-left-out" not in page:
        return response
    form = form_for(page, "/games/import")
    taken = {f"take-{name}": value for name, value in chosen.items()}
    return client.post("/games/import", data=form.data(**taken))
