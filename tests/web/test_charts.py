"""Charts as data: a game's progression agrees with its replay output step by step, the chart
lays it out inside its box with round ticks and the target, and the pages carry it (table,
watch page, sheet; a club's wins over time)."""

from __future__ import annotations

import html
import json
import re
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.progression import progression
from scorekeeper.rules.record import read_record
from scorekeeper.rules.standings import Played, standings
from scorekeeper.rules.stats import GameFacts, SeatFacts
from scorekeeper.web.drawing.charts import (
    game_chart,
    line_chart,
    nice_step,
    series,
    ticks_for,
    wins_chart,
)
from tests.web.webtable import import_record, started

DATA = Path(__file__).parents[1] / "data"
RECORDS = sorted(
    p
    for p in DATA.glob("*.json")
    if p.name.startswith(("sim_", "var_", "hand_")) and not p.name.endswith(".expected.json")
)


def expected_steps(expected: dict[str, Any]) -> list[tuple[int, ...]]:
    """The scores after every play and settlement, from the replay output alone."""
    sides = expected["sides"]
    member = {}
    for number, side in enumerate(sides):
        for name in side.split(" & "):
            member[name] = number
    running = [0] * len(sides)
    steps = [tuple(running)]
    for hand in expected["hands"]:
        for play in hand["plays"]:
            running[member[play["player"]]] += play["points"]
            steps.append(tuple(running))
        if hand.get("settlement") and any(hand["settlement"].values()):
            for number, side in enumerate(sides):
                running[number] += hand["settlement"][side]
            steps.append(tuple(running))
    return steps


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_the_progression_agrees_with_the_replay_output_step_by_step(path: Path) -> None:
    game = read_record(json.loads(path.read_text()))
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    steps = progression(game)
    sides = expected["sides"]
    assert steps.steps[-1] == tuple(expected["scores"][side] for side in sides)
    assert len(steps.hand_starts) == len(expected["hands"])
    if not _corrected(expected):
        assert list(steps.steps) == expected_steps(expected)
        return
    # Claims and adjustments are steps of their own, but the replay output does not say where
    # an adjustment stood among the plays: each hand ends on the scores it gives.
    ends = [*steps.hand_starts[1:], len(steps.steps)]
    for hand, end in zip(expected["hands"], ends, strict=True):
        assert steps.steps[end - 1] == tuple(hand["scores"][side] for side in sides)


def _corrected(expected: dict[str, Any]) -> bool:
    """Whether a replay output has a claim ("Muggins!") or an adjustment."""
    return any(
        "adjustments" in hand or any("claimed_by" in play for play in hand["plays"])
        for hand in expected["hands"]
    )


def test_a_deduction_takes_the_line_down_and_fives_are_kept_in_fives() -> None:
    game = read_record(json.loads((DATA / "var_units_fives.json").read_text()))
    steps = progression(game)
    assert steps.in_fives and steps.target == game.rules.target
    deducting = read_record(json.loads((DATA / "sim_all_fives_2p.json").read_text()))
    lines = progression(deducting)
    assert any(
        after[side] < before[side]
        for before, after in pairwise(lines.steps)
        for side in range(len(lines.sides))
    ), "a deduct-own settlement lowers a score"


def test_round_ticks_cover_the_values_and_the_target() -> None:
    assert [nice_step(span) for span in (4, 10, 23, 250, 1000)] == [1, 2, 5, 50, 200]
    assert ticks_for(-80, 250) == (-100, 300, 100)
    chart = line_chart(
        "t", "T", "S", [series("Ann", [0, 10, 250]), series("Bob", [0, -80, 20])], level=250
    )
    assert chart.ticks[0].value <= -80 and chart.ticks[-1].value >= 250
    for line in chart.lines:
        drawn = [chart.drawn(*map(float, p.split(","))) for p in line.points.split()]
        xs = [x for x, _ in drawn]
        assert xs == sorted(xs) and xs[0] == chart.left and xs[-1] == pytest.approx(chart.right)
        assert all(chart.top - 0.01 <= y <= chart.bottom + 0.01 for _, y in drawn)
    assert chart.drawn(1, 10)[1] > chart.drawn(2, 250)[1]  # higher values are drawn higher
    assert chart.level is not None and chart.level.value == 250
    ann, bob = chart.lines
    assert ann.end[1] < bob.end[1]  # Ann ends higher (smaller y)
    close = line_chart("t", "T", "S", [series("A", [0, 50]), series("B", [0, 50])])
    assert abs(close.lines[0].end[1] - close.lines[1].end[1]) >= 10  # names kept apart


def test_the_game_chart_marks_each_hand_and_says_what_it_shows() -> None:
    game = read_record(json.loads((DATA / "hand_seven_five_two_hands.json").read_text()))
    chart = game_chart(game)
    assert chart is not None
    assert [m.label for m in chart.marks] == ["Hand 1", "Hand 2"]
    assert "the target is" in chart.summary
    assert [line.name for line in chart.lines] == list(game.sides)


