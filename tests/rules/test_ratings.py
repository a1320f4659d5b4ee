"""Ratings (rules/ratings.py): equal to OpenSkill run here, directly, on the games in the order
they ended; a partnership is a team, a table of 3 to 8 a ranking by final score (ties share a
place), a two-player game a one-against-one; a game nobody won is not rated."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from openskill.models import PlackettLuce

from scorekeeper.rules import Setup
from scorekeeper.rules.ratings import RatedGame, Rating, rate
from scorekeeper.rules.simulate import play_game
from scorekeeper.rules.stats import game_facts

START = datetime(2026, 11, 20, 19, 0)
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")


def _games(count: int) -> list[tuple[RatedGame, list[str], int | None, list[int]]]:
    """Simulated games of 2, 3 and 4 players (4 as partners), some unfinished, each with its
    players, winner and scores as the record gives them, ending in an order other than the
    order they are listed in."""
    made = []
    for seed in range(count):
        rng = random.Random(seed)
        players = rng.sample(NAMES, 2 + seed % 3)
        partners = True if len(players) == 4 else None
        hands = 1 if seed % 7 == 6 else 60
        game = play_game(Setup.create(players, "fives-up", {}, partners), rng, hands)
        facts = game_facts(game)
        ended = START + timedelta(minutes=(seed * 37) % count)
        rated = RatedGame(seed, tuple(players), facts.side_of, facts.scores, facts.winner, ended)
        made.append((rated, players, game.winner, list(game.scores)))
    return made


def _by_hand(made: list[tuple[RatedGame, list[str], int | None, list[int]]]) -> dict[str, object]:
    """OpenSkill run directly: each finished game, in the order it ended, as teams and places
    worked out here from the players, the winner and the scores."""
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for _rated, players, winner, scores in sorted(made, key=lambda item: item[0].ended):
        if winner is None:
            continue
        if len(players) == 4:
            teams = [[players[0], players[2]], [players[1], players[3]]]
            places = [0, 1] if winner == 0 else [1, 0]
        else:
            teams = [[name] for name in players]
            places = []
            for seat, score in enumerate(scores):
                if seat == winner:
                    places.append(0)
                else:
                    better = {s for i, s in enumerate(scores) if i != winner and s > score}
                    places.append(1 + len(better))
        rated_teams = model.rate(
            [[ratings.get(name) or model.rating() for name in team] for team in teams],  # type: ignore[misc]
            ranks=[float(place) for place in places],
        )
        for team, new in zip(teams, rated_teams, strict=True):
            for name, rating in zip(team, new, strict=True):
                ratings[name] = rating
    return ratings


def test_ratings_equal_openskill_run_on_the_games_in_the_order_they_ended() -> None:
    made = _games(30)
    assert {len(players) for _r, players, _w, _s in made} == {2, 3, 4}
    assert any(winner is None for _r, _p, winner, _s in made), "an unfinished game among them"
    ours = rate([rated for rated, *_ in made])
    theirs = _by_hand(made)
    assert set(ours.players) == set(theirs)
    for name, rating in ours.players.items():
        expected = theirs[name]
        assert rating.mu == pytest.approx(expected.mu, abs=1e-9)  # type: ignore[attr-defined]
        assert rating.sigma == pytest.approx(expected.sigma, abs=1e-9)  # type: ignore[attr-defined]
    finished = [rated for rated, _p, winner, _s in made if winner is not None]
    assert [step.key for step in ours.steps] == [
        game.key for game in sorted(finished, key=lambda game: game.ended)
    ]
    # The order they ended in is what counts, not the order they are given in...
    shuffled = [rated for rated, *_ in made]
    random.Random(1).shuffle(shuffled)
    assert rate(shuffled).players == ours.players
    # ...and it matters: rated in another order, the numbers differ.
    relisted = rate(
        [
            RatedGame(g.key, g.players, g.side_of, g.scores, g.winner, START)
            for g in reversed([rated for rated, *_ in made])
        ]
    )
    assert relisted.players != ours.players


def test_tied_scores_share_a_place_and_the_winner_is_first() -> None:
    game = RatedGame(1, ("Ann", "Bob", "Cy", "Di"), (0, 1, 2, 3), (150, 90, 90, 40), 0, START)
    ours = rate([game])
    model = PlackettLuce()
    [[ann], [bob], [cy], [di]] = model.rate(
        [[model.rating()] for _ in range(4)], ranks=[1.0, 2.0, 2.0, 3.0]
    )
    for name, expected in {"Ann": ann, "Bob": bob, "Cy": cy, "Di": di}.items():
        assert ours.players[name].mu == pytest.approx(expected.mu)
        assert ours.players[name].sigma == pytest.approx(expected.sigma)
    assert ours.players["Bob"] == ours.players["Cy"]
    assert ours.players["Ann"].ordinal > ours.players["Bob"].ordinal > ours.players["Di"].ordinal
    # A winner on the same score as another still comes first: the game named them.
    level = RatedGame(2, ("Ann", "Bob", "Cy"), (0, 1, 2), (150, 150, 20), 1, START)
    tied = rate([level])
    assert tied.players["Bob"].ordinal > tied.players["Ann"].ordinal > tied.players["Cy"].ordinal


def test_a_partnership_is_a_team_and_a_two_player_game_one_against_one() -> None:
    partners = RatedGame(1, ("Ann", "Bob", "Cy", "Di"), (0, 1, 0, 1), (250, 185), 1, START)
    ours = rate([partners])
    model = PlackettLuce()
    [[ann, cy], [bob, di]] = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[2.0, 1.0]
    )
    assert ours.players["Ann"].mu == pytest.approx(ann.mu)
    assert ours.players["Cy"].mu == pytest.approx(cy.mu)
    assert ours.players["Bob"].mu == pytest.approx(bob.mu) and bob.mu > ann.mu
    assert ours.players["Di"].sigma == pytest.approx(di.sigma)
    duel = rate([RatedGame(2, ("Ann", "Bob"), (0, 1), (61, 120), 1, START)])
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[2.0, 1.0])
    assert duel.players["Bob"].mu == pytest.approx(b.mu)
    assert duel.players["Ann"].mu == pytest.approx(a.mu)


def test_a_game_nobody_won_is_not_rated() -> None:
    going = RatedGame(1, ("Ann", "Bob"), (0, 1), (95, 40), None, START)
    done = RatedGame(2, ("Cy", "Di"), (0, 1), (150, 40), 0, START)
    ours = rate([going, done])
    assert set(ours.players) == {"Cy", "Di"}
    assert [step.key for step in ours.steps] == [2]
    assert ours.change({1}) == []


def test_names_are_one_player_whatever_their_spelling_and_shown_as_the_roster_spells_them() -> None:
    first = RatedGame(1, ("ann ", "Bob"), (0, 1), (150, 40), 0, START)
    second = RatedGame(2, ("ANN", "Bob"), (0, 1), (150, 40), 0, START + timedelta(hours=1))
    ours = rate([first, second], {"ann": "Ann"})
    assert set(ours.players) == {"Ann", "Bob"}
    assert ours.players["Ann"].games == 2


def test_history_and_the_change_some_games_brought() -> None:
    day_one = [
        RatedGame(1, ("Ann", "Bob"), (0, 1), (150, 40), 0, START),
        RatedGame(2, ("Ann", "Cy"), (0, 1), (150, 40), 1, START + timedelta(hours=1)),
    ]
    later = START + timedelta(days=7)
    day_two = [
        RatedGame(3, ("Bob", "Cy"), (0, 1), (150, 40), 0, later),
        RatedGame(4, ("Ann", "Bob"), (0, 1), (150, 40), 0, later + timedelta(hours=1)),
    ]
    ours = rate([*day_two, *day_one])
    assert ours.days() == [later.date(), START.date()]
    assert ours.ended_on(later.date()) == {3, 4}
    history = ours.history("Cy")
    assert len(history) == 5 and history[0] == Rating().ordinal == pytest.approx(0.0)
    assert history[1] == history[0] and history[2] > history[1]  # Cy's first game is the 2nd
    changes = {change.name: change for change in ours.change(ours.ended_on(later.date()))}
    assert set(changes) == {"Ann", "Bob", "Cy"}
    after_day_one = rate(day_one).players
    assert changes["Ann"].before == after_day_one["Ann"]
    assert changes["Ann"].after == ours.players["Ann"] and changes["Ann"].games == 1
    assert changes["Bob"].games == 2 and changes["Bob"].delta > 0
    assert changes["Cy"].delta < 0
    assert ours.change({1})[0].before == Rating()
