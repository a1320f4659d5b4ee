"""A whole club night in Chromium (issue 40): the director sets up a night of 12 on a phone
(360x720) and, in a second run, on a laptop (1280x720), and starts round 1 of tables of four
with partners; the three tables open their games on their own phones by the links on the
round's sheet, and the round's clock shows on every play screen and board; the round is run
down to its time limit, and the tables play to the clock: on the phone's night the hand being
played is the last and its higher side wins, on the laptop's play goes on to a short target.
The director's board and the room's wall board follow every entry live and move the standings
as each game ends; round 2 is seated from round 1 (no partners twice, opponents met before as
few as can be) and the boards turn to it by themselves.

Every page the director taps through fits the screen (no sideways scroll, targets and text
large enough) and is axe clean."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import Game, Setup, TimeCalled
from scorekeeper.rules.events import Draw, Event, NewHand, Pass, Play, Settle, TimeRule
from scorekeeper.rules.simulate import play_hand
from scorekeeper.rules.tiles import tile
from scorekeeper.web.nights import board as night_board
from tests.browser.browsing import GAME_URL, GameEntry, TablePage, tap, word_problems
from tests.browser.test_clubs import check_fits as fits
from tests.browser.test_clubs import create_club
from tests.support.chromium import PORTRAIT, WALL
from tests.support.night_clock import expire_round, round_id_of
from tests.support.server import LiveServer

ROSTER = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim"]
WALK_IN = "Zed"
LAPTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 720}}
"""The director's laptop: 1280x720, a mouse."""
MINUTES = 20
"""A round's time limit, as the director sets it (the board's clock counts down from it)."""

SHORT = {"target": 10, "win_check": "immediate"}
"""House rules for a short game: 10, won the moment a side reaches it."""
SHORT_GAMES: list[list[Event]] = [
    # The leader plays 5-5: 10 for the leader's side, who win at once.
    [Play(0, tile(5, 5))],
    # 5-0 scores 5; 2-0 and a draw score nothing; 5-2 fits both ends and goes on E, making
    # 5 + 5: the leader's side win 15 to 0.
    [Play(0, tile(5, 0)), Play(1, tile(2, 0)), Draw(2), Play(2, tile(5, 2), "E")],
    # 6-1 counts 7 (no score); 4-1 on the 1 makes 6 + 4: the other side win 10 to 0.
    [Play(0, tile(6, 1)), Play(1, tile(4, 1))],
]
"""Each table's short game, its seats counted from the leader (0), whom the round draws by lot
for each table."""
HAND_SEEDS = (7, 8, 5)
"""The simulator's seeds of each table's hand 1 at the preset's target (200): each ends in a
domino, 20 or 21 entries, one side ahead (10 to -5, 45 to 35, 30 to 5)."""


@dataclass(frozen=True)
class Night:
    """A run: the director's screen and the night's rule at the time limit."""

    screen: dict[str, Any]
    at_limit: TimeRule
    short: bool
    """Short games to 10 (to-target), or the preset's 200 with hand 1 the last (finish-hand)."""


NIGHTS = {
    "phone": Night(PORTRAIT, "finish-hand", short=False),
    "laptop": Night(LAPTOP, "to-target", short=True),
}
LIMIT_WORDS = {
    "finish-hand": "Finish the hand being played; the higher side wins",
    "to-target": "Play on to the target",
}
"""The new-night form's label of each rule at the time limit."""


def _simulated_hand(seed: int) -> list[Event]:
    """A simulated hand 1 of a table of four to its settlement, its seats counted from its
    leader (0)."""
    setup = Setup.create(["S1", "S2", "S3", "S4"], "all-fives", {}, True)
    game = Game(setup)
    play_hand(game, random.Random(seed))
    first = game.events[0]
    assert isinstance(first, NewHand)
    return [_turned(-first.leader, event) for event in game.events[1:]]


def _turned(by: int, event: Event) -> Event:
    """``event`` with every seat moved ``by`` places round the table of four."""
    if isinstance(event, Play):
        return Play((event.player + by) % 4, event.tile, event.end, event.flipped)
    if isinstance(event, Draw):
        return Draw((event.player + by) % 4, event.count)
    if isinstance(event, Pass):
        return Pass((event.player + by) % 4)
    assert isinstance(event, Settle)
    return Settle({(seat + by) % 4: held for seat, held in event.remaining.items()})


