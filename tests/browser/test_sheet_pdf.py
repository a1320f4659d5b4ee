"""The score sheet on paper: Chromium prints it to PDF on A4 and US Letter, one page for a
typical game and for a long one (25 hands), black on white, with the header, every hand, the
totals and the winner, and nothing drawn outside its box."""

from __future__ import annotations

import io
import random
import re

import pytest
from playwright.sync_api import Page
from pypdf import PdfReader

from scorekeeper.rules import Game, Settle, Setup
from scorekeeper.rules.simulate import play_game
from tests.support.server import LiveServer

FORMATS = ("A4", "Letter")


def seed(server: LiveServer, game: Game) -> str:
    """Store ``game`` on the live server; its edit key."""
    from scorekeeper.web.data import games

    with server.app.app_context():
        return games.create(game.setup, game.events).row.edit_key


def finished(
    players: list[str], preset: str, seed_from: int, hands: range, partners: bool | None = None
) -> Game:
    """The first simulated game (by seed) won in a number of hands within ``hands``."""
    setup = Setup.create(players, preset, partners=partners)
    for attempt in range(seed_from, seed_from + 300):
        game = play_game(setup, random.Random(attempt), max_hands=40)
        if game.winner is not None and len(game.hands) in hands:
            return game
    raise AssertionError("no simulated game found")


def first_hands(game: Game, count: int) -> Game:
    """``game`` cut after the settlement of its hand ``count``."""
    settled = [i for i, event in enumerate(game.events) if isinstance(event, Settle)]
    return Game(game.setup, game.events[: settled[count - 1] + 1])


def printed(page: Page, url: str, paper: str) -> PdfReader:
    """The page at ``url`` as Chromium prints it on ``paper``."""
    page.goto(url)
    return PdfReader(io.BytesIO(page.pdf(format=paper)))


def words(reader: PdfReader) -> str:
    """All the text of a PDF, whitespace squeezed."""
    return re.sub(r"\s+", " ", " ".join(p.extract_text() or "" for p in reader.pages))


def assert_rows(text: str, game: Game) -> None:
    """Every hand has its row: its number, who led, and each side's total after it."""
    headings = list(re.finditer(r"END TOT(?:AL|\.)", text))
    assert headings, "the table's column headings are printed"
    text = text[headings[-1].end() : text.upper().rindex("WINNER")]
    for number, hand in enumerate(game.hands, 1):
        after = game.scores if number == len(game.hands) else game.hands[number].scores_before
        # The row runs to the next one's number and leader (a total may be that number too).
        then = (
            re.escape(f" {number + 1} {game.players[game.hands[number].leader]} ")
            if number < len(game.hands)
            else "$"
        )
        row = re.search(rf"(?:^| ){number} {game.players[hand.leader]} (.*?)(?={then})", text)
        assert row, number
        cells = row.group(1).split()
        for total in after:
            assert str(total) in cells, (number, after, cells)


@pytest.mark.parametrize("paper", FORMATS)
def test_a_five_hand_game_prints_on_one_page(
    live_server: LiveServer, desktop: Page, paper: str
) -> None:
    game = first_hands(finished(["Ann", "Bob"], "all-fives", 1, range(6, 40)), 5)
    key = seed(live_server, game)
    pdf = printed(desktop, f"{live_server.url}/games/{key}/sheet", paper)
    assert len(pdf.pages) == 1
    text = words(pdf)
    assert "All Fives score sheet" in text
    assert "Ann" in text and "Bob" in text
    assert "target 250" in text.lower() and "deduct-own" in text
    assert "no winner yet" in text.lower()
    assert_rows(text, game)
    assert f"Ann {game.scores[0]}, Bob {game.scores[1]}" in text
    # The page's own navigation is not printed.
    assert "New game" not in text and "Back to the table" not in text


@pytest.mark.parametrize("paper", FORMATS)
def test_a_whole_game_in_partnership_prints_on_one_page_with_its_winner(
    live_server: LiveServer, desktop: Page, paper: str
) -> None:
    game = finished(["Ann", "Bob", "Cy", "Dee"], "fives-up", 7, range(4, 16), partners=True)
    key = seed(live_server, game)
    pdf = printed(desktop, f"{live_server.url}/games/{key}/sheet", paper)
    assert len(pdf.pages) == 1
    text = words(pdf)
    winner = game.sides[game.winner].lower()
    assert f"winner {winner} with {game.scores[game.winner]} (target 100)" in text.lower()
    assert "Ann & Cy v Bob & Dee" in text
    assert "winner-collects" in text and "Fives-Up" in text
    assert_rows(text, game)


