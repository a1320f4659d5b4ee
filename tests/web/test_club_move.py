"""A club moved to another server by its export is the same club: its roster (players who
never played too), the house rules its new games start with, its games with when they were
played, its standings and charts.

The club is built here with house rules of its own (ticked on the new-game form), finished
games spread over days (their records carry times, as an export from another server does),
games still in play, an adjustment, and a player on the roster who has not played; it is
exported, imported into a new club on a new app with
a database of its own, and the two clubs' pages are compared with only their links' keys
told apart. The first club is on the ``app`` fixture's database (PostgreSQL when
SCOREKEEPER_TEST_DATABASE_URL names one), the second on a new SQLite file.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_clubs import (
    NEW_GAME,
    import_into,
    new_club,
    simulated_records,
    stats_on,
    watch_link,
)
from tests.web.test_record_times import corpus, finished, timed
from tests.web.webforms import read_forms
from tests.web.webtable import LEGAL, without_times

KEY = re.compile(r"[A-Za-z0-9_-]{22}")
TOKEN = re.compile(r'("X-CSRFToken": |name="csrf_token" value=)"[^"]*"')
"""The page's form token (signed with each server's own secret)."""
ROW_ID = re.compile(r'(name="player" value="|id="rename-|for="rename-|<option value=")\d+')
"""A roster player's row id in the roster's forms (a server's own numbering, like a key)."""
FIRST_DAY = datetime(2025, 9, 1, 19, 0, tzinfo=UTC)
HOUSE_RULES = dict(
    NEW_GAME,
    player1="Ann",
    player2="Bob",
    preset="fives-up",
    filled="fives-up:2",
    settlement="winner-collects",
    lead="draw-highest",
    target="61",
    units="fives",
    exact_target="yes",
    club_defaults="y",
)
"""A new game of Ann and Bob that makes its house rules the club's for its next games."""
FIVES_UP_61 = "fives-up with bonus_in_fives no, target 61, units fives, exact_target yes"
"""How the club page names those house rules."""


def season() -> list[dict[str, Any]]:
    """Finished games of Ann, Bob, Cy and Di, one every few days, 19:00 on, each entry a
    minute after the one before; the last written with a +02:00 offset; then Ann and Bob's
    game with an adjustment, and a game still in play. Oldest first."""
    records = []
    for number, record in enumerate(simulated_records(range(9))):
        start = FIRST_DAY + timedelta(days=3 * number, minutes=7 * number)
        records.append(finished(timed(record, start, timedelta(minutes=1))))
    shifted = records[-1]  # written where clocks are two hours ahead of UTC
    shifted["started"] = (
        datetime.fromisoformat(shifted["started"]).astimezone(timezone(timedelta(hours=2)))
    ).isoformat()
    moment = datetime.fromisoformat(records[-1]["finished"]) + timedelta(days=1)
    records.append(
        finished(timed(corpus("hand_adjust_wins_end_of_hand"), moment, timedelta(seconds=30)))
    )
    records.append(timed(LEGAL, moment + timedelta(days=1), timedelta(seconds=20)))
    return records


def pages(client: FlaskClient, club: str) -> dict[str, str]:
    """What the club shows, behind both links: its page (standings, charts, the latest
    games, its house rules), every game, the roster, the new-game form (filled with its
    house rules), the CSV and the export itself; keys made alike."""
    client.get(club)  # what the import flashed is shown once
    watch = watch_link(client, club)
    shown = {
        "club": client.get(club).get_data(as_text=True),
        "watch": client.get(watch).get_data(as_text=True),
        "all games": client.get(f"{club}?games=all").get_data(as_text=True),
        "players": client.get(f"{club}/players").get_data(as_text=True),
        "new game": client.get(f"{club}/new").get_data(as_text=True),
        "csv": client.get(f"{club}/games.csv").get_data(as_text=True),
        "jsonl": client.get(f"{club}/games.jsonl").get_data(as_text=True),
    }
    return {
        name: ROW_ID.sub(r"\1ID", KEY.sub("KEY", TOKEN.sub(r"\1TOKEN", page)))
        for name, page in shown.items()
    }


def test_a_club_moved_by_export_and_import_is_the_same_club(
    client: FlaskClient, make_app: Callable[..., Flask]
):
    club = new_club(client, "Tuesday club")
    assert client.post(f"{club}/players/add", data={"name": "Zed"}).status_code == 303
    assert client.post(f"{club}/new", data=HOUSE_RULES).status_code == 303
    records = season()
    # The file lists the games newest first: the club orders them by when they were played.
    lines = "".join(json.dumps(record) + "\n" for record in reversed(records))
    assert import_into(client, club, lines).status_code == 303
    exported = client.get(f"{club}/games.jsonl").get_data()
    here = pages(client, club)

    other = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False).test_client()
    moved = new_club(other, "Tuesday club")
    assert import_into(other, moved, exported).status_code == 303
    told = notices(other.get(moved).get_data(as_text=True))[-1]  # after "Club created"
    there = pages(other, moved)

    for name in here:
        assert there[name] == here[name], name
    assert told == (
        f"Imported {len(records) + 1} games into Tuesday club. 5 players joined the roster. "
        f"New games of the club start with: {FIVES_UP_61}."
    )
    # What the comparison stands on: the roster, the house rules, the standings, the charts
    # and the dates.
    roster = json.loads(here["jsonl"].splitlines()[0])
    assert roster == {
        "format": "all-fives-club/1",
        "roster": ["Ann", "Bob", "Cy", "Di", "Zed"],
        "defaults": {
            "preset": "fives-up",
            "options": {
                "bonus_in_fives": "no",
                "target": 61,
                "units": "fives",
                "exact_target": "yes",
            },
        },
    }
    assert f"New games of the club start with: {FIVES_UP_61}." in here["club"]
    form = {found.action: found for found in read_forms(here["new game"])}
    filled = form[KEY.sub("KEY", club) + "/new"].values
    assert (filled["preset"], filled["target"], filled["units"]) == ("fives-up", "61", "fives")
    assert filled["club_defaults"] == "y"
    assert "Zed" in here["players"]
    assert len(stats_on(here["club"])) == 4  # Zed has played no game
    assert 'id="wins-over-time"' in here["club"]
    days = re.findall(
        r'<time datetime="(\d{4}-\d{2}-\d{2})T[^"]*" data-local="date">', here["all games"]
    )
    played_on = [utc_day(record["started"]) for record in records]
    # Newest first, each on its own day: the game started on the form today, then the file's.
    assert days == [datetime.now(UTC).date().isoformat(), *sorted(played_on, reverse=True)]
    assert played_on[0] == "2025-09-01" and len(set(played_on)) == len(records)
    assert all(day in here["csv"] for day in played_on[:-2])  # the finished games' hands
    exported_games = [json.loads(line) for line in here["jsonl"].splitlines()[1:]]
    assert [game["started"] for game in exported_games[:-1]] == [
        utc_time(record["started"]) for record in records
    ]
    assert records[-3]["started"].endswith("+02:00")


