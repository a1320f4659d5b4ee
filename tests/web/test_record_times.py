"""Games keep when they were played: a record's times go through export and import.

An export carries ``started``, ``finished``, each event's ``at`` and each settlement's
``settled_at``; an import stores them, so the log, the sheet and the games lists show when the
game was played, not when it was imported. These run on SQLite, and on PostgreSQL when
SCOREKEEPER_TEST_DATABASE_URL names one (as CI does): the ``app`` fixture's database.
"""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.data import games
from scorekeeper.web.data.models import now
from tests.web.webtable import LEGAL, as_exported, import_record, started, without_times

DATA = Path(__file__).resolve().parents[1] / "data"
KEY = r"[A-Za-z0-9_-]{22}"


def corpus(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text("utf-8"))
    return loaded


def iso(moment: datetime) -> str:
    """A time as an export writes it: UTC, to the second, with a Z."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def timed(record: dict[str, Any], start: datetime, step: timedelta) -> dict[str, Any]:
    """``record`` with every time an export of a game played from ``start`` carries: each
    entry ``step`` after the one before, each settlement ``step`` after the hand's last
    entry; ``finished`` (the last entry's time) when ``over``."""
    out = copy.deepcopy(record)
    moment = start
    out["started"] = iso(moment)
    for hand in out["hands"]:
        for event in hand["events"]:
            moment += step
            event["at"] = iso(moment)
        if "remaining" in hand:
            moment += step
            hand["settled_at"] = iso(moment)
    return out


def finished(record: dict[str, Any]) -> dict[str, Any]:
    """A timed record of a finished game with its ``finished``: its last entry's time."""
    last = record["hands"][-1]
    return {**record, "finished": last.get("settled_at") or last["events"][-1]["at"]}


def exported(client: FlaskClient, url: str) -> dict[str, Any]:
    response = client.get(f"{url}/record.json")
    assert response.status_code == 200
    data: dict[str, Any] = response.get_json()
    return data


WON = "hand_adjust_wins_end_of_hand"
"""Ann +15 after her domino: she wins at the settlement (a game with an adjustment)."""
START = datetime(2025, 3, 14, 18, 30, 5, tzinfo=UTC)


def won_record() -> dict[str, Any]:
    return finished(timed(corpus(WON), START, timedelta(seconds=47)))


def test_an_import_keeps_the_times_and_the_export_gives_them_back(client: FlaskClient):
    record = won_record()
    table = import_record(client, record)
    assert exported(client, table.url) == as_exported(record)


def test_an_offset_is_kept_as_the_same_instant(client: FlaskClient):
    record = won_record()
    shifted = copy.deepcopy(record)
    shifted["started"] = "2025-03-14T19:30:05+01:00"  # 18:30:05 UTC
    shifted["hands"][0]["events"][0]["at"] = "2025-03-14T13:31:52-05:00"  # 18:31:52 UTC
    assert record["hands"][0]["events"][0]["at"] == "2025-03-14T18:30:52Z"
    record["hands"][0]["events"][0]["at"] = "2025-03-14T18:31:52Z"
    table = import_record(client, shifted)
    assert exported(client, table.url) == as_exported(record)


def test_the_log_the_sheet_and_my_games_show_when_it_was_played(client: FlaskClient):
    record = won_record()
    table = import_record(client, record)
    adjustment = next(event["at"] for event in record["hands"][0]["events"] if "adjust" in event)
    log = client.get(f"{table.url}/log").get_data(as_text=True)
    entered = re.findall(r'data-entered>[^<]*<time datetime="([^"]+)"', log)
    assert entered == [adjustment], "the adjustment shows when it was entered"
    sheet = client.get(f"{table.url}/sheet").get_data(as_text=True)
    assert '<time datetime="2025-03-14T18:30:05Z" data-local="long-date">' in sheet
    assert f'<time datetime="{adjustment}" data-local="time">' in sheet
    listed = client.get("/").get_data(as_text=True)
    assert f'<time datetime="{record["finished"]}" data-local="date">' in listed


def test_a_record_without_times_is_played_when_imported(client: FlaskClient):
    before = now().replace(microsecond=0)
    table = import_record(client, corpus(WON))
    record = exported(client, table.url)
    moments = [record["started"], record["finished"], record["hands"][0]["settled_at"]]
    moments += [event["at"] for event in record["hands"][0]["events"]]
    after = now()
    for moment in moments:
        stored = datetime.fromisoformat(moment).astimezone(UTC).replace(tzinfo=None)
        assert before <= stored <= after
    assert without_times(record) == as_exported(corpus(WON))


def test_what_a_record_leaves_out_is_taken_from_the_time_before(client: FlaskClient):
    """Only ``started`` and one entry's time: the entries before it were entered when the
    game began, those after it when it was (never at the import)."""
    record = corpus(WON)
    record["started"] = "2025-01-02T10:00:00Z"
    record["hands"][0]["events"][3]["at"] = "2025-01-02T10:05:00Z"
    table = import_record(client, record)
    back = exported(client, table.url)
    times = [event["at"] for event in back["hands"][0]["events"]]
    assert times[:3] == ["2025-01-02T10:00:00Z"] * 3
    assert set(times[3:]) == {"2025-01-02T10:05:00Z"}
    assert back["hands"][0]["settled_at"] == "2025-01-02T10:05:00Z"
    assert back["finished"] == "2025-01-02T10:05:00Z"


def test_a_game_played_here_moves_to_another_server_with_its_times(
    client: FlaskClient, make_app: Callable[..., Flask]
):
    """A game played at this table, exported, imported on a new server (its own database):
    the same record comes back out, times and all, and its log shows the same times."""
    table = started(client, win_check="immediate", target="10")
    table.play("5-5")  # Ann's lead counts 10: she wins at once
    record = exported(client, table.url)
    assert {"started", "finished"} <= set(record)
    assert record["finished"] == record["hands"][0]["events"][0]["at"]
    other = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False).test_client()
    moved = import_record(other, record)
    assert exported(other, moved.url) == record
    log_here = re.findall(r'<time datetime="([^"]+)"', table.client.get(f"{table.url}/log").text)
    log_there = re.findall(r'<time datetime="([^"]+)"', other.get(f"{moved.url}/log").text)
    assert log_here == log_there


