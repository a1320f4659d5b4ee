"""Why: how the referee judged each entry of a game's log, in plain words.

:func:`explain` takes one event of ``game.events`` and says what it did: for a play, each
open end after it and what that end contributed to the count (RULES.md section 6) and what
the count scored (section 7); for a draw or a pass, who, how many and what was left to draw,
and whose turn is next; for a settlement, each player's pips, the rounding, the method and
each side's change (section 8); for a new hand, who leads and why. The event that decided
the game also gets the scores against the target. Every sentence is a
:class:`~scorekeeper.rules.messages.Message`; house-rule names and values, tiles and end names
are facts of it, said as they are in every language.

The engine keeps only the current state, so the state around an earlier event is rebuilt:
:func:`explain` takes a fork of the game back to just before the event (replaying at most its
hand); :func:`explain_all` explains a whole log in one replay. :func:`explain_hand` explains
one hand for the cost of that hand, however long the game: a
hand only needs the game as it was when the hand began, and the engine keeps that (each hand's
``scores_before``, the hands before it, which never change), so it goes back there with
:meth:`Game.fork` and :meth:`Game.rewind`, which replay nothing, and pushes the hand's events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from scorekeeper.rules.events import (
    Adjust,
    Claim,
    Draw,
    Event,
    Held,
    LeadWay,
    NewHand,
    Pass,
    Play,
    Settle,
)
from scorekeeper.rules.gains import in_units
from scorekeeper.rules.game import Game, Hand, Reached, Scored
from scorekeeper.rules.layout import Layout, Placed
from scorekeeper.rules.messages import Fact, Message, say, say_list, say_n
from scorekeeper.rules.options import LeadRule
from scorekeeper.rules.settlement import Settlement, round_to_five
from scorekeeper.rules.wording import partnership, signed

EventKind = Literal["new-hand", "play", "draw", "pass", "settle", "muggins", "adjust"]
"""An event's kind as the log shows it (its ``data-kind``)."""
KINDS: tuple[EventKind, ...] = get_args(EventKind)


@dataclass(frozen=True)
class Explanation:
    """How one event of a game's log was judged.

    ``index`` is the event's place in ``game.events`` (from 0); ``hand`` the hand it belongs
    to (from 1); ``event`` its number among the hand's plays, draws and passes as the record
    counts them (from 1; None for a new hand or a settlement). ``kind`` is one of
    :data:`KINDS`. ``winner`` is the side that this event made the winner of the game, or
    None when the game was not decided by it. ``summary`` (one sentence) and ``lines`` (each
    step of the judgement) are messages: ``str()`` is the English, and the site says them in
    the reader's language, their numbers, names and tiles as facts.
    """

    index: int
    hand: int
    event: int | None
    kind: EventKind
    summary: Message
    lines: tuple[Message, ...]
    winner: int | None = None
    counted: int = 0
    """How many of ``lines``, from the first, are a play's count: each open end and the total
    (what it scored); the lines after them say what followed. 0 for every other kind."""


@dataclass(frozen=True)
class _Before:
    """What an explanation needs of the state just before its event."""

    scores: tuple[int, ...]
    event: int


# -- the public entry points -------------------------------------------------------------------


def explain(game: Game, index: int) -> Explanation:
    """How the event at ``index`` of ``game.events`` (from 0) was judged, for the cost of the
    hand it belongs to: a fork of the game rewound to just before it (see :meth:`Game.rewind`),
    then the event pushed again."""
    if not 0 <= index < len(game.events):
        raise IndexError(f"there is no event {index} in this game's {len(game.events)} events")
    replayed = game.fork()
    event = replayed.rewind(index)[0]
    before = _Before(tuple(replayed.scores), _next_event_number(replayed))
    replayed.push(event)
    return _explain_pushed(replayed, before)


def explain_all(game: Game) -> list[Explanation]:
    """The explanation of every event of ``game``, in order, from a single replay."""
    return _explain_pushing(Game(game.setup), game.events)


def hand_spans(game: Game) -> list[range]:
    """Where each hand's events are in ``game.events``: hand 1's span first.

    A span runs from the hand's new hand to its last event (its settlement, if settled). The
    engine keeps where each hand begins, so this costs the number of hands, not of events.
    """
    starts = game.hand_starts
    ends = (*starts[1:], len(game.events)) if starts else ()
    return [range(start, end) for start, end in zip(starts, ends, strict=True)]


