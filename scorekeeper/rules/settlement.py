"""The end of a hand: checking what players say they still hold, and settling the scores.

``deduct-own``: each player's own remaining pips, rounded to the nearest five, are taken off
their own side's score. ``winner-collects``: the winner of the hand (who dominoed; in a
blocked hand, who holds fewest pips, nobody on a tie) scores the pips held by the other
sides less their own, rounded to the nearest five, divided by 5 with ``bonus_in_fives``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.rules.errors import IllegalEntry
from scorekeeper.rules.events import Held
from scorekeeper.rules.options import Rules, SettlementMethod
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.tiles import ALL_TILES, TOTAL_PIPS, Tile
from scorekeeper.rules.wording import tile_count


def round_to_five(pips: int) -> int:
    """Round to the nearest multiple of five: 7 -> 5, 8 -> 10, 2 -> 0, 3 -> 5."""
    return (pips + 2) // 5 * 5


@dataclass(frozen=True)
class Settlement:
    """How a hand was settled: each seat's pips and their rounding, each side's change."""

    method: SettlementMethod
    pips: tuple[int, ...]
    rounded: tuple[int, ...]
    changes: tuple[int, ...]
    collector: int | None = None
    collected: int = 0
    bonus_in_fives: bool = False


def check_remaining(
    remaining: Mapping[int, Held],
    held: Sequence[int],
    on_table: Collection[Tile],
    boneyard: int,
    players: Sequence[str],
) -> dict[int, int]:
    """Each seat's remaining pips, checked against what can be counted (rule ``remaining``)."""
    free = sorted(t.pips for t in ALL_TILES if t not in on_table)
    named: dict[Tile, int] = {}
    pips: dict[int, int] = {}
    for seat, name in enumerate(players):
        count = held[seat]
        given = remaining.get(seat)
        if count == 0:
            if given not in (None, 0, ()):
                shown = given if isinstance(given, int) else " ".join(map(str, given))
                raise IllegalEntry("remaining", f"{name} dominoed and holds nothing, not {shown}.")
            pips[seat] = 0
            continue
        if given is None:
            raise IllegalEntry(
                "remaining",
                f"{name} still holds {tile_count(count)}: give their pip total or the tiles.",
            )
        if isinstance(given, int):
            low, high = sum(free[:count]), sum(free[-count:])
            if not low <= given <= high:
                raise IllegalEntry(
                    "remaining",
                    f"{name} holds {tile_count(count)}, which add up to {low} to {high} pips "
                    f"among the tiles not on the table; {given} is impossible.",
                )
            pips[seat] = given
            continue
        if len(given) != count:
            raise IllegalEntry(
                "remaining",
                f"{name} holds {tile_count(count)}, but {tile_count(len(given))} are named.",
            )
        for tile in given:
            if tile in on_table:
                raise IllegalEntry("remaining", f"{tile} is on the table: {name} cannot hold it.")
            if tile in named:
                other = players[named[tile]]
                whose = "twice" if other == name else f"for both {other} and {name}"
                raise IllegalEntry(
                    "remaining", f"{tile} is named {whose}: each tile is in the set once."
                )
            named[tile] = seat
        pips[seat] = sum(t.pips for t in given)
    available = TOTAL_PIPS - sum(t.pips for t in on_table)
    total = sum(pips.values())
    if total > available:
        raise IllegalEntry(
            "remaining",
            f"Together the players hold {total} pips, but only {available} are not on the table.",
        )
    if boneyard == 0 and total != available:
        raise IllegalEntry(
            "remaining",
            f"The boneyard is empty, so the players hold every tile not on the table: "
            f"{available} pips together, not {total}.",
        )
    return pips


def settle(pips: Mapping[int, int], went_out: int | None, setup: Setup, rules: Rules) -> Settlement:
    """Settle a finished hand; ``went_out`` is the seat that dominoed, if any."""
    seats = range(len(setup.players))
    held = tuple(pips.get(seat, 0) for seat in seats)
    rounded = tuple(round_to_five(p) for p in held)
    changes = [0] * len(setup.sides)
    if rules.settlement == "deduct-own":
        for seat in seats:
            changes[setup.side_of(seat)] -= rounded[seat]
        return Settlement("deduct-own", held, rounded, tuple(changes))
    winner = went_out
    if winner is None:
        fewest = min(held)
        lowest = [seat for seat in seats if held[seat] == fewest]
        winner = lowest[0] if len(lowest) == 1 else None
    if winner is None:
        return Settlement(
            "winner-collects", held, rounded, tuple(changes), None, 0, rules.bonus_in_fives
        )
    side = setup.side_of(winner)
    others = sum(held[seat] for seat in seats if setup.side_of(seat) != side)
    collected = max(0, others - held[winner])
    points = round_to_five(collected)
    if rules.bonus_in_fives:
        points //= 5
    changes[side] = points
    return Settlement(
        "winner-collects", held, rounded, tuple(changes), winner, collected, rules.bonus_in_fives
    )
