"""The site in English, Svenska and Filipino: choosing the language, complete catalogs, every
page walked in each language for English left untranslated, and machine contracts that do
not change with the language."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.errors import RULE_IDS
from scorekeeper.rules.options import HOUSE_RULES, PRESETS
from scorekeeper.web.data import games
from tests.support.catalogs import catalog, extracted, problems
from tests.web.test_clubs import import_into, jsonl, simulated_records
from tests.web.test_faults import LOCKED
from tests.web.webtable import LEGAL, NO_KEY, import_record

DATA = Path(__file__).resolve().parents[1] / "data"
LANGUAGES = ("en", "sv", "fil")
TRANSLATED = ("sv", "fil")
HTML_LANG = re.compile(r'<html lang="([^"]+)"')


def html_lang(html: str) -> str:
    found = HTML_LANG.search(html)
    assert found, "the page has no <html lang>"
    return found.group(1)


def corpus(name: str, hands: int | None = None, unsettled: bool = False) -> dict[str, Any]:
    """A record of tests/data, cut to its first ``hands`` hands; ``unsettled``: the last
    hand is over and waits for what the players hold."""
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    if hands is not None:
        data["hands"] = data["hands"][:hands]
    if unsettled:
        data["hands"][-1].pop("remaining", None)
    return data


# -- choosing the language ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("sv-SE,sv;q=0.9,en;q=0.8", "sv"),
        ("fil-PH", "fil"),
        ("tl,en;q=0.5", "fil"),
        ("en-US,en;q=0.9", "en"),
        ("de-DE,fr;q=0.5", "en"),
        ("", "en"),
    ],
)
def test_a_first_visit_speaks_the_browsers_language(
    client: FlaskClient, accept: str, expected: str
) -> None:
    page = client.get("/", headers={"Accept-Language": accept} if accept else {})
    assert html_lang(page.get_data(as_text=True)) == expected
    assert {"Accept-Language", "Cookie"} <= set(page.headers["Vary"].replace(" ", "").split(","))


def test_the_switcher_on_every_page_sets_a_choice_that_wins_from_then_on(
    client: FlaskClient,
) -> None:
    table = import_record(client, corpus("hand_first_spinner_counts"))
    for path in ("/", table.url, "/rules", "/games/new", f"/games/{NO_KEY}"):
        html = client.get(path).get_data(as_text=True)
        for code, name in (("en", "English"), ("sv", "Svenska"), ("fil", "Filipino")):
            assert f'href="/language/{code}?next={path}"' in html, (path, code)
            assert f'lang="{code}" data-language="{code}"' in html
            assert f">{name}</a>" in html
    answer = client.get("/language/fil?next=/rules")
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/rules"
    # The choice wins over the browser's language, on every page after.
    page = client.get("/rules", headers={"Accept-Language": "sv"}).get_data(as_text=True)
    assert html_lang(page) == "fil"
    assert re.search(r'data-language="fil"\s+aria-current="true"', page)
    client.get("/language/en?next=/")
    page = client.get("/", headers={"Accept-Language": "sv"})
    assert html_lang(page.get_data(as_text=True)) == "en"


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "https://evil.example/",
        "/\\evil.example",
        "evil",
        "",
        # Browsers drop tabs and line breaks from a URL: "/\t/evil" is "//evil" to them.
        "/\t/evil.example",
        "/\n/evil.example",
        "/\r\nSet-Cookie: session=x",
        "/%09/evil.example",
        " //evil.example",
        "\x00/evil.example",
        "/games\x7f",
        "javascript:alert(1)",
        "/\u3000/evil.example",
    ],
)
def test_the_switcher_never_sends_the_reader_to_another_site(
    client: FlaskClient, target: str
) -> None:
    answer = client.get("/language/sv", query_string={"next": target})
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/"


@pytest.mark.parametrize("target", ["/rules", "/games/new?preset=fives-up", "/clubs/x#games"])
def test_the_switcher_returns_to_a_page_of_the_site(client: FlaskClient, target: str) -> None:
    answer = client.get("/language/sv", query_string={"next": target})
    assert answer.status_code == 303
    assert answer.headers["Location"] == target


def test_an_unknown_language_is_a_404_and_sets_nothing(client: FlaskClient) -> None:
    answer = client.get("/language/de?next=/")
    assert answer.status_code == 404
    assert "Set-Cookie" not in answer.headers or "lang=" not in answer.headers["Set-Cookie"]


def test_the_language_cookie_is_private_to_the_site(client: FlaskClient) -> None:
    cookie = client.get("/language/sv?next=/").headers["Set-Cookie"]
    assert "lang=sv" in cookie
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie


# -- the catalogs ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def messages() -> dict[str, Any]:
    return extracted()


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_keeps_its_placeholders(
    messages: dict[str, Any], language: str
) -> None:
    found = problems(messages, catalog(language))
    assert not found, f"{len(found)} problems in the {language} catalog:\n" + "\n".join(found)


# -- every page walked in each language ------------------------------------------------


class _Words(HTMLParser):
    """The words a reader sees or hears on a page: its text and the attributes read out,
    except machine names (rule ids, house-rule values, tiles) shown as <code>."""

    ATTRIBUTES = ("aria-label", "title", "alt", "placeholder", "aria-description")
    SKIP = frozenset({"script", "style", "code"})

    def __init__(self) -> None:
        super().__init__()
        self.skipping = 0
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        values = dict(attrs)
        for name, value in values.items():
            if name in self.ATTRIBUTES and value:
                # A rule's link is titled with its id ("Regeln: match"), which is not a word.
                self.texts.append(RULE_ID.sub(" ", value) if name == "title" else value)
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.texts.append(values["value"] or "")
        if tag == "meta" and values.get("name") in ("description", "apple-mobile-web-app-title"):
            self.texts.append(values.get("content") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.texts.append(data)


WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
RULE_ID = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, RULE_IDS)) + r")(?![\w-])")
NAMES = {"ann", "bob", "cy", "dee", "tuesday", "all", "fives", "english", "svenska", "filipino"}
"""Words that are the same in every language: players' and clubs' names, the game's name,
the languages' own names."""
RECORD_WORDS = {
    word.lower()
    for text in (
        *PRESETS,
        *(rule.name for rule in HOUSE_RULES),
        *(choice for rule in HOUSE_RULES for choice in rule.choices),
    )
    for word in WORD.findall(text)
}
"""The game record's names of presets, house rules and their values (``deduct-own``,
``win_check``), which the pages show as the record spells them, in every language."""