NOTICE = re.compile(r'<p class="notice notice-info" role="status">(.*?)</p>')


def notices(page: str) -> list[str]:
    """The notices a page shows (what the last import did, once)."""
    return NOTICE.findall(page)


def utc_time(text: str) -> str:
    return datetime.fromisoformat(text).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def utc_day(text: str) -> str:
    return utc_time(text)[:10]


def test_a_club_export_of_records_alone_still_imports(client: FlaskClient):
    """An export from before the roster line (records, no times) imports as it always did:
    the games, played at the import, and their players on the roster."""
    club = new_club(client)
    records = simulated_records(range(3))
    assert (
        import_into(client, club, "".join(json.dumps(r) + "\n" for r in records)).status_code == 303
    )
    roster = json.loads(client.get(f"{club}/games.jsonl").get_data(as_text=True).splitlines()[0])
    assert roster["roster"] == sorted({name for r in records for name in r["players"]})


def test_a_roster_line_alone_puts_its_players_on_the_roster(client: FlaskClient):
    club = new_club(client)
    client.post(f"{club}/players/add", data={"name": "Ann"})
    line = json.dumps({"format": "all-fives-club/1", "roster": ["ann", "Zed", " Yve "]})
    assert import_into(client, club, line + "\n").status_code == 303
    roster = json.loads(client.get(f"{club}/games.jsonl").get_data(as_text=True))
    assert roster["roster"] == ["Ann", "Yve", "Zed"]  # Ann as the club spells her


