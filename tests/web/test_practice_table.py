"""Practice mode at the table (house rule practice, docs/rules.md 8e): after each play its
count is hidden, in the count line, the scores, the flash and its announcement, the log and
the sheet, until one tap guesses it; then it is shown with right or wrong. Off, nothing
changes: no row of guesses, no extra tap."""

from __future__ import annotations

import copy
import re
from html import unescape

from scorekeeper.rules.record import every_house_rule, left_out, read_record, write_record
from scorekeeper.web.data.clubs import fingerprint
from tests.rules.helpers import duo_domino, game_of
from tests.rules.test_practice import practice as practice_record
from tests.web.webforms import press
from tests.web.webtable import Table, side_scores, started, without_times

PRACTICE = {"practice": "yes"}


def guess_buttons(html: str) -> list[str]:
    """The values of the row of guesses, in order."""
    return re.findall(r'data-guess="(\d+)"', html)


def text_of(html: str) -> str:
    """A page's words, its tags taken out (a tile's name is wrapped to keep it whole)."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html)))


def flash(html: str) -> tuple[str, str]:
    """The flash by the scoreboard and what screen readers are told of it."""
    found = re.search(r'data-last-score="([^"]*)" data-spoken="([^"]*)"', html)
    assert found, "the page has no flash"
    return unescape(found.group(1)), unescape(found.group(2))


def hidden_everywhere(table: Table, count: int) -> None:
    """Nothing on the table, its watch page, its log or its sheet gives ``count`` away."""
    page = table.page()
    assert "data-count-line" not in page
    assert 'data-count=""' in page and "Count <strong>?</strong>" in page
    assert flash(page)[0] == "count hidden" and "count hidden" in flash(page)[1]
    assert f"= {count}" not in unescape(page)
    watch = table.client.get(table.watch_url()).get_data(as_text=True)
    assert 'data-count=""' in watch and guess_buttons(watch) == []
    assert "the count is hidden until the table guesses it" in watch
    log = unescape(table.client.get(f"{table.url}/log").get_data(as_text=True))
    assert f"= {count}" not in log
    board = unescape(table.client.get(table.watch_url() + "/board").get_data(as_text=True))
    assert "data-count-line" not in board and "data-last-points" not in board
    assert set(side_scores(board).values()) == {0}
    assert f"= {count}" not in board
    assert re.findall(r'data-hand-tally="[^"]*">[^<]*<strong>(\d+)', board) == ["0", "0"]


def test_a_scoring_play_is_hidden_until_one_tap_guesses_it_right(client):
    table = started(client, **PRACTICE)
    assert table.play("5-5").status_code == 303  # the lead counts 10
    page = table.page()
    assert side_scores(page) == {"Ann": 0, "Bob": 0}  # Ann's 10 not shown yet
    assert guess_buttons(page) == ["0", "5", "10", "15", "20"]
    assert ">No score</button>" in page
    hidden_everywhere(table, 10)
    guess = press(page, "/guess", **{"data-guess": "10"})
    assert table.client.post(f"{table.url}/guess", data=guess).status_code == 303
    page = unescape(table.page())
    assert side_scores(page) == {"Ann": 10, "Bob": 0}
    assert guess_buttons(page) == []
    assert "W 10 = 10: Ann +10" in page
    assert 'data-guess-right="yes"' in page and "Guessed 10: right" in page
    assert flash(page) == ("+10 Ann", "Ann's count guessed 10: right: +10 Ann")
    # The record keeps the guess.
    record = without_times(table.client.get(f"{table.url}/record.json").get_json())
    assert record["hands"][0]["events"] == [
        {"player": "Ann", "play": "5-5"},
        {"player": "Ann", "guess": 10},
    ]


def test_a_wrong_guess_shows_the_count_and_the_sheet_and_log_keep_the_tallies(client):
    table = started(client, **PRACTICE)
    table.play("6-4")  # 10
    table.post("guess", {"guess": "5"})
    page = unescape(table.page())
    assert 'data-guess-right="no"' in page and "Guessed 5: wrong" in page
    assert side_scores(page) == {"Ann": 10, "Bob": 0}
    assert flash(page)[1] == "Ann's count guessed 5: wrong, it was 10: +10 Ann"
    table.play("4-3")  # Bob: W 6 + E 3 = 9, no score
    table.post("guess", {"guess": "0"})
    sheet = text_of(table.client.get(f"{table.url}/sheet").get_data(as_text=True))
    assert "Counts guessed right" in sheet
    assert "Ann 0 of 1" in sheet and "Bob 1 of 1" in sheet
    log = text_of(table.client.get(f"{table.url}/log").get_data(as_text=True))
    assert "The count of Bob's 4-3 guessed 0: right, the count was 9." in log
    assert "Ann: 0 of 1 counts guessed right." in log


def test_the_next_play_may_come_before_a_guess_and_shows_the_count(client):
    table = started(client, **PRACTICE)
    table.play("5-5")
    assert table.play("5-0", "W").status_code == 303  # Bob plays without a guess of Ann's 10
    page = unescape(table.page())
    assert side_scores(page) == {"Ann": 10, "Bob": 0}  # Ann's 10 shown; Bob's count hidden
    assert 'data-guess-for="Bob"' in page
    log = text_of(table.client.get(f"{table.url}/log").get_data(as_text=True))
    # Ann's play is in the log with its count, Bob's not until it is guessed or passed by.
    assert "Ann led 5-5" in log and "Ann +10" in log
    assert "5-0" not in log


def test_undo_of_a_guess_hides_the_count_again(client):
    table = started(client, **PRACTICE)
    table.play("5-5")
    table.post("guess", {"guess": "10"})
    assert table.post("undo", {}).status_code == 303
    page = table.page()
    assert guess_buttons(page) == ["0", "5", "10", "15", "20"]
    assert side_scores(page) == {"Ann": 0, "Bob": 0}


def test_bad_guesses_are_refused_with_rule_guess_and_store_nothing(client):
    table = started(client, **PRACTICE)
    table.play("5-5")
    before = table.version()
    out_of_range = table.post("guess", {"guess": "25"})
    assert out_of_range.status_code == 422
    body = unescape(out_of_range.get_data(as_text=True))
    assert 'data-rule="guess"' in body and "up to 20" in body and "Nothing was entered." in body
    # The row of guesses stays, the count still hidden, beside the refusal.
    assert guess_buttons(body) and "data-count-line" not in body
    assert table.version() == before
    table.post("guess", {"guess": "10"})
    again = table.post("guess", {"guess": "10"})  # guessed already: the page is stale
    assert again.status_code in (409, 422)
    assert table.version() == before + 1
    fresh = table.post("guess", {"guess": "10"}, version=table.version())
    assert fresh.status_code == 422
    assert "already guessed" in unescape(fresh.get_data(as_text=True))
    for junk in ("", "ten", "-5"):
        assert table.post("guess", {"guess": junk}).status_code == 400
    assert table.version() == before + 1


def test_a_stale_guess_from_an_old_page_stores_nothing(client):
    table = started(client, **PRACTICE)
    table.play("5-5")
    old = table.version()
    table.play("5-0", "W")  # Bob plays: Ann's count shown, Bob's hidden
    stale = table.post("guess", {"guess": "10"}, version=old)
    assert stale.status_code != 303
    record = without_times(table.client.get(f"{table.url}/record.json").get_json())
    assert all("guess" not in event for event in record["hands"][0]["events"])


def test_without_practice_mode_nothing_changes_and_a_guess_is_refused(client):
    table = started(client)
    table.play("5-5")
    page = unescape(table.page())
    assert guess_buttons(page) == [] and "guess-row" not in page
    assert "W 10 = 10" in page and side_scores(page) == {"Ann": 10, "Bob": 0}
    assert flash(page)[0] == "+10 Ann"
    refused = table.post("guess", {"guess": "10"})
    assert refused.status_code == 422
    assert 'data-rule="guess"' in unescape(refused.get_data(as_text=True))
    record = without_times(table.client.get(f"{table.url}/record.json").get_json())
    assert record["hands"][0]["events"] == [{"player": "Ann", "play": "5-5"}]


def test_a_record_from_before_the_rule_means_the_same_game_and_leaves_nothing_out() -> None:
    """An export of a game without practice mode names every house rule but practice, as
    exports did before it existed: the import does not list practice among the rules left
    out, and the club's duplicate fingerprint is the one it had. A game in practice mode
    names it, and has a fingerprint of its own."""
    plain = game_of(duo_domino())
    older = write_record(plain, every_rule=True)
    assert "practice" not in older["options"] and "muggins" in older["options"]
    read = read_record(copy.deepcopy(older))
    assert left_out(read.setup) == []
    assert "practice" not in every_house_rule(read.setup)
    assert write_record(read, every_rule=True) == older
    practising = game_of(practice_record())
    assert write_record(practising, every_rule=True)["options"]["practice"] == "yes"
    assert fingerprint(read) == fingerprint(plain)
    assert fingerprint(practising) != fingerprint(plain)
