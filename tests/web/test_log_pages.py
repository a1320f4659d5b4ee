"""The log one hand a page: the latest hand by default, another by ``?hand=N``, the hand of a
"Why?" link's entry with that entry open, plain links between hands, the whole log to print,
undone entries in the hand they were entered in, and the watch link's log."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules import Game, Play, Settle, Setup
from scorekeeper.rules.explain import explain_all, hand_spans
from scorekeeper.rules.record import write_record
from scorekeeper.rules.simulate import play_game, play_hand
from tests.web.webtable import Table, import_record, new_game

ENTRY = re.compile(r'<li id="e(\d+)" class="log-entry[^"]*" data-index="\d+"')
OPENED = re.compile(r'<li id="e(\d+)"[^>]*>\s*<details open>')
SECTION = re.compile(r'<section class="log-hand" id="hand-(\d+)"')
NO_SUCH_HAND = "This game's log has no such hand"


def long_game(hands: int = 5) -> Game:
    """A simulated 2-player game of ``hands`` hands, nobody near the target."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"target": 1000})
    game = play_game(setup, random.Random(3), max_hands=hands)
    assert len(game.hands) == hands
    return game


def get(client: FlaskClient, url: str, status: int = 200) -> str:
    """The page at ``url``, checked for its status."""
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def shown(page: str) -> tuple[list[int], list[int]]:
    """The hands the log page shows, and the indices of the entries it shows."""
    return [int(n) for n in SECTION.findall(page)], [int(i) for i in ENTRY.findall(page)]


def link(page: str, hook: str) -> str | None:
    """The href of the first link with the attribute ``hook`` (e.g. ``rel="next"``)."""
    found = re.search(rf'<a [^>]*href="([^"]+)"[^>]*{hook}|<a [^>]*{hook}[^>]*href="([^"]+)"', page)
    return None if found is None else unescape(found.group(1) or found.group(2))


@pytest.fixture
def imported(client: FlaskClient) -> tuple[Table, Game]:
    """A five-hand game, imported."""
    game = long_game()
    return import_record(client, write_record(game)), game


# -- one hand a page -------------------------------------------------------------------------


def test_the_log_opens_at_the_latest_hand_alone(client, imported):
    table, game = imported
    page = get(client, f"{table.url}/log")
    last = hand_spans(game)[-1]
    assert shown(page) == ([5], list(last))
    assert "<title>Log of Ann v Bob, hand 5" in page
    assert 'data-shown-hand="5">Hand 5 of 5<' in page


def test_each_hand_has_its_own_page_with_the_explanations_of_the_whole_log(client, imported):
    table, game = imported
    whole = explain_all(game)
    for number, span in enumerate(hand_spans(game), start=1):
        page = unescape(get(client, f"{table.url}/log?hand={number}"))
        # Each tile's name is kept on one line by a span of its own (languages.tiles_unbroken).
        page = re.sub(r'<span class="tile-nowrap">([^<]*)</span>', r"\1", page)
        assert shown(page) == ([number], list(span))
        for explanation in whole:
            if explanation.index in span:
                assert str(explanation.summary) in page
            elif explanation.kind == "play":
                assert str(explanation.summary) not in page


def test_an_open_link_lands_on_its_hand_with_that_entry_open(client, imported):
    table, game = imported
    for number, span in enumerate(hand_spans(game), start=1):
        for index in (span.start, span.start + 1, span.stop - 1):
            page = get(client, f"{table.url}/log?open={index}")
            assert shown(page)[0] == [number], index
            assert OPENED.findall(page) == [str(index)]
            # The entry's own link is the same deep link.
            assert f'href="/games/{table.key}/log?open={index}#e{index}"' in page


