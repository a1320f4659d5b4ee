"""Why: a settlement, each player's pips, the rounding, the method and each side's change
(docs/rules.md section 8), and the scores against the target."""

from __future__ import annotations

from scorekeeper.rules.events import (
    Held,
    Settle,
)
from scorekeeper.rules.explain.phrases import (
    Before,
    Told,
    house,
)
from scorekeeper.rules.game import Game, Hand, Reached
from scorekeeper.rules.messages import Fact, Message, say, say_list
from scorekeeper.rules.settlement import Settlement, round_to_five
from scorekeeper.rules.wording import partnership, signed


def settled_lines(game: Game, hand: Hand) -> list[Message]:
    """The settled hand as the table sums it up, a line a player: "Bob holds 13, rounds to
    15: -15", or who collects what (the log's :func:`explain` gives every step)."""
    settlement = hand.settlement
    assert settlement is not None
    players = game.players
    lines: list[Message] = []
    if settlement.method == "deduct-own":
        for seat, name in enumerate(players):
            if seat == hand.went_out:
                lines.append(say("%(player)s dominoed: 0", player=name))
                continue
            pips, rounded = settlement.pips[seat], settlement.rounded[seat]
            # The side the deduction comes off is named: a player's own, or their partners'.
            lines.append(
                say(
                    "%(player)s holds %(pips)s, rounds to %(rounded)s: %(change)s for %(side)s",
                    player=name,
                    pips=pips,
                    rounded=rounded,
                    change=signed(-rounded),
                    side=game.sides[game.side_of(seat)],
                )
            )
        return lines
    collector = settlement.collector
    for seat, name in enumerate(players):
        if seat != collector:
            lines.append(say("%(player)s holds %(pips)s", player=name, pips=settlement.pips[seat]))
    if collector is None:
        lines.append(say("Nobody collects: the fewest pips are tied"))
        return lines
    side = game.side_of(collector)
    others = say_list([p for seat, p in enumerate(players) if game.side_of(seat) != side])
    own = settlement.pips[collector]
    points = settlement.changes[side]
    facts: dict[str, Fact] = {
        "player": players[collector],
        "collected": settlement.collected,
        "others": others,
        "own": own,
        "rounded": points * 5 if settlement.bonus_in_fives else points,
        "points": signed(points),
    }
    if hand.result == "domino" and own:
        collects = say(
            "%(player)s dominoed: collects %(collected)s from %(others)s less own %(own)s, "
            "rounds to %(rounded)s: %(points)s",
            **facts,
        )
    elif hand.result == "domino":
        collects = say(
            "%(player)s dominoed: collects %(collected)s from %(others)s, "
            "rounds to %(rounded)s: %(points)s",
            **facts,
        )
    elif own:
        collects = say(
            "%(player)s holds the fewest pips (%(own)s): collects %(collected)s from "
            "%(others)s less own %(own)s, rounds to %(rounded)s: %(points)s",
            **facts,
        )
    else:
        collects = say(
            "%(player)s holds the fewest pips (%(own)s): collects %(collected)s from "
            "%(others)s, rounds to %(rounded)s: %(points)s",
            **facts,
        )
    if settlement.bonus_in_fives:
        collects = say("%(line)s (in fives)", line=collects)
    lines.append(collects)
    return lines


def settled_cells(game: Game, hand: Hand) -> tuple[list[Message], Message | None]:
    """The settled hand in short, for a table of 5 to 8 (each player a side of their own),
    whose card has room for a few words a player: what each player's side gained or lost and
    what they held ("Ann -90, held 88"), and the collector's line of ``winner-collects``
    ("Hal +195: collects 197"), or None. The whole story (the rounding, the collector's own
    pips) is in the log."""
    settlement = hand.settlement
    assert settlement is not None
    cells: list[Message] = []
    collector = settlement.collector
    for seat, name in enumerate(game.players):
        pips = settlement.pips[seat]
        if settlement.method == "deduct-own" and seat == hand.went_out:
            cells.append(say("%(player)s dominoed: 0", player=name))
        elif settlement.method == "deduct-own":
            change = settlement.changes[game.side_of(seat)]
            cells.append(
                say(
                    "%(player)s %(change)s, held %(pips)s",
                    player=name,
                    change=signed(change),
                    pips=pips,
                )
            )
        elif seat != collector:
            cells.append(say("%(player)s held %(pips)s", player=name, pips=pips))
    if settlement.method == "deduct-own":
        return cells, None
    if collector is None:
        return cells, say("Nobody collects: the fewest pips are tied")
    facts: dict[str, Fact] = {
        "player": game.players[collector],
        "points": signed(settlement.changes[game.side_of(collector)]),
        "collected": settlement.collected,
    }
    if settlement.bonus_in_fives:
        return cells, say("%(player)s %(points)s in fives: collects %(collected)s", **facts)
    return cells, say("%(player)s %(points)s: collects %(collected)s", **facts)