@pytest.mark.parametrize("paper", FORMATS)
@pytest.mark.parametrize("sides", range(2, 9))
def test_blank_sheets_print_on_one_page(
    live_server: LiveServer, desktop: Page, paper: str, sides: int
) -> None:
    pdf = printed(desktop, f"{live_server.url}/sheets/blank?sides={sides}", paper)
    # 5 to 8 sides: on its side, on two pages, whose rows a slow game of 8 to 200 fills.
    assert len(pdf.pages) == (1 if sides <= 4 else 2)
    box = pdf.pages[0].mediabox
    assert (box.width > box.height) == (sides > 4)
    text = words(pdf)
    assert "All Fives score sheet" in text and "winner" in text.lower()
    label = "Side" if sides == 2 else "Player"
    assert all(f"{label} {n}" in text for n in range(1, sides + 1))
    assert f"{label} {sides + 1}" not in text
    if sides > 4:
        # Every hand's row, 1 to 36, each whole on a page; the second page under the column
        # heads again, the winner's line at its foot.
        last = re.sub(r"\s+", " ", pdf.pages[1].extract_text() or "")
        assert "HAND LED BY ENDED Player 1" in last
        rows: list[int] = []
        for page in pdf.pages:
            printed_text = re.sub(r"\s+", " ", page.extract_text() or "")
            after_heads = printed_text.rsplit("TOT.", 1)[1].split("WINNER")[0]
            rows += [int(n) for n in re.findall(r"\d+", after_heads)]
        assert rows == list(range(1, 37)), rows
        assert "winner" in last.lower()


def test_the_sheet_prints_black_on_white_without_the_navigation(
    live_server: LiveServer, desktop: Page
) -> None:
    game = first_hands(finished(["Ann", "Bob"], "all-fives", 1, range(6, 40)), 5)
    key = seed(live_server, game)
    desktop.emulate_media(media="print", color_scheme="dark")
    desktop.goto(f"{live_server.url}/games/{key}/sheet")
    style = desktop.evaluate(
        """() => {
            const css = (el) => getComputedStyle(el);
            return {
                body: css(document.body).backgroundColor,
                sheet: css(document.querySelector('.sheet')).color,
                sheetBg: css(document.querySelector('.sheet')).backgroundColor,
                header: css(document.querySelector('.site-header')).display,
            };
        }"""
    )
    assert style == {
        "body": "rgb(255, 255, 255)",
        "sheet": "rgb(0, 0, 0)",
        "sheetBg": "rgb(255, 255, 255)",
        "header": "none",
    }


OUTSIDE = """() => {
    const found = [];
    const sheet = document.querySelector('.sheet').getBoundingClientRect();
    for (const el of document.querySelectorAll('.sheet *')) {
        const box = el.getBoundingClientRect();
        if (box.width && (box.left < sheet.left - 0.5 || box.right > sheet.right + 0.5)) {
            found.push(`${el.tagName}.${el.className.baseVal ?? el.className} sticks out of the sheet`);
        }
    }
    for (const svg of document.querySelectorAll('.sheet svg.chart-svg')) {
        const view = svg.viewBox.baseVal;
        for (const text of svg.querySelectorAll('text')) {
            const b = text.getBBox();
            if (b.x < view.x - 0.5 || b.y < view.y - 0.5 || b.x + b.width > view.width + 0.5
                || b.y + b.height > view.height + 0.5) {
                found.push(`"${text.textContent}" is cut off by the chart's edge`);
            }
        }
        const level = svg.querySelector('.chart-level');
        const label = svg.querySelector('.chart-level-label');
        if (level && label) {
            const y = level.y1.baseVal.value, b = label.getBBox();
            if (b.y < y && y < b.y + b.height) found.push(`"${label.textContent}" lies over its line`);
        }
    }
    return found;
}"""


def long_game(players: list[str], hands: int) -> Game:
    """A game of ``hands`` hands (its target out of reach), ``players`` in partnership when four."""
    setup = Setup.create(players, "all-fives", {"target": 1000}, partners=len(players) == 4)
    return first_hands(play_game(setup, random.Random(5), max_hands=40), hands)


@pytest.mark.parametrize("paper", FORMATS)
@pytest.mark.parametrize(
    ("players", "hands"),
    [(["Ann", "Bob", "Cy", "Dee"], 25), (["Ann", "Bob", "Cy", "Dee"], 11), (["Ann", "Bob"], 25)],
    ids=["partners-25", "partners-11", "two-25"],
)
def test_a_long_game_prints_on_one_page_with_nothing_cut_off(
    live_server: LiveServer, desktop: Page, paper: str, players: list[str], hands: int
) -> None:
    game = long_game(players, hands)
    url = f"{live_server.url}/games/{seed(live_server, game)}/sheet"
    pdf = printed(desktop, url, paper)
    assert len(pdf.pages) == 1
    text = words(pdf)
    assert_rows(text, game)
    # The foot, the tallies' legend and the chart with every side's name whole, on that page.
    assert "Kept with the All Fives scorekeeper." in text
    for side in game.sides:
        assert text.count(side) >= 3, side  # the table's head, the tally and the chart
    # As printed, on the page's width: nothing sticks out of the sheet or the chart.
    desktop.emulate_media(media="print")
    desktop.set_viewport_size({"width": 703, "height": 1000})  # A4 less 12 mm margins
    desktop.goto(url)
    assert desktop.evaluate(OUTSIDE) == []