def words_of(html: str) -> set[str]:
    reader = _Words()
    reader.feed(html)
    return {word.lower() for text in reader.texts for word in WORD.findall(text)}


@pytest.fixture(scope="module")
def vocabulary(messages: dict[str, Any]) -> dict[str, set[str]]:
    """English: every word of the messages; each language: every word of its translations."""
    english = {
        word.lower()
        for message in messages.values()
        for text in (message.msgid, message.plural or "")
        for word in WORD.findall(re.sub(r"%\(\w+\)[sd]|<[^>]+>", " ", text))
        if len(word) > 1
    }
    known = {"en": english}
    for language in TRANSLATED:
        known[language] = {
            word.lower()
            for entry in catalog(language)
            for text in (entry.string if isinstance(entry.string, tuple) else (entry.string,))
            for word in WORD.findall(text or "")
        }
    return known


def _visited(client: FlaskClient, app: Flask) -> Iterator[tuple[str, str]]:
    """(what, html) for every page and fragment a player reads, in the client's language."""
    for path in (
        "/",
        "/games/new",
        "/games/import",
        "/rules",
        "/sheets/blank?sides=2",
        "/sheets/blank?sides=4",
        "/offline",
        "/clubs/new",
        f"/games/{NO_KEY}",
        "/no/such/page",
    ):
        yield path, client.get(path).get_data(as_text=True)
    yield "new game refused", client.post("/games/new", data={"start": "1"}).get_data(as_text=True)
    refused = json.dumps(corpus("refused_match")).encode()
    yield (
        "import refused",
        client.post(
            "/games/import",
            data={"record": (io.BytesIO(refused), "game.json")},
            content_type="multipart/form-data",
        ).get_data(as_text=True),
    )
    games = {
        "lead choice": corpus("hand_seven_five_two_hands", hands=0),
        "mid-hand": corpus("hand_first_spinner_counts"),
        "hand over": corpus("hand_seven_five_two_hands", hands=1, unsettled=True),
        "settled": corpus("hand_seven_five_two_hands", hands=1),
        "winner": corpus("sim_all_fives_2p"),
        "partners": corpus("hand_partners_collect_wins"),
        "fives": corpus("var_units_fives"),
    }
    for what, record in games.items():
        table = import_record(client, record)
        page = table.page()
        yield what, page
        watch = table.watch_url()
        for suffix in ("/log", "/log?hand=all", "/sheet", "/rules", "/delete"):
            yield f"{what} {suffix}", client.get(table.url + suffix).get_data(as_text=True)
        for suffix in ("", "/board", "/log", "/sheet"):
            yield f"{what} watch{suffix}", client.get(watch + suffix).get_data(as_text=True)
        yield (
            f"{what} htmx",
            client.get(table.url, headers={"HX-Request": "true"}).get_data(as_text=True),
        )
    mid = import_record(client, corpus("hand_first_spinner_counts"))
    refusal = mid.post("play", {"tile": "6-6"})
    yield "refused play", refusal.get_data(as_text=True)
    mid.htmx = True
    yield "refused play (htmx)", mid.post("play", {"tile": "6-6"}).get_data(as_text=True)
    yield "stale entry", mid.post("play", {"tile": "6-6"}, version=0).get_data(as_text=True)
    club = client.post("/clubs/new", data={"name": "Tuesday"})
    assert club.status_code == 303
    club_url = club.headers["Location"]
    yield "club, no games yet", client.get(club_url).get_data(as_text=True)
    records = simulated_records(range(6), names=("Ann", "Bob", "Cy", "Dee"))
    refused = [records[0], {**records[1], "players": ["Ann"]}]
    yield (
        "club import refused",
        import_into(client, club_url, jsonl(refused)).get_data(as_text=True),
    )
    assert import_into(client, club_url, jsonl(records)).status_code == 303
    for suffix in ("", "?sort=points", "/players", "/import", "/new"):
        yield f"club{suffix}", client.get(club_url + suffix).get_data(as_text=True)
    watch = re.search(r"/clubs/watch/[\w-]{22}", client.get(club_url).get_data(as_text=True))
    assert watch, "the club page offers no watch link"
    yield "club watch", client.get(watch.group(0)).get_data(as_text=True)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_page_is_left_in_english(
    app: Flask, vocabulary: dict[str, set[str]], language: str
) -> None:
    client = app.test_client()
    client.get(f"/language/{language}?next=/")
    allowed = vocabulary[language] | NAMES | RECORD_WORDS
    # A word of the English messages that this language never uses is English left over.
    english = vocabulary["en"] - allowed
    left: dict[str, set[str]] = {}
    for what, html in _visited(client, app):
        assert html_lang(html) == language if "<html" in html else True, what
        found = words_of(html) & english
        if found:
            left[what] = found
    assert not left, f"English left on {language} pages:\n" + "\n".join(
        f"  {what}: {', '.join(sorted(words))}" for what, words in left.items()
    )


