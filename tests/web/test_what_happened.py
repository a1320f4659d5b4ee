"""See what happened: after each entry the table flashes what it scored ("+15 Ann", "no
score") by the scoreboard, the words go to a live region outside the table, and an entry that
settles a hand or ends the game points the page at the news."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

from werkzeug.test import TestResponse

from tests.web.webtable import Table, import_record, new_game, started

DATA = Path(__file__).resolve().parents[1] / "data"
_FLASH = re.compile(
    r'<p class="last-score([^"]*)" data-last-score="([^"]*)" data-spoken="([^"]*)"'
    r'(?: data-bring-into-view="([^"]*)")?>([^<]*)</p>'
)


@dataclass(frozen=True)
class Flash:
    """The flash as a page renders it: its text, what screen readers hear, whether it shows."""

    text: str
    spoken: str
    shown: bool
    news: str | None = None


def flash_of(page: str | TestResponse) -> Flash:
    """The flash of a table page or fragment."""
    html = page if isinstance(page, str) else page.get_data(as_text=True)
    found = _FLASH.findall(html)
    assert len(found) == 1, "expected one flash on the page"
    classes, text, spoken, news, shown_text = found[0]
    assert unescape(shown_text) == unescape(text), "the flash shows its data-last-score"
    return Flash(unescape(text), unescape(spoken), "last-score--show" in classes, news or None)


def cut(name: str, events: int, hands: int | None = None) -> dict[str, Any]:
    """The record ``name`` of tests/data, its last hand cut to its first ``events`` events."""
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    if hands is not None:
        data["hands"] = data["hands"][:hands]
    last = data["hands"][-1]
    last.pop("remaining", None)
    last["events"] = last["events"][:events]
    return data


def htmx(table: Table) -> Table:
    """The same table, entered as htmx does (each answer is the table fragment)."""
    return Table(table.client, table.key, htmx=True)


NOTHING = Flash("", "", False)


def test_plays_draws_passes_and_the_settlement_of_a_partnership(client):
    # Ann has led 5-0 and Bob played 0-2 on E; Cy (Ann's partner) is to play.
    table = htmx(import_record(client, cut("hand_partners_collect_wins", 2)))

    assert flash_of(table.play("2-5", "E")) == Flash(
        "+10 Ann & Cy", "Cy's 5-2 on E: +10 Ann & Cy", True
    )
    assert flash_of(table.play("5-5", "W")) == Flash(
        "+15 Bob & Dee", "Dee's 5-5 on W: +15 Bob & Dee", True
    )
    for _ in range(4):  # the boneyard down to its reserve of 4
        assert flash_of(table.post("draw", {})) == NOTHING
    for _ in range(3):
        assert flash_of(table.post("pass", {})) == NOTHING
    # The fourth pass blocks the hand: the page is pointed at the form for the pips held.
    assert flash_of(table.post("pass", {})) == Flash("", "", False, news="hand-over")

    settled = table.post(
        "settle",
        {"held-0": "67", "held-1": "4-2 4-1 4-0 3-3", "held-2": "3-2 3-1 3-0 2-2", "held-3": "6"},
    )
    assert settled.status_code == 200
    assert flash_of(settled) == Flash(
        "+15 Bob & Dee", "Hand 1 settled: +15 Bob & Dee", True, news="winner"
    )
    assert 'id="winner"' in settled.get_data(as_text=True)


def test_a_play_that_scores_nothing_says_so(client):
    table = htmx(started(client))  # Ann leads

    led = table.play("6-5")  # counts 11

    assert flash_of(led) == Flash("no score", "Ann's lead 6-5: no score", True)
    assert "last-score--nil" in led.get_data(as_text=True)
    scored = table.play("5-4")  # Bob on E: 6 + 4 = 10
    assert flash_of(scored) == Flash("+10 Bob", "Bob's 5-4 on E: +10 Bob", True)
    assert "last-score--nil" not in scored.get_data(as_text=True)


def test_choosing_the_leader_and_undo_flash_nothing(client):
    table = htmx(new_game(client, ["Ann", "Bob"]))

    assert flash_of(table.post("lead", {"how": "seat", "leader": "0"})) == NOTHING
    table.play("5-5")
    assert flash_of(table.play("5-0", "E")).text == "+10 Bob"

    undone = table.post("undo", {})

    # The page now ends with Ann's lead again, but the undo is not a new score to flash.
    assert flash_of(undone) == Flash("+10 Ann", "Ann's lead 5-5: +10 Ann", False)
    assert "Undone: Bob" in undone.get_data(as_text=True)


def test_a_refused_or_stale_entry_flashes_nothing(client):
    table = htmx(started(client))
    table.play("5-5")
    version = table.version()

    refused = table.play("6-4")  # fits no end
    stale = table.post("draw", {}, version=version - 1)

    assert refused.status_code == 422 and not flash_of(refused).shown
    assert stale.status_code == 409 and not flash_of(stale).shown


def test_without_javascript_the_page_after_an_entry_flashes_it_once(client):
    table = started(client)

    response = table.play("5-5")

    assert response.status_code == 303
    assert "#" not in response.headers["Location"], "a play brings nothing into view"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert flash_of(page) == Flash("+10 Ann", "Ann's lead 5-5: +10 Ann", True)
    assert flash_of(table.page()).shown is False, "opened again, the page flashes nothing"


def test_a_settlement_flashes_every_side_it_changed_on_the_hands_screen(client):
    # Hand 1 up to Ann's last tile: she dominoes, Bob and Cy deduct their own pips.
    table = import_record(client, cut("hand_seven_five_two_hands", 12, hands=1))
    played = table.play("5-0")
    # The hand is over: the form for what the others still hold is on the hand's own screen,
    # where the tray was; the page opens at its top, as it was.
    assert "#" not in played.headers["Location"]
    over = client.get(played.headers["Location"]).get_data(as_text=True)
    assert flash_of(over) == Flash("+10 Ann", "Ann's 5-0 on E: +10 Ann", True, news="hand-over")
    assert 'id="hand-over"' in over and "settle-form" in over

    settled = table.post("settle", {"held-1": "12", "held-2": "4-3"})

    assert settled.status_code == 303
    location = settled.headers["Location"]
    assert "#" not in location
    page = client.get(location).get_data(as_text=True)
    # The settlement began hand 2 (Ann dominoed, so she leads): still the settlement flashes.
    assert 'data-phase="play"' in page
    assert flash_of(page) == Flash(
        "-10 Bob, -5 Cy", "Hand 1 settled: -10 Bob, -5 Cy", True, news="settlement"
    )
    assert 'id="settlement"' in page and 'data-settled-hand="1"' in page


def test_the_winning_play_opens_the_page_at_the_winner(client):
    # Immediate win at 25: Ann on 20 plays 5-1 on N for 5.
    table = import_record(client, cut("hand_immediate_win", 4))

    won = table.play("5-1", "N")

    assert won.status_code == 303
    assert won.headers["Location"].endswith("#winner")
    page = client.get(won.headers["Location"]).get_data(as_text=True)
    assert flash_of(page) == Flash("+5 Ann", "Ann's 5-1 on N: +5 Ann", True, news="winner")
    assert 'id="winner"' in page and "Ann wins!" in page


def test_the_live_region_stays_outside_the_table(client):
    table = started(client)
    table.play("5-5")
    for url in (table.url, table.watch_url()):
        page = client.get(url).get_data(as_text=True)
        region = page.index('id="score-news"')
        assert 'aria-live="polite"' in page[region - 200 : region + 200]
        assert region < page.index('<section id="table"'), url
    fragment = client.get(table.url, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "score-news" not in fragment, "a region swapped with the table may go unheard"


def test_the_live_view_carries_the_flash_for_the_page_to_show(client):
    table = started(client)
    table.play("5-5")
    watch = table.watch_url()

    polled = client.get(f"{watch}/live")

    # The poller does not know whether the page saw this entry: its script decides to show it.
    assert flash_of(polled) == Flash("+10 Ann", "Ann's lead 5-5: +10 Ann", False)


def test_a_call_short_of_the_count_says_what_it_scored(client):
    # House rule muggins: the play goes in called right, then one tap says it was called
    # short; the line read out says so, not the count the play would have scored.
    table = htmx(started(client, muggins="yes"))

    assert flash_of(table.play("5-5")) == Flash("+10 Ann", "Ann's lead 5-5: +10 Ann", True)
    assert flash_of(table.post("call", {"called": "5"})) == Flash(
        "no score", "Ann's lead 5-5, called 5 of 10: no score", True
    )
    assert flash_of(table.post("call", {"called": "10"})) == Flash(
        "+10 Ann", "Ann's lead 5-5: +10 Ann", True
    )