def check_fits(page: Page) -> None:
    """The page fits its screen and is axe clean (``test_clubs.check_fits``), and no word on
    it is broken across lines, cut off or off the screen."""
    fits(page)
    # The standings scroll sideways inside their own box on a phone, by design (as the
    # club's do): their columns past its edge are not broken words.
    assert word_problems(page, leave_out=".table-scroll") == []


SCORES_BROKEN = r"""selector => {
  const broken = [];
  for (const element of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\d+(?:\u2060?\u2013\u2060?\d+)+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
          .map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""
"""The scores (1 en dash 0, 10 en dash 0) split across two lines in what ``selector``
matches."""


def _open_night(director: Page, base: str, night: Night) -> str:
    """The director's club with its roster of 11, a night opened on it for those 11 and a
    walk-in, in tables of four, by taps on the pages: the night's address."""
    club = create_club(director, base, "Night club")
    # The roster as other tests import it: one paste on the club's import page.
    director.goto(club + "/import")
    roster = {"format": "all-fives-club/1", "roster": ROSTER}
    director.locator('textarea[name="text"]').fill(json.dumps(roster))
    tap(director.get_by_role("button", name="Import"))
    expect(director.locator(".notice")).to_contain_text("11 players")
    director.goto(club)
    tap(director.locator("[data-club-new-night]"))
    expect(director.locator("[data-night-form]")).to_be_visible()
    check_fits(director)
    for name in ROSTER:
        tap(director.get_by_label(name, exact=True))
        expect(director.get_by_label(name, exact=True)).to_be_checked()
    director.get_by_label("A walk-in (not on the roster yet)").fill(WALK_IN)
    tap(director.get_by_label("4: two partnerships, partners drawn each round"))
    director.get_by_label("Rounds").fill("2")
    director.get_by_label("Minutes a round").fill(str(MINUTES))
    tap(director.get_by_label(LIMIT_WORDS[night.at_limit], exact=True))
    if night.short:
        director.locator('input[name="target"]').fill(str(SHORT["target"]))
        tap(director.locator("details.night-rules > summary"))
        immediate = director.locator('input[name="win_check"][value="immediate"]')
        if immediate.count():
            tap(immediate)
        else:
            director.locator('select[name="win_check"]').select_option("immediate")
    check_fits(director)
    tap(director.locator("[data-open-night]"))
    expect(director.locator(".notice")).to_contain_text("open with 12 players")
    expect(director.locator("[data-night-player]")).to_have_count(12)
    check_fits(director)
    return director.url


def _sides(round_page: Page) -> list[list[list[str]]]:
    """Each table's two partnerships on a round's sheet, in table order."""
    tables = round_page.locator(".night-table")
    found = []
    for number in range(tables.count()):
        sides = tables.nth(number).locator(".table-side").all_inner_texts()
        found.append([side.split(" & ") for side in sides])
    return found


def _seats(sides: list[list[str]]) -> list[str]:
    """A table of four's seat order: seats 1 and 3 are partners against seats 2 and 4."""
    (one, three), (two, four) = sides
    return [one, two, three, four]


def _next_step(director: Page, control: str) -> None:
    """Tap the night's next step, which lies on the page's first screen, as it opened."""
    button = director.locator(control)
    expect(button).to_be_in_viewport(ratio=1)
    tap(button)


def _start_round(director: Page, number: int) -> list[list[list[str]]]:
    """Start the seated round from its sheet: its tables' partnerships."""
    expect(director.locator("h1[data-round]")).to_have_text(f"Round {number}")
    expect(director.locator(".night-table")).to_have_count(3)
    sides = _sides(director)
    check_fits(director)
    _next_step(director, "[data-start-round]")
    expect(director.locator(".notice")).to_contain_text("3 tables are playing")
    expect(director.locator("[data-table-link]")).to_have_count(3)
    expect(director.locator(".table-qr svg")).to_have_count(3)
    check_fits(director)
    return sides


def _card(board: Page, number: int) -> Locator:
    return board.locator(f"#board-table-{number}")


