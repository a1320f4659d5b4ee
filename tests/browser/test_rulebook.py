"""The rules page states the game itself (docs/rules.md 10): on a phone, in English, Svenska
and Filipino, each basic rule a table argues about is a paragraph of its own, found by its id,
with its title and its worked example in the reader's language; and a log entry's Why? link
opens the game's rules at the paragraph it applies."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules.basics import BASIC_RULES, SETTLEMENT_RULES, WINNING_RULE
from scorekeeper.rules.messages import Message
from tests.browser.browsing import import_game, record
from tests.support.catalogs import catalog
from tests.support.server import LiveServer

EVERY_RULE = (*BASIC_RULES, *SETTLEMENT_RULES.values(), WINNING_RULE)
EXAMPLE_LABEL = {"en": "Example:", "sv": "Exempel:", "fil": "Halimbawa:"}


class Catalog:
    """A language as its catalog in git says it (the words the site must show)."""

    def __init__(self, language: str) -> None:
        self.catalog = catalog(language)

    def gettext(self, text: str) -> str:
        entry = self.catalog.get(text)
        assert entry is not None and entry.string, f"{text!r} is not translated"
        return str(entry.string)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        raise AssertionError("the rulebook's paragraphs have no plural")

    def number(self, value: int) -> str:
        return str(value)

    def listed(self, items: Sequence[str]) -> str:
        raise AssertionError("the rulebook's paragraphs list nothing")


def said(message: Message, language: str) -> str:
    """``message`` in ``language``, its facts in their places."""
    return str(message) if language == "en" else message.said_in(in_language(language))


@cache
def in_language(language: str) -> Catalog:
    """The catalog of ``language``, read once."""
    return Catalog(language)


@pytest.mark.parametrize("language", ["en", "sv", "fil"])
def test_each_basic_rule_is_a_paragraph_with_its_example(
    live_server: LiveServer, phone: Page, language: str
) -> None:
    phone.goto(f"{live_server.url}/language/{language}?next=/rules")
    assert phone.locator("html").get_attribute("lang") == language
    for rule in EVERY_RULE:
        paragraph = phone.locator(f"li#{rule.anchor}")
        expect(paragraph).to_have_count(1)
        expect(paragraph.locator("h3")).to_have_text(said(rule.title, language))
        expect(paragraph.locator("p.rule-text")).to_have_text(said(rule.text, language))
        example = paragraph.locator(f'[data-basic-example="{rule.name}"]')
        expect(example).to_have_text(
            f"{EXAMPLE_LABEL[language]} {said(rule.example, language)}", use_inner_text=True
        )
    # The page's own menu leads there, and the paragraph is shown when its link is followed.
    phone.locator('.paper-links a[href="#basics"]').click()
    expect(phone.locator("#basics")).to_be_in_viewport()
    phone.goto(f"{live_server.url}/rules#basic-rounding")
    expect(phone.locator("#basic-rounding")).to_be_in_viewport()
    expect(phone.locator("#basic-rounding")).to_contain_text(
        {"en": "8 pips rounds to 10", "sv": "8 prickar avrundas till 10", "fil": "8 pips"}[language]
    )


def test_a_why_link_opens_the_rule_it_applies(live_server: LiveServer, phone: Page) -> None:
    url = import_game(phone, live_server.url, record("hand_blocked_fewest_collects"))
    phone.goto(f"{url}/log")
    settled = phone.locator('li[data-kind="settle"]').last
    settled.locator("summary").click()
    link = settled.locator('a[data-rule-anchor="basic-blocked"]')
    expect(link).to_be_visible()
    link.click()
    expect(phone).to_have_url(re.compile(r"/rules#basic-blocked$"))
    expect(phone.locator("#basic-blocked")).to_be_in_viewport()
    expect(phone.locator("#basic-blocked h3")).to_have_text("A blocked hand, and who wins it")
