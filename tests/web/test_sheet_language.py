"""A score sheet printed in another language than the site's (``?lang=``): a club hands out
sheets in the language of the table. The page, its ``<html lang>`` and the CSV's headings
follow the choice; the CSV's data cells never change with the language."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.test_paper import domino_hand
from tests.web.webtable import Table, import_record, new_game

ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
H1 = re.compile(r"<h1>([^<]*)</h1>")
HTML_LANG = re.compile(r'<html lang="([^"]+)"')
HEADINGS = {
    "en": "All Fives score sheet",
    "sv": "Protokoll för All Fives",
    "fil": "Talaan ng puntos sa All Fives",
}


def game(client: FlaskClient, **options: Any) -> Table:
    """Ann and Bob, one hand: Ann leads 6-6, Bob draws three, Ann dominoes; Bob keeps 13."""
    record = {
        "format": "all-fives/1",
        "options": {"deal": "five-each", "target": 15, **options},
        "players": ["Ann", "Bob"],
        "hands": [domino_hand({"Bob": 13})],
    }
    return import_record(client, record)


def page(client: FlaskClient, url: str, status: int = 200, **headers: str) -> str:
    response = client.get(url, headers={**ENGLISH, **headers})
    assert response.status_code == status, url
    return response.get_data(as_text=True)


def said_in(html: str) -> tuple[str, str]:
    """The page's ``<html lang>`` and its sheet's heading."""
    lang = HTML_LANG.search(html)
    heading = H1.search(html)
    assert lang and heading
    return lang.group(1), heading.group(1)


def said_in_lang(html: str) -> str:
    """The page's ``<html lang>``."""
    lang = HTML_LANG.search(html)
    assert lang
    return lang.group(1)


def rows(client: FlaskClient, url: str, **headers: str) -> list[list[str]]:
    response = client.get(url, headers={**ENGLISH, **headers})
    assert response.status_code == 200, url
    assert response.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


@pytest.mark.parametrize("code", ["sv", "fil"])
def test_the_sheet_prints_in_the_language_asked_for_while_the_browser_speaks_english(
    client: FlaskClient, code: str
) -> None:
    table = game(client)
    assert said_in(page(client, f"{table.url}/sheet")) == ("en", HEADINGS["en"])
    html = page(client, f"{table.url}/sheet?lang={code}")
    assert said_in(html) == (code, HEADINGS[code])
    assert "Back to the table" not in html and "No winner yet" not in html
    # The choice names each language in its own words, marks the one shown, and the CSV
    # link asks for the same language.
    for other, name in (("en", "English"), ("sv", "Svenska"), ("fil", "Filipino")):
        link = re.search(
            rf'<a href="{table.url}/sheet\?lang={other}" hreflang="{other}" lang="{other}"'
            rf' data-sheet-language="{other}"( aria-current="page")?>([^<]*)</a>',
            html,
        )
        assert link, other
        assert bool(link.group(1)) == (other == code)
        assert link.group(2) == name
    assert f'href="{table.url}/sheet.csv?lang={code}"' in html
    # Only this page: the site stays in the browser's language.
    assert said_in(page(client, f"{table.url}/sheet")) == ("en", HEADINGS["en"])


@pytest.mark.parametrize(
    ("code", "deal"),
    [
        ("en", "as the double-nine set deals: 9, 7 or 6 tiles each"),
        ("sv", "som dubbel-9-satsen delar ut: 9, 7 eller 6 brickor var"),
        ("fil", "ayon sa bigayan ng set na double-nine: tig-9, 7 o 6 tile"),
    ],
)
def test_the_sheet_names_the_set_in_its_own_language(
    client: FlaskClient, code: str, deal: str
) -> None:
    table = new_game(client, ["Ann", "Bob"], set="double-nine")
    html = page(client, f"{table.url}/sheet?lang={code}")
    assert deal in html
    assert "set: double-nine" in html  # the code beside it, the same in every language


def test_a_swedish_site_can_print_an_english_sheet(client: FlaskClient) -> None:
    table = game(client)
    client.get("/language/sv?next=/")
    assert said_in(page(client, f"{table.url}/sheet")) == ("sv", HEADINGS["sv"])
    assert said_in(page(client, f"{table.url}/sheet?lang=en")) == ("en", HEADINGS["en"])


@pytest.mark.parametrize("code", ["sv", "fil"])
def test_the_blank_sheet_prints_in_the_language_asked_for(client: FlaskClient, code: str) -> None:
    html = page(client, f"/sheets/blank?sides=3&lang={code}")
    assert said_in(html) == (code, HEADINGS[code])
    assert 'data-blank-sheet="3"' in html
    # The other blank sheets keep the language.
    assert f'href="/sheets/blank?sides=4&amp;lang={code}"' in html
    assert said_in(page(client, "/sheets/blank?sides=3")) == ("en", HEADINGS["en"])


@pytest.mark.parametrize("asked", ["de", "SV", "", "sv-SE", "../en"])
def test_a_language_the_site_does_not_speak_is_a_404_naming_those_it_does(
    client: FlaskClient, asked: str
) -> None:
    table = game(client)
    for url in (f"{table.url}/sheet", f"{table.url}/sheet.csv", "/sheets/blank"):
        html = page(client, f"{url}?lang={asked}", status=404)
        assert said_in_lang(html) == "en"
        assert "?lang=sv (Svenska)" in html and "?lang=fil (Filipino)" in html


@pytest.mark.parametrize("options", [{}, {"units": "fives"}])
def test_the_csv_translates_its_headings_and_never_its_cells(
    client: FlaskClient, options: dict[str, Any]
) -> None:
    table = game(client, **options)
    english = rows(client, f"{table.url}/sheet.csv")
    fives = " in fives" if options else ""
    assert english[0] == [
        "hand",
        "leader",
        "result",
        f"Ann plays{fives}",
        f"Ann settlement{fives}",
        f"Ann total{fives}",
        f"Bob plays{fives}",
        f"Bob settlement{fives}",
        f"Bob total{fives}",
    ]
    assert english[1][:3] == ["1", "Ann", "Ann dominoed"]
    by_lang = {
        "sv": rows(client, f"{table.url}/sheet.csv?lang=sv"),
        "fil": rows(client, f"{table.url}/sheet.csv?lang=fil"),
        # The site's language (no ?lang=) says the headings in it too.
        "sv-site": rows(client, f"{table.url}/sheet.csv", **{"Accept-Language": "sv"}),
    }
    for code, said in by_lang.items():
        assert said[1:] == english[1:], code  # every data cell as in English
        assert len(said[0]) == len(english[0])
        assert said[0][:3] != english[0][:3], code
        assert said[0][3:] != english[0][3:], code
        assert all(heading.startswith(("Ann ", "Bob ")) for heading in said[0][3:]), code
    plays = "Ann drag i femmor" if options else "Ann drag"
    assert by_lang["sv"][0][:4] == ["giv", "startspelare", "resultat", plays]
    assert by_lang["sv-site"] == by_lang["sv"]
    assert by_lang["fil"][0][0] == "kamay"