def explain_hand(game: Game, number: int) -> list[Explanation]:
    """The explanation of every event of hand ``number`` (from 1), as :func:`explain_all`
    gives them, for the cost of that hand alone.

    The game is taken back to where the hand began (a fork rewound to the hand's new hand
    keeps the hand's snapshot, replaying nothing) and the hand's events are pushed again.
    """
    spans = hand_spans(game)
    if not 1 <= number <= len(spans):
        raise IndexError(f"there is no hand {number} in this game's {len(spans)} hands")
    span = spans[number - 1]
    replayed = game.fork()
    replayed.rewind(span.start)
    return _explain_pushing(replayed, game.events[span.start : span.stop])


def _explain_pushing(replayed: Game, events: list[Event]) -> list[Explanation]:
    """Push ``events`` onto ``replayed`` one by one, explaining each as it goes in."""
    explanations: list[Explanation] = []
    number = _next_event_number(replayed)
    for event in events:
        before = _Before(tuple(replayed.scores), number)
        replayed.push(event)
        explanations.append(_explain_pushed(replayed, before))
        if isinstance(event, NewHand):
            number = 1
        elif not isinstance(event, Settle):
            number += 1
    return explanations


def _next_event_number(game: Game) -> int:
    """The hand-relative number the next play, draw or pass of the current hand gets."""
    hand = game.hand
    if hand is None:
        return 1
    number = 1
    for event in reversed(game.events):
        if isinstance(event, NewHand):
            break
        if not isinstance(event, Settle):
            number += 1
    return number


