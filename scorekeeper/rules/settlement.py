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
from scorekeeper.rules.gains import Gain, Voided, in_units, settlement_gain
from scorekeeper.rules.house_rule import SettlementMethod
from scorekeeper.rules.messages import say, say_n
from scorekeeper.rules.options import Rules
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.tiles import DOUBLE_SIX, Tile, TileSet


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
    split: tuple[int, ...] = ()
    """With ``blocked_tie: split``: the seats tied for fewest pips that shared the others'."""
    share: int = 0
    """Each tied seat's share of the others' pips, rounded to the nearest five (in pips)."""
    earned: tuple[int, ...] = ()
    """Each side's gain before get_in and exact_target (in the game's units); empty when
    no rule voided any."""
    voided: tuple[Voided | None, ...] = ()
    """Why a side's gain scored nothing (not in yet, past an exact target), per side; empty
    when none was voided."""
    in_fives: bool = False
    """Whether the changes are in fives (house rule units)."""


def check_remaining(
    remaining: Mapping[int, Held],
    held: Sequence[int],
    on_table: Collection[Tile],
    boneyard: int,
    players: Sequence[str],
    tiles: TileSet = DOUBLE_SIX,
) -> dict[int, int]:
    """Each seat's remaining pips, checked against what can be counted (rule ``remaining``)."""
    free = sorted(t.pips for t in tiles.tiles if t not in on_table)
    named: dict[Tile, int] = {}
    pips = {
        seat: _held_pips(
            seat, held[seat], remaining.get(seat), free, named, on_table, players, tiles
        )
        for seat in range(len(players))
    }
    _check_together(sum(pips.values()), on_table, boneyard, tiles)
    return pips


def _held_pips(
    seat: int,
    count: int,
    given: Held | None,
    free: Sequence[int],
    named: dict[Tile, int],
    on_table: Collection[Tile],
    players: Sequence[str],
    tiles: TileSet,
) -> int:
    """What seat ``seat``, holding ``count`` tiles, is given as holding, in pips: a pip total
    those tiles can add up to, or the tiles themselves (each named once, none on the table;
    ``named`` keeps who named which)."""
    name = players[seat]
    if count == 0:
        if given not in (None, 0, ()):
            shown = given if isinstance(given, int) else " ".join(map(str, given))
            raise IllegalEntry(
                "remaining",
                say(
                    "%(player)s dominoed and holds nothing, not %(given)s.",
                    player=name,
                    given=shown,
                ),
            )
        return 0
    if given is None:
        raise IllegalEntry(
            "remaining",
            say_n(
                "%(player)s still holds %(count)s tile: give their pip total or the tiles.",
                "%(player)s still holds %(count)s tiles: give their pip total or the tiles.",
                count,
                player=name,
            ),
        )
    if isinstance(given, int):
        low, high = sum(free[:count]), sum(free[-count:])
        if not low <= given <= high:
            raise IllegalEntry(
                "remaining",
                say_n(
                    "%(player)s holds %(count)s tile, which add up to %(low)s to %(high)s "
                    "pips among the tiles not on the table; %(given)s is impossible.",
                    "%(player)s holds %(count)s tiles, which add up to %(low)s to %(high)s "
                    "pips among the tiles not on the table; %(given)s is impossible.",
                    count,
                    player=name,
                    low=low,
                    high=high,
                    given=given,
                ),
            )
        return given
    if len(given) != count:
        raise IllegalEntry(
            "remaining",
            say_n(
                "%(player)s holds %(count)s tile, but %(named)s are named.",
                "%(player)s holds %(count)s tiles, but %(named)s are named.",
                count,
                player=name,
                named=say_n("%(count)s tile", "%(count)s tiles", len(given)),
            ),
        )
    for tile in given:
        if not tiles.holds(tile):
            raise IllegalEntry(
                "remaining",
                say(
                    "%(tile)s is not a tile of a %(set)s set: %(player)s cannot hold it.",
                    tile=str(tile),
                    set=tiles.spoken,
                    player=name,
                ),
            )
        if tile in on_table:
            raise IllegalEntry(
                "remaining",
                say(
                    "%(tile)s is on the table: %(player)s cannot hold it.",
                    tile=str(tile),
                    player=name,
                ),
            )
        if tile in named:
            other = players[named[tile]]
            if other == name:
                raise IllegalEntry(
                    "remaining",
                    say(
                        "%(tile)s is named twice: each tile is in the set once.",
                        tile=str(tile),
                    ),
                )
            raise IllegalEntry(
                "remaining",
                say(
                    "%(tile)s is named for both %(other)s and %(player)s: "
                    "each tile is in the set once.",
                    tile=str(tile),
                    other=other,
                    player=name,
                ),
            )
        named[tile] = seat
    return sum(t.pips for t in given)


