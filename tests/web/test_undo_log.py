"""Nothing entered is ever lost: an undo keeps the entry (struck through in the log), and Redo
brings back the entry undone last while nothing new has been entered."""

from __future__ import annotations

import re
from html import unescape

from sqlalchemy import text

from scorekeeper.web.data.database import db
from scorekeeper.web.table.answers import STALE_REDO
from tests.web.webtable import import_record, page_version, started


def stored(app, table) -> list[tuple[int, str, bool]]:  # type: ignore[no-untyped-def]
    """Every stored event of the game: its number, kind and whether it was undone."""
    with app.app_context():
        rows = db.session.execute(
            text(
                "SELECT seq, kind, undone_at IS NOT NULL FROM event JOIN game"
                " ON game.id = event.game_id WHERE game.edit_key = :key ORDER BY event.id"
            ),
            {"key": table.key},
        ).all()
    return [(seq, kind, bool(undone)) for seq, kind, undone in rows]


def two_plays(client):  # type: ignore[no-untyped-def]
    """Ann leads 6-6, Bob plays 6-4 on W."""
    table = started(client)
    assert table.play("6-6").status_code == 303
    assert table.play("6-4", "W").status_code == 303
    return table


def redo_button(page: str) -> str | None:
    """The Redo button's whole label (its title; the button's words may be cut short), or None
    when the page offers no redo."""
    found = re.search(r'data-action="redo"[^>]*title="([^"]+)"', page)
    return unescape(found.group(1)) if found else None


def test_an_undo_keeps_the_entry_and_the_game_replays_without_it(app, client):
    table = two_plays(client)
    assert table.post("undo", {}).status_code == 303
    assert stored(app, table) == [(1, "new_hand", False), (2, "play", False), (3, "play", True)]
    assert table.seq() == 2 and "Bob to play" in unescape(table.page())
    record = client.get(f"{table.url}/record.json").get_json()
    assert [e.get("play") for e in record["hands"][0]["events"]] == ["6-6"]


def test_redo_brings_back_the_undone_entry_and_is_then_gone(app, client):
    table = two_plays(client)
    before = table.scores()
    assert redo_button(table.page()) is None, "nothing undone: no redo"
    table.post("undo", {})
    page = table.page()
    assert redo_button(page) == "Redo Bob's 6-4 on W"
    redone = table.post("redo", {})
    assert redone.status_code == 303
    page = unescape(table.page())
    assert "Redone: Bob's 6-4 on W." in page
    assert table.scores() == before and table.seq() == 3
    assert redo_button(page) is None
    # The undone row stays, and the entry is stored again after it.
    assert stored(app, table) == [
        (1, "new_hand", False),
        (2, "play", False),
        (3, "play", True),
        (3, "play", False),
    ]


def test_several_undos_are_redone_latest_first(client):
    table = two_plays(client)
    table.post("undo", {})
    table.post("undo", {})
    assert redo_button(table.page()) == "Redo Ann's lead 6-6"
    assert table.post("redo", {}).status_code == 303
    assert redo_button(table.page()) == "Redo Bob's 6-4 on W"
    assert table.post("redo", {}).status_code == 303
    assert table.seq() == 3 and redo_button(table.page()) is None


def test_a_new_entry_ends_redo_and_a_stale_redo_is_refused_saying_why(app, client):
    table = two_plays(client)
    table.post("undo", {})
    with_redo = table.page()
    assert redo_button(with_redo) is not None
    assert table.play("6-5", "E").status_code == 303
    after = table.page()
    assert redo_button(after) is None, "something new was entered: no redo"

    response = table.post("redo", {}, version=page_version(with_redo))
    assert response.status_code == 409
    page = unescape(response.get_data(as_text=True))
    assert str(STALE_REDO) in page
    assert "Undo Bob's 6-5 on E" in page
    # A redo sent with the current version finds nothing to bring back either.
    response = table.post("redo", {})
    assert response.status_code == 409
    assert "There is nothing to redo" in unescape(response.get_data(as_text=True))
    assert stored(app, table)[-2:] == [(3, "play", True), (3, "play", False)]
    assert table.seq() == 3


def test_redo_with_htmx_answers_the_table_and_the_watch_link_offers_none(client):
    table = two_plays(client)
    table.post("undo", {})
    watch = client.get(table.watch_url()).get_data(as_text=True)
    assert redo_button(watch) is None and "/redo" not in watch
    table.htmx = True
    response = table.post("redo", {})
    assert response.status_code == 200
    body = unescape(response.get_data(as_text=True))
    assert body.lstrip().startswith('<section id="table"')
    assert "Redone: Bob's 6-4 on W." in body
    assert client.post(table.watch_url() + "/redo", data={"version": "9"}).status_code == 404


def test_a_settlement_undone_with_the_hand_it_began_is_redone_whole(client):
    record = {
        "format": "all-fives/1",
        "players": ["Ann", "Bob"],
        "options": {"deal": "five-each"},
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
    table = import_record(client, record)
    seq, scores = table.seq(), table.scores()
    table.post("undo", {})
    table.post("undo", {})
    assert table.seq() == seq - 2
    table.post("redo", {})
    table.post("redo", {})
    assert table.seq() == seq and table.scores() == scores


def test_the_log_strikes_undone_entries_through_with_when(client):
    table = two_plays(client)
    table.post("undo", {})
    table.play("6-5", "E")
    log = unescape(client.get(f"{table.url}/log").get_data(as_text=True))
    undone = re.findall(
        r'<li class="log-entry undone" data-undone><del>([^<]+)</del>(.*?)</li>', log
    )
    assert [summary for summary, _ in undone] == ["Bob played 6-4 on W"]
    assert re.search(r'undone <time datetime="\d{4}-\d\d-\d\dT[\d:]+Z" data-local=', undone[0][1])
    # It stands where it was entered: after Ann's lead, before the 6-5 that replaced it.
    assert log.index("Bob played 6-4 on W") < log.index('data-index="2"')
    assert log.index('data-index="1"') < log.index("Bob played 6-4 on W")
    watch_log = unescape(client.get(f"{table.watch_url()}/log").get_data(as_text=True))
    assert "<del>Bob played 6-4 on W</del>" in watch_log


def test_the_log_keeps_an_undo_that_was_redone(client):
    table = two_plays(client)
    table.post("undo", {})
    table.post("redo", {})
    table.post("undo", {})
    table.post("redo", {})
    log = unescape(client.get(f"{table.url}/log").get_data(as_text=True))
    undone = re.findall(
        r'<li class="log-entry undone" data-undone data-redone><del>([^<]+)</del>(.*?)</li>', log
    )
    # Both undos, each with when it was undone and when it was redone...
    assert [summary for summary, _ in undone] == ["Bob played 6-4 on W"] * 2
    stamp = r'<time datetime="\d{4}-\d\d-\d\dT[\d:]+Z" data-local='
    for _, when in undone:
        assert re.search(rf"undone {stamp}.*, redone {stamp}", when), when
    # ...before the entry as it stands, live, once.
    assert log.count('data-index="2"') == 1
    assert log.rindex("<del>Bob played 6-4 on W</del>") < log.index('data-index="2"')
    assert table.seq() == 3 and redo_button(table.page()) is None


def test_undoing_the_first_entry_shows_it_before_the_first_hand(client):
    table = started(client)
    table.post("undo", {})  # the choice of leader
    log = unescape(client.get(f"{table.url}/log").get_data(as_text=True))
    assert "Nothing has been entered yet." in log
    assert "<del>Ann to lead the next hand</del>" in log
