"""Clubs: two links, a roster matched by name, games started and imported into the club,
standings checked against a tally computed here from the records' replay output, rename and
merge, the facts cache agreeing with the events, and export that imports back unchanged."""

from __future__ import annotations

import html
import io
import json
import random
import re
import struct
import tracemalloc
import zipfile
from collections import defaultdict
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, text

from scorekeeper.rules import HOUSE_RULES, Setup
from scorekeeper.rules.record import replay_result, write_record
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.clubs.batch import BatchProblem, read_batch
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow
from tests.web.webforms import form_for, read_forms
from tests.web.webtable import as_exported, new_game, without_times

KEY = r"[A-Za-z0-9_-]{22}"
NEW_GAME = {
    "preset": "all-fives",
    "leader": "table",
    "start": "Start the game",
    "filled": "all-fives:2",
    # Every house rule as the form fills it for All Fives with two players (the registry's).
    **{rule.name: str(rule.default("all-fives", 2)) for rule in HOUSE_RULES},
}
"""The new-game form as sent for two players (the seats are added) with All Fives' rules."""


def new_club(client: FlaskClient, name: str = "Tuesday club") -> str:
    """Create a club; its edit link's path."""
    created = client.post("/clubs/new", data={"name": name})
    assert created.status_code == 303
    path = created.headers["Location"]
    assert re.fullmatch(rf"/clubs/{KEY}", path)
    return path


def watch_link(client: FlaskClient, club: str) -> str:
    page = client.get(club).get_data(as_text=True)
    found = re.search(rf'value="http://localhost(/clubs/watch/{KEY})"', page)
    assert found is not None
    return found.group(1)


def simulated_records(
    seeds: range, names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Di")
) -> list[dict[str, Any]]:
    """Finished games of 2, 3 and 4 of ``names``: the presets, partnerships and units vary.

    Four players play as partners in fives-up and totally-fives (the simulated table's
    deduct-own partnerships rarely finish); a seed whose game is not won is left out. Each
    call has records of its own to change (the games are simulated once per process).
    """
    return json.loads(_simulated(seeds, names))


