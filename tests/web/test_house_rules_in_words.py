"""House rules in words on the printed score sheet and the rules pages, in every language: each
rule's translated name and its value in plain words, with the record's code beside them in
small type (``<code>``); the ``data-house`` / ``data-value`` hooks stay as they were."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from tests.support.catalogs import catalog
from tests.web.test_sheet_language import game, page

LANGUAGES = ("en", "sv", "fil")


def said(language: str, msgid: str, **values: object) -> str:
    """``msgid`` as ``language`` says it (its catalog's translation), with ``values``."""
    text = msgid if language == "en" else catalog(language)[msgid].string
    assert isinstance(text, str) and text, (language, msgid)
    return text % values if values else text


def sheet_rule(html: str, name: str) -> str:
    found = re.search(
        rf'<span class="sheet-rule[^"]*" data-house="{name}">(.*?</code>(?: <small>.*?</small>)?)',
        html,
    )
    assert found, name
    return unescape(found.group(1))


def house_entry(html: str, name: str) -> str:
    found = re.search(rf'<li id="house-{name}"[^>]*>.*?</li>', html, re.S)
    assert found, name
    return unescape(found.group(0))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sheet_prints_each_house_rule_by_name_and_value_in_words(
    client: FlaskClient, language: str
) -> None:
    table = game(client)  # all-fives, deal five-each and target 15 changed from the preset
    html = page(client, f"{table.url}/sheet?lang={language}")
    settlement = sheet_rule(html, "settlement")
    assert settlement.startswith(said(language, "End of hand") + '<span class="rule-words">: ')
    words = said(
        language,
        "each player's own pips, rounded to the nearest five, are taken off their own side's score",
    )
    assert f"<b>{words}</b>" in settlement
    assert '<code class="rule-code">settlement: deduct-own</code>' in settlement
    deal = sheet_rule(html, "deal")
    assert deal.startswith(said(language, "Tiles dealt") + '<span class="rule-words">: ')
    assert (
        f"<b>{said(language, '5 tiles each, whatever the number of players')}</b></span>*" in deal
    )
    assert "deal: five-each</code>" in deal and "standard" in deal  # the preset's value
    assert sheet_rule(html, "spinner_counts").startswith(said(language, "Spinner counts") + "<span")
    # No rule is left as its code alone: every one has its name and value in words first.
    for rule in re.findall(r'data-house="([^"]+)"', html):
        assert not sheet_rule(html, rule).startswith("<code"), rule


@pytest.mark.parametrize("language", ["sv", "fil"])
def test_the_rules_pages_say_values_and_preset_defaults_in_words(
    client: FlaskClient, language: str
) -> None:
    client.get(f"/language/{language}?next=/")
    table = game(client)
    rules = unescape(client.get(f"{table.url}/rules").get_data(as_text=True))
    five_each = said(language, "5 tiles each, whatever the number of players")
    deal = house_entry(rules, "deal")
    assert f'<strong data-value="five-each">{five_each}</strong>' in deal
    assert '<code class="rule-id">five-each</code>' in deal
    summary = re.search(r'<p class="differs-summary">(.*?)</p>', rules, re.S)
    assert summary and f"{said(language, 'Tiles dealt')}: {five_each}</a>" in summary.group(1)
    assert '<code class="rule-id">deal: five-each</code>' in summary.group(1)

    book = unescape(client.get("/rules").get_data(as_text=True))
    defaults = re.search(r'<p class="defaults">(.*?)</p>', house_entry(book, "lead"))
    assert defaults, "the lead rule lists each preset's default"
    assert (
        f'<code class="rule-id">all-fives</code> <strong>{said(language, "by lot")}</strong> '
        '<code class="rule-id">lots</code>'
    ) in defaults.group(1)
    partners = re.search(r'<p class="defaults">(.*?)</p>', house_entry(book, "partners"))
    assert partners and "<strong>yes " not in partners.group(1)
    assert said(language, "every player keeps their own score") in partners.group(1)
