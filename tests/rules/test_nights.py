"""Whole club nights seated and scored without a server: every pairing valid, repeats and byes
only where they cannot be avoided, standings equal to a count made again from the records."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Setup
from scorekeeper.rules.game import Game
from scorekeeper.rules.nights.format import NightFormat, TableSize
from scorekeeper.rules.nights.seating import (
    History,
    Seating,
    seat_round,
    sides_of,
    swap,
    table_sizes,
)
from scorekeeper.rules.nights.standings import TableGames, flat, match_result, night_standings
from scorekeeper.rules.record import load_record, write_record
from scorekeeper.rules.simulate import play_game
from scorekeeper.rules.stats import FACTS_FORMAT, GameFacts, game_facts


def _night(size: TableSize, match: str = "one-game") -> NightFormat:
    return NightFormat(size, 6, 30, match, "finish-hand", ("difference", "total", "head-to-head"))  # type: ignore[arg-type]


def _perfect_without(players: list[str], bad: set[frozenset[str]]) -> bool:
    """Whether ``players`` pair up with no pair in ``bad`` (every pairing tried)."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, other)) not in bad
        and _perfect_without([p for p in rest if p != other], bad)
        for other in rest
    )


def _match(seats: tuple[str, ...], night: NightFormat, rng: random.Random) -> list[Game]:
    partners = night.partners if len(seats) == 4 else None
    setup = Setup.create(list(seats), "all-fives", {"target": 25}, partners)
    played = []
    wins: Counter[int] = Counter()
    for _ in range(night.games_per_match):
        # A table's next game follows a game won (its rematch); the simulation gives up on a
        # game whose scores run away below zero, and a table would play that one on.
        game = play_game(setup, rng)
        while game.winner is None:
            game = play_game(setup, rng)
        played.append(game)
        wins[game.winner] += 1
        if max(wins.values()) >= 2 or night.games_per_match == 1:
            break
        if len(sides_of(seats, night.partners)) > 2 and len(played) == 3:
            break
    return played


def _again(game: object) -> GameFacts:
    """The game's facts from its record, written and read again."""
    return game_facts(load_record(json.dumps(write_record(game))))  # type: ignore[arg-type]


def _recount(players, tables, byes, night):  # type: ignore[no-untyped-def]
    """Match points and points for, counted plainly from the records' facts."""
    points: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    for _round, name in byes:
        points[name] += 2
    for seats, facts_list in tables:
        sides = sides_of(seats, night.partners)
        won: Counter[int] = Counter(f.winner for f in facts_list)
        for facts in facts_list:
            for index, side in enumerate(sides):
                for name in side:
                    scored[name] += facts.scores[index]
        best = max(won.values())
        leaders = [s for s in range(len(sides)) if won[s] == best]
        if len(leaders) > 1:  # three games, three winners: the most points in them
            totals = {s: sum(f.scores[s] for f in facts_list) for s in leaders}
            leaders = [s for s in leaders if totals[s] == max(totals.values())]
        for side in leaders:  # level on games and points too: a draw
            for name in sides[side]:
                points[name] += 2 if len(leaders) == 1 else 1
    return {p: (points[p], scored[p]) for p in players}


@st.composite
def nights(draw):  # type: ignore[no-untyped-def]
    count = draw(st.sampled_from([8, 17, 40]))
    size = draw(st.sampled_from([2, 3, 4]))
    match = draw(st.sampled_from(["one-game", "best-of-3"]))
    rounds = draw(st.integers(2, 7 if count == 8 else 5))
    walk_in = draw(st.one_of(st.none(), st.integers(2, rounds)))
    leaver = draw(st.one_of(st.none(), st.integers(2, rounds)))
    seed = draw(st.integers(0, 2**31 - 1))
    return count, size, match, rounds, walk_in, leaver, seed


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nights())
def test_a_whole_night_seats_everyone_validly_and_its_standings_recount(case) -> None:  # type: ignore[no-untyped-def]
    _whole_night(*case)


