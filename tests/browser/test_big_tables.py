"""Tables of 5 to 8 with a double-nine or double-twelve set (issue 24) in Chromium: the
new-game form's eight seats, with JavaScript and without; eight sides on the scoreboard of a
phone upright (360x720) and on its side (740x360) and on the wall board (1280x720); the
settlement of an eight-player hand and the next lead, each on one screen with every field and
button in it, entered without scrolling; the score sheet printed on one page; axe on each.

The tiles of a larger set are not entered through the tray here (another part of issue 24):
the hands are stored up to their last play, and the rest is entered through the page."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, expect
from pypdf import PdfReader

from scorekeeper.rules import Event, Game, Held, Play, Settle, Setup
from scorekeeper.rules.explain import count_line
from scorekeeper.rules.simulate import play_game, play_hand
from tests.browser.browsing import GAME_URL, TablePage, seed_game, tap
from tests.browser.checks import axe_violations, explain, problems_on
from tests.browser.test_sheet_pdf import assert_rows, first_hands, words
from tests.support.chromium import LANDSCAPE, PORTRAIT, WALL, open_and_settle
from tests.support.server import LiveServer

SCREENS = {"portrait": PORTRAIT, "landscape": LANDSCAPE}
EIGHT = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
LONG_EIGHT = [
    "Alexandra",
    "Bartholomew",
    "Christabel",
    "Dominique",
    "Evangeline",
    "Fitzgerald",
    "Gwendolyn",
    "Hildegarde",
]
SETTLED = """() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"""
SCROLL_SETTLED = """() => new Promise(done => requestAnimationFrame(
    () => requestAnimationFrame(() => done(scrollY))))"""
"""How far the page is scrolled once it has settled (two animation frames on)."""


def outside_screen(targets: Locator) -> list[str]:
    """Each of ``targets`` that is not wholly inside the screen, with where it is."""
    boxes, width, height = targets.evaluate_all(
        """(all) => [all.map(el => {
            const box = el.getBoundingClientRect();
            return [el.getAttribute('name') || el.className || el.tagName,
                    box.top, box.bottom, box.left, box.right, box.width * box.height];
        }), innerWidth, innerHeight]"""
    )
    assert boxes, f"nothing matches {targets}"
    return [
        f"{name} at y {top:.0f}..{bottom:.0f}, x {left:.0f}..{right:.0f} of {width}x{height}"
        for name, top, bottom, left, right, area in boxes
        if not area or top < -0.5 or left < -0.5 or bottom > height + 0.5 or right > width + 0.5
    ]


def in_view_tap(table: TablePage, target: Locator, events: int = 1) -> None:
    """Tap ``target``, which must already be inside the screen; the page must not move."""
    expect(target).to_be_visible()
    away = outside_screen(target)
    assert not away, away
    before = table.page.evaluate("scrollY")
    tap(target)
    table.entered(events)
    assert table.page.evaluate(SCROLL_SETTLED) == before, "the page moved"


def hand_ending(players: int, result: str) -> tuple[Setup, Game]:
    """The first simulated hand of ``players`` with a double-twelve set that ends ``result``
    (a domino or blocked), settled."""
    setup = Setup.create(EIGHT[:players], "all-fives", {"set": "double-twelve"})
    for seed in range(300):
        game = Game(setup)
        play_hand(game, random.Random(seed))
        if game.hand is not None and game.hand.result == result:
            return setup, game
    raise AssertionError(f"no simulated hand ends {result}")


def pips(held: Held) -> int:
    return held if isinstance(held, int) else sum(t.pips for t in held)


# -- the settlement and the next lead ----------------------------------------------------------


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize(("result", "holders"), [("domino", 7), ("blocked", 8)])
def test_eight_players_settle_on_one_screen_and_choose_the_next_leader(
    live_server: LiveServer, page_with: Any, screen: str, result: str, holders: int
) -> None:
    setup, game = hand_ending(8, result)
    at = next(i for i, event in enumerate(game.events) if isinstance(event, Settle))
    settle = game.events[at]
    assert isinstance(settle, Settle)
    page = page_with(**SCREENS[screen])
    open_and_settle(page, seed_game(live_server, setup, game.events[:at]))
    table = TablePage(page)
    expect(table.table).to_have_attribute("data-phase", "settle")
    fields = page.locator("#hand-over input[name^='held-']")
    expect(fields).to_have_count(holders)
    button = page.get_by_role("button", name=re.compile(r"^Settle hand 1"))
    # The whole form, its button, Undo and every score, in view without scrolling.
    for part in (fields, page.locator("[data-held-tray] > summary"), button):
        assert not outside_screen(part), outside_screen(part)
    for part in ("#table .actions", "[data-side-score]", "[data-held]"):
        assert not outside_screen(page.locator(part)), part
    assert problems_on(page) == []

    for seat, held in settle.remaining.items():
        field = page.locator(f"input[name='held-{seat}']")
        assert not outside_screen(field)
        field.fill(str(pips(held)))
    page.evaluate(SETTLED)
    assert page.evaluate("scrollY") == 0
    shadow = Game(setup, game.events[:at])
    shadow.push(Settle({seat: pips(held) for seat, held in settle.remaining.items()}))
    # After a domino the next hand begins at once, its leader known.
    in_view_tap(table, button, 2 if result == "domino" else 1)
    table.expect_scores(shadow.sides, shadow.scores)

    if result == "domino":
        expect(table.table).to_have_attribute("data-phase", "play")
        return
    # A blocked hand: the table chooses who leads the next one, all eight in view.
    expect(table.table).to_have_attribute("data-phase", "lead")
    assert not outside_screen(page.locator(".lead"))
    choose = page.locator("details:has([data-leader]) > summary")
    tap(choose)
    leaders = page.locator("[data-leader]")
    expect(leaders).to_have_count(8)
    assert not outside_screen(leaders), outside_screen(leaders)
    in_view_tap(table, page.locator('[data-leader="7"]'))
    table.expect_turn("Hal")


@pytest.mark.parametrize("screen", SCREENS)
def test_eight_players_draw_for_the_first_lead_on_one_screen(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    setup = Setup.create(EIGHT, "fives-up", {"set": "double-twelve"})
    page = page_with(**SCREENS[screen])
    open_and_settle(page, seed_game(live_server, setup) + "?lead=draw")
    table = TablePage(page)
    fields = page.locator("input[name^='drawn-']")
    expect(fields).to_have_count(8)
    button = page.get_by_role("button", name="The highest leads")
    for part in (fields, button, page.locator("[data-side-score]")):
        assert not outside_screen(part), outside_screen(part)
    assert problems_on(page) == []
    # Each field is named for its player, though only the name shows.
    expect(page.get_by_label("Gus drew")).to_have_attribute("name", "drawn-6")
    drawn = ["3-1", "9-0", "2-2", "5-4", "0-0", "8-8", "12-11", "6-0"]
    for seat, tile in enumerate(drawn):
        page.locator(f"input[name='drawn-{seat}']").fill(tile)
    in_view_tap(table, button)
    table.expect_turn("Gus")  # 12-11, the highest of a double-twelve set's draws


# -- the scoreboard, the watch page and the wall board -----------------------------------------


def mid_hand(players: int = 8, plays: int = 9) -> tuple[Setup, list[Any]]:
    setup = Setup.create(EIGHT[:players], "all-fives", {"set": "double-twelve"})
    game = Game(setup)
    play_hand(game, random.Random(4))
    return setup, game.events[: plays + 1]


@pytest.mark.parametrize("screen", SCREENS)
def test_eight_sides_with_their_tiles_fit_the_scoreboard(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    long = ["Annabelle", "Bartholomew", "Cy", "Dee-Dee Ramone", "Evangeline", "Fay", "Gus", "Hal"]
    setup = Setup.create(long, "all-fives", {"set": "double-twelve"})
    game = Game(setup)
    play_hand(game, random.Random(4))
    url = seed_game(live_server, setup, game.events[:10])
    page = page_with(**SCREENS[screen])
    open_and_settle(page, url)
    expect(page.locator("[data-side-score]")).to_have_count(8)
    for part in ("[data-side-score]", ".side", "[data-held]", ".seat-name"):
        assert not outside_screen(page.locator(part)), part
    # Each count of tiles held lies inside its side's card, and no two cards overlap.
    cards = page.locator(".side").evaluate_all(
        """(all) => all.map(side => {
            const box = side.getBoundingClientRect(), held = side.querySelector('[data-held]')
                .getBoundingClientRect();
            return {box: [box.left, box.top, box.right, box.bottom],
                    inside: held.left >= box.left && held.right <= box.right
                        && held.top >= box.top && held.bottom <= box.bottom};
        })"""
    )
    assert all(card["inside"] for card in cards)
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            (l1, t1, r1, b1), (l2, t2, r2, b2) = a["box"], b["box"]
            assert r1 <= l2 + 0.5 or r2 <= l1 + 0.5 or b1 <= t2 + 0.5 or b2 <= t1 + 0.5
    # The next entry's controls are still there: the tray's first row and Undo.
    assert not outside_screen(page.locator("#table .actions"))
    # The watch page shows the same eight sides in view.
    watch = page.locator("#watch-link").input_value()
    looking = page_with(**SCREENS[screen])
    open_and_settle(looking, watch)
    expect(looking.locator("[data-side-score]")).to_have_count(8)
    assert not outside_screen(looking.locator("[data-side-score]"))


def longest_count_line() -> tuple[Setup, list[Event]]:
    """Eight long names with a double-twelve set, a hand stored up to the entry after the
    play whose words and count are the longest of a few simulated hands ("Bartholomew's 11-6
    on N: W 9 + E 12 + N 11 + S 8 = 40: Bartholomew +40")."""
    setup = Setup.create(LONG_EIGHT, "all-fives", {"set": "double-twelve"})
    longest: tuple[int, list[Event]] = (0, [])
    for seed in range(4):
        game = Game(setup)
        play_hand(game, random.Random(seed))
        shadow = Game(setup)
        for at, event in enumerate(game.events[:-2]):
            shadow.push(event)
            hand = shadow.hand
            if isinstance(event, Play) and hand is not None and hand.result == "open":
                size = len(count_line(shadow, hand)) + len(LONG_EIGHT[event.player])
                if size > longest[0] and not isinstance(game.events[at + 1], Settle):
                    longest = (size, game.events[: at + 2])
    return setup, longest[1]


@pytest.mark.parametrize("screen", SCREENS)
def test_eight_long_names_leave_the_next_entry_on_the_screen(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    """The status line, what the last play counted, the open ends, a chosen end's tiles, Draw,
    Undo and Redo: all on the screen, however long the names; a name too long for its place is
    cut short, but read out whole."""
    setup, events = longest_count_line()
    page = page_with(**SCREENS[screen])
    open_and_settle(page, seed_game(live_server, setup, events))
    table = TablePage(page)
    # The entry after the longest count is undone: Redo is offered beside Undo.
    in_view_tap(table, table.action("undo"), events=-1)
    expect(table.action("redo")).to_be_visible()
    shadow = Game(setup, events[:-1])
    hand = shadow.hand
    assert hand is not None
    expect(page.locator(".count-line .last-play")).to_contain_text(
        LONG_EIGHT[hand.plays[-1].player]
    )
    expect(page.locator(".status .turn-name")).to_contain_text(LONG_EIGHT[hand.turn])
    controls = (
        ".status",
        "[data-count-line]",
        ".count-line .why",
        ".pick-ends button[data-end]",
        "#table .actions button",
    )
    for part in controls:
        assert not outside_screen(page.locator(part)), (part, outside_screen(page.locator(part)))
    # What the last play counted is all there, the score it made included.
    words = page.locator(".count-line .count-words")
    expect(words.locator("[data-count-line]")).to_have_text(count_line(shadow, hand))
    assert words.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "the count is cut short"
    # An end chosen: its tiles show, the rest stays put, all of it in view.
    end = page.locator(".pick-ends button[data-end]").first
    in_view_tap(table, end, events=0)
    expect(end).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".pick-tile button[data-tile]").first).to_be_visible()
    for part in (*controls, ".pick-tile button[data-tile]"):
        assert not outside_screen(page.locator(part)), (part, outside_screen(page.locator(part)))


