"""A club's ratings on its page: equal to OpenSkill run here on the records' replays, in the order
the games ended (not the order they began or were imported in); the change a chosen day
brought; the chart of the ratings over time; the club's setting that its ordinary games count."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta
from html import unescape
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper.rules import Setup
from scorekeeper.rules.ratings import Ratings, rate
from scorekeeper.rules.record import read_record, replay_result, write_record
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.data import clubs
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow
from scorekeeper.web.data.ratings import club_ratings, rated_games
from tests.web.test_clubs import import_into, jsonl, new_club, simulated_records, watch_link
from tests.web.webtable import Table

FIRST_DAY = datetime(2026, 11, 20, 18, 0)
SECOND_DAY = datetime(2026, 11, 27, 18, 0)


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def timed_records() -> list[dict[str, Any]]:
    """Finished games of 2, 3 and 4 players (4 as partners or not) over two evenings, each
    started in the order listed and finished in another; and one game nobody won."""
    records = simulated_records(range(18))
    order = random.Random(7).sample(range(len(records)), len(records))
    for index, record in enumerate(records):
        day = FIRST_DAY if index < len(records) // 2 else SECOND_DAY
        record["started"] = _iso(day + timedelta(minutes=index))
        record["finished"] = _iso(day + timedelta(hours=1, minutes=order[index]))
    unfinished = play_game(Setup.create(["Ann", "Eve"], "all-fives"), random.Random(3), 1)
    assert unfinished.winner is None
    records.append(write_record(unfinished))
    return records


def by_hand(records: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """OpenSkill run directly on the finished records, in the order they finished: each
    player's rating, and the ratings after each game."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    after: list[dict[str, Any]] = []
    finished = [r for r in records if replay_result(read_record(r))["winner"] is not None]
    for record in sorted(finished, key=lambda r: r["finished"]):
        result = replay_result(read_record(record))
        players = record["players"]
        if record.get("partners"):
            teams = [[players[0], players[2]], [players[1], players[3]]]
        else:
            teams = [[name] for name in players]
        scores = [result["scores"][side] for side in result["sides"]]
        winner = result["sides"].index(result["winner"])
        places = [
            0
            if side == winner
            else 1 + len({s for i, s in enumerate(scores) if i != winner and s > score})
            for side, score in enumerate(scores)
        ]
        new = model.rate(
            [[ratings.get(name) or model.rating() for name in team] for team in teams],
            ranks=[float(place) for place in places],
        )
        for team, rated in zip(teams, new, strict=True):
            for name, rating in zip(team, rated, strict=True):
                ratings[name] = rating
        after.append({name: ratings[name] for team in teams for name in team})
    return ratings, after


def shown(value: float) -> str:
    return f"{round(value, 1) + 0.0:.1f}"


def rating_cells(page: str) -> dict[str, dict[str, str]]:
    table = page[page.index("data-ratings>") :]
    table = table[: table.index("</table>")]
    rows = {}
    for name, body in re.findall(r'<tr data-rated="([^"]+)">(.*?)</tr>', table, re.S):
        rows[unescape(name)] = dict(re.findall(r"<td data-([a-z-]+)>([^<]*)<", body))
    return rows


def test_ratings_on_the_club_page_equal_openskill_run_on_the_records_in_the_order_they_ended(
    client: FlaskClient,
):
    club = new_club(client)
    records = timed_records()
    assert import_into(client, club, jsonl(records)).status_code == 303
    page = client.get(club).get_data(as_text=True)
    expected, _after = by_hand(records)
    cells = rating_cells(page)
    assert set(cells) == set(expected) and "Eve" not in cells  # her only game is unfinished
    for name, rating in expected.items():
        assert cells[name]["rating"] == shown(rating.ordinal()), name
        assert cells[name]["skill"] == shown(rating.mu), name
        assert cells[name]["uncertainty"] == shown(3 * rating.sigma), name
    ordinals = [float(cells[name]["rating"]) for name in re.findall(r'data-rated="([^"]+)"', page)]
    assert ordinals == sorted(ordinals, reverse=True)
    finished = len(records) - 1
    assert f"From {finished} rated games" in page
    # In the order they began, the ratings would be others: the order they ended counts.
    began, _ = by_hand([{**r, "finished": r["started"]} if "started" in r else r for r in records])
    assert any(shown(began[n].ordinal()) != cells[n]["rating"] for n in expected)


def test_the_chart_draws_each_players_rating_over_the_rated_games(client: FlaskClient):
    club = new_club(client)
    records = timed_records()
    import_into(client, club, jsonl(records))
    page = client.get(club).get_data(as_text=True)
    chart = page[page.index('data-chart="ratings"') :]
    chart = chart[: chart.index("</svg>")]
    lines = dict(re.findall(r'data-series="([^"]+)" data-values="([^"]*)"', chart))
    expected, after = by_hand(records)
    assert set(lines) == set(expected)
    for name, values in lines.items():
        steps = values.split()
        assert len(steps) == len(after) + 1 and float(steps[0]) == 0.0
        assert float(steps[-1]) == round(expected[name].ordinal(), 1)
        # Flat across the games they did not play, moving at each they did.
        for number, game in enumerate(after, 1):
            if name not in game:
                assert steps[number] == steps[number - 1]
            else:
                assert float(steps[number]) == round(game[name].ordinal(), 1)