def _follows(boards: Sequence[Page], number: int, table: TablePage) -> None:
    """Each board's card of the table shows the table's scores and whose turn it is."""
    scores = {
        str(side.get_attribute("data-side-score")): side.inner_text()
        for side in table.page.locator("#table [data-side-score]").all()
    }
    assert len(scores) == 2, scores
    turn = table.page.locator("#table [data-turn]")
    for board in boards:
        card = _card(board, number)
        for name, score in scores.items():
            expect(card.locator(f'[data-side-score="{name}"]')).to_have_text(score)
        if turn.count() and turn.first.get_attribute("data-turn"):
            expect(card.locator("[data-card-turn]")).to_have_attribute(
                "data-card-turn", str(turn.first.get_attribute("data-turn"))
            )


def _match_points(board: Page, name: str) -> Locator:
    return board.locator(f'#board-standings [data-player="{name}"] [data-stat="match_points"]')


def _opponent_repeats(tables: Sequence[Sequence[Sequence[str]]], met: set[frozenset[str]]) -> int:
    """How many pairs of opponents in ``tables`` (each two partnerships) met in ``met``."""
    return sum(frozenset((a, b)) in met for one, other in tables for a in one for b in other)


def _fewest_repeats(partnerships: list[list[str]], met: set[frozenset[str]]) -> int:
    """The fewest opponents met before that any way of matching these partnerships into
    tables of two partnerships allows (6 partnerships: 15 ways)."""

    def matchings(left: list[list[str]]) -> Any:
        if not left:
            yield []
            return
        first, rest = left[0], left[1:]
        for index, other in enumerate(rest):
            for more in matchings(rest[:index] + rest[index + 1 :]):
                yield [[first, other], *more]

    return min(_opponent_repeats(tables, met) for tables in matchings(partnerships))


def _expected_standings(tables: Sequence[GameEntry]) -> dict[str, tuple[int, int, int]]:
    """Each player's match points, points for and points against after round 1, worked out
    from the tables' games as the referee replayed them (docs/nights.md, Standings)."""
    found = {}
    for entry in tables:
        game = entry.shadow
        assert game.winner is not None
        for index, side in enumerate(game.sides):
            against = max(score for other, score in enumerate(game.scores) if other != index)
            for name in side.split(" & "):
                found[name] = (2 if index == game.winner else 0, game.scores[index], against)
    return found


def _open_boards(director: Page, base: str, page_with: Any) -> tuple[Page, Page]:
    """The director's board, opened from the night's page in a second tab, and the wall
    board from its link on the room's screen, both counting the round's time down. Every
    page's clock runs as the machine's, until the test moves it on to the time limit."""
    tap(director.locator("main [data-back]"))
    expect(director.locator("[data-night-board]")).to_be_visible()
    board = director.context.new_page()
    board.clock.install()
    board.goto(base + str(director.locator("[data-night-board]").get_attribute("href")))
    expect(board.locator(".board-card")).to_have_count(3)
    expect(board.locator("#night-board")).to_have_attribute("data-following", "stream")
    counting = re.compile(rf"^({MINUTES}:00|{MINUTES - 1}:\d\d)$")
    expect(board.locator("[data-clock]")).to_have_text(counting)
    check_fits(board)
    wall = page_with(**WALL)
    wall.clock.install()
    wall.goto(base + str(board.locator("[data-board-wall]").get_attribute("href")))
    assert "/clubs/watch/" in wall.url
    expect(wall.locator(".board-card")).to_have_count(3)
    expect(wall.locator("#night-board")).to_have_attribute("data-following", "stream")
    expect(wall.locator("[data-clock]")).to_have_text(counting)
    check_fits(wall)
    return board, wall


def _play_to_the_clock(
    entry: GameEntry,
    number: int,
    events: list[Event],
    night: Night,
    boards: Sequence[Page],
    carries: bool,
) -> None:
    """Table ``number`` plays ``events`` (seats counted from its leader) after the round's
    time is up, each board following every entry; its first entry ``carries`` the time
    entry in front of it, in the same write, unless the table called time already."""
    assert entry.shadow.hand is not None
    leader = entry.shadow.hand.leader
    if carries:
        entry.shadow.push(TimeCalled(night.at_limit))
        entry.table.seq += 1
    for event in events:
        entry.enter(_turned(leader, event))
        _follows(boards, number, entry.table)
    page = entry.table.page
    expect(page.locator("#table")).to_have_attribute("data-phase", "over")
    assert entry.shadow.winner is not None
    if night.at_limit == "finish-hand":
        # Below the target: the hand was the last, and the higher side won.
        assert max(entry.shadow.scores) < 200
        expect(page.locator("[data-won-at-time]")).to_be_visible()
    # The round's time is up: the match ends with this game, no rematch.
    expect(page.locator("[data-no-rematch]")).to_be_visible()
    expect(page.locator('[data-action="rematch"]')).to_have_count(0)
    for shown in boards:
        expect(_card(shown, number)).to_have_attribute("data-state", "over")