def test_the_game_chart_keeps_finished_hands_and_stays_right_through_undo() -> None:
    """The finished hands' lines are kept from one request to the next: a chart made while
    the game grows, is undone into an earlier hand and goes on, is the fresh game's chart."""
    record = json.loads((DATA / "sim_fives_up_3p.json").read_text())
    events = list(read_record(record).events)

    def cut(length: int) -> Any:
        game = read_record(record)
        game.rewind(length)
        return game

    def drawn(game: Any) -> tuple[Any, ...]:
        chart = game_chart(game)
        assert chart is not None
        lines = tuple((line.values, line.points) for line in chart.lines)
        return lines, chart.transform, tuple(m.step for m in chart.marks)

    growing = cut(len(events) // 3)
    for length in range(len(events) // 3, len(events) + 1, 7):
        for event in events[len(growing.events) : length]:
            growing.push(event)
        assert drawn(growing) == drawn(cut(length))
    # Back into an early hand and on again: the kept lines of the later hands are not used.
    growing.rewind(len(events) // 4)
    assert drawn(growing) == drawn(cut(len(events) // 4))
    for event in events[len(growing.events) : len(events) // 2]:
        growing.push(event)
    assert drawn(growing) == drawn(cut(len(events) // 2))
    assert drawn(growing)[2] == progression(cut(len(events) // 2)).hand_starts


def _chart_values(page: str, kind: str = "progression") -> dict[str, list[int]]:
    svg = page[page.index(f'data-chart="{kind}"') :]
    svg = svg[: svg.index("</svg>")]
    return {
        html.unescape(name): [int(v) for v in values.split()]
        for name, values in re.findall(r'data-series="([^"]+)" data-values="([^"]*)"', svg)
    }


def test_the_table_the_watch_page_and_the_sheet_carry_the_chart(client: FlaskClient) -> None:
    record = json.loads((DATA / "sim_fives_up_3p.json").read_text())
    expected = json.loads((DATA / "sim_fives_up_3p.expected.json").read_text())
    steps = expected_steps(expected)
    want = {side: [s[n] for s in steps] for n, side in enumerate(expected["sides"])}
    table = import_record(client, record)
    page = table.page()
    assert _chart_values(page) == want
    assert f'data-target="{record.get("options", {}).get("target", 100)}"' in page
    watch = re.search(r'value="http://localhost(/watch/[A-Za-z0-9_-]{22})"', page)
    assert watch is not None
    assert _chart_values(client.get(watch.group(1)).get_data(as_text=True)) == want
    sheet = client.get(f"{table.url}/sheet").get_data(as_text=True)
    assert _chart_values(sheet) == want


def test_a_new_game_has_no_chart_until_a_tile_is_down(client: FlaskClient) -> None:
    table = started(client)
    assert 'data-chart="progression"' not in table.page()
    table.play("5-5")
    assert _chart_values(table.page())["Ann"] == [0, 10]


def test_the_drawn_chart_follows_plays_undo_and_redo(client: FlaskClient) -> None:
    """Charts are drawn once per score line and kept: each page still shows the game's."""
    table = started(client)
    table.play("5-5")
    after_lead = _chart_values(table.page())
    table.play("5-0", "W")
    after_two = _chart_values(table.page())
    assert [len(values) for values in after_two.values()] == [3, 3]
    assert table.post("undo", {}).status_code in (200, 303)
    assert _chart_values(table.page()) == after_lead
    assert _chart_values(client.get(f"{table.url}/sheet").get_data(as_text=True)) == after_lead
    assert table.post("redo", {}).status_code in (200, 303)
    assert _chart_values(table.page()) == after_two


def test_the_wins_chart_counts_each_players_wins_game_by_game() -> None:
    def played(players: tuple[str, ...], winner: int, day: int) -> Played:
        seats = tuple(SeatFacts() for _ in players)
        sides = tuple(range(len(players)))
        facts = GameFacts(seats, sides, False, winner, (0,) * len(players), 1, 1)
        return Played(players, facts, datetime(2026, 11, day))

    assert wins_chart(standings([played(("Ann", "Bob"), 0, 1)])) is None  # one game: no chart
    games = [
        played(("Ann", "Bob"), 0, 1),
        played(("Bob", "Cy"), 1, 3),
        played(("Ann", "Bob", "Cy"), 1, 2),  # played on the 2nd: counted second
    ]
    chart = wins_chart(standings(games))
    assert chart is not None
    values = {line.name: [int(v) for v in line.values.split()] for line in chart.lines}
    assert values == {"Ann": [0, 1, 1, 1], "Bob": [0, 0, 1, 1], "Cy": [0, 0, 0, 1]}
    assert chart.summary.startswith("Wins over the club's 3 finished games")
