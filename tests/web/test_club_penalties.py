"""Penalties a club agrees once (its page, edit link only), tapped on the play screen of its games:
an ordinary adjustment (docs/rules.md 8c) with the amount and the reason filled in, in the log,
the sheet and the record as any adjustment; bad settings said clearly, nothing stored."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import ClubPenaltyRow, ClubRow
from tests.web.test_clubs import new_club, watch_link
from tests.web.webtable import Table, import_record, started, without_times

DATA = Path(__file__).resolve().parents[1] / "data"


def agree(client: FlaskClient, club: str, name: str, amount: str) -> str:
    """Post the club page's "Agree a penalty" form; the settings' words after the redirect."""
    response = client.post(f"{club}/penalties", data={"name": name, "amount": amount})
    assert response.status_code == 303
    assert response.headers["Location"].endswith("#settings")
    return said(client.get(club).get_data(as_text=True))


def said(page: str) -> str:
    return " ".join(unescape(t) for t in re.findall(r"data-settings-said>([^<]*)<", page))


def stored(app: Flask) -> list[tuple[str, int]]:
    with app.app_context():
        rows = db.session.scalars(select(ClubPenaltyRow).order_by(ClubPenaltyRow.id)).all()
        return [(row.name, row.amount) for row in rows]


def penalty_ids(page: str) -> dict[str, str]:
    """The play screen's penalty buttons: {name: the id it sends}."""
    return {
        unescape(name): value
        for value, name in re.findall(r'name="penalty" value="(\d+)" data-penalty="([^"]+)"', page)
    }


def club_table(client: FlaskClient, club: str, table: Table) -> Table:
    """File ``table``'s game under the club (by its edit link)."""
    response = client.post(f"{club}/games", data={"link": table.url})
    assert response.status_code == 303
    return table


# -- the club's settings ----------------------------------------------------------------------


def test_a_club_agrees_penalties_edits_and_removes_them(app: Flask, client: FlaskClient):
    club = new_club(client)
    assert "No penalty agreed yet." in client.get(club).get_data(as_text=True)
    assert agree(client, club, " Drew and  could play ", "-30") == (
        "Penalty agreed: Drew and could play, -30."
    )
    agree(client, club, "Wrong tile count", "\u2212100")  # a phone's minus sign
    agree(client, club, "Passed and could play", "-30")
    assert stored(app) == [
        ("Drew and could play", -30),
        ("Wrong tile count", -100),
        ("Passed and could play", -30),
    ]
    page = client.get(club).get_data(as_text=True)
    assert re.findall(r'data-penalty-setting="([^"]+)"', page) == [
        "Drew and could play",
        "Wrong tile count",
        "Passed and could play",
    ]
    first = re.search(r'action="(/clubs/[^"]+/penalties/(\d+))" class="penalty-edit"', page)
    assert first is not None
    edited = client.post(first.group(1), data={"name": "Drew while able", "amount": "-50"})
    assert edited.status_code == 303
    assert said(client.get(club).get_data(as_text=True)) == "Penalty changed: Drew while able, -50."
    removed = client.post(f"{first.group(1)}/remove", data={})
    assert removed.status_code == 303
    assert said(client.get(club).get_data(as_text=True)) == "Penalty removed: Drew while able."
    assert stored(app) == [("Wrong tile count", -100), ("Passed and could play", -30)]