def _check_round_one(director: Page, night_url: str, tables: Sequence[GameEntry]) -> None:
    """The night's page and round 1's sheet after its games."""
    # The night's page: every player's match points, points for and against as the games
    # say, in order of match points, then difference, then points.
    director.goto(night_url)
    rows = director.locator("#standings [data-night-standings] tbody tr")
    expect(rows).to_have_count(12)
    expected = _expected_standings(tables)
    order = []
    for row in rows.all():
        name = str(row.get_attribute("data-player"))
        stats = tuple(
            int(row.locator(f'[data-stat="{stat}"]').inner_text())
            for stat in ("match_points", "points_for", "points_against")
        )
        assert stats == expected[name], name
        order.append((stats[0], stats[1] - stats[2], stats[1]))
    assert order == sorted(order, reverse=True), order
    check_fits(director)
    # Round 1's sheet, from the night's list of rounds: every table's match over, its score.
    tap(director.locator('[data-round="1"] a'))
    states = director.locator("[data-table-state]")
    expect(states).to_have_count(3)
    for number, entry in enumerate(tables):
        expect(states.nth(number)).to_have_attribute("data-table-state", "over")
        score = "\u2060\u2013\u2060".join(str(points) for points in entry.shadow.scores)
        expect(states.nth(number)).to_contain_text(f"score: {score}")
    assert director.evaluate(SCORES_BROKEN, "[data-table-state]") == []
    check_fits(director)
    tap(director.locator("main [data-back]"))  # back in the tab's history, to the night
    expect(director.locator("h1[data-night]")).to_be_visible()
    director.wait_for_load_state()