@pytest.mark.parametrize("count", [8, 17, 40])
@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("match", ["one-game", "best-of-3"])
def test_every_kind_of_night_with_a_walk_in_and_a_leaver(
    count: int, size: TableSize, match: str
) -> None:
    """Each size of night and table, a walk-in from round 2 and a player who leaves after it."""
    _whole_night(count, size, match, 4, 2, 3, count * size)


def _whole_night(
    count: int,
    size: TableSize,
    match: str,
    rounds: int,
    walk_in: int | None,
    leaver: int | None,
    seed: int,
) -> None:
    night = _night(size, match)
    rng = random.Random(seed)
    players = [f"P{n:02}" for n in range(1, count + 1)]
    gone = players[-1]
    seatings: list[Seating] = []
    tables: list[TableGames] = []
    plain: list[tuple[tuple[str, ...], list[GameFacts]]] = []
    byes: list[tuple[int, str]] = []
    for number in range(1, rounds + 1):
        present = [p for p in players if not (leaver and number >= leaver and p == gone)]
        if walk_in and number >= walk_in:
            present.append("Walk-in")
        history = History.of(seatings, size)
        groups = night_standings(present, tables, byes, night)
        wanted = set(present)
        ranked = [[e.name for e in g if e.name in wanted] for g in groups]
        ranked = [g for g in ranked if g]
        seating = seat_round(ranked, size, history, seed + number)
        assert seating == seat_round(ranked, size, history, seed + number)  # replays
        seated = seating.seated()
        assert sorted(seated) == sorted(present), "everyone present, each once"
        sizes, bye_count = table_sizes(len(present), size)
        assert sorted(len(t) for t in seating.tables) == sorted(sizes)
        assert len(seating.byes) == bye_count
        _check_repeats(seating, history, size, present)
        for name in seating.byes:
            assert history.byes[name] == min(history.byes[p] for p in present)
            byes.append((number, name))
        for seats in seating.tables:
            played = _match(seats, night, rng)
            facts = tuple(game_facts(g) for g in played)
            tables.append(TableGames(number, seats, facts))
            plain.append((seats, [_again(g) for g in played]))
        seatings.append(seating)
    everyone = sorted({n for s in seatings for n in s.seated()})
    lines = {e.name: e for e in flat(night_standings(everyone, tables, byes, night))}
    recount = _recount(everyone, plain, byes, night)
    assert {n: (e.match_points, e.points_for) for n, e in lines.items()} == recount


def _check_repeats(seating: Seating, history: History, size: int, present: list[str]) -> None:
    if size == 2:
        repeats = [t for t in seating.tables if history.met(*t)]
        if repeats and len(present) <= 9:
            at_tables = [n for t in seating.tables for n in t]
            bad = {pair for pair, times in history.opponents.items() if times}
            assert not _perfect_without(at_tables, bad), "a rematch that could be avoided"
        elif len(present) > 9:
            assert not repeats
    if size == 4:
        fours = [t for t in seating.tables if len(t) == 4]
        again = [t for t in fours if history.partnered(t[0], t[2]) or history.partnered(t[1], t[3])]
        at_fours = [n for t in fours for n in t]
        if again and len(at_fours) <= 9:
            bad = {pair for pair, times in history.partners.items() if times}
            assert not _perfect_without(at_fours, bad), "partners again who could be avoided"
        elif len(at_fours) > 9:
            assert not again
        small = [n for t in seating.tables if len(t) < 4 for n in t]
        if small and at_fours:
            assert max(history.small[n] for n in small) <= min(history.small[n] for n in at_fours)


@pytest.mark.parametrize(
    ("count", "size", "expected"),
    [
        (12, 4, ([4, 4, 4], 0)),
        (13, 4, ([4, 3, 3, 3], 0)),
        (5, 4, ([3, 2], 0)),
        (7, 3, ([4, 3], 0)),
        (8, 3, ([4, 4], 0)),
        (9, 2, ([2, 2, 2, 2], 1)),
        (1, 4, ([], 1)),
    ],
)
def test_table_sizes_seat_everyone(count: int, size: TableSize, expected) -> None:  # type: ignore[no-untyped-def]
    assert table_sizes(count, size) == expected


