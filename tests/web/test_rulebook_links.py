"""Every link into the rulebook lands on a paragraph that is there (docs/rules.md 10): a
refusal's rule link, on the table and on the import pages, and each log entry's Why? links to
the rules it applies; and the rules pages state the game itself, each basic rule with its
worked example."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import PRESETS, RULE_IDS
from scorekeeper.rules.basics import (
    BASIC_RULES,
    BASICS_FOR_REFUSAL,
    SETTLEMENT_RULES,
    WINNING_RULE,
)
from scorekeeper.web.paper import rule_url
from tests.web.test_paper import DUO, domino_record, get, import_record, play

DATA = Path(__file__).resolve().parents[1] / "data"
RULE_LINK = re.compile(r'<a class="rule-link" href="([^"]+)"')
WHY_LINK = re.compile(r'<a href="([^"]+)" data-rule-anchor="([^"]+)">')


def plain(page: str) -> str:
    """``page`` without the spans that keep each tile's name on one line (languages.tiles_unbroken)."""
    return re.sub(r'<span class="tile-nowrap">([^<]*)</span>', r"\1", page)


def corpus(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return record


def lands(client: FlaskClient, href: str) -> str:
    """Open ``href`` and check its fragment names an element of the page; the fragment."""
    parts = urlsplit(unescape(href))
    assert parts.fragment, f"{href} names no paragraph"
    page = get(client, parts.path)
    assert f'id="{parts.fragment}"' in page, f"{href}: no element has that id"
    return parts.fragment


def refusal_link(response: Any, rule: str) -> str:
    """The rule link of the refusal ``response`` shows, which must name ``rule``."""
    assert response.status_code == 422, response.status_code
    page = response.get_data(as_text=True)
    assert f'data-rule="{rule}"' in page, f"the refusal does not name {rule}"
    found = RULE_LINK.search(page)
    assert found, "the refusal has no rule link"
    return found.group(1)


def test_each_rule_id_links_to_a_paragraph_of_the_rules_page(app: Flask, client: FlaskClient):
    """As the import pages link a refusal: every rule id, and those about a basic rule go to
    that rule's paragraph, which names the rule id back."""
    with app.test_request_context():
        hrefs = {rule: rule_url(rule) for rule in RULE_IDS}
    page = plain(get(client, "/rules"))
    for rule, href in hrefs.items():
        anchor = lands(client, href)
        assert anchor == BASICS_FOR_REFUSAL.get(rule, f"rule-{rule}")
    for rule, anchor in BASICS_FOR_REFUSAL.items():
        paragraph = re.search(rf'<li id="{anchor}".*?</li>', page, re.S)
        assert paragraph and f'href="#rule-{rule}"' in paragraph.group(0), rule
        entry = re.search(rf'<li id="rule-{rule}".*?</li>', page, re.S)
        assert entry and f'href="#{anchor}"' in entry.group(0), rule
    assert set(BASICS_FOR_REFUSAL) == {
        "spinner-sides",
        "draw-empty",
        "pass-boneyard",
        "lead",
        "game-over",
    }


def test_refusals_on_the_table_link_to_a_paragraph_of_the_games_rules(client: FlaskClient):
    started = {"lead": "Ann", "events": [play("Ann", "6-6")]}
    table = import_record(client, {"format": "all-fives/1", "players": DUO, "hands": [started]})
    emptied = {"lead": "Ann", "events": [play("Ann", "6-6"), {"player": "Bob", "draw": 10}]}
    empty = import_record(client, {"format": "all-fives/1", "players": DUO, "hands": [emptied]})
    won = import_record(client, domino_record({"Bob": 13}, target=15))
    refused = {
        "match": (table, table.post("play", {"tile": "5-4", "end": "W"})),
        "spinner-sides": (table, table.post("play", {"tile": "6-3", "end": "N"})),
        "pass-boneyard": (table, table.post("pass", {})),
        "draw-empty": (empty, empty.post("draw", {})),
        "game-over": (won, won.post("play", {"tile": "0-0"})),
    }
    for rule, (game, response) in refused.items():
        href = refusal_link(response, rule)
        assert href.startswith(f"/games/{game.key}/rules#"), href
        assert lands(client, href) == BASICS_FOR_REFUSAL.get(rule, f"rule-{rule}")


@pytest.mark.parametrize(
    "record",
    [
        "hand_blocked_fewest_collects",
        "hand_totally_fives_collects_in_fives",
        "hand_muggins_claim",
        "hand_practice_guesses",
        "hand_adjust_before_settlement",
        "hand_immediate_win",
        "hand_seven_five_two_hands",
        "sim_all_fives_2p",
    ],
)
def test_every_why_link_of_the_log_lands_on_a_paragraph(client: FlaskClient, record: str):
    table = import_record(client, corpus(record))
    log = get(client, f"/games/{table.key}/log?hand=all")
    links = WHY_LINK.findall(log)
    assert links, "the log links to no rule"
    for href, anchor in set(links):
        assert href.startswith(f"/games/{table.key}/rules#")
        assert lands(client, href) == anchor


def why_anchors(log: str, index: int) -> list[str]:
    """The anchors the Why? of log entry ``index`` links to."""
    entry = re.search(rf'<li id="e{index}"[^>]*>.*?</details>', log, re.S)
    assert entry, f"no entry {index}"
    return [anchor for _href, anchor in WHY_LINK.findall(entry.group(0))]


def test_each_entry_links_to_the_rules_it_applies(client: FlaskClient):
    table = import_record(client, domino_record({"Bob": 13}, target=15))
    log = get(client, f"/games/{table.key}/log")
    assert why_anchors(log, 0) == ["basic-leader"]  # the new hand
    assert why_anchors(log, 1) == ["basic-count", "basic-doubles", "basic-spinner"]  # 6-6
    assert why_anchors(log, 2) == ["basic-drawing"]
    assert why_anchors(log, 3) == ["basic-count"]  # 6-3 on W
    assert why_anchors(log, 6) == ["basic-count", "basic-spinner"]  # 6-4 on N
    # The settlement that won the game: all-fives deducts, rounded, and decides the game.
    assert why_anchors(log, 11) == [
        "basic-settle-all-fives",
        "basic-rounding",
        "basic-winning",
    ]
    blocked = import_record(client, corpus("hand_blocked_fewest_collects"))
    log = get(client, f"/games/{blocked.key}/log")
    settled = re.findall(r'<li id="e(\d+)"[^>]*data-kind="settle"', log)
    assert settled
    assert why_anchors(log, int(settled[-1]))[:3] == [
        "basic-blocked",
        "basic-settle-totally-fives",
        "basic-rounding",
    ]
    passed = re.findall(r'<li id="e(\d+)"[^>]*data-kind="pass"', log)
    assert passed and why_anchors(log, int(passed[0])) == ["basic-passing"]


def test_the_rules_pages_state_each_basic_rule_with_its_example(client: FlaskClient):
    page = plain(get(client, "/rules"))
    everything = (*BASIC_RULES, *SETTLEMENT_RULES.values(), WINNING_RULE)
    for rule in everything:
        paragraph = re.search(rf'<li id="{rule.anchor}".*?</li>', page, re.S)
        assert paragraph, rule.anchor
        text = unescape(paragraph.group(0))
        assert str(rule.text) in text and str(rule.example) in text
        assert f'data-basic-example="{rule.name}"' in text
    assert {f"basic-settle-{preset}" for preset in PRESETS} <= {r.anchor for r in everything}
    # The seeds' own figures, as a table would look them up.
    for figure in ("5, 5, 6 and 4 count 20", "7 pips rounds to 5", "8 pips rounds to 10"):
        assert figure in unescape(page)
    assert "26 rounds to 25, and 25 divided by 5 is 5" in unescape(page)
    assert "Leading 5-5 alone counts 5 + 5 = 10" in unescape(page)
    # A game's page states the game too, with the settlement of its own preset alone.
    table = import_record(client, corpus("hand_totally_fives_collects_in_fives"))
    own = get(client, f"/games/{table.key}/rules")
    assert 'id="basic-count"' in own and 'id="basic-winning"' in own
    assert 'id="basic-settle-totally-fives"' in own
    assert 'id="basic-settle-fives-up"' not in own


def test_the_corrected_texts_read_as_the_rules_are(client: FlaskClient):
    page = unescape(plain(get(client, "/rules")))
    fives_up = re.search(r'<li id="preset-fives-up".*?</li>', page, re.S)
    assert fives_up and "pips less their own" in fives_up.group(0)
    assert "Had Cy played first" not in page
    assert "Had Bob played or drawn before crying it, the 15 would have been lost." in page
    assert "or 2 where the amount is divided by 5" in page
    adjustments = re.search(r'<section id="adjustments".*?</section>', page, re.S)
    assert adjustments and "at any time before the game is won" in adjustments.group(0)
    assert "during a hand" not in adjustments.group(0)
