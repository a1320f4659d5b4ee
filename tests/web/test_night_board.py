"""The night's board: every table of the current round on one screen, each a card that follows
its game (scores, whose turn, the hand, finished or not), the standings beside; the wall
version behind the club's watch link, with no link to any table; and the stream that says
which table changed, so the page asks for that card alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.nights import board
from tests.web.test_clubs import new_club
from tests.web.test_nights import _roster, links_of, open_night, post, seat, start, win
from tests.web.webtable import Table

NAMES = ["Ann", "Bob", "Cy", "Di"]


def _night(client: FlaskClient) -> tuple[str, str, list[str]]:
    """A club night of twos with round 1 started: the club, the night's path, the tables'
    edit keys in table order."""
    club = new_club(client)
    _roster(client, club, NAMES)
    night = open_night(client, club, NAMES, table_size="2", rounds="2", minutes="30")
    keys = links_of(start(client, seat(client, night)))
    assert len(keys) == 2
    return club, night, keys


def _card(html: str, number: int) -> str:
    """Table ``number``'s card as the page (or the card's own answer) shows it."""
    found = re.search(
        rf'<li class="board-card[^"]*" id="board-table-{number}".*?(?=<li class="board-card |</ol>|\Z)',
        html,
        re.S,
    )
    assert found is not None, html
    return found.group(0)


def _version(card: str) -> int:
    found = re.search(r'data-version="(\d+)"', card)
    assert found is not None
    return int(found.group(1))


def _watch_key(client: FlaskClient, club: str) -> str:
    found = re.search(r"/clubs/watch/([A-Za-z0-9_-]{22})", client.get(club).get_data(as_text=True))
    assert found is not None
    return found.group(1)


def test_the_board_shows_each_table_and_follows_its_entries(client: FlaskClient) -> None:
    _club, night, keys = _night(client)
    assert f'href="{night}/board" data-night-board' in client.get(night).get_data(as_text=True)
    board = client.get(f"{night}/board")
    assert board.status_code == 200
    html = board.get_data(as_text=True)
    assert html.count('class="board-card"') == 2
    first = _card(html, 1)
    assert 'data-side-score="' in first and 'data-card-state="playing"' in first
    assert 'data-card-hand="1"' in first
    # The director's card opens its table's game.
    assert f'href="/games/{keys[0]}" data-board-table-link' in first
    # The round's time, counting down from the night's 30 minutes.
    clock = re.search(r'data-left="(\d+)"', html)
    assert clock is not None and 29 * 60 < int(clock.group(1)) <= 30 * 60
    table = Table(client, keys[0])
    before = table.scores()
    assert table.play("3-2").status_code in (200, 303)  # 5 points: not the game yet
    card = client.get(f"{night}/board/tables/1")
    assert card.status_code == 200
    assert card.headers["Cache-Control"] == "no-store"
    now = card.get_data(as_text=True)
    assert _version(now) > _version(first)
    scorer = next(n for n, s in table.scores().items() if s == before[n] + 5)
    assert f'data-side-score="{scorer}">5<' in now
    # The turn moved on to the other player, in hand 1 still.
    other = next(n for n in table.scores() if n != scorer)
    assert f'data-card-turn="{other}"' in now and 'data-card-hand="1"' in now
    # The other table did not change.
    assert _version(_card(client.get(f"{night}/board").get_data(as_text=True), 2)) == _version(
        _card(html, 2)
    )


def test_a_finished_game_moves_the_standings(client: FlaskClient) -> None:
    _club, night, keys = _night(client)
    standings = client.get(f"{night}/board/standings").get_data(as_text=True)
    assert standings.count('data-stat="match_points">0<') == 4
    win(client, keys[1])
    card = client.get(f"{night}/board/tables/2").get_data(as_text=True)
    assert 'data-state="over"' in card and 'data-finished="1"' in card
    assert "won the game" in card
    standings = client.get(f"{night}/board/standings").get_data(as_text=True)
    assert standings.count('data-stat="match_points">2<') == 1
    assert 'id="standings-title"' in standings
    page = client.get(f"{night}/board").get_data(as_text=True)
    assert page.count('data-stat="match_points">2<') == 1


def test_the_versions_say_which_table_changed(client: FlaskClient) -> None:
    _club, night, keys = _night(client)

    def said() -> dict[str, int]:
        text = client.get(f"{night}/board/versions").get_data(as_text=True)
        lines = text.splitlines()
        assert lines[0].startswith("round ")
        return {n: int(v) for n, v in (line.split() for line in lines[1:])}

    before = said()
    Table(client, keys[0]).play("3-2")
    after = said()
    assert after["1"] > before["1"] and after["2"] == before["2"]


def test_the_wall_shows_no_link_of_any_table(client: FlaskClient) -> None:
    club, night, keys = _night(client)
    night_id = night.rsplit("/", 1)[1]
    watch = _watch_key(client, club)
    director = client.get(f"{night}/board").get_data(as_text=True)
    wall_url = f"/clubs/watch/{watch}/nights/{night_id}/wall"
    assert f'href="{wall_url}" data-board-wall' in director
    wall = client.get(wall_url)
    assert wall.status_code == 200
    html = wall.get_data(as_text=True)
    assert html.count('class="board-card"') == 2
    club_key = club.rsplit("/", 1)[1]
    for secret in [*keys, club_key]:
        assert secret not in html
    assert "<form" not in html.split("<main", 1)[1]
    card = client.get(f"{wall_url}/tables/1").get_data(as_text=True)
    assert 'id="board-table-1"' in card and keys[0] not in card and "href" not in card
    assert client.get(f"{wall_url}/standings").status_code == 200
    # Nothing can be sent to the wall.
    assert client.post(wall_url).status_code == 404


def test_other_links_are_refused(client: FlaskClient) -> None:
    club, night, keys = _night(client)
    night_id = night.rsplit("/", 1)[1]
    watch = _watch_key(client, club)
    club_key = club.rsplit("/", 1)[1]
    # A table's edit link in place of the club's: refused, saying which link is needed.
    refused = client.get(f"/clubs/{keys[0]}/nights/{night_id}/board")
    assert refused.status_code == 403
    assert "table's edit link" in unescape(refused.get_data(as_text=True))
    assert client.get(f"/clubs/{keys[0]}/nights/{night_id}/board/tables/1").status_code == 403
    # The club's watch link does not open the director's board.
    refused = client.get(f"/clubs/{watch}/nights/{night_id}/board")
    assert refused.status_code == 403 and "watch link" in refused.get_data(as_text=True)
    # The wall needs the club's watch link: its edit key or a table's there is no wall.
    assert client.get(f"/clubs/watch/{club_key}/nights/{night_id}/wall").status_code == 404
    assert client.get(f"/clubs/watch/{keys[0]}/nights/{night_id}/wall").status_code == 404
    # A night or table the club does not have.
    assert client.get(f"{club}/nights/999/board").status_code == 404
    assert client.get(f"{night}/board/tables/9").status_code == 404


def test_the_board_before_a_round_starts(client: FlaskClient) -> None:
    club = new_club(client)
    _roster(client, club, NAMES)
    night = open_night(client, club, NAMES, table_size="2")
    html = client.get(f"{night}/board").get_data(as_text=True)
    assert "data-board-empty" in html and "data-ends-at" not in html


ROUND = re.compile(r"event: round\ndata: (\d+)\n\n")


def _text(chunk: str | bytes) -> str:
    return chunk.decode() if isinstance(chunk, bytes) else chunk


TABLE = re.compile(r"event: table\ndata: (\d+) (\d+)\n\n")


def _tables(chunks: Iterator[str | bytes], count: int) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    for chunk in chunks:
        said = chunk.decode() if isinstance(chunk, bytes) else chunk
        found += [(int(n), int(v)) for n, v in TABLE.findall(said)]
        if len(found) >= count:
            return found
    return found


@pytest.fixture
def pushing(app: Flask) -> Flask:
    app.config["LIVE_PUSH"] = True
    return app


def test_the_stream_names_the_table_that_changed(pushing: Flask, client: FlaskClient) -> None:
    _club, night, keys = _night(client)
    response = client.get(f"{night}/board/changes", buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    chunks = iter(response.response)  # type: ignore[arg-type]
    opening = dict(_tables(chunks, 2))
    assert set(opening) == {1, 2}
    Table(client, keys[1]).play("3-2")
    Table(client, keys[1]).play("2-2")
    # Only table 2 is named, and its last version is the card's.
    heard = _tables(chunks, 1)
    while heard[-1][1] < _version(client.get(f"{night}/board/tables/2").get_data(as_text=True)):
        heard += _tables(chunks, 1)
    assert {n for n, _ in heard} == {2}
    card = client.get(f"{night}/board/tables/2").get_data(as_text=True)
    assert heard[-1][1] == _version(card) > opening[2]
    response.close()


def test_the_stream_says_when_the_next_round_begins(
    pushing: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(board, "HEARTBEAT_SECONDS", 0.1)
    _club, night, keys = _night(client)
    response = client.get(f"{night}/board/changes", buffered=False)
    chunks = iter(response.response)  # type: ignore[arg-type]
    said = "".join(_text(next(chunks)) for _ in range(2))
    first = ROUND.search(said)
    assert first is not None
    for key in keys:
        win(client, key)
    start(client, seat(client, night))
    for chunk in chunks:
        found = ROUND.search(_text(chunk))
        if found:
            assert found.group(1) != first.group(1)
            break
    else:
        raise AssertionError("the stream ended without saying the new round")
    assert list(chunks) == []  # and it ends: the page opens it again for the new round
    response.close()


def test_a_table_the_director_ends_is_named_within_a_heartbeat(
    pushing: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(board, "HEARTBEAT_SECONDS", 0.1)
    _club, night, _keys = _night(client)
    response = client.get(f"{night}/board/changes", buffered=False)
    chunks = iter(response.response)  # type: ignore[arg-type]
    opening = dict(_tables(chunks, 2))
    round_page = f"{night}/rounds/1"
    ended = post(client, f"{round_page}/tables/1/end", round_page)
    assert ended.status_code == 303
    assert _tables(chunks, 1) == [(1, opening[1] + 1)]
    card = client.get(f"{night}/board/tables/1").get_data(as_text=True)
    assert _version(card) == opening[1] + 1 and "ended by the director" in card
    response.close()


def test_without_a_stream_the_board_asks_the_versions(client: FlaskClient) -> None:
    _club, night, _keys = _night(client)
    client.application.config["LIVE_PUSH"] = False
    assert client.get(f"{night}/board/changes").status_code == 204