def test_the_tables_why_links_open_their_entry_even_in_an_earlier_hand(client):
    # A hand ended by a domino is settled and the next hand begun in one entry: the table's
    # "Why? The settlement" then points into the hand before the one in play.
    game = domino_hand(kept=1)
    table = import_record(client, write_record(game))
    page = table.page()
    assert 'data-phase="play"' in page and len(game.hands) == 2
    why = re.findall(r'href="(/games/[^"]+/log\?open=(\d+)#e\d+)"', page)
    assert why, "the table links to the log"
    for url, index in why:
        log = get(client, unescape(url))
        assert OPENED.findall(log) == [index]
    settle = next(i for i, e in enumerate(game.events) if isinstance(e, Settle))
    assert str(settle) in [index for _, index in why]
    assert shown(get(client, f"{table.url}/log?open={settle}"))[0] == [1]


def test_links_step_from_hand_to_hand_without_javascript(client, imported):
    table, _ = imported
    url = f"{table.url}/log?hand=1"
    visited = []
    while url is not None:
        page = get(client, url)
        number = shown(page)[0][0]
        visited.append(number)
        assert "<script>" not in page and "hx-get" not in page
        previous = link(page, 'rel="prev"')
        assert previous == (None if number == 1 else f"{table.url}/log?hand={number - 1}")
        hands = re.findall(r'href="([^"]+)" data-hand="(\d+)"( aria-current="page")?', page)
        assert [(h, int(n)) for h, n, _ in hands] == [
            (f"{table.url}/log?hand={n}", n) for n in range(1, 6)
        ]
        assert [int(n) for _, n, current in hands if current] == [number]
        assert link(page, "data-whole-log") == f"{table.url}/log?hand=all"
        url = link(page, 'rel="next"')
    assert visited == [1, 2, 3, 4, 5]


def test_the_whole_log_to_print_shows_every_hand(client, imported):
    table, game = imported
    page = get(client, f"{table.url}/log?hand=all&open=7")
    assert shown(page) == ([1, 2, 3, 4, 5], list(range(len(game.events))))
    assert OPENED.findall(page) == ["7"]
    assert 'data-whole-log aria-current="page"' in page
    assert link(page, 'rel="prev"') is None and link(page, 'rel="next"') is None


@pytest.mark.parametrize(
    "asked",
    ["0", "6", "-1", "abc", "", "1.5", "1e3", "\u0663", "9" * 5000, "%00", "all ", "ALL", "01"],
)
def test_a_hand_that_is_not_in_the_game_is_a_clear_404(client, imported, asked):
    table, _ = imported
    page = unescape(get(client, f"{table.url}/log?hand={asked}", status=404))
    assert f"{NO_SUCH_HAND}: it has hands 1 to 5." in page
    assert 'data-status="404"' in page


def test_an_odd_open_index_shows_the_latest_hand_with_nothing_open(client, imported):
    table, _ = imported
    for odd in ("-1", "99999", "x", "", "99999999999999999999999"):
        page = get(client, f"{table.url}/log?open={odd}")
        assert shown(page)[0] == [5] and not OPENED.findall(page)


def test_a_game_with_no_hand_yet_has_an_empty_log_and_no_hand_to_ask_for(client):
    table = new_game(client, ["Ann", "Bob"])
    page = get(client, f"{table.url}/log")
    assert "Nothing has been entered yet." in page and "data-log-pages" not in page
    assert "nothing has been entered yet" in get(client, f"{table.url}/log?hand=1", status=404)
    assert "Nothing has been entered yet." in get(client, f"{table.url}/log?hand=all")


def test_a_log_page_or_the_sheet_replays_nothing_but_the_hand_shown(client, imported, monkeypatch):
    table, game = imported
    table.page()  # the game is replayed once, then kept
    pushed: list[object] = []
    push = Game.push

    def counting(self: Game, event: object) -> None:
        pushed.append(event)
        push(self, event)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "push", counting)
    spans = hand_spans(game)
    for query in ("", "?hand=1", "?open=40"):
        pushed.clear()
        span = spans[shown(get(client, f"{table.url}/log{query}"))[0][0] - 1]
        # The hand's events, explained, and again for its referee notes at most.
        assert len(span) <= len(pushed) <= 2 * len(span), query
    for paper in ("sheet", "sheet.csv"):
        pushed.clear()
        get(client, f"{table.url}/{paper}")
        assert pushed == [], paper


