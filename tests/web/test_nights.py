"""Club nights through their pages, as a director without JavaScript: opening a night, seating
and starting rounds, every table an ordinary game of the club, standings that agree with a
count made again from the games' records, and every bad input answered clearly, nothing lost."""

from __future__ import annotations

import csv
import html
import io
import json
import re

from flask.testing import FlaskClient

from scorekeeper.rules.record import load_record
from scorekeeper.rules.stats import game_facts
from tests.web.test_clubs import new_club
from tests.web.webforms import form_for, read_forms
from tests.web.webtable import Table, new_game

KEY = r"[A-Za-z0-9_-]{22}"
QUICK = {"target": "10", "win_check": "immediate"}
"""House rules under which a table's leader wins the game with 5-5."""
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim"]


def _roster(client: FlaskClient, club: str, names: list[str]) -> None:
    for name in names:
        assert client.post(f"{club}/players/add", data={"name": name}).status_code == 303


def _night_form(client: FlaskClient, club: str) -> tuple[dict[str, object], dict[str, str]]:
    """The new-night form's data as the page fills it, and the roster's ids by name."""
    page = client.get(f"{club}/nights/new")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    form = form_for(html, "/nights/new")
    ids = dict(
        (name, value)
        for value, name in re.findall(
            r'name="present" type="checkbox" value="(\d+)"> <label for="present-\d+">([^<]+)<',
            html,
        )
    )
    data: dict[str, object] = form.data(form.button(name="open_night"))
    return data, ids


def open_night(
    client: FlaskClient,
    club: str,
    present: list[str],
    walk_in: str = "",
    expect: int = 303,
    **fields: str,
) -> str:
    """Open a night through the form; its page's path (or the refusal's page)."""
    data, ids = _night_form(client, club)
    data.update(QUICK)
    data.update(fields)
    data["present"] = [ids[name] for name in present]
    data["walk_in"] = walk_in
    response = client.post(f"{club}/nights/new", data=data)
    assert response.status_code == expect, response.get_data(as_text=True)
    if expect != 303:
        return response.get_data(as_text=True)
    path = response.headers["Location"]
    assert re.fullmatch(rf"{club}/nights/\d+", path)
    return path


def _token(client: FlaskClient, path: str) -> str:
    html = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def post(client: FlaskClient, path: str, page: str, **data: str):  # type: ignore[no-untyped-def]
    """Post to ``path`` with the CSRF token of ``page``."""
    return client.post(path, data={"csrf_token": _token(client, page), **data})


def seat(client: FlaskClient, night: str, end: bool = False) -> str:
    response = post(client, f"{night}/rounds", night, **({"end": "y"} if end else {}))
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def tables_of(html: str) -> list[list[str]]:
    """Each table's sides as the round page shows them (names, partners joined by &)."""
    found = []
    for block in re.findall(r'<li class="night-table" data-table="\d+">(.*?)</li>', html, re.S):
        found.append(re.findall(r'<span class="table-side">([^<]+)</span>', block))
    return found


def links_of(html: str) -> list[str]:
    return re.findall(rf'href="/games/({KEY})" data-table-link', html)


def start(client: FlaskClient, round_page: str) -> str:
    response = post(client, f"{round_page}/start", round_page)
    assert response.status_code == 303, response.get_data(as_text=True)
    html = client.get(round_page).get_data(as_text=True)
    return html


def win(client: FlaskClient, key: str) -> None:
    """The table's leader plays 5-5: 10 points, the game is won (QUICK house rules)."""
    response = Table(client, key).play("5-5")
    assert response.status_code in (200, 303), response.get_data(as_text=True)
    assert 'data-phase="over"' in client.get(f"/games/{key}").get_data(as_text=True)