@cache
def _simulated(seeds: range, names: tuple[str, ...]) -> str:
    records = []
    for seed in seeds:
        rng = random.Random(seed)
        count = 2 + seed % 3
        players = rng.sample(names, count)
        preset = ("all-fives", "fives-up", "totally-fives")[seed // 3 % 3]
        options: dict[str, object] = {"units": "fives"} if seed % 5 == 4 else {}
        partners = None if count != 4 else preset != "all-fives"
        game = play_game(Setup.create(players, preset, options, partners), rng, 60)
        if game.winner is not None:
            # As an export writes them: every house rule named (nothing to confirm).
            records.append(write_record(game, every_rule=True))
    return json.dumps(records)


def jsonl(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def import_into(
    client: FlaskClient,
    club: str,
    body: str | bytes,
    filename: str = "games.jsonl",
    confirm: bool = True,
):
    """Import ``body`` into ``club`` as an uploaded file; when the page lists house rules
    its records leave out, import from there too (unless not ``confirm``)."""
    data = body.encode() if isinstance(body, str) else body
    answer = client.post(
        f"{club}/import",
        data={"records": (io.BytesIO(data), filename)},
        content_type="multipart/form-data",
    )
    return confirm_left_out(client, club, answer) if confirm else answer


def confirm_left_out(client: FlaskClient, club: str, answer: Any) -> Any:
    """After a club import whose records leave house rules out, the page listing them:
    import from it with the values it shows; any other answer as it is."""
    page = answer.get_data(as_text=True)
    if answer.status_code != 200 or "data-left-out" not in page:
        return answer
    return client.post(f"{club}/import", data=form_for(page, "/import").data())


def stats_on(page: str) -> dict[str, dict[str, str]]:
    """Each standings row's ``data-stat`` cells: {player: {stat: text}} ({} without a table)."""
    if 'data-standings="players"' not in page:
        return {}
    table = page[page.index('data-standings="players"') :]
    table = table[: table.index("</table>")]
    rows: dict[str, dict[str, str]] = {}
    for player, body in re.findall(r'<tr data-player="([^"]+)">(.*?)</tr>', table, re.S):
        cells = re.findall(r'data-stat="([^"]+)">([^<]*)<', body)
        rows[player] = dict(cells)
    return rows


def row_order(page: str) -> list[str]:
    table = page[page.index('data-standings="players"') :]
    return re.findall(r'<tr data-player="([^"]+)">', table[: table.index("</table>")])


# -- an independent tally ---------------------------------------------------------------------


def _pips(held: object) -> int:
    if isinstance(held, int):
        return held
    assert isinstance(held, list)
    return sum(int(half) for tile in held for half in re.split(r"[-|]", tile))


def expected_standings(records: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """The standings computed from each record's replay output and its settlements, without
    the app's facts: what every ``data-stat`` cell must say."""
    tally: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for record in records:
        result = replay_result(_game(record))
        players = record["players"]
        partners = record.get("partners", len(players) == 4 and record["preset"] == "all-fives")
        fives = record.get("options", {}).get("units") == "fives"
        side_of = {p: (i % 2 if partners else i) for i, p in enumerate(players)}
        winner_side = result["sides"].index(result["winner"])
        for player in players:
            t = tally[player]
            t["games"] += 1
            t["wins"] += side_of[player] == winner_side
            t["hands"] += len(result["hands"])
        for hand, recorded in zip(result["hands"], record["hands"], strict=True):
            for play in hand["plays"]:
                gained = play["points"] * (5 if fives else 1)
                t = tally[play["player"]]
                t["points"] += gained
                t["best-play"] = max(t["best-play"], gained)
            if hand["result"] == "domino":
                tally[hand["plays"][-1]["player"]]["dominoes"] += 1
            remaining = recorded.get("remaining")
            if hand.get("settlement") is not None and remaining is not None:
                held = {p: _pips(remaining.get(p, 0)) for p in players}
                for p in players:
                    tally[p]["settled"] += 1
                    tally[p]["pips"] += held[p]
                if hand["result"] == "blocked":
                    least = min(held.values())
                    fewest = [p for p in players if held[p] == least]
                    if len(fewest) == 1:
                        tally[fewest[0]]["blocked-won"] += 1

    def tenth(total: int, count: int) -> str:
        return str(round(total / count + 1e-9, 1)) if count else "0.0"

    return {
        player: {
            "player": player,
            "games": str(t["games"]),
            "wins": str(t["wins"]),
            "win-rate": str(int(100 * t["wins"] / t["games"] + 0.5)),
            "points": str(t["points"]),
            "best-play": str(t["best-play"]),
            "dominoes": str(t["dominoes"]),
            "hands": str(t["hands"]),
            "points-per-hand": tenth(t["points"], t["hands"]),
            "pips-left": tenth(t["pips"], t["settled"]),
            "blocked-won": str(t["blocked-won"]),
        }
        for player, t in tally.items()
    }


def _game(record: dict[str, Any]):
    from scorekeeper.rules.record import read_record

    return read_record(json.loads(json.dumps(record)))


# -- two links --------------------------------------------------------------------------------


def test_a_club_has_an_edit_link_and_a_watch_link_that_changes_nothing(client: FlaskClient):
    club = new_club(client, "Family")
    page = client.get(club).get_data(as_text=True)
    assert "<h1 data-club>Family</h1>" in page and "data-club-new-game" in page
    watch = watch_link(client, club)
    watched = client.get(watch).get_data(as_text=True)
    assert "<h1 data-club>Family</h1>" in watched
    assert (
        "data-club-new-game" not in watched and club not in watched
    )  # the edit key is not given away
    watch_key = watch.rsplit("/", 1)[1]
    for path in ("new", "import", "games", "players/rename", "players/merge"):
        assert client.post(f"/clubs/{watch_key}/{path}", data={"name": "X"}).status_code == 404
    assert client.post(watch, data={}).status_code == 404
    assert client.get("/clubs/" + "A" * 22).status_code == 404
    assert client.get("/clubs/watch/" + "A" * 22).status_code == 404
    assert client.get("/clubs/1").status_code == 404


def test_a_club_needs_a_name(client: FlaskClient):
    refused = client.post("/clubs/new", data={"name": "  "})
    assert refused.status_code == 422
    control = client.post("/clubs/new", data={"name": "a\x00b"})
    assert control.status_code == 422
    assert "A name cannot hold control characters" in control.get_data(as_text=True)
    # A club's name may be longer than a player's (80 characters, not 40), and is told so.
    assert client.post("/clubs/new", data={"name": "C" * 60}).status_code == 303
    long = html.unescape(client.post("/clubs/new", data={"name": "C" * 81}).get_data(as_text=True))
    assert "cannot be longer than 80 characters" in long and "A player's name" not in long


# -- the roster -------------------------------------------------------------------------------


def _start(client: FlaskClient, club: str, *names: str):
    data = dict(NEW_GAME)
    for seat, name in enumerate(names, 1):
        data[f"player{seat}"] = name
    return client.post(f"{club}/new", data=data)


def test_new_games_of_a_club_match_names_to_the_roster_ignoring_case_and_spaces(
    app: Flask, client: FlaskClient
):
    club = new_club(client)
    first = _start(client, club, "Ann", " bob ")
    assert first.status_code == 303 and first.headers["Location"].startswith("/games/")
    form = client.get(f"{club}/new").get_data(as_text=True)
    assert 'data-roster-name="Ann"' in form and 'data-roster-name="bob"' in form
    assert '<option value="Ann">' in form  # the seats suggest the roster without JavaScript
    second = _start(client, club, "ANN ", "Cy")
    assert second.status_code == 303
    table = client.get(second.headers["Location"]).get_data(as_text=True)
    assert 'data-side-score="Ann"' in table and 'data-side-score="Cy"' in table
    roster = client.get(f"{club}/players").get_data(as_text=True)
    assert re.findall(r'data-roster-player="([^"]+)"', roster) == ["Ann", "bob", "Cy"]
    with app.app_context():
        assert db.session.scalar(select(db.func.count()).select_from(GameRow)) == 2


def test_one_player_twice_in_a_club_game_is_refused_and_nothing_is_stored(
    app: Flask, client: FlaskClient
):
    club = new_club(client)
    refused = _start(client, club, "Ann", " ann")
    assert refused.status_code == 422
    assert "names must differ" in refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(db.func.count()).select_from(GameRow)) == 0
    assert "data-roster-player" not in client.get(f"{club}/players").get_data(as_text=True)


# -- games, import and standings ----------------------------------------------------------------


def test_standings_match_a_tally_of_the_records_in_every_cell(client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(12))
    assert len(records) >= 10
    imported = import_into(client, club, jsonl(records))
    assert imported.status_code == 303
    page = client.get(club).get_data(as_text=True)
    assert f"Imported {len(records)} games" in page
    assert stats_on(page) == expected_standings(records)
    assert len(re.findall(r"data-club-game=", page)) == len(records)


def test_standings_sort_by_any_column_with_links(client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(9))
    import_into(client, club, jsonl(records))
    expected = expected_standings(records)
    page = client.get(club).get_data(as_text=True)
    assert 'href="' + club + '?sort=points#standings"' in page
    for stat in ("points", "games", "best-play", "pips-left"):
        ordered = row_order(client.get(f"{club}?sort={stat}").get_data(as_text=True))
        values = [float(expected[name][stat]) for name in ordered]
        assert values == sorted(values, reverse=True), stat
    by_name = row_order(client.get(f"{club}?sort=player").get_data(as_text=True))
    assert by_name == sorted(by_name, key=str.casefold)
    assert client.get(f"{club}?sort=<script>").status_code == 200


def test_partnerships_and_head_to_head(client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(15))
    import_into(client, club, jsonl(records))
    page = client.get(club).get_data(as_text=True)
    pairs: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    heads: dict[tuple[str, str], int] = defaultdict(int)
    for record in records:
        result = replay_result(_game(record))
        players = record["players"]
        if len(result["sides"]) == 2 and len(players) == 4:
            for side in result["sides"]:
                a, b = side.split(" & ")
                pair = " & ".join(sorted((a, b), key=str.casefold))
                pairs[pair][0] += 1
                pairs[pair][1] += side == result["winner"]
        if len(players) == 2:
            loser = next(p for p in players if p != result["winner"])
            heads[(result["winner"], loser)] += 1
    assert pairs, "the seeds include partnership games"
    for pair, (games, wins) in pairs.items():
        row = re.search(rf'<tr data-pair="{re.escape(html.escape(pair))}">(.*?)</tr>', page, re.S)
        assert row is not None, pair
        cells = dict(re.findall(r'data-stat="([^"]+)">([^<]*)<', row.group(1)))
        assert (cells["games"], cells["wins"]) == (str(games), str(wins))
    assert heads
    for (winner, loser), wins in heads.items():
        assert f'data-winner="{winner}" data-loser="{loser}">{wins}<' in page


def test_a_batch_with_a_bad_record_imports_nothing_and_says_which(app: Flask, client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(4))
    lines = jsonl(records).splitlines()
    broken = json.loads(lines[2])
    broken["hands"][0]["events"][1]["play"] = "7-7"
    lines[2] = json.dumps(broken)
    refused = import_into(client, club, "\n".join(lines))
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "<strong data-batch-where>line 3</strong>" in page and 'data-rule="record"' in page
    assert "Nothing was imported" in page
    with app.app_context():
        assert db.session.scalar(select(db.func.count()).select_from(GameRow)) == 0
    not_json = import_into(client, club, "{\nnot json")
    assert not_json.status_code == 422
    assert import_into(client, club, b"PK\x03\x04broken", "games.zip").status_code == 422


def test_a_zip_of_records_imports_all_its_games(client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(3))
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        for number, record in enumerate(records):
            archive.writestr(f"games/{number}.json", json.dumps(record, indent=2))
        archive.writestr("README.txt", "not a record")
    assert import_into(client, club, packed.getvalue(), "games.zip").status_code == 303
    assert len(re.findall(r"data-club-game=", client.get(club).get_data(as_text=True))) == 3


def zip_bomb(inflates_to: int, claims: int = 100) -> bytes:
    """A zip of one record that inflates to ``inflates_to`` bytes while its headers (the
    local one and the central directory's) claim ``claims``."""
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.json", b"{" + b" " * (inflates_to - 2) + b"}")
    data = bytearray(packed.getvalue())
    struct.pack_into("<I", data, 22, claims)  # the local header's uncompressed size
    central = data.rindex(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, claims)
    return bytes(data)


def test_a_zip_bomb_is_refused_without_inflating_it(client: FlaskClient):
    """A 64 MB record in a zip of some 64 KB whose headers claim 100 bytes: reading it whole
    held every inflated byte before the claimed size cut it short. It is refused, unpacking
    at most a step at a time."""
    bomb = zip_bomb(64 * 1024 * 1024)
    assert len(bomb) < 200_000
    tracemalloc.start()
    try:
        with pytest.raises(BatchProblem, match="cannot be unpacked"):
            read_batch(bomb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024, f"{peak / 1e6:.1f} MB held"
    club = new_club(client)
    refused = import_into(client, club, bomb, "games.zip")
    assert refused.status_code == 422 and "bomb.json" in refused.get_data(as_text=True)


def test_a_zip_record_larger_than_a_batch_may_be_is_refused_as_it_inflates(
    monkeypatch: pytest.MonkeyPatch,
):
    """Headers that tell the truth but a record too large: counted as it is unpacked."""
    monkeypatch.setattr("scorekeeper.web.clubs.batch.MAX_UNZIPPED", 1_000_000)
    honest = zip_bomb(4_000_000, claims=4_000_000)
    with pytest.raises(BatchProblem, match="too large once unpacked"):
        read_batch(honest)
    lying = zip_bomb(4_000_000, claims=900_000)  # within the limit, by its word only
    with pytest.raises(BatchProblem, match="cannot be unpacked"):
        read_batch(lying)


def test_export_imports_back_into_a_new_club_unchanged(client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(6))
    import_into(client, club, jsonl(records))
    exported = client.get(f"{club}/games.jsonl")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    lines = exported.get_data(as_text=True)
    roster, *games = [json.loads(line) for line in lines.splitlines()]
    assert roster == {"format": "all-fives-club/1", "roster": ["Ann", "Bob", "Cy", "Di"]}
    assert [without_times(game) for game in games] == [as_exported(r) for r in records]
    other = new_club(client, "Another")
    assert import_into(client, other, lines).status_code == 303
    assert client.get(f"{other}/games.jsonl").get_data(as_text=True) == lines
    assert stats_on(client.get(other).get_data(as_text=True)) == expected_standings(records)


def test_the_csv_has_a_row_per_hand_per_side(client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(3))
    import_into(client, club, jsonl(records))
    watch = watch_link(client, club)
    csv_text = client.get(f"{watch}/games.csv").get_data(as_text=True)
    rows = csv_text.strip().splitlines()
    assert rows[0] == (
        "game,date,players,hand,side,points from plays,settlement,score after the hand,units"
    )
    expected_rows = 0
    for record in records:
        result = replay_result(_game(record))
        expected_rows += len(result["hands"]) * len(result["sides"])
    assert len(rows) - 1 == expected_rows
    last_game = records[-1]
    final = replay_result(_game(last_game))
    tail = [row.split(",") for row in rows[-len(final["sides"]) :]]
    assert [int(cells[-2]) for cells in tail] == [final["scores"][s] for s in final["sides"]]


# -- rename, merge, and the cache agreeing with the events ---------------------------------------


def _fresh_standings(app: Flask, client: FlaskClient, club: str) -> dict[str, dict[str, str]]:
    """The standings with the facts cache emptied, so every game is replayed from its events."""
    with app.app_context():
        db.session.execute(text("DELETE FROM game_facts"))
        db.session.commit()
    return stats_on(client.get(club).get_data(as_text=True))


def _player_id(client: FlaskClient, club: str, name: str) -> str:
    page = client.get(f"{club}/players").get_data(as_text=True)
    for form in read_forms(page):
        if form.action.endswith("/players/rename") and form.values.get("name") == name:
            return form.values["player"]
    raise AssertionError(f"no rename form for {name}")


def test_rename_follows_into_every_game_and_the_cache_agrees(app: Flask, client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(6))
    import_into(client, club, jsonl(records))
    before = stats_on(client.get(club).get_data(as_text=True))
    renamed = client.post(
        f"{club}/players/rename", data={"player": _player_id(client, club, "Ann"), "name": "Anna"}
    )
    assert renamed.status_code == 303
    cached = stats_on(client.get(club).get_data(as_text=True))
    assert "Ann" not in cached and cached["Anna"] == dict(before["Ann"], player="Anna")
    assert _fresh_standings(app, client, club) == cached
    exported = client.get(f"{club}/games.jsonl").get_data(as_text=True)
    assert '"Ann"' not in exported and '"Anna"' in exported
    page = client.get(club).get_data(as_text=True)
    game = re.search(rf'href="(/games/{KEY})"', page)
    assert game is not None and "Anna" in client.get(game.group(1)).get_data(as_text=True)
    taken = client.post(
        f"{club}/players/rename", data={"player": _player_id(client, club, "Anna"), "name": " bob"}
    )
    assert taken.status_code == 422 and "merge them" in taken.get_data(as_text=True)


def _renamed(record: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    return json.loads(json.dumps(record).replace(f'"{old}"', f'"{new}"'))


def test_merge_makes_two_entries_one_player_unless_they_played_together(
    app: Flask, client: FlaskClient
):
    club = new_club(client)
    records = simulated_records(range(10))
    half = len(records) // 2
    # The same person was entered as "Dee" in the later games.
    entered = records[:half] + [_renamed(r, "Di", "Dee") for r in records[half:]]
    assert any({"Dee", "Ann"} <= set(r["players"]) for r in entered)
    assert any("Di" in r["players"] for r in entered[:half])
    import_into(client, club, jsonl(entered))
    dee, ann, di = (_player_id(client, club, name) for name in ("Dee", "Ann", "Di"))
    together = client.post(f"{club}/players/merge", data={"source": dee, "target": ann})
    assert together.status_code == 422
    assert "played in the same game" in together.get_data(as_text=True)
    assert stats_on(client.get(club).get_data(as_text=True)) == expected_standings(entered)
    merged = client.post(f"{club}/players/merge", data={"source": dee, "target": di})
    assert merged.status_code == 303
    roster = client.get(f"{club}/players").get_data(as_text=True)
    assert 'data-roster-player="Dee"' not in roster and "Merged Dee into Di" in roster
    cached = stats_on(client.get(club).get_data(as_text=True))
    assert cached == expected_standings(records)
    assert _fresh_standings(app, client, club) == cached


def test_an_undo_in_a_finished_game_changes_the_standings_and_the_cache_agrees(
    app: Flask, client: FlaskClient
):
    club = new_club(client)
    records = simulated_records(range(2, 3))
    import_into(client, club, jsonl(records))
    page = client.get(club).get_data(as_text=True)
    assert stats_on(page)
    game = re.search(rf'href="(/games/{KEY})"', page)
    assert game is not None
    table = client.get(game.group(1)).get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', table)
    assert version is not None
    assert (
        client.post(f"{game.group(1)}/undo", data={"version": version.group(1)}).status_code == 303
    )
    after = client.get(club).get_data(as_text=True)
    assert "No finished game yet" in after  # the game is no longer won
    assert _fresh_standings(app, client, club) == {}


def test_a_game_played_alone_can_be_filed_under_a_club_by_its_edit_link(client: FlaskClient):
    started = client.post("/games/new", data=dict(NEW_GAME, player1="ann", player2="Bob"))
    game_path = started.headers["Location"].split("?")[0]
    club = new_club(client)
    _start(client, club, "Ann", "Cy")
    watch_key = re.search(
        rf'value="http://localhost/watch/({KEY})"', client.get(game_path).get_data(as_text=True)
    )
    assert watch_key is not None
    by_watch = client.post(f"{club}/games", data={"link": f"http://x/watch/{watch_key.group(1)}"})
    assert "No game has that edit link" in client.get(by_watch.headers["Location"]).get_data(
        as_text=True
    )
    filed = client.post(f"{club}/games", data={"link": f"http://localhost{game_path}"})
    assert filed.status_code == 303
    # Ann was on the roster already (the club spells her "Ann"), Bob joined it.
    said = html.unescape(client.get(filed.headers["Location"]).get_data(as_text=True))
    assert "The game of Ann and Bob is now one of Tuesday club's games." in said
    assert "Bob joined the roster. Ann was on the roster already." in said
    assert "Added" not in said
    page = client.get(club).get_data(as_text=True)
    assert len(re.findall(r"data-club-game=", page)) == 2
    assert 'data-side-score="Ann"' in client.get(game_path).get_data(as_text=True)
    again = client.post(f"{club}/games", data={"link": game_path})
    assert "already one of this club" in client.get(again.headers["Location"]).get_data(
        as_text=True
    )


def test_a_club_export_over_a_mebibyte_imports_with_the_forms_token_checked(
    make_app: Callable[..., Flask],
):
    """With CSRF on, as served, the token check read the body under the site's 1 MiB before
    the import's own limit applied: a club's export of 1.2 MB was refused with 413."""
    phone = make_app(WTF_CSRF_ENABLED=True).test_client()
    page = phone.get("/clubs/new").get_data(as_text=True)
    made = phone.post("/clubs/new", data=form_for(page, "/clubs/new").data(name="Big"))
    club = made.headers["Location"]
    records = simulated_records(range(12))
    body = jsonl(records * (1_300_000 // len(jsonl(records)) + 1))
    assert len(body) > 1_200_000
    token = form_for(phone.get(f"{club}/import").get_data(as_text=True), "/import").values
    token = {"csrf_token": token["csrf_token"]}
    imported = phone.post(
        f"{club}/import",
        data={"records": (io.BytesIO(body.encode()), "club.jsonl"), **token},
        content_type="multipart/form-data",
    )
    # Imported up to the same game twice: read whole, then refused for that, not for its size.
    assert imported.status_code == 422, imported.status_code
    assert "in this batch twice" in imported.get_data(as_text=True)
    too_big = "x" * (17 * 1024 * 1024)
    refused = phone.post(
        f"{club}/import",
        data={"records": (io.BytesIO(too_big.encode()), "club.jsonl"), **token},
        content_type="multipart/form-data",
    )
    assert refused.status_code == 413
    assert "larger than 16 MB, the most this address accepts" in refused.get_data(as_text=True)
    # Every other form keeps the site's 1 MiB.
    assert phone.post("/clubs/new", data={"name": "y" * 1_100_000}).status_code == 413


@pytest.mark.parametrize("body", ["", "{}", "[]", "\x00", "{" * 5000])
def test_malformed_imports_are_refused_cleanly(client: FlaskClient, body: str):
    club = new_club(client)
    answer = client.post(f"{club}/import", data={"text": body})
    assert answer.status_code in (400, 422)
    assert "Nothing was imported" in answer.get_data(as_text=True) or body == ""


def test_the_home_page_lists_this_browsers_clubs_only(app: Flask, client: FlaskClient):
    club = new_club(client, "Family")
    home = client.get("/").get_data(as_text=True)
    assert f'href="{club}">Family</a>' in home
    stranger = app.test_client()
    assert "Family" not in stranger.get("/").get_data(as_text=True)
    watch = watch_link(client, club)
    stranger.get(watch)
    seen = stranger.get("/").get_data(as_text=True)
    assert f'href="{watch}">Family</a>' in seen and club not in seen


def test_a_whole_club_of_several_megabytes_imports_in_one_batch(client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(6))
    padded = jsonl(records) + "\n" * (3 * 1024 * 1024)  # over the 1 MiB of other requests
    assert import_into(client, club, padded).status_code == 303
    assert client.post("/games/import", data={"text": "x" * (2 * 1024 * 1024)}).status_code == 413


def test_the_rematch_of_a_club_game_is_a_game_of_the_club(client: FlaskClient):
    club = new_club(client)
    records = simulated_records(range(1))
    import_into(client, club, jsonl(records))
    game = re.search(rf'href="(/games/{KEY})"', client.get(club).get_data(as_text=True))
    assert game is not None
    again = client.post(f"{game.group(1)}/rematch")
    assert again.status_code == 303
    page = client.get(club).get_data(as_text=True)
    assert len(re.findall(r"data-club-game=", page)) == 2


def test_a_club_keeps_default_house_rules_for_its_next_games(client: FlaskClient):
    club = new_club(client)
    data = dict(
        NEW_GAME,
        player1="Ann",
        player2="Bob",
        preset="fives-up",
        filled="fives-up:2",
        settlement="winner-collects",
        bonus_in_fives="yes",
        lead="draw-highest",
        target="61",
        units="fives",
        exact_target="yes",
        club_defaults="y",
    )
    assert client.post(f"{club}/new", data=data).status_code == 303
    form = client.get(f"{club}/new").get_data(as_text=True)
    fields = {f.action: f for f in read_forms(form)}[f"{club}/new"]
    assert fields.values["preset"] == "fives-up"
    assert (fields.values["units"], fields.values["exact_target"]) == ("fives", "yes")
    assert fields.values["target"] == "61" and fields.values.get("club_defaults") == "y"
    assert "fives-up" in client.get(club).get_data(as_text=True)
    plain = client.get("/games/new").get_data(as_text=True)
    assert {f.action: f for f in read_forms(plain)}["/games/new"].values["units"] == "points"


def test_the_operator_lists_every_club_with_both_links(client: FlaskClient, runner):
    club = new_club(client, "Tuesday club")
    import_into(client, club, jsonl(simulated_records(range(3))))
    watch = watch_link(client, club)
    listed = runner.invoke(args=["clubs", "--base-url", "https://club.example"])
    assert listed.exit_code == 0
    assert "Tuesday club  (3 games, " in listed.output
    assert f"edit:  https://club.example{club}" in listed.output
    assert f"watch: https://club.example{watch}" in listed.output
    assert listed.output.strip().endswith("1 club.")


def test_the_club_page_lists_the_latest_games_and_all_on_request(client: FlaskClient, monkeypatch):
    from scorekeeper.web.clubs import pages

    monkeypatch.setattr(pages, "SHOWN_GAMES", 3)
    club = new_club(client)
    records = simulated_records(range(6))
    import_into(client, club, jsonl(records))
    page = client.get(club).get_data(as_text=True)
    assert len(re.findall(r"data-club-game=", page)) == 3
    assert f"All {len(records)} games" in page
    every = client.get(f"{club}?games=all").get_data(as_text=True)
    assert len(re.findall(r"data-club-game=", every)) == len(records)
    assert "data-all-games" not in every
    assert stats_on(page) == stats_on(every) == expected_standings(records)


def test_a_batch_sent_twice_is_refused_the_second_time_and_changes_nothing(
    app: Flask, client: FlaskClient
):
    club = new_club(client)
    records = simulated_records(range(4))
    assert import_into(client, club, jsonl(records)).status_code == 303
    before = client.get(f"{club}/games.jsonl").get_data(as_text=True)
    again = import_into(client, club, jsonl(records))  # a double tap, a file sent twice
    assert again.status_code == 422
    page = again.get_data(as_text=True)
    assert "<strong data-batch-where>line 1</strong>" in page
    assert "it is in the club already" in page and "Nothing was imported" in page
    assert client.get(f"{club}/games.jsonl").get_data(as_text=True) == before
    name = records[0]["players"][0]
    respelled = _renamed(records[0], name, f" {name.upper()} ")  # spelled another way
    assert import_into(client, club, json.dumps(respelled)).status_code == 422
    other = new_club(client, "Other")
    doubled = import_into(client, other, jsonl([records[1], records[2], records[1]]))
    assert doubled.status_code == 422
    assert "line 3" in doubled.get_data(as_text=True)
    assert "in this batch twice" in doubled.get_data(as_text=True)
    nothing = '{"format":"all-fives-club/1","roster":[]}\n'
    assert client.get(f"{other}/games.jsonl").get_data(as_text=True) == nothing


def test_a_player_joins_the_roster_before_their_first_game(app: Flask, client: FlaskClient):
    club = new_club(client)
    added = client.post(f"{club}/players/add", data={"name": "  Ann  "})
    assert added.status_code == 303
    players = html.unescape(client.get(f"{club}/players").get_data(as_text=True))
    assert 'data-roster-player="Ann"' in players and "Ann joined the roster." in players
    assert "0 games" in players
    # The new-game form offers them, and a game seats them as the roster spells them.
    form = html.unescape(client.get(f"{club}/new").get_data(as_text=True))
    assert "data-roster" in form and ">Ann<" in form
    assert _start(client, club, "ann", "Bob").status_code == 303
    players = html.unescape(client.get(f"{club}/players").get_data(as_text=True))
    assert players.count('data-roster-player="Ann"') == 1 and "1 game" in players

    # The same player again, in any spelling, and names no roster takes: refused, unchanged.
    for name, said in (("ANN", "Ann is on the roster already."), ("", ""), ("a\x00b", "")):
        refused = client.post(f"{club}/players/add", data={"name": name})
        assert refused.status_code == 422
        page = html.unescape(refused.get_data(as_text=True))
        assert "Nothing changed." in page and said in page
    with app.app_context():
        count = db.session.execute(text("SELECT count(*) FROM club_player")).scalar_one()
    assert count == 2  # Ann, and Bob who played


def test_the_watch_link_cannot_add_a_player(client: FlaskClient):
    club = new_club(client)
    watch_key = watch_link(client, club).rsplit("/", 1)[1]
    assert client.post(f"/clubs/{watch_key}/players/add", data={"name": "Eve"}).status_code == 404
    watched = client.get(f"/clubs/watch/{watch_key}/players").get_data(as_text=True)
    assert "add-player-form" not in watched


def test_a_full_roster_takes_no_one_more(client: FlaskClient, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("scorekeeper.web.data.clubs.MAX_ROSTER", 2)
    club = new_club(client)
    for name in ("Ann", "Bob"):
        assert client.post(f"{club}/players/add", data={"name": name}).status_code == 303
    full = client.post(f"{club}/players/add", data={"name": "Cy"})
    assert full.status_code == 422
    assert "The roster is full: a club has at most 2 players." in full.get_data(as_text=True)
    assert 'data-roster-player="Cy"' not in client.get(f"{club}/players").get_data(as_text=True)


def test_the_operator_sees_how_big_the_data_is(client: FlaskClient, runner):
    club = new_club(client, "Tuesday")
    import_into(client, club, jsonl(simulated_records(range(4))))
    table = new_game(client, ["Ann", "Bob"])
    assert table.post("lead", {"how": "seat", "leader": "0"}).status_code == 303
    assert table.post("undo", {}).status_code == 303
    shown = runner.invoke(args=["stats"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert re.match(r"Database: .+, [\d.]+ (KB|MB) on disk\.", lines[0]), lines[0]
    games = re.search(r"Games: (\d+) \((\d+) finished, (\d+) in clubs, 0 deleted", shown.output)
    assert games is not None, shown.output
    imported = len(re.findall(r"data-club-game=", client.get(club).get_data(as_text=True)))
    assert int(games.group(1)) == imported + 1 and int(games.group(3)) == imported
    assert re.search(r"Events: \d+ \(1 undone\), [\d.]+ (KB|MB) of entries\.", shown.output)
    assert "Clubs: 1, with" in shown.output
    assert "Largest games (events, watch key):" in shown.output
    assert re.search(r"Largest clubs \(games\):\n +\d+  Tuesday", shown.output)