# -- machine contracts ---------------------------------------------------------------------

DATA_ATTRIBUTE = re.compile(r'\sdata-[\w-]+(?:="[^"]*")?')
WORDED = (
    " data-language",
    " data-local",
    " data-last-score=",
    " data-spoken=",
    " data-words-",
    " data-part=",
)
"""Attributes that carry words to a script or a screen reader (what the last entry scored, as
shown and as spoken; a script's messages), said in the reader's language; the switcher's
own links; and a kept part's fingerprint, which is of its markup, words included."""


def _hooks(html: str) -> list[str]:
    """The page's data-* hooks and their values, but for those that carry words."""
    return [hook for hook in DATA_ATTRIBUTE.findall(html) if not hook.startswith(WORDED)]


def test_hooks_records_and_csv_data_are_the_same_in_every_language(client: FlaskClient) -> None:
    table = import_record(client, corpus("sim_all_fives_2p"))
    seen: dict[str, dict[str, Any]] = {}
    for language in LANGUAGES:
        client.get(f"/language/{language}?next=/")
        csv_rows = client.get(table.url + "/sheet.csv").get_data(as_text=True).splitlines()
        seen[language] = {
            "hooks": _hooks(table.page()),
            "log hooks": _hooks(client.get(table.url + "/log?hand=all").get_data(as_text=True)),
            "record": client.get(table.url + "/record.json").get_json(),
            "csv data": csv_rows[1:],
            "csv headings": csv_rows[0],
        }
    for language in TRANSLATED:
        for part in ("hooks", "log hooks", "record", "csv data"):
            assert seen[language][part] == seen["en"][part], (language, part)
        assert seen[language]["csv headings"] != seen["en"]["csv headings"]