@pytest.mark.fresh_context  # the pages' clocks are run on: no later test may get them
@pytest.mark.parametrize("run", NIGHTS)
def test_a_night_of_twelve_from_setup_to_round_two(
    live_server: LiveServer, page_with: Any, run: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A board learns of a new round at its stream's next heartbeat (20 s on a server): a
    # second here, as the board's web tests do, so that the boards turning to round 2 by
    # themselves is seen without half the test's time spent waiting for it. The live server
    # runs in this process; the streams read the figure as they open.
    monkeypatch.setattr(night_board, "HEARTBEAT_SECONDS", 1.0)
    night = NIGHTS[run]
    base = live_server.url
    director = page_with(**night.screen)
    night_url = _open_night(director, base, night)

    # Round 1: seated and started from the night's page.
    _next_step(director, "[data-seat-round]")
    first = _start_round(director, 1)
    players = sorted(name for table in first for side in table for name in side)
    assert players == sorted([*ROSTER, WALK_IN])
    links = [
        base + str(link.get_attribute("href"))
        for link in director.locator("[data-table-link]").all()
    ]
    round_id = round_id_of(live_server.app, links[0].rsplit("/", 1)[1])

    # The director's board and the room's wall board.
    board, wall = _open_boards(director, base, page_with)
    boards = (board, wall)
    for shown in boards:  # marked, to tell a live swap from a reload
        shown.evaluate("document.body.dataset.unreloaded = 'yes'")

    # Each table opens its game by the link on its slip, on a phone of its own: the round's
    # time left is on its play screen.
    tables = []
    for number, link in enumerate(links, start=1):
        phone = page_with(**PORTRAIT)
        phone.clock.install()
        phone.goto(link)
        expect(phone).to_have_url(GAME_URL)
        expect(phone.locator(".round-clock [data-clock-text]")).to_have_text(
            re.compile(rf"^Round 1 · ({MINUTES}:00|{MINUTES - 1}:\d\d) left$")
        )
        if number == 1:
            check_fits(phone)  # a table's game of a night is the ordinary play screen
        seats = _seats(first[number - 1])
        options = SHORT if night.short else {}
        entry = GameEntry(TablePage(phone), Setup.create(seats, "all-fives", options, True))
        # The round drew the first leader by lot: the game begins with hand 1 led.
        turn = phone.locator("#table [data-turn]").first
        entry.shadow.push(NewHand(seats.index(str(turn.get_attribute("data-turn"))), "lot"))
        tables.append(entry)

    # The round is run down to its limit: its start put back on the server, and every
    # page's clock moved on as far. The boards and the play screens say so by themselves.
    expire_round(live_server.app, round_id, 0)
    for shown in [*boards, *(entry.table.page for entry in tables)]:
        shown.clock.fast_forward(f"{MINUTES}:00")
    for shown in boards:
        expect(shown.locator("[data-clock]")).to_have_text("Time is up")
    told = {
        "finish-hand": "Time! This hand is the last: the higher side wins",
        "to-target": "Time! Play on to the target",
    }[night.at_limit]
    for entry in tables:
        expect(entry.table.page.locator(".round-clock [data-clock-text]")).to_have_text(told)
    # Table 1 calls time with one tap; the others' first entry carries the time entry in
    # front of it, in the same write.
    first_table = tables[0]
    first_table.table.tap(first_table.table.page.locator("[data-call-time]"))
    first_table.shadow.push(TimeCalled(night.at_limit))
    first_table.table.entered()
    expect(first_table.table.page.locator("[data-call-time]")).to_have_count(0)

    # The tables play to the clock; the boards follow every entry.
    level = {name: "0" for name in players}
    for number, entry in enumerate(tables, start=1):
        short = SHORT_GAMES[number - 1]
        events = short if night.short else _simulated_hand(HAND_SEEDS[number - 1])
        _play_to_the_clock(entry, number, events, night, boards, carries=entry is not first_table)
        # The standings beside move as the game ends: its winners have a match's 2 points.
        assert entry.shadow.winner is not None
        for name in entry.shadow.sides[entry.shadow.winner].split(" & "):
            level[name] = "2"
        for shown in boards:
            for name, points in level.items():
                expect(_match_points(shown, name)).to_have_text(points)
    for shown in boards:
        assert shown.evaluate("document.body.dataset.unreloaded") == "yes"
        assert shown.evaluate(SCORES_BROKEN, "[data-card-state]") == []
    check_fits(board)
    check_fits(wall)
    # Nobody scrolls the wall: its standings show every column whole. Nor need the director
    # on a laptop: every table on the first screen, and the standings whole beside them.
    wide = [wall, board] if run == "laptop" else [wall]
    for shown in wide:
        standings = shown.locator("#board-standings .table-scroll")
        assert standings.evaluate("e => e.scrollWidth <= e.clientWidth"), "columns cut"
    if run == "laptop":
        board.evaluate("window.scrollTo(0, 0)")
        lowest = board.locator(".board-card").evaluate_all(
            "cards => Math.max(...cards.map(c => c.getBoundingClientRect().bottom))"
        )
        assert lowest <= LAPTOP["viewport"]["height"], f"a table's card ends at {lowest} px"

    _check_round_one(director, night_url, tables)

    # Round 2, seated from round 1: nobody partners the same player again, and the
    # partnerships meet as few opponents met before as any matching of them could.
    _next_step(director, "[data-seat-round]")
    expect(director.locator("h1[data-round]")).to_have_text("Round 2")
    second = _sides(director)
    assert sorted(name for table in second for side in table for name in side) == players
    partners_before = {frozenset(side) for table in first for side in table}
    partners_now = [side for table in second for side in table]
    assert not [side for side in partners_now if frozenset(side) in partners_before]
    met = {frozenset((a, b)) for one, other in first for a in one for b in other}
    assert _opponent_repeats(second, met) == _fewest_repeats(partners_now, met)
    _start_round(director, 2)

    # The boards turn to round 2 by themselves, within their stream's heartbeat.
    for shown in boards:
        expect(shown.locator("h1.night-board-title")).to_contain_text("Round 2")
        expect(shown.locator(".board-card")).to_have_count(3)
        for number, table in enumerate(second, start=1):
            for side in table:
                expect(_card(shown, number)).to_contain_text(" & ".join(side))
        expect(shown.locator('#board-standings [data-stat="match_points"]')).to_have_count(12)