def standings_csv(client: FlaskClient, night: str) -> list[dict[str, str]]:
    response = client.get(f"{night}/standings.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def recount(client: FlaskClient, club: str) -> dict[str, tuple[int, int]]:
    """Match points and points for from the club's exported records (one-game twos)."""
    body = client.get(f"{club}/games.jsonl").get_data(as_text=True)
    points: dict[str, int] = {}
    scored: dict[str, int] = {}
    for line in body.splitlines():
        if not line.strip() or '"format"' not in line:
            continue
        record = json.loads(line)
        if "players" not in record:
            continue
        facts = game_facts(load_record(line))
        for seat, name in enumerate(record["players"]):
            side = facts.side_of[seat]
            scored[name] = scored.get(name, 0) + facts.scores[side]
            if facts.winner == side:
                points[name] = points.get(name, 0) + 2
    return {name: (points.get(name, 0), scored[name]) for name in scored}


def test_a_director_runs_a_night_of_twos_and_the_standings_recount(client: FlaskClient) -> None:
    club = new_club(client)
    _roster(client, club, NAMES)
    club_page = client.get(club).get_data(as_text=True)
    assert f'href="{club}/nights/new" data-club-new-night' in club_page
    night = open_night(client, club, NAMES, walk_in="Zed", table_size="2", rounds="3")
    assert 'data-club-night="' in client.get(club).get_data(as_text=True)
    page = client.get(night).get_data(as_text=True)
    assert page.count("data-night-player=") == 12
    round1 = seat(client, night)
    html = client.get(round1).get_data(as_text=True)
    tables = tables_of(html)
    assert len(tables) == 6
    assert sorted(n for t in tables for n in t) == sorted([*NAMES, "Zed"])
    assert not links_of(html), "no game before the round starts"
    html = start(client, round1)
    keys = links_of(html)
    assert len(keys) == 6
    assert html.count('<svg role="img"') == 6, "a QR code per table"
    night_page = client.get(night).get_data(as_text=True)
    assert "1 table playing" not in night_page and "6 tables playing" in night_page
    # The director's page links every table of the round being played.
    linked = re.findall(rf'href="/games/({KEY})" data-night-table-link', night_page)
    assert sorted(linked) == sorted(keys)
    # Every table is an ordinary game of the club, with its seats.
    club_page = client.get(club).get_data(as_text=True)
    for key in keys:
        assert client.get(f"/games/{key}").status_code == 200
    for key in keys:
        win(client, key)
    lines = standings_csv(client, night)
    assert sorted(int(line["match_points"]) for line in lines) == [0] * 6 + [2] * 6
    again = recount(client, club)
    assert {
        line["player"]: (int(line["match_points"]), int(line["points_for"])) for line in lines
    } == again
    winners = {line["player"] for line in lines if line["match_points"] == "2"}
    round2 = seat(client, night)
    tables2 = tables_of(client.get(round2).get_data(as_text=True))
    first = {frozenset(t) for t in tables}
    assert not first & {frozenset(t) for t in tables2}, "nobody meets the same opponent twice"
    for table in tables2:
        assert len(set(table) & winners) in (0, 2), "Swiss: winners meet winners"
    assert club_page  # the club page still answers with the night's games in it


def test_a_night_of_fours_seats_partners_and_threes(client: FlaskClient) -> None:
    club = new_club(client)
    _roster(client, club, NAMES)
    night = open_night(client, club, NAMES[:10], table_size="4")
    html = client.get(seat(client, night)).get_data(as_text=True)
    tables = tables_of(html)
    # 10 players: a table of four (two partnerships) and two tables of three.
    assert sorted(len(t) for t in tables) == [2, 3, 3]
    four = next(t for t in tables if len(t) == 2)
    assert all(" &amp; " in side or " & " in side for side in four)


def test_a_night_seats_forty_tables_of_four_and_refuses_one_player_more(
    client: FlaskClient,
) -> None:
    club = new_club(client)
    names = [f"Player {n}" for n in range(160)]
    _roster(client, club, names)
    page = open_night(client, club, names, walk_in="One more", table_size="4", expect=422)
    assert "A night seats at most 160 players." in page
    assert 'data-club-night="' not in client.get(club).get_data(as_text=True), "no night opened"
    night = open_night(client, club, names, table_size="4")
    html = start(client, seat(client, night))
    assert len(tables_of(html)) == 40
    assert len(links_of(html)) == 40, "every table's game was created"


def test_the_night_form_refuses_what_cannot_be_played(client: FlaskClient) -> None:
    club = new_club(client)
    _roster(client, club, NAMES)
    page = open_night(client, club, ["Ann"], expect=422)
    assert "at least 2 players" in page
    page = open_night(client, club, NAMES, tie1="total", tie2="total", expect=422)
    assert "Each tie-break once" in page
    page = open_night(client, club, ["Ann", "Bob"], walk_in="ann", expect=422)
    assert "same player" in page
    page = open_night(client, club, NAMES, rounds="0", expect=422)
    assert "Number must be between 1 and 20." in page
    assert 'data-club-night="' not in client.get(club).get_data(as_text=True), "no night opened"


def test_bad_input_gets_a_clear_answer_and_changes_nothing(client: FlaskClient) -> None:
    club = new_club(client)
    _roster(client, club, NAMES)
    night = open_night(client, club, NAMES[:8], table_size="2", rounds="2")
    round1 = seat(client, night)
    # A swap of a player with themselves, or of someone not in the round.
    refused = post(client, f"{round1}/swap", round1, one="Ann", other="Ann")
    assert refused.status_code == 409 and "two different players" in refused.get_data(as_text=True)
    refused = post(client, f"{round1}/swap", round1, one="Ann", other="Kim")
    assert refused.status_code == 409
    before = tables_of(client.get(round1).get_data(as_text=True))
    one, other = before[0][0], before[1][0]
    assert post(client, f"{round1}/swap", round1, one=one, other=other).status_code == 303
    after = tables_of(client.get(round1).get_data(as_text=True))
    assert after[0][0] == other and after[1][0] == one
    # Seating again before the round starts is refused.
    refused = post(client, f"{night}/rounds", night)
    assert refused.status_code == 409 and "start it first" in refused.get_data(as_text=True)
    html = start(client, round1)
    keys = links_of(html)
    # Starting twice, or swapping once it began.
    refused = post(client, f"{round1}/start", round1)
    assert refused.status_code == 409 and "begun already" in refused.get_data(as_text=True)
    refused = post(client, f"{round1}/swap", round1, one=one, other=other)
    assert refused.status_code == 409 and "cannot be swapped" in refused.get_data(as_text=True)
    assert links_of(client.get(round1).get_data(as_text=True)) == keys
    # A walk-in mid-night plays from round 2; a second spelling of a player is refused.
    assert post(client, f"{night}/walk-in", night, name="Lou").status_code == 303
    refused = post(client, f"{night}/walk-in", night, name=" ann ")
    assert refused.status_code == 422 and "list already" in refused.get_data(as_text=True)
    # A player leaves: the director ends their table.
    leaver = tables_of(client.get(round1).get_data(as_text=True))[0][0]
    ids = re.findall(r'name="player" value="(\d+)"', client.get(night).get_data(as_text=True))
    page = client.get(night).get_data(as_text=True)
    player_id = re.search(
        rf'data-night-player="{leaver}">.*?name="player" value="(\d+)"', page, re.S
    ).group(1)
    assert ids and post(client, f"{night}/leave", night, player=player_id).status_code == 303
    refused = post(client, f"{night}/leave", night, player=player_id)
    assert refused.status_code == 422 and "left already" in refused.get_data(as_text=True)
    ended = post(client, f"{round1}/tables/1/end", round1)
    assert ended.status_code == 303
    refused = post(client, f"{round1}/tables/1/end", round1)
    assert refused.status_code == 409 and "over already" in refused.get_data(as_text=True)
    # The ended game is still there, and can still be played: nothing is lost.
    assert client.get(f"/games/{keys[0]}").status_code == 200
    win(client, keys[1])
    # Seating round 2 while tables 3 and 4 still play: the director is asked.
    asked = post(client, f"{night}/rounds", night)
    text = asked.get_data(as_text=True)
    assert asked.status_code == 409 and "data-end-and-seat" in text and "data-wait" in text
    assert "Tables 3, 4" in text
    round2 = seat(client, night, end=True)
    tables2 = tables_of(client.get(round2).get_data(as_text=True))
    seated = sorted(n for t in tables2 for n in t)
    assert leaver not in seated and "Lou" in seated and len(seated) == 8
    lines = {line["player"]: line for line in standings_csv(client, night)}
    # Table 1 ended at 0-0 and tables 3 and 4 as they stood: level, a match point each.
    assert lines[leaver]["match_points"] == "1" and lines[leaver]["drawn"] == "1"
    assert sorted(int(v["match_points"]) for v in lines.values()).count(2) == 1
    # Every round is seated: a third is refused.
    start(client, round2)
    refused = post(client, f"{night}/rounds", night, end="y")
    assert refused.status_code == 409 and "every one is seated" in refused.get_data(as_text=True)


def test_the_nights_pages_need_the_clubs_edit_link(client: FlaskClient) -> None:
    club = new_club(client)
    _roster(client, club, NAMES[:4])
    night = open_night(client, club, NAMES[:4], table_size="2")
    round1 = seat(client, night)
    key = links_of(start(client, round1))[0]
    number = night.rsplit("/", 1)[1]
    refused = client.get(f"/clubs/{key}/nights/{number}")
    assert refused.status_code == 403
    assert "table's edit link" in html.unescape(refused.get_data(as_text=True))
    club_page = client.get(club).get_data(as_text=True)
    watch = re.search(rf'value="http://localhost/clubs/watch/({KEY})"', club_page).group(1)
    refused = client.get(f"/clubs/{watch}/nights/{number}")
    assert refused.status_code == 403 and "watch link" in refused.get_data(as_text=True)
    assert client.get(f"/clubs/{'x' * 22}/nights/{number}").status_code == 404
    assert client.get(f"{club}/nights/999").status_code == 404
    assert client.get(f"{club}/nights/{2**63}").status_code == 404
    assert client.get(f"{round1[:-1]}9").status_code == 404
    other = new_club(client, "Other club")
    assert client.get(f"{other}/nights/{number}").status_code == 404
    # The table's own link opens its game as ever.
    assert client.get(f"/games/{key}").status_code == 200


def test_the_standings_print_and_download(client: FlaskClient) -> None:
    club = new_club(client)
    _roster(client, club, NAMES[:4])
    night = open_night(client, club, NAMES[:4], table_size="2", rounds="2")
    keys = links_of(start(client, seat(client, night)))
    for key in keys:
        win(client, key)
    page = client.get(f"{night}/standings?after=1").get_data(as_text=True)
    assert "Standings after round 1" in page and page.count('data-stat="place"') == 4
    rows = standings_csv(client, night)
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    assert set(rows[0]) >= {"place", "player", "match_points", "points_for", "difference"}
    assert len(read_forms(client.get(night).get_data(as_text=True))) >= 2


def test_best_of_three_follows_the_rematches_until_a_side_has_two(client: FlaskClient) -> None:
    club = new_club(client)
    _roster(client, club, NAMES[:2])
    night = open_night(client, club, NAMES[:2], table_size="2", match="best-of-3")
    round1 = seat(client, night)
    key = links_of(start(client, round1))[0]
    win(client, key)
    state = client.get(round1).get_data(as_text=True)
    assert 'data-table-state="playing"' in state, "one game won of a best of 3"
    assert sum(int(r["match_points"]) for r in standings_csv(client, night)) == 0
    # The table taps Rematch on its play screen: the round page follows to the next game.
    rematch = post(client, f"/games/{key}/rematch", f"/games/{key}")
    assert rematch.status_code == 303
    second = links_of(client.get(round1).get_data(as_text=True))[0]
    assert second != key
    win(client, second)
    rows = {r["player"]: r for r in standings_csv(client, night)}
    state = client.get(round1).get_data(as_text=True)
    if 'data-table-state="over"' in state:  # one side won both: 2-0
        assert sorted(int(r["match_points"]) for r in rows.values()) == [0, 2]
    else:  # 1-1: a third game decides
        third = post(client, f"/games/{second}/rematch", f"/games/{second}")
        assert third.status_code == 303
        win(client, links_of(client.get(round1).get_data(as_text=True))[0])
        rows = {r["player"]: r for r in standings_csv(client, night)}
        assert 'data-table-state="over"' in client.get(round1).get_data(as_text=True)
        assert sorted(int(r["match_points"]) for r in rows.values()) == [0, 2]
    assert sum(int(r["points_for"]) for r in rows.values()) > 0


def test_a_round_with_a_player_twice_is_not_started(app, client: FlaskClient) -> None:  # type: ignore[no-untyped-def]
    """Seats stored with a player twice (a hand-edited database, an old bug) start nothing."""
    from scorekeeper.web.data.database import db
    from scorekeeper.web.data.night_models import NightRoundRow

    club = new_club(client)
    _roster(client, club, NAMES[:4])
    night = open_night(client, club, NAMES[:4], table_size="2")
    round1 = seat(client, night)
    with app.app_context():
        row = db.session.query(NightRoundRow).one()
        row.seats = {"tables": [["Ann", "Bob"], ["Ann", "Cy"]], "byes": []}
        db.session.commit()
    refused = post(client, f"{round1}/start", round1)
    assert refused.status_code == 409 and "seated twice" in refused.get_data(as_text=True)
    assert not links_of(client.get(round1).get_data(as_text=True))
    assert "Ann" in client.get(round1).get_data(as_text=True)


def test_a_table_whose_game_was_deleted_ends_level(client: FlaskClient) -> None:
    """A table's game deleted from its own page: the round shows it, and the director can
    still end the table (a draw) and seat the next round; nothing fails."""
    club = new_club(client)
    _roster(client, club, NAMES[:4])
    night = open_night(client, club, NAMES[:4], table_size="2", rounds="2")
    round1 = seat(client, night)
    keys = links_of(start(client, round1))
    win(client, keys[1])
    deleted = post(client, f"/games/{keys[0]}/delete", f"/games/{keys[0]}")
    assert deleted.status_code == 303
    page = client.get(round1).get_data(as_text=True)
    assert "game was deleted" in html.unescape(page)
    asked = post(client, f"{night}/rounds", night)
    assert asked.status_code == 409
    round2 = seat(client, night, end=True)
    assert len(tables_of(client.get(round2).get_data(as_text=True))) == 2
    points = sorted(int(r["match_points"]) for r in standings_csv(client, night))
    assert points == [0, 1, 1, 2]


def test_a_rounds_seats_replay_from_its_seed(app, client: FlaskClient) -> None:  # type: ignore[no-untyped-def]
    """The seats stored with each round are the seating computed again from its seed and the
    rounds before it: the night replays."""
    from scorekeeper.web.data import nights as stored
    from scorekeeper.web.data.database import db
    from scorekeeper.web.data.night_models import NightRow

    club = new_club(client)
    _roster(client, club, NAMES)
    night = open_night(client, club, NAMES[:9], table_size="2", rounds="3")
    for key in links_of(start(client, seat(client, night))):
        win(client, key)
    seat(client, night)
    with app.test_request_context():
        row = db.session.query(NightRow).one()
        for number in (1, 2):
            stored_seats = stored.round_row(row, number).seats
            assert stored._seating_of(number, row).to_json() == stored_seats


def test_the_night_form_loads_a_presets_house_rules_and_the_clubs_own(client: FlaskClient) -> None:
    """The form starts with the club's preset and house rules; Load gives the chosen preset's
    own for the chosen table size, from the one registry of house rules."""
    from scorekeeper.rules import HOUSE_RULES

    club = new_club(client)
    _roster(client, club, NAMES[:2])
    data, _ids = _night_form(client, club)
    assert data["preset"] == "all-fives" and data["target"] == "200"
    for rule in HOUSE_RULES:
        assert rule.name in data, f"the house rule {rule.name} has a field"
    data.update({"preset": "fives-up", "table_size": "2", "load": "1"})
    data.pop("open_night", None)
    loaded = client.post(f"{club}/nights/new", data=data)
    assert loaded.status_code == 200
    form = form_for(loaded.get_data(as_text=True), "/nights/new")
    fives_up = {rule.name: str(rule.default("fives-up", 2)) for rule in HOUSE_RULES}
    assert {name: form.values[name] for name in fives_up} == fives_up
    assert 'data-club-night="' not in client.get(club).get_data(as_text=True), "nothing opened"


def test_a_nights_games_count_toward_ratings_when_ordinary_games_do_not(
    client: FlaskClient,
) -> None:
    club = new_club(client)
    _roster(client, club, NAMES[:4])
    assert client.post(f"{club}/ratings", data={}).status_code == 303  # ordinary games: off
    ordinary = new_game(client, ["Yan", "Zoe"], leader="random", **QUICK)
    assert client.post(f"{club}/games", data={"link": f"/games/{ordinary.key}"}).status_code == 303
    win(client, ordinary.key)
    page = client.get(club).get_data(as_text=True)
    assert "data-rated=" not in page, "an ordinary game does not count"
    night = open_night(client, club, NAMES[:4], table_size="2", rounds="1")
    keys = links_of(start(client, seat(client, night)))
    for key in keys:
        win(client, key)
    page = client.get(club).get_data(as_text=True)
    rated = set(re.findall(r'data-rated="([^"]+)"', page))
    assert rated == set(NAMES[:4]), "each night game's players are rated, and only they"