def test_bad_penalties_are_refused_with_a_clear_message_and_nothing_is_stored(
    app: Flask, client: FlaskClient
):
    club = new_club(client)
    agree(client, club, "Drew and could play", "-30")
    for name, amount, words in (
        ("", "-30", "Penalty: fill this in."),
        ("   ", "-30", "A penalty needs a name"),
        ("Misdeal", "", "Points: fill this in."),
        ("Misdeal", "-2.5", "a whole number of points, such as -30"),
        ("Misdeal", "thirty", "a whole number of points, such as -30"),
        ("Misdeal", "0", "cannot be 0"),
        ("Misdeal", "-33", "a multiple of 5 points"),
        ("Misdeal", "-5000", "at most 1000 points"),
        ("DREW AND COULD PLAY", "-50", "has a penalty called Drew and could play already"),
        ("Mis\x00deal", "-30", "control characters"),
        ("M" * 201, "-30", "Penalty:"),
    ):
        words_said = agree(client, club, name, amount)
        assert words in words_said and words_said.endswith("Nothing changed."), (name, words_said)
    assert stored(app) == [("Drew and could play", -30)]
    page = client.get(club).get_data(as_text=True)
    edit = re.search(r'action="(/clubs/[^"]+/penalties/\d+)" class="penalty-edit"', page)
    assert edit is not None
    client.post(edit.group(1), data={"name": "Drew and could play", "amount": "0"})
    assert "cannot be 0" in said(client.get(club).get_data(as_text=True))
    assert stored(app) == [("Drew and could play", -30)]


def test_the_settings_are_behind_the_edit_link_only(app: Flask, client: FlaskClient):
    club = new_club(client)
    agree(client, club, "Drew and could play", "-30")
    watch = watch_link(client, club)
    watched = client.get(watch).get_data(as_text=True)
    assert 'id="settings"' not in watched and "/penalties" not in watched
    watch_key = watch.rsplit("/", 1)[1]
    for path in ("penalties", "penalties/1", "penalties/1/remove", "ratings"):
        refused = client.post(f"/clubs/{watch_key}/{path}", data={"name": "X", "amount": "-5"})
        assert refused.status_code == 404
        assert "There is no club at this link." in unescape(refused.get_data(as_text=True))
        assert client.post(f"{watch}/{path}", data={"name": "X"}).status_code in (404, 405)
    assert stored(app) == [("Drew and could play", -30)]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(ClubRow)) == 1
        assert db.session.scalars(select(ClubRow)).one().rate_club_games is True


def test_another_clubs_penalty_cannot_be_edited_or_removed(app: Flask, client: FlaskClient):
    ours, theirs = new_club(client, "Ours"), new_club(client, "Theirs")
    agree(client, theirs, "Drew and could play", "-30")
    [(penalty_id,)] = re.findall(
        r"/penalties/(\d+)\" class=\"penalty-edit\"", client.get(theirs).get_data(as_text=True)
    )
    client.post(f"{ours}/penalties/{penalty_id}", data={"name": "Ours now", "amount": "-5"})
    assert "not one of this club's" in said(client.get(ours).get_data(as_text=True))
    client.post(f"{ours}/penalties/{penalty_id}/remove", data={})
    assert "not one of this club's" in said(client.get(ours).get_data(as_text=True))
    assert stored(app) == [("Drew and could play", -30)]


# -- on the play screen -----------------------------------------------------------------------


def test_a_penalty_is_one_tap_after_choosing_the_player_and_is_an_ordinary_adjustment(
    client: FlaskClient,
):
    club = new_club(client)
    agree(client, club, "Drew and could play", "-30")
    agree(client, club, "Wrong tile count", "-100")
    table = club_table(client, club, started(client))
    table.play("5-5")
    page = table.page()
    buttons = penalty_ids(page)
    assert list(buttons) == ["Drew and could play", "Wrong tile count"]
    assert re.findall(r'data-penalty-seat="([^"]+)"', page) == ["Ann", "Bob"]
    response = table.post("penalty", {"seat": "1", "penalty": buttons["Drew and could play"]})
    assert response.status_code == 303
    assert table.scores() == {"Ann": 10, "Bob": -30}
    record = without_times(client.get(f"{table.url}/record.json").get_json())
    assert record["hands"][0]["events"][-1] == {
        "player": "Bob",
        "adjust": -30,
        "reason": "Drew and could play",
    }
    log = unescape(client.get(f"{table.url}/log").get_data(as_text=True))
    assert "Drew and could play" in log
    sheet = client.get(f"{table.url}/sheet").get_data(as_text=True)
    assert re.search(r'data-adjusted="Bob"><span class="card-label">[^<]*</span>-30<', sheet)
    # Undo takes it back like any entry.
    table.post("undo", {})
    assert table.scores() == {"Ann": 10, "Bob": 0}