def test_a_refusal_keeps_its_rule_id_in_every_language(client: FlaskClient) -> None:
    table = import_record(client, LEGAL)  # 5-5 led, 5-0 on E: 6-6 fits no open end
    said = {}
    for language in LANGUAGES:
        client.get(f"/language/{language}?next=/")
        answer = table.post("play", {"tile": "6-6"})
        html = answer.get_data(as_text=True)
        assert answer.status_code == 422
        assert 'data-rule="match"' in html
        said[language] = re.search(r'class="refusal"[^>]*>(.*?)</p>', html, re.S)
    texts = {language: found.group(1) if found else "" for language, found in said.items()}
    assert len(set(texts.values())) == 3, texts


def _translated(language: str, msgid: str, **values: object) -> str:
    """``msgid`` as the catalog of ``language`` says it (English: as it is), filled in."""
    text = msgid if language == "en" else catalog(language)[msgid].string
    assert isinstance(text, str) and text, (language, msgid)
    return text % values if values else text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_the_settlement_and_the_winner_read_in_each_language(
    client: FlaskClient, language: str
) -> None:
    client.get(f"/language/{language}?next=/")
    playing = import_record(client, corpus("hand_first_spinner_counts")).page()
    for words in ("Draw", "Undo", "Tiles"):
        assert _translated(language, words) in playing, words
    turn = re.search(r'data-turn="([^"]+)"', playing)
    assert turn, "nobody to play"
    assert _translated(language, "%(player)s to play", player=turn.group(1)) in playing
    settled = import_record(client, corpus("hand_seven_five_two_hands", hands=1)).page()
    assert 'id="settlement"' in settled
    assert _translated(language, "Hand %(number)s settled", number=1) in settled
    assert _translated(language, "Why? The settlement step by step") in settled
    won = import_record(client, corpus("sim_all_fives_2p")).page()
    winner = re.search(r'data-winner="([^"]+)"', won)
    assert winner, "no winner shown"
    cheer = _translated(language, "%(name)s wins!", name=winner.group(1))
    assert f"<h2>{cheer}</h2>" in won
    assert html_lang(won) == language


def test_the_switcher_on_an_answer_to_a_form_goes_back_to_the_page_of_the_form(
    client: FlaskClient,
) -> None:
    table = import_record(client, LEGAL)
    refused = table.post("play", {"tile": "6-6"}).get_data(as_text=True)
    assert f'href="/language/sv?next=/games/{table.key}"' in refused
    bad_form = client.post("/games/new", data={"start": "1"}).get_data(as_text=True)
    assert 'href="/language/fil?next=/games/new"' in bad_form
    answer = client.get(f"/language/sv?next=/games/{table.key}")
    assert answer.headers["Location"] == f"/games/{table.key}"
    assert client.get(answer.headers["Location"]).status_code == 200


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_429_and_503_answers_are_not_left_in_english(
    make_app: Callable[..., Flask],
    vocabulary: dict[str, set[str]],
    language: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = make_app(WTF_CSRF_ENABLED=False, RATELIMIT_UNKNOWN_KEYS="1 per minute").test_client()
    client.get(f"/language/{language}?next=/")
    english = vocabulary["en"] - vocabulary[language] - NAMES - RECORD_WORDS
    table = import_record(client, LEGAL)

    def locked(*args: object, **kwargs: object) -> None:
        raise LOCKED

    monkeypatch.setattr(games, "append", locked)
    busy = table.post("play", {"tile": "5-1", "end": "W"})  # legal: W shows 5
    assert busy.status_code == 503
    assert html_lang(busy.get_data(as_text=True)) == language
    assert not words_of(busy.get_data(as_text=True)) & english
    # Guessing at game links: the second "no such game" in a minute is answered 429.
    assert client.get(f"/games/{NO_KEY}").status_code == 404
    too_many = client.get(f"/games/{NO_KEY}")
    assert too_many.status_code == 429
    assert html_lang(too_many.get_data(as_text=True)) == language
    assert not words_of(too_many.get_data(as_text=True)) & english