def test_the_change_a_chosen_day_brought(client: FlaskClient):
    club = new_club(client)
    records = timed_records()
    import_into(client, club, jsonl(records))
    page = client.get(club).get_data(as_text=True)
    days = re.findall(r'<option value="(\d{4}-\d\d-\d\d)"', page)
    assert days == [SECOND_DAY.date().isoformat(), FIRST_DAY.date().isoformat()]
    assert f'data-rating-change="{days[0]}"' in page  # the latest evening first
    _expected, after = by_hand(records)
    ended = sorted(r["finished"] for r in records if "finished" in r and read_ok(r))
    first_evening = [a for a, when in zip(after, ended, strict=True) if when < _iso(SECOND_DAY)]
    chosen = client.get(f"{club}?day={days[1]}").get_data(as_text=True)
    assert f'data-rating-change="{days[1]}"' in chosen
    table = chosen[chosen.index("data-rating-change=") :]
    table = table[: table.index("</table>")]
    rows = {
        unescape(name): dict(re.findall(r"<td data-([a-z]+)>([^<]*)<", body))
        for name, body in re.findall(r'<tr data-changed="([^"]+)">(.*?)</tr>', table, re.S)
    }
    players = {name for game in first_evening for name in game}
    assert set(rows) == players
    for name in players:
        last = [game[name] for game in first_evening if name in game][-1]
        assert rows[name]["before"] == "0.0"  # the club's first evening: everyone began at 0
        assert rows[name]["after"] == shown(last.ordinal())
        delta = round(last.ordinal(), 1) + 0.0
        assert rows[name]["change"] == ("+" if delta > 0 else "") + f"{delta:.1f}"
    # A day that is none of the club's shows the latest.
    other = client.get(f"{club}?day=1999-01-01").get_data(as_text=True)
    assert f'data-rating-change="{days[0]}"' in other


def read_ok(record: dict[str, Any]) -> bool:
    return replay_result(read_record(record))["winner"] is not None


def test_the_club_decides_whether_its_ordinary_games_count(client: FlaskClient):
    club = new_club(client)
    import_into(client, club, jsonl(timed_records()))
    assert "data-ratings-off" not in client.get(club).get_data(as_text=True)
    off = client.post(f"{club}/ratings", data={})
    assert off.status_code == 303 and off.headers["Location"].endswith("#settings")
    page = unescape(client.get(club).get_data(as_text=True))
    assert "no longer count toward the ratings" in page
    assert "data-ratings-off" in page and "data-rated=" not in page
    assert "No rated game yet" in page
    assert re.search(r"data-rate-club-games(?! checked)", page)
    watched = client.get(watch_link(client, club)).get_data(as_text=True)
    assert "data-ratings-off" in watched
    client.post(f"{club}/ratings", data={"counts": "y"})
    page = client.get(club).get_data(as_text=True)
    assert "data-rate-club-games checked" in page and "data-rated=" in page


def test_the_watch_link_shows_the_same_ratings(client: FlaskClient):
    club = new_club(client)
    import_into(client, club, jsonl(timed_records()))
    edit = rating_cells(client.get(club).get_data(as_text=True))
    watched = client.get(watch_link(client, club)).get_data(as_text=True)
    assert rating_cells(watched) == edit and 'id="settings"' not in watched


def test_a_club_without_games_says_the_ratings_start_with_the_first_game_won(
    client: FlaskClient,
):
    club = new_club(client)
    page = client.get(club).get_data(as_text=True)
    assert "No rated game yet: the ratings start with the first game won." in page
    assert 'data-chart="ratings"' not in page and "data-rating-change" not in page


def test_the_kept_ratings_equal_a_recomputation_after_every_change(app: Flask, client: FlaskClient):
    """The ratings kept in the process (data/ratings.py) are what ``rate`` gives for the games
    as they are: after an undo that unfinishes a game, and a rename, the page follows."""
    club = new_club(client)
    key = club.rsplit("/", 1)[1]
    import_into(client, club, jsonl(timed_records()))

    def kept_and_fresh() -> tuple[Ratings, Ratings]:
        with app.test_request_context():
            found = clubs.find_club(key).club
            rows = clubs.club_games(found)
            facts = clubs.finished_facts(rows)
            spelled = clubs.spellings(found)
            kept = club_ratings(found, rows, facts, spelled)
            assert club_ratings(found, rows, facts, spelled) is kept
            return kept, rate(rated_games(found, rows, facts), spelled)

    kept, fresh = kept_and_fresh()
    assert kept == fresh and len(kept.steps) == len(timed_records()) - 1
    with app.app_context():
        last = db.session.scalars(
            select(GameRow).where(GameRow.status == "over").order_by(GameRow.id.desc())
        ).first()
        assert last is not None
        edit_key = last.edit_key
    undone = Table(client, edit_key).post("undo", {})
    assert undone.status_code == 303
    kept, fresh = kept_and_fresh()
    assert kept == fresh and len(kept.steps) == len(timed_records()) - 2
    assert rating_cells(client.get(club).get_data(as_text=True)) == {
        name: {
            "rating": shown(rating.ordinal),
            "skill": shown(rating.mu),
            "uncertainty": shown(rating.uncertainty),
            "rated-games": str(rating.games),
        }
        for name, rating in fresh.players.items()
    }
    with app.test_request_context():
        found = clubs.find_club(key).club
        ann = next(player for player in clubs.roster(found) if player.name == "Ann")
        clubs.rename(found, ann.id, "Annie")
    kept, fresh = kept_and_fresh()
    assert kept == fresh and "Annie" in kept.players and "Ann" not in kept.players
    cells = rating_cells(client.get(club).get_data(as_text=True))
    assert cells["Annie"]["rating"] == shown(fresh.players["Annie"].ordinal)