def _held_text(held: Held | None, pips: int) -> Fact:
    if isinstance(held, tuple) and held:
        return f"{' '.join(str(t) for t in held)} = {pips}"
    return pips


def _deduct_lines(game: Game, hand: Hand, event: Settle, s: Settlement) -> list[Message]:
    lines = [
        say(
            "Settled by %(method)s (%(rule)s): each player's own pips, rounded to the nearest "
            "five, come off their own side's score.",
            method="deduct-own",
            rule=house("settlement"),
        )
    ]
    for seat in range(len(game.players)):
        name = game.players[seat]
        if hand.went_out == seat:
            lines.append(say("%(player)s dominoed and holds 0: nothing off", player=name))
            continue
        rounded = s.rounded[seat]
        facts: dict[str, Fact] = {
            "player": name,
            "pips": _held_text(event.remaining.get(seat), s.pips[seat]),
            "rounded": rounded,
            "change": signed(-(rounded // 5 if s.in_fives else rounded)),
        }
        if game.setup.in_partnership:
            facts["side"] = game.sides[game.side_of(seat)]
            if s.in_fives:
                line = say(
                    "%(player)s holds %(pips)s, rounds to %(rounded)s, %(rounded)s / 5 in "
                    "fives: %(change)s for %(side)s",
                    **facts,
                )
            else:
                line = say(
                    "%(player)s holds %(pips)s, rounds to %(rounded)s: %(change)s for %(side)s",
                    **facts,
                )
        elif s.in_fives:
            line = say(
                "%(player)s holds %(pips)s, rounds to %(rounded)s, %(rounded)s / 5 in fives: "
                "%(change)s",
                **facts,
            )
        else:
            line = say("%(player)s holds %(pips)s, rounds to %(rounded)s: %(change)s", **facts)
        lines.append(line)
    return lines


def _collector_line(game: Game, hand: Hand, s: Settlement) -> Message:
    if s.collector is not None and hand.result == "domino":
        return say("%(player)s dominoed and collects.", player=game.players[s.collector])
    fewest = min(s.pips)
    lowest = [game.players[seat] for seat, pips in enumerate(s.pips) if pips == fewest]
    if s.split:
        return say(
            "The hand was blocked: %(players)s tie for the fewest pips (%(pips)s) and share the "
            "others' pips (%(rule)s).",
            players=say_list(lowest),
            pips=fewest,
            rule=house("blocked_tie", "split"),
        )
    if s.collector is None:
        return say(
            "The hand was blocked: %(players)s tie for the fewest pips (%(pips)s): "
            "nobody collects.",
            players=say_list(lowest),
            pips=fewest,
        )
    return say(
        "The hand was blocked: %(player)s holds the fewest pips (%(pips)s) and collects.",
        player=lowest[0],
        pips=fewest,
    )


def _collect_lines(game: Game, hand: Hand, event: Settle, s: Settlement) -> list[Message]:
    lines = [
        say(
            "Settled by %(method)s (%(rule)s): the winner of the hand scores the pips the other "
            "sides hold less their own, rounded to the nearest five.",
            method="winner-collects",
            rule=house("settlement"),
        )
    ]
    for seat in range(len(game.players)):
        name = game.players[seat]
        if hand.went_out == seat:
            lines.append(say("%(player)s dominoed and holds 0.", player=name))
        else:
            pips = _held_text(event.remaining.get(seat), s.pips[seat])
            lines.append(say("%(player)s holds %(pips)s.", player=name, pips=pips))
    lines.append(_collector_line(game, hand, s))
    if s.split:
        return lines + _split_lines(game, s)
    if s.collector is None:
        return lines
    winner = s.collector
    side = game.side_of(winner)
    name = game.players[winner]
    others = [seat for seat in range(len(game.players)) if game.side_of(seat) != side]
    total = sum(s.pips[seat] for seat in others)
    own = s.pips[winner]
    facts: dict[str, Fact] = {
        "total": total,
        "held": say_list([f"{game.players[seat]} {s.pips[seat]}" for seat in others]),
        "player": name,
        "own": own,
        "collected": s.collected,
    }
    if total - own < 0:
        lines.append(
            say(
                "The other sides hold %(total)s (%(held)s); less %(player)s's own %(own)s: "
                "%(collected)s (never below 0).",
                **facts,
            )
        )
    else:
        lines.append(
            say(
                "The other sides hold %(total)s (%(held)s); less %(player)s's own %(own)s: "
                "%(collected)s.",
                **facts,
            )
        )
    for seat in range(len(game.players)):
        if seat != winner and game.side_of(seat) == side:
            lines.append(
                say(
                    "%(partner)s is %(player)s's partner: their %(pips)s neither adds nor "
                    "subtracts.",
                    partner=game.players[seat],
                    player=name,
                    pips=s.pips[seat],
                )
            )
    rounded = round_to_five(s.collected)
    lines.append(
        say("%(collected)s rounds to %(rounded)s.", collected=s.collected, rounded=rounded)
    )
    lines.extend(_in_fives_lines(s, rounded))
    lines.extend(_voided_lines(game, s, side))
    change = signed(s.changes[side])
    if game.sides[side] != name:
        lines.append(
            say(
                "%(player)s collects %(change)s for %(side)s.",
                player=name,
                change=change,
                side=game.sides[side],
            )
        )
    else:
        lines.append(say("%(player)s collects %(change)s.", player=name, change=change))
    return lines


def _in_fives_lines(s: Settlement, rounded: int) -> list[Message]:
    if s.in_fives:
        rule = house("units", "fives")
    elif s.bonus_in_fives:
        rule = house("bonus_in_fives", "yes")
    else:
        return []
    return [
        say(
            "In fives (%(rule)s): %(points)s / 5 = %(fives)s.",
            rule=rule,
            points=rounded,
            fives=rounded // 5,
        )
    ]


def _voided_lines(game: Game, s: Settlement, side: int) -> list[Message]:
    """Why a side's gain scored nothing (house rules get_in and exact_target)."""
    if not s.voided or s.voided[side] is None:
        return []
    earned = s.earned[side]
    if s.voided[side] == "not-in":
        return [
            say(
                "%(side)s is not in yet (%(rule)s): the %(earned)s does not count.",
                side=game.sides[side],
                rule=house("get_in", game.rules.get_in),
                earned=earned,
            )
        ]
    assert s.voided[side] == "overshoot"
    score = game.scores[side] - s.changes[side]
    return [
        say(
            "%(score)s + %(earned)s = %(sum)s would pass %(target)s (%(rule)s): nothing scored.",
            score=score,
            earned=earned,
            sum=score + earned,
            target=game.rules.target,
            rule=house("exact_target"),
        )
    ]


def _split_lines(game: Game, s: Settlement) -> list[Message]:
    """How the tied players of a blocked hand shared the others' pips."""
    others = [seat for seat in range(len(game.players)) if seat not in s.split]
    total = sum(s.pips[seat] for seat in others)
    k = len(s.split)
    lines = [
        say(
            "The others hold %(total)s (%(held)s): each of the %(tied)s tied players gets "
            "%(total)s / %(tied)s = %(share)s, rounded to the nearest five (a half up): "
            "%(rounded)s.",
            total=total,
            held=say_list([f"{game.players[seat]} {s.pips[seat]}" for seat in others]),
            tied=k,
            share=total // k if total % k == 0 else f"{total / k:g}",
            rounded=s.share,
        )
    ]
    lines.extend(_in_fives_lines(s, s.share))
    for seat in s.split:
        side = game.side_of(seat)
        lines.extend(_voided_lines(game, s, side))
        lines.append(
            say(
                "%(player)s collects %(change)s.",
                player=game.players[seat],
                change=signed(s.changes[side]),
            )
        )
    return lines


def _target_lines(game: Game) -> list[Message]:
    """Who won, or why nobody did; with several on an exact target, who reached it first."""
    standing = game.on_target()
    if game.winner is None or len(standing) < 2:
        return [_target_line(game)]
    target = game.rules.target
    lines = [
        say(
            "%(sides)s stand on the target %(target)s and can gain nothing more (%(rule)s): "
            "the first to reach it wins",
            sides=say_list([game.sides[reached.side] for reached in standing]),
            target=target,
            rule=house("exact_target"),
        )
    ]
    first = standing[0]
    together = [
        r for r in standing if r.move is None and first.move is None and r.hand == first.hand
    ]
    if len(together) > 1:
        # Only a split blocked hand brings several onto it at once, and it has no partners:
        # each side is one player.
        hand = game.hands[first.hand - 1]
        lines.append(
            say(
                "%(sides)s reached it together, in the settlement of hand %(hand)s: "
                "%(side)s comes first in the turn order from %(leader)s, who led that hand: "
                "wins",
                sides=say_list([game.sides[reached.side] for reached in together]),
                hand=first.hand,
                side=game.sides[first.side],
                leader=game.players[hand.leader],
            )
        )
        return lines
    lines.extend(_reached_line(game, reached) for reached in standing)
    lines.append(say("%(side)s reached it first: wins", side=game.sides[first.side]))
    return lines


def _reached_line(game: Game, reached: Reached) -> Message:
    """How a side came onto the target: "Bob reached it with Bob's 1-0 in hand 1"."""
    side = game.sides[reached.side]
    if reached.move is None:
        return say(
            "%(side)s reached it in the settlement of hand %(hand)s", side=side, hand=reached.hand
        )
    hand = game.hands[reached.hand - 1]
    move = hand.moves[reached.move]
    if move.kind == "adjust":
        return say(
            "%(side)s reached it by an adjustment in hand %(hand)s", side=side, hand=reached.hand
        )
    scored = hand.plays[move.play]
    if move.kind == "claim":
        return say(
            "%(side)s reached it with %(player)s's Muggins! on %(tile)s in hand %(hand)s",
            side=side,
            player=game.players[move.seat],
            tile=str(scored.tile),
            hand=reached.hand,
        )
    return say(
        "%(side)s reached it with %(player)s's %(tile)s in hand %(hand)s",
        side=side,
        player=game.players[scored.player],
        tile=str(scored.tile),
        hand=reached.hand,
    )


def _time_line(game: Game) -> Message:
    """Once time is called (docs/rules.md 8f): the higher side wins, or level sides play on."""
    best = max(game.scores)
    if game.winner is not None:
        return say(
            "%(side)s ahead with %(score)s when time was called: wins at the time limit",
            side=game.sides[game.winner],
            score=best,
        )
    tied = [game.sides[side] for side, score in enumerate(game.scores) if score == best]
    return say(
        "%(sides)s level at %(score)s at the time limit: another hand, until a side is ahead",
        sides=say_list(tied),
        score=best,
    )


def _target_line(game: Game) -> Message:
    target = game.rules.target
    scores = game.scores
    best = max(scores)
    if game.time == "finish-hand" and (game.won_at_time or game.winner is None):
        return _time_line(game)
    if game.winner is not None:
        side = game.winner
        return say(
            "%(side)s %(score)s >= %(target)s: wins",
            side=game.sides[side],
            score=scores[side],
            target=target,
        )
    if best >= target:
        tied = [game.sides[side] for side, score in enumerate(scores) if score == best]
        return say(
            "%(sides)s tied at %(score)s (target %(target)s): another hand",
            sides=say_list(tied),
            score=best,
            target=target,
        )
    return say(
        "nobody has reached %(target)s (highest %(score)s): another hand",
        target=target,
        score=best,
    )


def _settle(
    game: Game, hand: Hand, event: Settle, before: Before
) -> tuple[Message, tuple[Message, ...]]:
    s = hand.settlement
    assert s is not None
    if s.method == "deduct-own":
        lines = _deduct_lines(game, hand, event, s)
    else:
        lines = _collect_lines(game, hand, event, s)
    changes = ", ".join(
        f"{side} {signed(change)}" for side, change in zip(game.sides, s.changes, strict=True)
    )
    scores = ", ".join(
        f"{side} {old} -> {new}"
        for side, old, new in zip(game.sides, before.scores, game.scores, strict=True)
    )
    lines.append(say("Changes: %(changes)s.", changes=changes))
    lines.append(say("Scores: %(scores)s.", scores=scores))
    lines.extend(_target_lines(game))
    if game.winner is None:
        summary = say("Hand %(hand)s settled: %(changes)s.", hand=hand.number, changes=changes)
    else:
        side = game.winner
        facts: dict[str, Fact] = {
            "hand": hand.number,
            "changes": changes,
            "side": game.sides[side],
            "score": game.scores[side],
        }
        first = len(game.on_target()) > 1
        if first and partnership(game.sides[side]):
            summary = say(
                "Hand %(hand)s settled: %(changes)s. %(side)s win the game, the first to "
                "reach %(score)s.",
                **facts,
            )
        elif first:
            summary = say(
                "Hand %(hand)s settled: %(changes)s. %(side)s wins the game, the first to "
                "reach %(score)s.",
                **facts,
            )
        elif partnership(game.sides[side]):
            summary = say(
                "Hand %(hand)s settled: %(changes)s. %(side)s win the game with %(score)s.",
                **facts,
            )
        else:
            summary = say(
                "Hand %(hand)s settled: %(changes)s. %(side)s wins the game with %(score)s.",
                **facts,
            )
    return summary, tuple(lines)


def tell(game: Game, hand: Hand, event: Settle, before: Before) -> Told:
    """How a settlement was judged: its summary and lines."""
    summary, lines = _settle(game, hand, event, before)
    return summary, lines, 0