# -- undone entries --------------------------------------------------------------------------


def domino_hand(kept: int = 2) -> Game:
    """The first simulated game whose first hand ends by a domino, then ``kept`` events of
    hand 2 (its new hand, its lead)."""
    for seed in range(500):
        game = Game(Setup.create(["Ann", "Bob"], "all-fives"))
        rng = random.Random(seed)
        play_hand(game, rng)
        if game.hands[0].result == "domino":
            play_hand(game, rng)
            cut = hand_spans(game)[1].start + kept
            return Game(game.setup, game.events[:cut])
    raise AssertionError("no domino hand found")


def undone(page: str) -> list[str]:
    """The undone entries a log page shows, in order."""
    return re.findall(
        r'<li class="log-entry undone" data-undone><del>([^<]+)</del>', unescape(page)
    )


def test_undone_entries_show_in_the_hand_they_were_entered_in(client):
    game = domino_hand()
    hand_1, hand_2 = hand_spans(game)
    last_play = game.events[hand_1.stop - 2]
    assert isinstance(last_play, Play) and isinstance(game.events[hand_1.stop - 1], Settle)
    settle = game.events[hand_1.stop - 1]
    assert isinstance(settle, Settle)
    # Import hand 1 up to its last play; enter it, undo it, enter it again.
    record = write_record(Game(game.setup, game.events[: hand_1.stop - 2]))
    table = import_record(client, record)
    assert table.play(str(last_play.tile), last_play.end).status_code == 303
    assert table.post("undo", {}).status_code == 303
    assert table.play(str(last_play.tile), last_play.end).status_code == 303
    # Settle: the one who dominoed leads hand 2 in the same entry. Bob's lead in hand 2 is
    # entered, undone, and another tile led instead.
    held = {
        f"held-{seat}": str(h) if isinstance(h, int) else " ".join(map(str, h))
        for seat, h in settle.remaining.items()
    }
    assert table.post("settle", held).status_code == 303
    lead = game.events[hand_2.start + 1]
    assert isinstance(lead, Play)
    other = "0-0" if str(lead.tile) != "0-0" else "1-1"
    assert table.play(other).status_code == 303
    assert table.post("undo", {}).status_code == 303
    assert table.play(str(lead.tile)).status_code == 303

    latest = get(client, f"{table.url}/log")
    assert shown(latest)[0] == [2]
    leader = game.players[lead.player]
    assert undone(latest) == [f"{leader} played {other}"]
    # It stands after the new hand and before the lead that replaced it.
    struck = latest.index("data-undone")
    assert (
        latest.index(f'id="e{hand_2.start}"') < struck < latest.index(f'id="e{hand_2.start + 1}"')
    )

    first = get(client, f"{table.url}/log?hand=1")
    mover = game.players[last_play.player]
    on = f" on {last_play.end}" if last_play.end else ""
    assert undone(first) == [f"{mover} played {last_play.tile}{on}"]
    struck = first.index("data-undone")
    assert (
        first.index(f'id="e{hand_1.stop - 3}"') < struck < first.index(f'id="e{hand_1.stop - 2}"')
    )

    whole = get(client, f"{table.url}/log?hand=all")
    assert undone(whole) == undone(first) + undone(latest)


# -- the watch link --------------------------------------------------------------------------


def test_the_watch_links_log_pages_like_the_edit_one_and_links_no_edit_page(client, imported):
    table, game = imported
    watch = table.watch_url()
    for query in ("", "?hand=2", "?open=3", "?hand=all"):
        page = get(client, f"{watch}/log{query}")
        assert table.key not in page, query
        assert not re.search(r'href="/games/[A-Za-z0-9_-]{22}', page), query
    page = get(client, f"{watch}/log?hand=2")
    assert shown(page) == ([2], list(hand_spans(game)[1]))
    assert link(page, 'rel="next"') == f"{watch}/log?hand=3"
    assert f'<a href="{watch}" data-back>Back to the table</a>' in page
    assert get(client, f"{watch}/log?hand=9", status=404)