def test_a_malformed_roster_line_is_refused_with_its_line_and_nothing_is_imported(
    client: FlaskClient,
):
    club = new_club(client)
    game = json.dumps(simulated_records(range(1))[0])
    for roster in (
        {"format": "all-fives-club/1", "roster": "Ann"},
        {"format": "all-fives-club/1", "roster": ["Ann", 7]},
        {"format": "all-fives-club/1", "roster": ["  "]},
        {"format": "all-fives-club/1", "roster": ["Ann"], "name": "Tuesday club"},
        {"format": "all-fives-club/1", "roster": ["A\tB"]},
    ):
        refused = import_into(client, club, f"{game}\n{json.dumps(roster)}\n")
        assert refused.status_code == 422
        page = refused.get_data(as_text=True)
        assert "<strong data-batch-where>line 2</strong>" in page and "Nothing was imported" in page
    exported = client.get(f"{club}/games.jsonl").get_data(as_text=True)
    assert exported == '{"format":"all-fives-club/1","roster":[]}\n'


def test_a_roster_line_over_the_roster_limit_is_refused(client: FlaskClient):
    club = new_club(client)
    names = [f"Player {number}" for number in range(501)]
    line = json.dumps({"format": "all-fives-club/1", "roster": names})
    refused = import_into(client, club, line)
    assert refused.status_code == 422 and "The roster is full" in refused.get_data(as_text=True)
    exported = client.get(f"{club}/games.jsonl").get_data(as_text=True)
    assert exported == '{"format":"all-fives-club/1","roster":[]}\n'


def test_the_wins_chart_follows_when_games_were_played_not_the_file(client: FlaskClient):
    """The same games, one club given them in the order played (no times), the other in
    reverse with their times: the same standings, the same chart."""
    records = [
        finished(timed(r, FIRST_DAY + timedelta(days=n), timedelta(minutes=1)))
        for n, r in enumerate(simulated_records(range(6)))
    ]
    bare = new_club(client, "In order")
    plain = [without_times(r) for r in records]
    import_into(client, bare, "".join(json.dumps(r) + "\n" for r in plain))
    kept = new_club(client, "With times")
    import_into(client, kept, "".join(json.dumps(r) + "\n" for r in reversed(records)))

    def chart(club: str) -> str:
        page = client.get(club).get_data(as_text=True)
        start = page.index('<section id="wins-over-time"')
        return page[start : page.index("</section>", start)]

    assert chart(kept) == chart(bare)
    assert stats_on(client.get(kept).get_data(as_text=True)) == stats_on(
        client.get(bare).get_data(as_text=True)
    )


def test_a_game_is_the_same_game_whatever_its_times(client: FlaskClient):
    """The club's own export sent back to it is refused game by game: times are no part of
    what makes a game the same (nor are they on importing a record without them)."""
    club = new_club(client)
    records = season()
    import_into(client, club, "".join(json.dumps(r) + "\n" for r in records))
    before = client.get(f"{club}/games.jsonl").get_data(as_text=True)
    again = import_into(client, club, before)
    assert again.status_code == 422 and "it is in the club already" in again.text
    assert "<strong data-batch-where>line 2</strong>" in again.text  # line 1: the roster
    untimed = import_into(client, club, json.dumps(without_times(records[0])))
    assert untimed.status_code == 422 and "it is in the club already" in untimed.text
    assert client.get(f"{club}/games.jsonl").get_data(as_text=True) == before


def test_a_malformed_time_in_a_batch_is_refused_with_its_line(client: FlaskClient):
    club = new_club(client)
    records = season()
    records[1]["hands"][0]["events"][0]["at"] = "2025-09-04T19:01:00Z" * 40_000
    refused = import_into(client, club, "".join(json.dumps(r) + "\n" for r in records))
    assert refused.status_code == 422
    assert "<strong data-batch-where>line 2</strong>" in refused.text
    assert 'data-rule="record"' in refused.text and len(refused.text) < 100_000
    exported = client.get(f"{club}/games.jsonl").get_data(as_text=True)
    assert exported == '{"format":"all-fives-club/1","roster":[]}\n'