def test_the_wall_board_shows_eight_sides_and_the_layout_on_one_screen(
    live_server: LiveServer, page_with: Any
) -> None:
    setup, events = mid_hand()
    url = seed_game(live_server, setup, events)
    page = page_with(**PORTRAIT)
    open_and_settle(page, url)
    board = page.locator("#watch-link").input_value() + "/board"
    wall = page_with(**WALL)
    open_and_settle(wall, board)
    expect(wall.locator(".board-side")).to_have_count(8)
    for part in (".board-side", "[data-side-score]", "#board-picture", "[data-hand-tally]"):
        assert not outside_screen(wall.locator(part)), part
    # One row of eight.
    tops = wall.locator(".board-side").evaluate_all(
        "all => all.map(e => Math.round(e.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1
    violations = axe_violations(wall)
    assert violations == [], explain(violations)


# -- the new-game form ---------------------------------------------------------------------------


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_eight_seats_open_with_a_larger_set_and_start_the_game(
    live_server: LiveServer, page_with: Any, javascript: bool
) -> None:
    page = page_with(**PORTRAIT, java_script_enabled=javascript)
    page.goto(live_server.url + "/games/new")
    seat5 = page.locator('input[name="player5"]')
    expect(page.locator('input[name="player4"]')).to_be_visible()
    expect(seat5).to_be_hidden()  # a double-six set seats 4
    page.locator('select[name="set"]').select_option("double-twelve")
    expect(seat5).to_be_visible()
    expect(
        page.get_by_text("Seats 5 to 8: with a double-nine or double-twelve set only.")
    ).to_be_visible()
    if javascript:  # the checks run in the page, as scripts
        assert problems_on(page) == []
        violations = axe_violations(page)
        assert violations == [], explain(violations)
    for seat, name in enumerate(EIGHT, 1):
        page.locator(f'input[name="player{seat}"]').fill(name)
    page.locator('input[name="leader"][value="table"]').check()
    tap(page.get_by_role("button", name="Start the game"))
    expect(page).to_have_url(GAME_URL)
    expect(page.locator("[data-side-score]")).to_have_count(8)
    expect(page.locator("[data-leader]")).to_have_count(8)


def test_five_names_with_a_double_six_set_are_refused_beside_the_set(
    live_server: LiveServer, page_with: Any
) -> None:
    page = page_with(**PORTRAIT)
    page.goto(live_server.url + "/games/new")
    page.locator('select[name="set"]').select_option("double-nine")
    for seat, name in enumerate(EIGHT[:5], 1):
        page.locator(f'input[name="player{seat}"]').fill(name)
    page.locator('select[name="set"]').select_option("double-six")
    tap(page.get_by_role("button", name="Start the game"))
    error = page.get_by_role("alert").filter(has_text="A double-six set is for 2 to 4 players")
    expect(error).to_be_visible()
    # Seat 5 keeps its name, in view, for the set to be changed.
    expect(page.locator('input[name="player5"]')).to_have_value("Eve")
    expect(page.locator('input[name="player5"]')).to_be_visible()
    assert "/games/new" in page.url


def test_the_club_roster_seats_eight_once_a_larger_set_is_chosen(
    live_server: LiveServer, page_with: Any
) -> None:
    page = page_with(**PORTRAIT)
    page.goto(live_server.url + "/clubs/new")
    page.get_by_label("The club's name").fill("Big table")
    tap(page.get_by_role("button", name="Create the club"))
    expect(page.locator("h1[data-club]")).to_have_text("Big table")
    club = page.url
    page.goto(club + "/new")
    page.locator('select[name="set"]').select_option("double-twelve")
    for seat, name in enumerate(EIGHT, 1):
        page.locator(f'input[name="player{seat}"]').fill(name)
    tap(page.get_by_role("button", name="Start the game"))
    expect(page).to_have_url(GAME_URL)
    page.goto(club + "/new")
    expect(page.locator("[data-roster]")).to_be_visible()
    for name in EIGHT[:5]:
        tap(page.locator(f'[data-roster-name="{name}"]'))
    # With a double-six set the fifth name has no seat to go to.
    expect(page.locator('input[name="player4"]')).to_have_value("Dee")
    expect(page.locator('[data-roster-name="Eve"]')).to_have_attribute("aria-pressed", "false")
    page.locator('select[name="set"]').select_option("double-nine")
    tap(page.locator('[data-roster-name="Eve"]'))
    expect(page.locator('input[name="player5"]')).to_have_value("Eve")
    tap(page.locator('[data-seat-up="5"]'))
    expect(page.locator('input[name="player4"]')).to_have_value("Eve")
    expect(page.locator('input[name="player5"]')).to_have_value("Dee")


# -- the score sheet on paper --------------------------------------------------------------------


def finished_eight(hands: range) -> Game:
    setup = Setup.create(EIGHT, "all-fives", {"set": "double-twelve", "target": 150})
    for seed in range(300):
        game = play_game(setup, random.Random(seed), max_hands=20)
        if game.winner is not None and len(game.hands) in hands:
            return game
    raise AssertionError("no simulated game found")


@pytest.mark.parametrize("paper", ("A4", "Letter"))
def test_the_sheet_of_eight_players_prints_on_one_page_on_its_side(
    live_server: LiveServer, page_with: Any, paper: str
) -> None:
    game = finished_eight(range(6, 13))
    url = seed_game(live_server, game.setup, game.events) + "/sheet"
    desktop = page_with(viewport={"width": 1280, "height": 800})
    desktop.goto(url)
    pdf = PdfReader(io.BytesIO(desktop.pdf(format=paper)))
    assert len(pdf.pages) == 1
    box = pdf.pages[0].mediabox
    assert box.width > box.height  # on its side
    text = words(pdf)
    for name in EIGHT:
        assert name in text
    winner = game.sides[game.winner]
    assert f"winner {winner.lower()} with {game.scores[game.winner]} (target 150)" in text.lower()
    assert_rows(text, game)


def test_a_long_game_of_eight_prints_its_column_heads_on_each_page(
    live_server: LiveServer, page_with: Any
) -> None:
    """40 hands of eight do not fit one page on its side: the second page starts with the
    sides' names over their columns again, and each hand's row is whole on one page."""
    setup = Setup.create(EIGHT, "all-fives", {"set": "double-twelve", "target": 1000})
    game = play_game(setup, random.Random(1), max_hands=40)
    assert len(game.hands) == 40
    desktop = page_with(viewport={"width": 1280, "height": 800})
    desktop.goto(seed_game(live_server, setup, game.events) + "/sheet")
    pdf = PdfReader(io.BytesIO(desktop.pdf(format="A4")))
    assert len(pdf.pages) == 2
    heads = "HAND LED BY ENDED " + " ".join(EIGHT) + " " + " ".join(["PLAY END TOT."] * 8)
    found: dict[int, int] = {}
    for number, page in enumerate(pdf.pages, 1):
        text = re.sub(r"\s+", " ", page.extract_text() or "")
        assert heads in text, f"page {number} has no column heads"
        rows = text[text.index(heads) + len(heads) :]
        for hand, played in enumerate(game.hands, 1):
            after = game.scores if hand == len(game.hands) else game.hands[hand].scores_before
            leader = game.players[played.leader]
            row = re.search(rf"(?:^| ){hand} {leader} (\w+ \w+)((?: -?\d+){{24}})", rows)
            if row:
                assert row.group(2).split()[2::3] == [str(total) for total in after], hand
                found[hand] = number
    assert sorted(found) == list(range(1, 41)), "a hand's row is missing or split"
    assert set(found.values()) == {1, 2}


def test_the_sheet_of_eight_players_has_nothing_serious_for_axe(
    live_server: LiveServer, page_with: Any
) -> None:
    game = first_hands(finished_eight(range(4, 13)), 3)
    page = page_with(viewport={"width": 1280, "height": 800})
    page.goto(seed_game(live_server, game.setup, game.events) + "/sheet")
    violations = axe_violations(page)
    assert violations == [], explain(violations)


# -- axe on the eight-player table ----------------------------------------------------------


@pytest.mark.parametrize("phase", ["play", "settle", "lead"])
def test_the_eight_player_table_has_nothing_serious_for_axe(
    live_server: LiveServer, page_with: Any, phase: str
) -> None:
    if phase == "play":
        setup, events = mid_hand()
        url = seed_game(live_server, setup, events)
    elif phase == "settle":
        setup, game = hand_ending(8, "blocked")
        at = next(i for i, event in enumerate(game.events) if isinstance(event, Settle))
        url = seed_game(live_server, setup, game.events[:at])
    else:
        setup = Setup.create(EIGHT, "all-fives", {"set": "double-nine"})
        url = seed_game(live_server, setup) + "?lead=draw"
    page = page_with(**PORTRAIT)
    open_and_settle(page, url)
    expect(page.locator("#table")).to_have_attribute("data-phase", phase)
    violations = axe_violations(page)
    assert violations == [], explain(violations)


@pytest.mark.parametrize("screen", SCREENS)
def test_the_winner_of_eight_and_rematch_are_in_view_at_the_end(
    live_server: LiveServer, page_with: Any, screen: str
) -> None:
    game = finished_eight(range(1, 20))
    page = page_with(**SCREENS[screen])
    open_and_settle(page, seed_game(live_server, game.setup, game.events))
    expect(page.locator("#table")).to_have_attribute("data-phase", "over")
    expect(page.locator("[data-final-score]")).to_have_count(8)
    winner = game.sides[game.winner]
    for part in (f'[data-final-score="{winner}"]', '[data-action="rematch"]', "#winner h2"):
        assert not outside_screen(page.locator(part)), part
