"""A game's score, side by side, after every play and every settlement: what its chart draws.

Step 0 is the start (every side on 0); each play that goes down is a step (one that scores
nothing too, so the steps count the game's plays), and so is each Muggins! claim and each
adjustment agreed at the table (docs/rules.md 8b, 8c) and each settlement that changes a score
(one that changes nothing would only draw the line on). The
scores are in the game's units (fives with house rule ``units: fives``), as the table shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules.game import Game, Hand


@dataclass(frozen=True, slots=True)
class Progression:
    """Each side's score at each step, where each hand begins, and the target."""

    sides: tuple[str, ...]
    steps: tuple[tuple[int, ...], ...]
    """The scores after each step, one tuple per step (step 0: the start)."""
    hand_starts: tuple[int, ...]
    """The step each hand's first play is, hand 1 first."""
    target: int
    in_fives: bool

    def of(self, side: int) -> tuple[int, ...]:
        """Side ``side``'s score at every step."""
        return tuple(scores[side] for scores in self.steps)


def hand_steps(game: Game, hand: Hand) -> list[tuple[int, ...]]:
    """The scores after each step of ``hand``: each play, claim and adjustment in the order
    entered, then its settlement if that changed a score."""
    running = list(hand.scores_before)
    steps = []
    for move in hand.moves:
        running[move.side] += move.points
        steps.append(tuple(running))
    if hand.settlement is not None and any(hand.settlement.changes):
        for side, change in enumerate(hand.settlement.changes):
            running[side] += change
        steps.append(tuple(running))
    return steps


def progression(game: Game) -> Progression:
    """The steps of ``game`` so far, from the scores each hand began with and its plays."""
    steps: list[tuple[int, ...]] = [tuple(0 for _ in game.sides)]
    starts: list[int] = []
    for hand in game.hands:
        starts.append(len(steps))
        steps.extend(hand_steps(game, hand))
    return Progression(
        sides=game.sides,
        steps=tuple(steps),
        hand_starts=tuple(starts),
        target=game.rules.target,
        in_fives=game.rules.in_fives,
    )