def roster_line(defaults: object, names: tuple[str, ...] = ()) -> str:
    return json.dumps({"format": "all-fives-club/1", "roster": list(names), "defaults": defaults})


def test_a_roster_lines_house_rules_become_a_new_clubs(client: FlaskClient):
    """Written as a record writes its preset and options (``true`` for ``yes`` too), they
    are the club's as if ticked on its new-game form; a second roster line's are not
    taken (a batch gives a club one set of house rules: the first)."""
    club = new_club(client)
    given = {"preset": "totally-fives", "options": {"muggins": True, "target": 150}}
    later = {"preset": "fives-up"}
    answer = import_into(client, club, f"{roster_line(given)}\n{roster_line(later, ('Ann',))}\n")
    assert answer.status_code == 303
    page = client.get(club).get_data(as_text=True)
    rules = "totally-fives with muggins yes, target 150"
    assert notices(page)[-1] == (
        "Added 1 player to the roster of Tuesday club; there were no games to import. "
        f"New games of the club start with: {rules}."
    )
    assert f"New games of the club start with: {rules}." in page
    form = {found.action: found for found in read_forms(client.get(f"{club}/new").text)}
    filled = form[f"{club}/new"].values
    assert (filled["preset"], filled["muggins"], filled["target"]) == (
        "totally-fives",
        "yes",
        "150",
    )
    exported = json.loads(client.get(f"{club}/games.jsonl").text.splitlines()[0])
    assert exported["defaults"] == {
        "preset": "totally-fives",
        "options": {"muggins": "yes", "target": 150},
    }


def test_a_club_with_house_rules_of_its_own_keeps_them_on_import(client: FlaskClient):
    """Someone at this club chose its house rules here: a file brings games and players,
    and says the club keeps its own. The same house rules as the club's say nothing."""
    club = new_club(client)
    assert client.post(f"{club}/new", data=HOUSE_RULES).status_code == 303
    before = json.loads(client.get(f"{club}/games.jsonl").text.splitlines()[0])["defaults"]
    answer = import_into(client, club, roster_line({"preset": "totally-fives"}, ("Cy",)) + "\n")
    assert answer.status_code == 303
    page = client.get(club).get_data(as_text=True)
    assert notices(page)[-1] == (
        "Added 1 player to the roster of Tuesday club; there were no games to import. "
        f"New games of the club still start with its own house rules: {FIVES_UP_61}."
    )
    assert f"New games of the club start with: {FIVES_UP_61}." in page
    after = json.loads(client.get(f"{club}/games.jsonl").text.splitlines()[0])["defaults"]
    assert after == before
    import_into(client, club, roster_line(before) + "\n")
    assert notices(client.get(club).text)[-1] == (
        "There were no games to import, and every player named is on the roster of "
        "Tuesday club already."
    )


