"""The score sheet on paper: Chromium prints it to PDF on A4 and US Letter, one page for a
typical game, black on white, with the header, every hand, the totals and the winner."""

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
        row = re.search(
            rf"(?:^| ){number} {game.players[hand.leader]} (.*?)(?= {number + 1} |$)", text
        )
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
@pytest.mark.parametrize("sides", [2, 3, 4])
def test_blank_sheets_print_on_one_page(
    live_server: LiveServer, desktop: Page, paper: str, sides: int
) -> None:
    pdf = printed(desktop, f"{live_server.url}/sheets/blank?sides={sides}", paper)
    assert len(pdf.pages) == 1
    text = words(pdf)
    assert "All Fives score sheet" in text and "winner" in text.lower()
    label = "Side" if sides == 2 else "Player"
    assert all(f"{label} {n}" in text for n in range(1, sides + 1))
    assert f"{label} {sides + 1}" not in text


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