BAD_TIMES = [
    pytest.param("2026-11-28T17:39:04", id="no-offset"),
    pytest.param("2026-02-30T17:39:04Z", id="impossible-date"),
    pytest.param("2026-11-28 17:39:04Z", id="space"),
    pytest.param("2026-11-28", id="date-only"),
    pytest.param(1764351544, id="a-number"),
    pytest.param(None, id="null"),
    pytest.param("2026-11-28T17:39:04Z" * 50_000, id="a-megabyte"),
]


@pytest.mark.parametrize("bad", BAD_TIMES)
@pytest.mark.parametrize(
    ("place", "hand", "event"),
    [("started", "", ""), ("settled_at", "1", ""), ("at", "1", "2")],
)
def test_a_malformed_time_is_refused_where_it_stands_and_nothing_is_stored(
    client: FlaskClient, bad: object, place: str, hand: str, event: str
):
    record = won_record()
    if place == "started":
        record["started"] = bad
    elif place == "settled_at":
        record["hands"][0]["settled_at"] = bad
    else:
        record["hands"][0]["events"][1]["at"] = bad
    response = client.post(
        "/games/import",
        data={"record": (io.BytesIO(json.dumps(record).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'data-rule="record"' in page
    assert re.findall(r'data-(hand|event)="(\d+)"', page) == [
        (name, number) for name, number in (("hand", hand), ("event", event)) if number
    ]
    assert "offset from UTC" in page and len(page) < 100_000
    assert "data-game=" not in client.get("/").get_data(as_text=True)


def test_an_imported_game_goes_on_and_new_entries_are_made_now(app: Flask, client: FlaskClient):
    """The times of an imported game in play are the record's; what the table enters after
    the import is entered now."""
    record = timed(LEGAL, START, timedelta(minutes=1))
    table = import_record(client, record)
    table.play("5-1", "W")
    back = exported(client, table.url)
    events = back["hands"][0]["events"]
    assert [event["at"] for event in events[:2]] == ["2025-03-14T18:31:05Z", "2025-03-14T18:32:05Z"]
    assert datetime.fromisoformat(events[2]["at"]).year == now().year
    with app.app_context():
        row = games.find(table.key)
        assert row.created_at == datetime(2025, 3, 14, 18, 30, 5)