def count_line(game: Game, hand: Hand) -> str:
    """The count after the hand's last play and its points, as the table shows it under the
    layout: "W 3 + E 12 = 15: Ann +15". Every open end is named, an empty spinner arm as 0
    (the log's summary of the same play names only the ends with a tile: :func:`explain`)."""
    last = hand.plays[-1]
    shares = hand.layout.contributions()
    line = " + ".join(f"{arm} {pips}" for arm, _tip, pips in shares) + f" = {last.count}"
    if last.points:
        line += f": {game.players[last.player]} +{last.points}"
    return line


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
            lines.append(
                say(
                    "%(player)s holds %(pips)s, rounds to %(rounded)s: %(points)s",
                    player=name,
                    pips=pips,
                    rounded=rounded,
                    points=signed(-rounded),
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


# -- dispatch ----------------------------------------------------------------------------------


def _explain_pushed(game: Game, before: _Before) -> Explanation:
    """Explain the last event of ``game``, which has just been pushed."""
    index = len(game.events) - 1
    event = game.events[index]
    hand = game.hand
    assert hand is not None
    if isinstance(event, NewHand):
        summary, lines = _new_hand(game, hand, event)
        return Explanation(index, hand.number, None, "new-hand", summary, lines)
    if isinstance(event, Settle):
        summary, lines = _settle(game, hand, event, before)
        return Explanation(index, hand.number, None, "settle", summary, lines, game.winner)
    if isinstance(event, Play):
        summary, lines, counted = _play(game, hand, event, before)
        number = before.event
        return Explanation(index, hand.number, number, "play", summary, lines, game.winner, counted)
    if isinstance(event, Draw):
        summary, lines = _draw(game, hand, event)
        return Explanation(index, hand.number, before.event, "draw", summary, lines)
    if isinstance(event, Claim):
        summary, lines = _claim(game, hand, event, before)
        return Explanation(index, hand.number, before.event, "muggins", summary, lines, game.winner)
    if isinstance(event, Adjust):
        summary, lines = _adjust(game, hand, event, before)
        return Explanation(index, hand.number, before.event, "adjust", summary, lines, game.winner)
    assert isinstance(event, Pass)
    summary, lines = _pass(game, hand, event)
    return Explanation(index, hand.number, before.event, "pass", summary, lines)


# -- the referee's recurring phrases -----------------------------------------------------------


def _house(rule: str, value: str | int | None = None) -> Message:
    """A house rule in force, named as the record spells it: "house rule get_in: 10"."""
    if value is None:
        return say("house rule %(rule)s", rule=rule)
    return say("house rule %(rule)s: %(value)s", rule=rule, value=value)


def _tiles(count: int) -> Message:
    """A number of tiles: "1 tile", "7 tiles"."""
    return say_n("%(count)s tile", "%(count)s tiles", count)


def _wins_at_once(game: Game, side: int) -> Message:
    """ "Ann 250 >= 250: wins at once (house rule win_check: immediate); the hand stops
    unsettled": what an entry that won during play says last."""
    return say(
        "%(side)s %(score)s >= %(target)s: wins at once (%(rule)s); the hand stops unsettled",
        side=game.sides[side],
        score=game.scores[side],
        target=game.rules.target,
        rule=_house("win_check", "immediate"),
    )


def _shows(end: str, pips: int) -> Message:
    """What an open end shows: "W shows 6"."""
    return say("%(end)s shows %(pips)s", end=end, pips=pips)


# -- a new hand --------------------------------------------------------------------------------


_WAYS: dict[LeadWay, Message] = {
    "lot": say("by lot: the app picked a player at random"),
    "draw": say("by the draw for the lead: each player drew a tile, the highest pip total leading"),
    "table": say("at the table: the players agreed who leads"),
    "double": say("by the highest double: the player holding it leads it"),
}
_SHORT_WAYS: dict[LeadWay, Message] = {
    "lot": say("by lot"),
    "draw": say("by the draw for the lead"),
    "table": say("at the table"),
    "double": say("by the highest double"),
}
_HOUSE_WAY: dict[LeadRule, LeadWay] = {
    "lots": "lot",
    "draw-highest": "draw",
    "highest-double": "double",
}


def _chosen_how(game: Game, chosen: LeadWay) -> Message:
    """How a leader the rules left open was chosen, naming the house rule when it agrees."""
    rule = game.rules.lead
    how = _WAYS[chosen]
    if _HOUSE_WAY.get(rule) == chosen:
        return say("%(how)s (%(rule)s)", how=how, rule=_house("lead", rule))
    return how


def _not_recorded(game: Game) -> Message:
    rule = game.rules.lead
    return say(
        "how the leader was chosen was not recorded (%(rule)s, %(way)s)",
        rule=_house("lead", rule),
        way=_SHORT_WAYS[_HOUSE_WAY[rule]],
    )


def _new_hand(game: Game, hand: Hand, event: NewHand) -> tuple[Message, tuple[Message, ...]]:
    """Who leads a hand, and how that leader was chosen: as recorded, never guessed."""
    leader = game.players[hand.leader]
    lines: list[Message] = []
    previous = game.hands[-2] if hand.number > 1 else None
    chosen = event.chosen
    if previous is not None and previous.result == "domino" and previous.went_out is not None:
        lines.append(
            say(
                "%(player)s dominoed in hand %(previous)s, so %(leader)s leads hand %(hand)s.",
                player=game.players[previous.went_out],
                previous=previous.number,
                leader=leader,
                hand=hand.number,
            )
        )
        summary = say(
            "Hand %(hand)s begins: %(leader)s leads (dominoed in hand %(previous)s).",
            hand=hand.number,
            leader=leader,
            previous=previous.number,
        )
    else:
        if previous is None and chosen is None:
            lines.append(
                say(
                    "%(leader)s leads the first hand; %(how)s.",
                    leader=leader,
                    how=_not_recorded(game),
                )
            )
        elif previous is None and chosen is not None:
            lines.append(
                say(
                    "%(leader)s leads the first hand, chosen %(how)s.",
                    leader=leader,
                    how=_chosen_how(game, chosen),
                )
            )
        elif chosen is None:
            lines.append(
                say(
                    "Hand %(blocked)s was blocked, so the leader of hand %(hand)s was chosen "
                    "again: %(leader)s; %(how)s.",
                    blocked=hand.number - 1,
                    hand=hand.number,
                    leader=leader,
                    how=_not_recorded(game),
                )
            )
        else:
            lines.append(
                say(
                    "Hand %(blocked)s was blocked, so the leader of hand %(hand)s was chosen "
                    "again, %(how)s: %(leader)s.",
                    blocked=hand.number - 1,
                    hand=hand.number,
                    how=_chosen_how(game, chosen),
                    leader=leader,
                )
            )
        if chosen is None:
            summary = say(
                "Hand %(hand)s begins: %(leader)s leads.", hand=hand.number, leader=leader
            )
        else:
            summary = say(
                "Hand %(hand)s begins: %(leader)s leads, chosen %(how)s.",
                hand=hand.number,
                leader=leader,
                how=_SHORT_WAYS[chosen],
            )
    rules = game.rules
    lines.append(
        say(
            "Each player takes %(hand)s; %(boneyard)s stay face down in the boneyard.",
            hand=_tiles(rules.hand_size),
            boneyard=_tiles(rules.boneyard_size),
        )
    )
    if hand.redraws:
        lines.append(
            say_n(
                "Nobody held a double, so every player drew one more tile: %(boneyard)s "
                "stay in the boneyard.",
                "Nobody held a double, so every player drew one more tile, %(count)s times: "
                "%(boneyard)s stay in the boneyard.",
                hand.redraws,
                boneyard=_tiles(rules.boneyard_size - hand.redraws * len(game.players)),
            )
        )
    if hand.double_lead:
        lines.append(
            say(
                "%(leader)s leads the highest double held, and must lead a double (%(rule)s).",
                leader=leader,
                rule=_house("lead", rules.lead),
            )
        )
    else:
        lines.append(say("%(leader)s may lead any tile, double or not.", leader=leader))
    return summary, tuple(lines)


# -- a play ------------------------------------------------------------------------------------


def _spinner_word(layout: Layout, placed: Placed) -> Message:
    first = layout.spinners[0].tile if layout.spinners else None
    return say("the spinner") if placed.tile == first else say("a spinner")


def _not_counted(layout: Layout, placed: Placed) -> bool:
    return placed.spinner and not layout.spinner_counts


def play_steps(layout: Layout, count: int, points: int) -> tuple[Message, ...]:
    """Each open end's contribution, then the total and what it scores, in plain words.

    For example ("W 3", "E 6-6, the spinner at the tip, 12",
    "total 15, a multiple of five: +15").
    """
    shares = layout.contributions()
    steps: list[Message] = []
    if len(layout.on_table) == 1 and shares:
        _, lead, value = shares[0]
        assert lead is not None
        if _not_counted(layout, lead):
            steps.append(
                say(
                    "the lead %(tile)s alone, %(spinner)s, does not count (%(rule)s): %(value)s",
                    tile=str(lead.tile),
                    spinner=_spinner_word(layout, lead),
                    rule=_house("spinner_counts", "no"),
                    value=value,
                )
            )
        else:
            steps.append(
                say(
                    "the lead %(tile)s alone counts once: %(value)s",
                    tile=str(lead.tile),
                    value=value,
                )
            )
    else:
        steps.extend(_end_step(layout, name, tip, value) for name, tip, value in shares)
    steps.append(_total_step(count, points))
    return tuple(steps)


def _end_step(layout: Layout, name: str, tip: Placed | None, value: int) -> Message:
    if tip is None:
        return say("%(end)s empty, %(value)s", end=name, value=value)
    if not tip.tile.is_double:
        return say("%(end)s %(value)s", end=name, value=value)
    tile = str(tip.tile)
    if not tip.spinner:
        return say(
            "%(end)s %(tile)s, a double at the tip, %(value)s", end=name, tile=tile, value=value
        )
    word = _spinner_word(layout, tip)
    if _not_counted(layout, tip):
        return say(
            "%(end)s %(tile)s, %(spinner)s at the tip, does not count (%(rule)s), %(value)s",
            end=name,
            tile=tile,
            spinner=word,
            rule=_house("spinner_counts", "no"),
            value=value,
        )
    return say(
        "%(end)s %(tile)s, %(spinner)s at the tip, %(value)s",
        end=name,
        tile=tile,
        spinner=word,
        value=value,
    )


def _total_step(count: int, points: int) -> Message:
    if points:
        return say("total %(count)s, a multiple of five: +%(points)s", count=count, points=points)
    if count == 0:
        return say("total 0: no score")
    return say("total %(count)s, not a multiple of five: no score", count=count)


def _compact_parts(layout: Layout) -> Message:
    shares = layout.contributions()
    if len(layout.on_table) == 1 and shares:
        _, lead, value = shares[0]
        assert lead is not None
        return say("%(tile)s alone = %(value)s", tile=str(lead.tile), value=value)
    parts = " + ".join(f"{name} {value}" for name, tip, value in shares if tip is not None)
    return say("%(ends)s = %(count)s", ends=parts, count=layout.count())


def _spelled(play: Play) -> str:
    tile = play.tile
    return f"{tile.low}-{tile.high}" if play.flipped else str(tile)


def _play(
    game: Game, hand: Hand, play: Play, before: _Before
) -> tuple[Message, tuple[Message, ...], int]:
    """The play's summary, its lines, and how many of them are the count (its ends and total)."""
    scored = hand.plays[-1]
    name = game.players[play.player]
    layout = hand.layout
    what: Message
    if scored.end is None:
        what = say(
            "%(player)s led %(tile)s (%(west)s, %(east)s)",
            player=name,
            tile=_spelled(play),
            west=_shows("W", layout.arms["W"].base),
            east=_shows("E", layout.arms["E"].base),
        )
    else:
        what = say(
            "%(player)s played %(tile)s on %(end)s",
            player=name,
            tile=str(play.tile),
            end=scored.end,
        )
    steps = list(play_steps(layout, scored.count, scored.points))
    counted = len(steps)
    side = game.side_of(play.player)
    team = game.sides[side]
    gain = gain_step(game, scored, before.scores[side])
    if gain is not None:
        steps[-1] = gain
    if scored.missed:
        steps[-1] = say(
            "total %(count)s, a multiple of five, but %(player)s called %(called)s "
            "(%(rule)s): no score. Until the next entry an opponent may cry Muggins! and "
            "take the %(points)s",
            count=scored.count,
            player=name,
            called=scored.called or 0,
            rule=_house("muggins"),
            points=scored.missed,
        )
    elif scored.called and scored.count == scored.called:
        steps.append(
            say(
                "%(player)s called %(called)s, the count (%(rule)s)",
                player=name,
                called=scored.called,
                rule=_house("muggins"),
            )
        )
    if scored.points and game.setup.in_partnership:
        steps.append(
            say(
                "%(player)s scores for %(side)s: %(score)s",
                player=name,
                side=team,
                score=game.scores[side],
            )
        )
    if game.winner is not None:
        steps.append(_wins_at_once(game, side))
    elif hand.result == "domino":
        steps.append(
            say("%(player)s played their last tile and dominoed: the hand is over", player=name)
        )
    return _play_summary(game, scored, what, layout, team), tuple(steps), counted


def _play_summary(game: Game, scored: Scored, what: Message, layout: Layout, team: str) -> Message:
    """ "Bob played 6-3 on W: W 3 + E 12 = 15, Bob +15.", and why a count scored nothing."""
    count = _compact_parts(layout)
    name = game.players[scored.player]
    if scored.missed:
        return say(
            "%(play)s: %(count)s; %(player)s called %(called)s: no score, Muggins! is open.",
            play=what,
            count=count,
            player=name,
            called=scored.called or 0,
        )
    if scored.voided == "not-in":
        return say(
            "%(play)s: %(count)s, no score (%(side)s is not in yet).",
            play=what,
            count=count,
            side=team,
        )
    if scored.voided == "overshoot":
        return say(
            "%(play)s: %(count)s, no score (it would pass %(target)s).",
            play=what,
            count=count,
            target=game.rules.target,
        )
    if not scored.points:
        return say("%(play)s: %(count)s, no score.", play=what, count=count)
    facts: dict[str, Fact] = {
        "play": what,
        "count": count,
        "player": name,
        "points": scored.points,
        "side": team,
    }
    if game.winner is None:
        return say("%(play)s: %(count)s, %(player)s +%(points)s.", **facts)
    if partnership(team):
        return say("%(play)s: %(count)s, %(player)s +%(points)s; %(side)s win the game.", **facts)
    return say("%(play)s: %(count)s, %(player)s +%(points)s; %(side)s wins the game.", **facts)


def gain_step(game: Game, scored: Scored, before: int) -> Message | None:
    """The total's step when a house rule of section 9a changed what the play scored (in
    fives, not in yet, past an exact target), or None when it scored as the count says."""
    rules = game.rules
    count = scored.count
    if scored.voided == "not-in":
        return say(
            "total %(count)s, a multiple of five, but %(side)s needs %(needed)s to get in "
            "(%(rule)s): %(count)s does not count",
            count=count,
            side=game.sides[game.side_of(scored.player)],
            needed=rules.get_in,
            rule=_house("get_in"),
        )
    if scored.voided == "overshoot":
        return say(
            "total %(count)s: %(score)s + %(earned)s = %(sum)s would pass %(target)s "
            "(%(rule)s): nothing scored",
            count=count,
            score=before,
            earned=scored.earned,
            sum=before + scored.earned,
            target=rules.target,
            rule=_house("exact_target"),
        )
    if scored.points and rules.in_fives:
        return say(
            "total %(count)s, a multiple of five: %(count)s / 5 = +%(points)s in fives",
            count=count,
            points=scored.points,
        )
    return None


# -- a claim and an adjustment ----------------------------------------------------------------


def _claim(
    game: Game, hand: Hand, claim: Claim, before: _Before
) -> tuple[Message, tuple[Message, ...]]:
    """ "Ann called 10, the count was 15: Bob's Muggins! +15.", and the steps to it."""
    scored = hand.plays[-1]
    name, claimant = game.players[scored.player], game.players[claim.player]
    side = game.side_of(claim.player)
    team = game.sides[side]
    facts: dict[str, Fact] = {
        "player": name,
        "called": scored.called or 0,
        "count": scored.count,
        "claimant": claimant,
        "points": scored.claimed,
        "missed": scored.missed,
        "side": team,
        "rule": _house("muggins"),
    }
    lines = [
        say(
            "%(player)s called %(called)s on a count of %(count)s (%(rule)s): %(missed)s "
            "missed, and %(player)s's side scored nothing.",
            **facts,
        ),
        say(
            "%(claimant)s, an opponent, cried Muggins! before the next entry: %(side)s takes "
            "the %(missed)s as a play would score them.",
            **facts,
        ),
    ]
    # The claim as the play it takes over: its count, what it earned and what it scored.
    voided = Scored(
        claim.player,
        scored.tile,
        scored.end,
        scored.count,
        scored.claimed,
        scored.claim_voided,
        in_units(scored.missed, game.rules),
    )
    gain = gain_step(game, voided, before.scores[side])
    if scored.claim_voided == "not-in":
        summary = say(
            "%(player)s called %(called)s, the count was %(count)s: %(claimant)s's Muggins!, "
            "no score (%(side)s is not in yet).",
            **facts,
        )
    elif scored.claim_voided == "overshoot":
        summary = say(
            "%(player)s called %(called)s, the count was %(count)s: %(claimant)s's Muggins!, "
            "no score (it would pass %(target)s).",
            target=game.rules.target,
            **facts,
        )
    else:
        summary = say(
            "%(player)s called %(called)s, the count was %(count)s: %(claimant)s's Muggins! "
            "+%(points)s.",
            **facts,
        )
    if gain is not None:
        lines.append(gain)
    lines.append(say("%(side)s: %(score)s", side=team, score=game.scores[side]))
    if game.winner is not None:
        lines.append(_wins_at_once(game, side))
    return summary, tuple(lines)


def _adjust(
    game: Game, hand: Hand, adjust: Adjust, before: _Before
) -> tuple[Message, tuple[Message, ...]]:
    """ "Adjusted: Bob -10 (drew while able to play)." and what it did."""
    side = game.side_of(adjust.player)
    team = game.sides[side]
    facts: dict[str, Fact] = {
        "side": team,
        "points": signed(adjust.points),
        "reason": adjust.reason,
        "before": before.scores[side],
        "score": game.scores[side],
    }
    lines = [
        say("The table agreed a correction: %(reason)s.", **facts),
        say("%(side)s %(before)s %(points)s = %(score)s.", **facts),
        say(
            "An adjustment is not a turn; the settlement and the rules of scoring (getting "
            "in, an exact target) do not count it."
        ),
    ]
    if game.winner is not None:
        lines.append(_wins_at_once(game, game.winner))
    elif game.rules.win_check == "end-of-hand" and max(game.scores) >= game.rules.target:
        lines.append(
            say(
                "The target is checked when hand %(hand)s is settled (%(rule)s).",
                hand=hand.number,
                rule=_house("win_check", "end-of-hand"),
            )
        )
    return say("Adjusted: %(side)s %(points)s (%(reason)s).", **facts), tuple(lines)


# -- draws and passes --------------------------------------------------------------------------


def _open_ends(layout: Layout) -> Message:
    return say(
        "The open ends were %(ends)s.",
        ends=say_list([_shows(end.name, end.shows) for end in layout.ends()]),
    )


def _kept(game: Game, boneyard: int) -> dict[str, Fact]:
    """The tiles a reserve keeps out of the boneyard (house rule boneyard_reserve), as facts;
    none without a reserve."""
    reserve = game.rules.boneyard_reserve
    if not reserve:
        return {}
    return {"kept": min(boneyard, reserve), "rule": _house("boneyard_reserve", reserve)}


def _draw(game: Game, hand: Hand, draw: Draw) -> tuple[Message, tuple[Message, ...]]:
    name = game.players[draw.player]
    reserve = game.rules.boneyard_reserve
    before = hand.boneyard + draw.count
    could = max(0, before - reserve)
    can = max(0, hand.boneyard - reserve)
    drawn = _tiles(draw.count)
    kept = _kept(game, hand.boneyard)
    if kept:
        took = say(
            "%(player)s drew %(tiles)s: %(could)s could be drawn before, %(can)s now "
            "(%(kept)s kept in reserve, %(rule)s).",
            player=name,
            tiles=drawn,
            could=could,
            can=can,
            **kept,
        )
    else:
        took = say(
            "%(player)s drew %(tiles)s: %(could)s could be drawn before, %(can)s now.",
            player=name,
            tiles=drawn,
            could=could,
            can=can,
        )
    if can:
        still = say(
            "It is still %(player)s's turn: a drawn tile that fits must be played at once; "
            "otherwise draw again.",
            player=name,
        )
    else:
        still = say(
            "It is still %(player)s's turn: a drawn tile that fits must be played at once; "
            "otherwise pass, as nothing more can be drawn.",
            player=name,
        )
    lines = [
        _open_ends(hand.layout),
        took,
        say(
            "%(player)s now holds %(tiles)s.",
            player=name,
            tiles=_tiles(hand.held[draw.player]),
        ),
        still,
    ]
    summary = say(
        "%(player)s drew %(tiles)s; %(can)s left to draw; still %(player)s's turn.",
        player=name,
        tiles=drawn,
        can=can,
    )
    return summary, tuple(lines)


def _pass(game: Game, hand: Hand, passing: Pass) -> tuple[Message, tuple[Message, ...]]:
    name = game.players[passing.player]
    players = len(game.players)
    kept = _kept(game, hand.boneyard)
    if kept:
        passed = say(
            "%(player)s passed: nothing could be drawn (%(kept)s kept in reserve, %(rule)s).",
            player=name,
            **kept,
        )
    else:
        passed = say("%(player)s passed: nothing could be drawn.", player=name)
    lines = [
        _open_ends(hand.layout),
        passed,
        say("Passes in a row: %(passes)s of %(players)s.", passes=hand.passes, players=players),
    ]
    if hand.result == "blocked":
        lines.append(
            say(
                "Every player has passed in turn: the hand is blocked (%(players)s passes).",
                players=players,
            )
        )
        summary = say("%(player)s passed; the hand is blocked.", player=name)
    else:
        nxt = game.players[hand.turn]
        lines.append(say("Next: %(player)s's turn.", player=nxt))
        summary = say("%(player)s passed; %(next)s's turn.", player=name, next=nxt)
    return summary, tuple(lines)


# -- a settlement ------------------------------------------------------------------------------


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
            rule=_house("settlement"),
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
            rule=_house("blocked_tie", "split"),
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
            rule=_house("settlement"),
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
        rule = _house("units", "fives")
    elif s.bonus_in_fives:
        rule = _house("bonus_in_fives", "yes")
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
                rule=_house("get_in", game.rules.get_in),
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
            rule=_house("exact_target"),
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
            rule=_house("exact_target"),
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


def _target_line(game: Game) -> Message:
    target = game.rules.target
    scores = game.scores
    best = max(scores)
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
    game: Game, hand: Hand, event: Settle, before: _Before
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