def test_a_round_of_eight_avoids_every_rematch_that_can_be_avoided() -> None:
    """Seven rounds of eight: a round robin exists, and Swiss never pairs two again while
    another pairing of the remaining players exists."""
    players = [f"P{n}" for n in range(8)]
    seatings: list[Seating] = []
    for number in range(7):
        history = History.of(seatings, 2)
        seating = seat_round([players], 2, history, number)
        bad = {pair for pair, times in history.opponents.items() if times}
        if any(history.met(*t) for t in seating.tables):
            assert not _perfect_without(players, bad)
        seatings.append(seating)


def test_the_seed_decides_the_draw() -> None:
    players = [f"P{n}" for n in range(16)]
    drawn = {seat_round([players], 4, History(), seed).tables for seed in range(10)}
    assert len(drawn) > 1


def test_partners_sit_opposite_and_a_swap_exchanges_two_seats() -> None:
    seating = seat_round([[f"P{n}" for n in range(8)]], 4, History(), 3)
    first, second = seating.tables[0][0], seating.tables[1][1]
    swapped = swap(seating, first, second)
    assert swapped.tables[0][0] == second and swapped.tables[1][1] == first
    assert sorted(swapped.seated()) == sorted(seating.seated())
    with pytest.raises(ValueError):
        swap(seating, first, first)


def test_a_player_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        seat_round([["Ann", "Bo"], ["Ann"]], 2, History(), 1)


def won(scores: tuple[int, int], time_called: bool = False) -> GameFacts:
    """The facts of a finished game of two, won by the higher score (at the time limit when
    ``time_called``)."""
    facts = GameFacts.from_json(
        {
            "format": FACTS_FORMAT,
            "seats": [{}, {}],
            "side_of": [0, 1],
            "partners": False,
            "winner": 0 if scores[0] > scores[1] else 1,
            "scores": list(scores),
            "hands": 1,
            "settled": 1,
            "time_called": time_called,
        }
    )
    assert facts is not None
    return facts


@pytest.mark.parametrize(
    ("tie_breaks", "order"),
    [
        ((), [["Ann"], ["Bo", "Cy"]]),
        (("head-to-head",), [["Ann"], ["Bo"], ["Cy"]]),
        (("difference",), [["Ann"], ["Bo", "Cy"]]),
        (("difference", "total"), [["Ann"], ["Bo"], ["Cy"]]),
    ],
)
def test_the_tie_breaks_apply_in_the_directors_order(tie_breaks, order) -> None:  # type: ignore[no-untyped-def]
    """Bo and Cy level on match points and on points for minus against; Bo beat Cy (head to
    head) and scored more in all (total)."""
    night = NightFormat(2, 2, 30, "one-game", "to-target", tie_breaks)
    tables = [
        TableGames(1, ("Ann", "Bo"), (won((250, 240)),)),
        TableGames(2, ("Bo", "Cy"), (won((250, 245)),)),
    ]
    byes = [(1, "Cy"), (2, "Ann")]
    groups = night_standings(["Ann", "Bo", "Cy"], tables, byes, night)
    assert [[e.name for e in g] for g in groups] == order
    line = {e.name: e for e in flat(groups)}
    assert (line["Ann"].match_points, line["Bo"].match_points, line["Cy"].match_points) == (4, 2, 2)
    assert line["Bo"].difference == 250 + 240 - 250 - 245
    assert [e.place for e in flat(groups)] == ([1, 2, 2] if len(order) == 2 else [1, 2, 3])
    assert line["Cy"].difference == line["Bo"].difference


def test_a_match_of_three_is_over_at_two_wins_and_counts_its_games() -> None:
    night = NightFormat(2, 1, 30, "best-of-3", "to-target", ("difference",))
    one = TableGames(1, ("Ann", "Bo"), (won((250, 10)),))
    assert not match_result(one, night).over
    two = TableGames(1, ("Ann", "Bo"), (won((250, 10)), won((20, 250)), won((250, 30))))
    result = match_result(two, night)
    assert result.over and result.match_points == (2, 0) and result.games_won == (2, 1)
    assert result.points_for == (520, 290)
