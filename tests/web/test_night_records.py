"""A night as one all-fives-night/1 record: exported from the night page and the command
line, imported into another club with the same seats and standings, and every bad record
refused with a clear message and nothing stored."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.web.data.database import db
from scorekeeper.web.data.night_models import NightRow
from scorekeeper.web.routes import IMPORT_BODY
from tests.web.test_clubs import new_club
from tests.web.test_nights import (
    NAMES,
    _roster,
    links_of,
    open_night,
    post,
    seat,
    standings_csv,
    start,
    tables_of,
    win,
)
from tests.web.webtable import Table

EIGHT = NAMES[:8]


def _rematch(client: FlaskClient, key: str) -> str:
    response = post(client, f"/games/{key}/rematch", f"/games/{key}")
    assert response.status_code == 303, response.get_data(as_text=True)
    location = response.headers["Location"]
    found = re.search(r"/games/([A-Za-z0-9_-]{22})", location)
    assert found is not None
    return found.group(1)


def _play_match(client: FlaskClient, round_page: str, index: int) -> None:
    """Table ``index`` of the round plays its best of 3 through."""
    key = links_of(client.get(round_page).get_data(as_text=True))[index]
    for _game in range(3):
        win(client, key)
        state = client.get(round_page).get_data(as_text=True)
        states = re.findall(r'data-table-state="(\w+)"', state)
        if states[index] == "over":
            return
        key = _rematch(client, key)
    raise AssertionError("a best of 3 is over after three games")


def run_night(client: FlaskClient) -> tuple[str, str]:
    """A night of 8 playing best of 3 over 2 rounds: round 1 has three tables played through
    and one ended as it stood in the middle of its game; a walk-in joins and a player leaves
    for round 2, which is left playing with one game won. The club's and the night's paths."""
    club = new_club(client, "Old club")
    _roster(client, club, EIGHT)
    night = open_night(client, club, EIGHT, table_size="2", rounds="2", match="best-of-3")
    round1 = seat(client, night)
    keys = links_of(start(client, round1))
    assert len(keys) == 4
    for index in range(3):
        _play_match(client, round1, index)
    # Table 4 plays its lead and one tile, then the director ends it as it stands.
    table = Table(client, keys[3])
    assert table.play("1-2").status_code in (200, 303)
    ended = post(client, f"{round1}/tables/4/end", round1)
    assert ended.status_code == 303, ended.get_data(as_text=True)
    # The game goes on after the table was ended: the night counts it as it stood.
    assert table.play("2-2").status_code in (200, 303)
    assert post(client, f"{night}/walk-in", night, name="Zed").status_code == 303
    page = client.get(night).get_data(as_text=True)
    hal = re.search(r'name="player" value="(\d+)"', page.split('data-night-player="Hal"')[1])
    assert hal is not None
    assert post(client, f"{night}/leave", night, player=hal.group(1)).status_code == 303
    round2 = seat(client, night)
    keys2 = links_of(start(client, round2))
    win(client, keys2[0])
    return club, night


def export(client: FlaskClient, night: str) -> dict[str, Any]:
    response = client.get(f"{night}/night.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    record = json.loads(response.get_data(as_text=True))
    assert isinstance(record, dict)
    return record


def import_into(client: FlaskClient, club: str, body: bytes | str, expect: int = 303) -> str:
    """Post a night record to the club's import form; the new night's path or the page."""
    data = body.encode() if isinstance(body, str) else body
    response = post_file(client, club, data)
    assert response.status_code == expect, response.get_data(as_text=True)[:2000]
    if expect == 303:
        return response.headers["Location"]
    return response.get_data(as_text=True)


def post_file(client: FlaskClient, club: str, data: bytes):  # type: ignore[no-untyped-def]
    page = client.get(f"{club}/nights/import").get_data(as_text=True)
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page)
    assert token is not None
    return client.post(
        f"{club}/nights/import",
        data={"csrf_token": token.group(1), "record": (io.BytesIO(data), "night.json")},
        content_type="multipart/form-data",
    )


def _nights(app: Flask) -> int:
    with app.app_context():
        return db.session.query(NightRow).count()


def test_a_night_exports_and_imports_with_the_same_seats_and_standings(
    app: Flask, client: FlaskClient
) -> None:
    _club, night = run_night(client)
    assert "data-night-record" in client.get(night).get_data(as_text=True)
    record = export(client, night)
    assert record["format"] == "all-fives-night/1"
    assert record["settings"]["match"] == "best-of-3"
    assert [r["number"] for r in record["rounds"]] == [1, 2]
    first = record["rounds"][0]
    assert all(game["format"] == "all-fives/1" for t in first["tables"] for game in t["games"])
    assert any(len(t["games"]) >= 2 for t in first["tables"]), "a best of 3 keeps its games"
    ended = first["tables"][3]["ended"]
    assert ended is not None and ended["entries"] == 2, "the lead and the tile before the end"
    assert len(first["tables"][3]["games"][0]["hands"][0]["events"]) == 2, "the game went on"
    assert {p["name"]: p["joined_round"] for p in record["players"]}["Zed"] == 2
    assert {p["name"]: p["left_round"] for p in record["players"]}["Hal"] == 2
    # Each game is embedded exactly as the game's own download writes it.
    key = links_of(client.get(f"{night}/rounds/1").get_data(as_text=True))[0]
    assert client.get(f"/games/{key}/record.json").get_json() in [
        g for t in first["tables"] for g in t["games"]
    ]
    other = new_club(client, "New club")
    imported = import_into(client, other, json.dumps(record))
    assert re.fullmatch(rf"{other}/nights/\d+", imported)
    assert standings_csv(client, imported) == standings_csv(client, night)
    for number in (1, 2):
        was = tables_of(client.get(f"{night}/rounds/{number}").get_data(as_text=True))
        now = tables_of(client.get(f"{imported}/rounds/{number}").get_data(as_text=True))
        assert now == was
    # The imported night exports the same night again (its games' times kept).
    again = export(client, imported)
    assert again["rounds"] == record["rounds"] and again["standings"] == record["standings"]
    # The imported tables are the new club's games, playable: round 2 goes on.
    round2 = client.get(f"{imported}/rounds/2").get_data(as_text=True)
    assert len(links_of(round2)) == 4
    assert "Zed" in client.get(other).get_data(as_text=True)


def _refused(app: Flask, client: FlaskClient, club: str, body: bytes | str, words: str) -> None:
    before = _nights(app)
    page = import_into(client, club, body, expect=422)
    assert "data-night-import-refused" in page
    assert words in page.replace("&#39;", "'").replace("&quot;", '"'), page[-3000:]
    assert "nothing was imported." in page.lower()
    assert _nights(app) == before


def test_bad_night_records_are_refused_and_nothing_is_stored(
    app: Flask, client: FlaskClient
) -> None:
    _club, night = run_night(client)
    record = export(client, night)
    other = new_club(client, "New club")

    def changed(change: Any) -> str:
        copy = json.loads(json.dumps(record))
        change(copy)
        return json.dumps(copy)

    _refused(app, client, other, b"{not json", "is not JSON")
    _refused(app, client, other, b"[1, 2]", "is not a JSON object")
    _refused(
        app,
        client,
        other,
        changed(lambda r: r.update(format="all-fives-night/2")),
        "its format is all-fives-night/2, not all-fives-night/1",
    )
    _refused(app, client, other, changed(lambda r: r.update(format="all-fives/1")), "all-fives/1")

    def bad_tile(r: dict[str, Any]) -> None:
        game = r["rounds"][0]["tables"][0]["games"][0]
        game["hands"][0]["events"][0]["tile"] = "7-7"

    _refused(app, client, other, changed(bad_tile), "Round 1, table 1, game 1")

    def twice(r: dict[str, Any]) -> None:
        tables = r["rounds"][1]["seats"]["tables"]
        tables[1][0] = tables[0][0]

    _refused(app, client, other, changed(twice), "seats ")
    assert "twice" in import_into(client, other, changed(twice), expect=422)

    def more_points(r: dict[str, Any]) -> None:
        r["standings"][2]["points_for"] += 5

    _refused(app, client, other, changed(more_points), "Standings line 3 (")

    def stranger(r: dict[str, Any]) -> None:
        r["rounds"][0]["seats"]["tables"][0][0] = "Nobody"

    _refused(app, client, other, changed(stranger), "Nobody, who is not a player")
    _refused(
        app,
        client,
        other,
        changed(lambda r: r["settings"]["options"].update(target=[1])),
        "The night's house rules cannot be played",
    )
    _refused(app, client, other, changed(lambda r: r["standings"].pop()), "standings have 8 lines")

    def moved(r: dict[str, Any]) -> None:
        r["rounds"][0]["tables"][0]["games"][0]["players"].reverse()

    _refused(app, client, other, changed(moved), "Round 1, table 1, game 1 is played by other")
    _refused(app, client, other, b"", "Choose a night record file")
    assert _nights(app) == 1


def test_a_night_record_too_big_is_refused_not_a_500(app: Flask, client: FlaskClient) -> None:
    club = new_club(client)
    body = b'{"format": "all-fives-night/1", "pad": "' + b"x" * IMPORT_BODY + b'"}'
    response = post_file(client, club, body)
    assert response.status_code == 413
    assert "larger than" in response.get_data(as_text=True)
    assert _nights(app) == 0


def test_the_import_needs_the_clubs_edit_link(client: FlaskClient) -> None:
    club = new_club(client)
    page = client.get(club).get_data(as_text=True)
    assert f'href="{club}/nights/import" data-club-import-night' in page
    watch = re.search(r'value="http://localhost(/clubs/watch/[A-Za-z0-9_-]{22})"', page)
    assert watch is not None
    assert client.get(f"{watch.group(1)}/nights/import").status_code in (403, 404)


def test_the_nights_command_lists_exports_and_imports(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Any
) -> None:
    _club, night = run_night(client)
    night_id = int(night.rsplit("/", 1)[1])
    listed = runner.invoke(args=["nights"])
    assert listed.exit_code == 0, listed.output
    line = next(x for x in listed.output.splitlines() if x.strip().startswith(str(night_id)))
    assert "Old club" in line and "2 of 2 rounds" in line and "9 players" in line
    assert "round 2 playing" in line
    assert listed.output.rstrip().endswith("1 night.")
    mine = runner.invoke(args=["nights", "--club", "old CLUB"])
    assert mine.exit_code == 0 and "Old club" in mine.output
    none = runner.invoke(args=["nights", "--club", "No such club"])
    assert none.exit_code != 0 and "no club is named" in none.output
    printed = runner.invoke(args=["nights", "export", str(night_id)])
    assert printed.exit_code == 0, printed.output
    assert json.loads(printed.output) == export(client, night)
    target = tmp_path / "night.json"
    written = runner.invoke(args=["nights", "export", str(night_id), "-o", str(target)])
    assert written.exit_code == 0, written.output
    assert json.loads(target.read_text("utf-8")) == export(client, night)
    missing = runner.invoke(args=["nights", "export", "999"])
    assert missing.exit_code != 0 and "There is no night 999" in missing.output
    new_club(client, "Other club")
    imported = runner.invoke(args=["nights", "import", str(target), "--club", "Other club"])
    assert imported.exit_code == 0, imported.output
    assert "Imported night" in imported.output
    assert _nights(app) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{}", "utf-8")
    refused = runner.invoke(args=["nights", "import", str(bad), "--club", "Other club"])
    assert refused.exit_code != 0 and "Nothing was imported." in refused.output
    assert _nights(app) == 2