def _check_together(total: int, on_table: Collection[Tile], boneyard: int, tiles: TileSet) -> None:
    """The players together hold no more than is off the table, and all of it once nothing is
    left to draw."""
    available = tiles.total_pips - sum(t.pips for t in on_table)
    if total > available:
        raise IllegalEntry(
            "remaining",
            say(
                "Together the players hold %(total)s pips, but only %(available)s are not "
                "on the table.",
                total=total,
                available=available,
            ),
        )
    if boneyard == 0 and total != available:
        raise IllegalEntry(
            "remaining",
            say(
                "The boneyard is empty, so the players hold every tile not on the table: "
                "%(available)s pips together, not %(total)s.",
                available=available,
                total=total,
            ),
        )


def round_share(pips: int, players: int) -> int:
    """``pips`` shared by ``players``, rounded to the nearest five, a half up (8.5 -> 10)."""
    return (2 * pips + 5 * players) // (10 * players) * 5


def settle(
    pips: Mapping[int, int],
    went_out: int | None,
    setup: Setup,
    rules: Rules,
    scores: Sequence[int] = (),
    sides_in: Sequence[bool] = (),
) -> Settlement:
    """Settle a finished hand; ``went_out`` is the seat that dominoed, if any. ``scores`` and
    ``sides_in`` are the sides' scores and get_in state before it (for the gains' rules)."""
    seats = range(len(setup.players))
    held = tuple(pips.get(seat, 0) for seat in seats)
    rounded = tuple(round_to_five(p) for p in held)
    if rules.settlement == "deduct-own":
        changes = [0] * len(setup.sides)
        for seat in seats:
            changes[setup.side_of(seat)] -= in_units(rounded[seat], rules)
        return Settlement("deduct-own", held, rounded, tuple(changes), in_fives=rules.in_fives)
    return _winner_collects(held, rounded, went_out, setup, rules, scores, sides_in)


def _winner_collects(
    held: tuple[int, ...],
    rounded: tuple[int, ...],
    went_out: int | None,
    setup: Setup,
    rules: Rules,
    scores: Sequence[int],
    sides_in: Sequence[bool],
) -> Settlement:
    """Settle with ``settlement: winner-collects``: who went out, or else holds the fewest
    pips, collects the others' (with ``blocked_tie: split``, seats tied for fewest share them)."""
    seats = range(len(setup.players))
    sides = range(len(setup.sides))
    before = tuple(scores) or (0,) * len(sides)
    entered = tuple(sides_in) or (True,) * len(sides)
    changes = [0] * len(setup.sides)
    fives = rules.in_fives
    divide = rules.bonus_in_fives or fives
    gains: dict[int, Gain] = {}
    winner = went_out
    split: tuple[int, ...] = ()
    share = 0
    if winner is None:
        winner, split, share = _fewest(held, setup, rules)
        for seat in split:
            side = setup.side_of(seat)
            earned = share // 5 if divide else share
            gains[side] = settlement_gain(earned, entered[side], before[side], rules)
    collected = 0
    if winner is not None:
        side = setup.side_of(winner)
        others = sum(held[seat] for seat in seats if setup.side_of(seat) != side)
        collected = max(0, others - held[winner])
        points = round_to_five(collected)
        earned = points // 5 if divide else points
        gains[side] = settlement_gain(earned, entered[side], before[side], rules)
    for side, gain in gains.items():
        changes[side] = gain.points
    voided = tuple(gains[side].voided if side in gains else None for side in sides)
    any_voided = any(voided)
    return Settlement(
        "winner-collects",
        held,
        rounded,
        tuple(changes),
        winner,
        collected,
        rules.bonus_in_fives,
        split,
        share,
        tuple(gains[side].earned if side in gains else 0 for side in sides) if any_voided else (),
        voided if any_voided else (),
        fives,
    )


def _fewest(
    held: tuple[int, ...], setup: Setup, rules: Rules
) -> tuple[int | None, tuple[int, ...], int]:
    """Who collects a blocked hand: the one seat holding the fewest pips, or nobody. With
    ``blocked_tie: split`` (players on their own, not all tied) the tied seats share the
    others' pips instead: the seats and each one's share are returned with no collector."""
    seats = range(len(held))
    fewest = min(held)
    lowest = [seat for seat in seats if held[seat] == fewest]
    if len(lowest) == 1:
        return lowest[0], (), 0
    if rules.blocked_tie == "split" and not setup.in_partnership and len(lowest) < len(held):
        split = tuple(lowest)
        others = sum(held[seat] for seat in seats if seat not in split)
        return None, split, round_share(others, len(split))
    return None, (), 0