@pytest.mark.parametrize(
    ("defaults", "why"),
    [
        ("fives-up", '"defaults" gives the preset and the house rules'),
        ({"preset": "fives-up", "name": "Tuesday club"}, '"defaults" gives the preset'),
        ({"preset": "five-up"}, "The preset is one of"),
        ({"preset": None}, "The preset is one of"),
        ({"options": None}, "options is an object of house rules"),
        ({"options": {"colour": "red"}}, "There is no house rule"),
        ({"options": {"target": "lots"}}, "House rule target takes a whole number"),
        ({"partners": "yes"}, "partners is true or false"),
        ({"partners": None}, "partners is true or false"),
        (
            {"partners": True, "options": {"blocked_tie": "split"}},
            "only for games without partners",
        ),
    ],
)
def test_malformed_house_rules_on_a_roster_line_are_refused_and_change_nothing(
    client: FlaskClient, defaults: object, why: str
):
    club = new_club(client)
    game = json.dumps(simulated_records(range(1))[0])
    refused = import_into(client, club, f"{game}\n{roster_line(defaults, ('Zed',))}\n")
    assert refused.status_code == 422
    page = html.unescape(refused.get_data(as_text=True))
    assert "<strong data-batch-where>line 2</strong>" in page and "Nothing was imported" in page
    assert why in page
    assert "data-club-defaults" not in client.get(club).text
    exported = client.get(f"{club}/games.jsonl").get_data(as_text=True)
    assert exported == '{"format":"all-fives-club/1","roster":[]}\n'


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        (
            "en",
            "Added 1 player to the roster of Tuesday club; there were no games to import.",
            "Added 2 players to the roster of Tuesday club; there were no games to import.",
        ),
        (
            "sv",
            "Lade till 1 spelare i spelarlistan för Tuesday club; det fanns inga partier att "
            "importera.",
            "Lade till 2 spelare i spelarlistan för Tuesday club; det fanns inga partier att "
            "importera.",
        ),
        (
            "fil",
            "Naidagdag ang 1 manlalaro sa listahan ng Tuesday club; walang larong ma-import.",
            "Naidagdag ang 2 manlalaro sa listahan ng Tuesday club; walang larong ma-import.",
        ),
    ],
)
def test_an_import_of_players_alone_says_so_in_each_language(
    client: FlaskClient, language: str, one: str, two: str
):
    """Not "Imported 0 games": how many players joined, and that there were no games."""
    club = new_club(client)
    client.get(f"/language/{language}?next=/")
    line = json.dumps({"format": "all-fives-club/1", "roster": ["Ann"]})
    assert import_into(client, club, line).status_code == 303
    assert notices(client.get(club).text)[-1] == one
    line = json.dumps({"format": "all-fives-club/1", "roster": ["ann", "Bob", "Cy"]})
    assert import_into(client, club, line).status_code == 303
    assert notices(client.get(club).text)[-1] == two


def test_an_import_says_how_many_games_came_and_players_joined(client: FlaskClient):
    club = new_club(client)
    first, *rest = simulated_records(range(6))
    assert len(first["players"]) == 2 and len(rest) >= 3
    import_into(client, club, json.dumps(first))
    assert notices(client.get(club).text)[-1] == (
        "Imported 1 game into Tuesday club. 2 players joined the roster."
    )
    everyone = sorted({name for record in rest for name in record["players"]})
    import_into(client, club, json.dumps({"format": "all-fives-club/1", "roster": everyone}))
    import_into(client, club, "".join(json.dumps(record) + "\n" for record in rest[:-1]))
    assert (
        notices(client.get(club).text)[-1] == f"Imported {len(rest) - 1} games into Tuesday club."
    )
    line = json.dumps({"format": "all-fives-club/1", "roster": ["Zed"]})
    import_into(client, club, f"{line}\n{json.dumps(rest[-1])}\n")
    assert notices(client.get(club).text)[-1] == (
        "Imported 1 game into Tuesday club. 1 player joined the roster."
    )


def test_a_club_export_as_large_as_a_batch_imports_its_roster_line_besides(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    """A batch holds up to MAX_RECORDS games (3 here): a club's export of that many games
    has its roster line too, and imports whole; one game more is refused, changing nothing."""
    from scorekeeper.web.clubs import batch

    monkeypatch.setattr(batch, "MAX_RECORDS", 3)
    records = simulated_records(range(4))
    assert len(records) == 4
    full = new_club(client, "Full")
    three = "".join(json.dumps(r) + "\n" for r in records[:3])
    assert import_into(client, full, three).status_code == 303
    exported = client.get(f"{full}/games.jsonl").get_data(as_text=True)
    assert len(exported.splitlines()) == 4
    moved = new_club(client, "Moved")
    assert import_into(client, moved, exported).status_code == 303
    assert client.get(f"{moved}/games.jsonl").get_data(as_text=True) == exported
    over = exported + json.dumps(records[3]) + "\n"
    for body in (over, "".join(json.dumps(r) + "\n" for r in records)):
        club = new_club(client, "Over")
        refused = import_into(client, club, body)
        assert refused.status_code == 422
        assert "it holds more than 3 records" in refused.get_data(as_text=True)
        assert (
            client.get(f"{club}/games.jsonl").text == '{"format":"all-fives-club/1","roster":[]}\n'
        )