def test_a_penalty_without_a_player_or_gone_from_the_club_enters_nothing(
    client: FlaskClient,
):
    club = new_club(client)
    agree(client, club, "Drew and could play", "-30")
    table = club_table(client, club, started(client))
    table.play("5-5")
    version, button = table.version(), penalty_ids(table.page())["Drew and could play"]
    no_player = table.post("penalty", {"penalty": button})
    assert no_player.status_code == 422
    assert "Choose the player first" in unescape(no_player.get_data(as_text=True))
    page = client.get(club).get_data(as_text=True)
    remove = re.search(r'action="(/clubs/[^"]+/penalties/\d+)" class="penalty-edit"', page)
    assert remove is not None
    client.post(f"{remove.group(1)}/remove", data={})
    gone = table.post("penalty", {"seat": "0", "penalty": button})
    assert gone.status_code == 422
    assert "not one of the club's penalties any more" in unescape(gone.get_data(as_text=True))
    stale = table.post("penalty", {"seat": "0", "penalty": button}, version=version - 1)
    assert stale.status_code == 422  # the penalty is gone: said before the version
    assert table.version() == version and table.scores() == {"Ann": 10, "Bob": 0}


def test_a_stale_page_enters_no_penalty(client: FlaskClient):
    club = new_club(client)
    agree(client, club, "Drew and could play", "-30")
    table = club_table(client, club, started(client))
    table.play("5-5")
    button = penalty_ids(table.page())["Drew and could play"]
    old = table.version()
    table.post("draw", {})
    stale = table.post("penalty", {"seat": "0", "penalty": button}, version=old)
    assert stale.status_code == 409
    assert table.scores() == {"Ann": 10, "Bob": 0}


def test_penalties_follow_the_adjustment_rules(client: FlaskClient):
    """Not before hand 1 is led, between hands yes, in fives by the fifth, refused once won."""
    club = new_club(client)
    agree(client, club, "Drew and could play", "-30")
    from tests.web.webtable import new_game

    table = club_table(client, club, new_game(client, ["Ann", "Bob"]))
    assert penalty_ids(table.page()) == {}  # hand 1 not led: no score to adjust yet
    table.post("lead", {"how": "seat", "leader": "0"})
    button = penalty_ids(table.page())["Drew and could play"]
    before_won = json.loads((DATA / "hand_adjust_wins_immediate.json").read_text())
    won = club_table(client, club, import_record(client, before_won))
    page = won.page()
    assert 'id="winner"' in page and penalty_ids(page) == {}
    refused = won.post("penalty", {"seat": "0", "penalty": button})
    assert refused.status_code == 422
    assert 'data-rule="game-over"' in refused.get_data(as_text=True)
    assert "Nothing was entered." in refused.get_data(as_text=True)
    fives = club_table(client, club, started(client, units="fives"))
    fives.play("5-5")
    fives.post(
        "penalty", {"seat": "0", "penalty": penalty_ids(fives.page())["Drew and could play"]}
    )
    assert fives.scores() == {"Ann": -4, "Bob": 0}  # 2 for the 5-5, less 30 points (6 fives)


def test_games_outside_a_club_and_watchers_see_no_penalties(client: FlaskClient):
    club = new_club(client)
    agree(client, club, "Drew and could play", "-30")
    alone = started(client)
    alone.play("5-5")
    assert "data-penalty" not in alone.page() and 'id="penalties"' not in alone.page()
    button = "1"
    refused = alone.post("penalty", {"seat": "0", "penalty": button})
    assert refused.status_code == 422 and alone.scores() == {"Ann": 10, "Bob": 0}
    ours = club_table(client, club, started(client))
    ours.play("5-5")
    assert penalty_ids(ours.page())
    watched = client.get(ours.watch_url()).get_data(as_text=True)
    assert "data-penalty" not in watched
