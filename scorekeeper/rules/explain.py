"""Why: how the referee judged each entry of a game's log, in plain words.

:func:`explain` takes one event of ``game.events`` and says what it did: for a play, each
open end after it and what that end contributed to the count (RULES.md section 6) and what
the count scored (section 7); for a draw or a pass, who, how many and what was left to draw,
and whose turn is next; for a settlement, each player's pips, the rounding, the method and
each side's change (section 8); for a new hand, who leads and why. The event that decided
the game also gets the scores against the target.

The engine keeps only the current state, so the state around an earlier event is rebuilt by
replaying the events before it; :func:`explain_all` explains a whole log in one replay.
:func:`explain_hand` explains one hand for the cost of that hand, however long the game: a
hand only needs the game as it was when the hand began, and the engine keeps that (each hand's
``scores_before``, the hands before it, which never change), so it goes back there with
:meth:`Game.fork` and :meth:`Game.rewind`, which replay nothing, and pushes the hand's events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from scorekeeper.rules.events import Draw, Event, Held, LeadWay, NewHand, Pass, Play, Settle
from scorekeeper.rules.game import Game, Hand, Scored
from scorekeeper.rules.layout import Layout, Placed
from scorekeeper.rules.options import LeadRule
from scorekeeper.rules.settlement import Settlement, round_to_five
from scorekeeper.rules.wording import listed, signed, tile_count, wins

EventKind = Literal["new-hand", "play", "draw", "pass", "settle"]
"""An event's kind as the log shows it (its ``data-kind``)."""
KINDS: tuple[EventKind, ...] = get_args(EventKind)


@dataclass(frozen=True)
class Explanation:
    """How one event of a game's log was judged.

    ``index`` is the event's place in ``game.events`` (from 0); ``hand`` the hand it belongs
    to (from 1); ``event`` its number among the hand's plays, draws and passes as the record
    counts them (from 1; None for a new hand or a settlement). ``kind`` is one of
    :data:`KINDS`. ``winner`` is the side that this event made the winner of the game, or
    None when the game was not decided by it.
    """

    index: int
    hand: int
    event: int | None
    kind: EventKind
    summary: str
    lines: tuple[str, ...]
    winner: int | None = None


@dataclass(frozen=True)
class _Before:
    """What an explanation needs of the state just before its event."""

    scores: tuple[int, ...]
    event: int


# -- the public entry points -------------------------------------------------------------------


def explain(game: Game, index: int) -> Explanation:
    """How the event at ``index`` of ``game.events`` (from 0) was judged."""
    if not 0 <= index < len(game.events):
        raise IndexError(f"there is no event {index} in this game's {len(game.events)} events")
    replayed = Game(game.setup, game.events[:index])
    before = _Before(tuple(replayed.scores), _next_event_number(replayed))
    replayed.push(game.events[index])
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


def explain_last_play(game: Game) -> str:
    """The compact line the table shows after the last play: "W 3 + E 12 = 15: Ann +15".

    Open ends of a spinner that are still empty are left out; a lone lead reads
    "6-4 alone = 10: Ann +10". Raises ValueError when nothing has been played yet.
    """
    index = max((i for i, e in enumerate(game.events) if isinstance(e, Play)), default=None)
    if index is None:
        raise ValueError("nothing has been played in this game yet")
    hand = game.hand
    if hand is not None and index == _last_play_index_of_current_hand(game):
        return _compact(game, hand, len(hand.plays) - 1)
    replayed = Game(game.setup, game.events[: index + 1])
    current = replayed.hand
    assert current is not None
    return _compact(replayed, current, len(current.plays) - 1)


def event_position(game: Game, index: int) -> tuple[int, int | None]:
    """The hand (from 1) of ``game.events[index]`` and its event number in that hand.

    The event number counts the hand's plays, draws and passes from 1, as the record does;
    it is None for the new hand itself and for the settlement.
    """
    if not 0 <= index < len(game.events):
        raise IndexError(f"there is no event {index} in this game's {len(game.events)} events")
    hand = 0
    number = 0
    for event in game.events[: index + 1]:
        if isinstance(event, NewHand):
            hand += 1
            number = 0
        elif not isinstance(event, Settle):
            number += 1
    last = game.events[index]
    return hand, None if isinstance(last, (NewHand, Settle)) else number


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


def _last_play_index_of_current_hand(game: Game) -> int | None:
    for i in range(len(game.events) - 1, -1, -1):
        event = game.events[i]
        if isinstance(event, NewHand):
            return None
        if isinstance(event, Play):
            return i
    return None


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
        summary, lines = _play(game, hand, event, before)
        return Explanation(index, hand.number, before.event, "play", summary, lines, game.winner)
    if isinstance(event, Draw):
        summary, lines = _draw(game, hand, event)
        return Explanation(index, hand.number, before.event, "draw", summary, lines)
    summary, lines = _pass(game, hand, event)
    return Explanation(index, hand.number, before.event, "pass", summary, lines)


# -- a new hand --------------------------------------------------------------------------------


_WAYS: dict[LeadWay, str] = {
    "lot": "by lot: the app picked a player at random",
    "draw": "by the draw for the lead: each player drew a tile, the highest pip total leading",
    "table": "at the table: the players agreed who leads",
}
_SHORT_WAYS: dict[LeadWay, str] = {
    "lot": "by lot",
    "draw": "by the draw for the lead",
    "table": "at the table",
}
_HOUSE_WAY: dict[LeadRule, LeadWay] = {"lots": "lot", "draw-highest": "draw"}


def _chosen_how(game: Game, chosen: LeadWay) -> str:
    """How a leader the rules left open was chosen, naming the house rule when it agrees."""
    rule = game.rules.lead
    how = _WAYS[chosen]
    return f"{how} (house rule lead: {rule})" if _HOUSE_WAY.get(rule) == chosen else how


def _not_recorded(game: Game) -> str:
    rule = game.rules.lead
    return (
        f"how the leader was chosen was not recorded "
        f"(house rule lead: {rule}, {_SHORT_WAYS[_HOUSE_WAY[rule]]})"
    )


def _new_hand(game: Game, hand: Hand, event: NewHand) -> tuple[str, tuple[str, ...]]:
    """Who leads a hand, and how that leader was chosen: as recorded, never guessed."""
    leader = game.players[hand.leader]
    lines: list[str] = []
    previous = game.hands[-2] if hand.number > 1 else None
    chosen = event.chosen
    if previous is not None and previous.result == "domino" and previous.went_out is not None:
        lines.append(
            f"{game.players[previous.went_out]} dominoed in hand {previous.number}, "
            f"so {leader} leads hand {hand.number}."
        )
        summary = f"Hand {hand.number} begins: {leader} leads (dominoed in hand {previous.number})."
    else:
        if previous is None and chosen is None:
            lines.append(f"{leader} leads the first hand; {_not_recorded(game)}.")
        elif previous is None and chosen is not None:
            lines.append(f"{leader} leads the first hand, chosen {_chosen_how(game, chosen)}.")
        else:
            again = f"Hand {hand.number - 1} was blocked, so the leader of hand {hand.number}"
            if chosen is None:
                lines.append(f"{again} was chosen again: {leader}; {_not_recorded(game)}.")
            else:
                lines.append(f"{again} was chosen again, {_chosen_how(game, chosen)}: {leader}.")
        how = f", chosen {_SHORT_WAYS[chosen]}." if chosen is not None else "."
        summary = f"Hand {hand.number} begins: {leader} leads{how}"
    rules = game.rules
    lines.append(
        f"Each player takes {tile_count(rules.hand_size)}; {tile_count(rules.boneyard_size)} "
        "stay face down in the boneyard."
    )
    lines.append(f"{leader} may lead any tile, double or not.")
    return summary, tuple(lines)


# -- a play ------------------------------------------------------------------------------------


def _spinner_word(layout: Layout, placed: Placed) -> str:
    first = layout.spinners[0].tile if layout.spinners else None
    return "the spinner" if placed.tile == first else "a spinner"


def _not_counted(layout: Layout, placed: Placed) -> bool:
    return placed.spinner and not layout.spinner_counts


def play_steps(layout: Layout, count: int, points: int) -> tuple[str, ...]:
    """Each open end's contribution, then the total and what it scores, in plain words.

    For example ("W 3", "E 6-6, the spinner at the tip, 12",
    "total 15, a multiple of five: +15").
    """
    shares = layout.contributions()
    steps: list[str] = []
    if len(layout.on_table) == 1 and shares:
        _, lead, value = shares[0]
        assert lead is not None
        if _not_counted(layout, lead):
            steps.append(
                f"the lead {lead.tile} alone, {_spinner_word(layout, lead)}, does not count "
                f"(house rule spinner_counts: no): {value}"
            )
        else:
            steps.append(f"the lead {lead.tile} alone counts once: {value}")
    else:
        steps.extend(_end_step(layout, name, tip, value) for name, tip, value in shares)
    steps.append(_total_step(count, points))
    return tuple(steps)


def _end_step(layout: Layout, name: str, tip: Placed | None, value: int) -> str:
    if tip is None:
        return f"{name} empty, {value}"
    if not tip.tile.is_double:
        return f"{name} {value}"
    if not tip.spinner:
        return f"{name} {tip.tile}, a double at the tip, {value}"
    word = _spinner_word(layout, tip)
    if _not_counted(layout, tip):
        return (
            f"{name} {tip.tile}, {word} at the tip, does not count "
            f"(house rule spinner_counts: no), {value}"
        )
    return f"{name} {tip.tile}, {word} at the tip, {value}"


def _total_step(count: int, points: int) -> str:
    if points:
        return f"total {count}, a multiple of five: +{points}"
    if count == 0:
        return "total 0: no score"
    return f"total {count}, not a multiple of five: no score"


def _compact_parts(layout: Layout) -> str:
    shares = layout.contributions()
    if len(layout.on_table) == 1 and shares:
        _, lead, value = shares[0]
        assert lead is not None
        return f"{lead.tile} alone = {value}"
    parts = [f"{name} {value}" for name, tip, value in shares if tip is not None]
    return " + ".join(parts) + f" = {layout.count()}"


def _compact(game: Game, hand: Hand, play_number: int) -> str:
    """The compact line for play ``play_number`` (from 0) of ``hand``, its last play so far."""
    scored = hand.plays[play_number]
    text = _compact_parts(hand.layout)
    if scored.points:
        text += f": {game.players[scored.player]} +{scored.points}"
    return text


def _spelled(play: Play) -> str:
    tile = play.tile
    return f"{tile.low}-{tile.high}" if play.flipped else str(tile)


def _play(game: Game, hand: Hand, play: Play, before: _Before) -> tuple[str, tuple[str, ...]]:
    scored = hand.plays[-1]
    name = game.players[play.player]
    layout = hand.layout
    if scored.end is None:
        west, east = layout.arms["W"].base, layout.arms["E"].base
        what = f"{name} led {_spelled(play)} (W shows {west}, E shows {east})"
    else:
        what = f"{name} played {play.tile} on {scored.end}"
    steps = list(play_steps(layout, scored.count, scored.points))
    side = game.side_of(play.player)
    gain = gain_step(game, scored, before.scores[side])
    if gain is not None:
        steps[-1] = gain
    if scored.points and game.setup.in_partnership:
        steps.append(f"{name} scores for {game.sides[side]}: {game.scores[side]}")
    if game.winner is not None:
        target = game.rules.target
        steps.append(
            f"{game.sides[side]} {game.scores[side]} >= {target}: wins at once "
            "(house rule win_check: immediate); the hand stops unsettled"
        )
    elif hand.result == "domino":
        steps.append(f"{name} played their last tile and dominoed: the hand is over")
    summary = f"{what}: {_compact_parts(layout)}"
    summary += f", {name} +{scored.points}" if scored.points else ", no score"
    if scored.voided == "not-in":
        summary += f" ({game.sides[side]} is not in yet)"
    elif scored.voided == "overshoot":
        summary += f" (it would pass {game.rules.target})"
    if game.winner is not None:
        summary += f"; {wins(game.sides[side])} the game"
    return summary + ".", tuple(steps)


def gain_step(game: Game, scored: Scored, before: int) -> str | None:
    """The total's step when a house rule of section 9a changed what the play scored (in
    fives, not in yet, past an exact target), or None when it scored as the count says."""
    rules = game.rules
    count = scored.count
    if scored.voided == "not-in":
        return (
            f"total {count}, a multiple of five, but {game.sides[game.side_of(scored.player)]} "
            f"needs {rules.get_in} to get in (house rule get_in): {count} does not count"
        )
    if scored.voided == "overshoot":
        return (
            f"total {count}: {before} + {scored.earned} = {before + scored.earned} would pass "
            f"{rules.target} (house rule exact_target): nothing scored"
        )
    if scored.points and rules.in_fives:
        return f"total {count}, a multiple of five: {count} / 5 = +{scored.points} in fives"
    return None


# -- draws and passes --------------------------------------------------------------------------


def _open_ends(layout: Layout) -> str:
    return listed([f"{end.name} shows {end.shows}" for end in layout.ends()])


def _reserve_note(game: Game, boneyard: int) -> str:
    reserve = game.rules.boneyard_reserve
    if not reserve:
        return ""
    kept = min(boneyard, reserve)
    return f" ({kept} kept in reserve, house rule boneyard_reserve: {reserve})"


def _draw(game: Game, hand: Hand, draw: Draw) -> tuple[str, tuple[str, ...]]:
    name = game.players[draw.player]
    reserve = game.rules.boneyard_reserve
    before = hand.boneyard + draw.count
    could = max(0, before - reserve)
    can = max(0, hand.boneyard - reserve)
    lines = [
        f"The open ends were {_open_ends(hand.layout)}.",
        f"{name} drew {tile_count(draw.count)}: {could} could be drawn before, {can} now"
        f"{_reserve_note(game, hand.boneyard)}.",
        f"{name} now holds {tile_count(hand.held[draw.player])}.",
        f"It is still {name}'s turn: a drawn tile that fits must be played at once; "
        + ("otherwise draw again." if can else "otherwise pass, as nothing more can be drawn."),
    ]
    summary = f"{name} drew {tile_count(draw.count)}; {can} left to draw; still {name}'s turn."
    return summary, tuple(lines)


def _pass(game: Game, hand: Hand, passing: Pass) -> tuple[str, tuple[str, ...]]:
    name = game.players[passing.player]
    players = len(game.players)
    lines = [
        f"The open ends were {_open_ends(hand.layout)}.",
        f"{name} passed: nothing could be drawn{_reserve_note(game, hand.boneyard)}.",
        f"Passes in a row: {hand.passes} of {players}.",
    ]
    if hand.result == "blocked":
        lines.append(f"Every player has passed in turn: the hand is blocked ({players} passes).")
        summary = f"{name} passed; the hand is blocked."
    else:
        nxt = game.players[hand.turn]
        lines.append(f"Next: {nxt}'s turn.")
        summary = f"{name} passed; {nxt}'s turn."
    return summary, tuple(lines)


# -- a settlement ------------------------------------------------------------------------------


def _held_text(held: Held | None, pips: int) -> str:
    if isinstance(held, tuple) and held:
        return f"{' '.join(str(t) for t in held)} = {pips}"
    return str(pips)


def _player_line(game: Game, hand: Hand, held: Held | None, seat: int, tail: str) -> str:
    name = game.players[seat]
    assert hand.settlement is not None
    pips = hand.settlement.pips[seat]
    if hand.went_out == seat:
        return f"{name} dominoed and holds 0{tail}"
    return f"{name} holds {_held_text(held, pips)}{tail}"


def _deduct_lines(game: Game, hand: Hand, event: Settle, s: Settlement) -> list[str]:
    lines = [
        "Settled by deduct-own (house rule settlement): each player's own pips, rounded to "
        "the nearest five, come off their own side's score."
    ]
    for seat in range(len(game.players)):
        if hand.went_out == seat:
            lines.append(_player_line(game, hand, None, seat, ": nothing off"))
            continue
        off = s.rounded[seat] // 5 if s.in_fives else s.rounded[seat]
        tail = f", rounds to {s.rounded[seat]}"
        tail += f", {s.rounded[seat]} / 5 in fives: {signed(-off)}" if s.in_fives else ""
        tail += "" if s.in_fives else f": {signed(-s.rounded[seat])}"
        if game.setup.in_partnership:
            tail += f" for {game.sides[game.side_of(seat)]}"
        lines.append(_player_line(game, hand, event.remaining.get(seat), seat, tail))
    return lines


def _collector_line(game: Game, hand: Hand, s: Settlement) -> str:
    if s.collector is not None and hand.result == "domino":
        return f"{game.players[s.collector]} dominoed and collects."
    fewest = min(s.pips)
    lowest = [game.players[seat] for seat, pips in enumerate(s.pips) if pips == fewest]
    if s.split:
        return (
            f"The hand was blocked: {listed(lowest)} tie for the fewest pips ({fewest}) and "
            "share the others' pips (house rule blocked_tie: split)."
        )
    if s.collector is None:
        return (
            f"The hand was blocked: {listed(lowest)} tie for the fewest pips ({fewest}): "
            "nobody collects."
        )
    return f"The hand was blocked: {lowest[0]} holds the fewest pips ({fewest}) and collects."


def _collect_lines(game: Game, hand: Hand, event: Settle, s: Settlement) -> list[str]:
    lines = [
        "Settled by winner-collects (house rule settlement): the winner of the hand scores "
        "the pips the other sides hold less their own, rounded to the nearest five."
    ]
    for seat in range(len(game.players)):
        lines.append(_player_line(game, hand, event.remaining.get(seat), seat, "."))
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
    shown = listed([f"{game.players[seat]} {s.pips[seat]}" for seat in others])
    own = s.pips[winner]
    floor = " (never below 0)" if total - own < 0 else ""
    lines.append(
        f"The other sides hold {total} ({shown}); less {name}'s own {own}: {s.collected}{floor}."
    )
    for seat in range(len(game.players)):
        if seat != winner and game.side_of(seat) == side:
            lines.append(
                f"{game.players[seat]} is {name}'s partner: their {s.pips[seat]} neither "
                "adds nor subtracts."
            )
    rounded = round_to_five(s.collected)
    lines.append(f"{s.collected} rounds to {rounded}.")
    lines.extend(_in_fives_lines(s, rounded))
    lines.extend(_voided_lines(game, s, side))
    for_side = f" for {game.sides[side]}" if game.sides[side] != name else ""
    lines.append(f"{name} collects {signed(s.changes[side])}{for_side}.")
    return lines


def _in_fives_lines(s: Settlement, rounded: int) -> list[str]:
    if s.in_fives:
        return [f"In fives (house rule units: fives): {rounded} / 5 = {rounded // 5}."]
    if s.bonus_in_fives:
        return [f"In fives (house rule bonus_in_fives: yes): {rounded} / 5 = {rounded // 5}."]
    return []


def _voided_lines(game: Game, s: Settlement, side: int) -> list[str]:
    """Why a side's gain scored nothing (house rules get_in and exact_target)."""
    if not s.voided or s.voided[side] is None:
        return []
    earned = s.earned[side]
    if s.voided[side] == "not-in":
        return [
            f"{game.sides[side]} is not in yet (house rule get_in: {game.rules.get_in}): "
            f"the {earned} does not count."
        ]
    assert s.voided[side] == "overshoot"
    score = game.scores[side] - s.changes[side]
    return [
        f"{score} + {earned} = {score + earned} would pass {game.rules.target} "
        f"(house rule exact_target): nothing scored."
    ]


def _split_lines(game: Game, s: Settlement) -> list[str]:
    """How the tied players of a blocked hand shared the others' pips."""
    others = [seat for seat in range(len(game.players)) if seat not in s.split]
    total = sum(s.pips[seat] for seat in others)
    shown = listed([f"{game.players[seat]} {s.pips[seat]}" for seat in others])
    k = len(s.split)
    exact = f"{total // k}" if total % k == 0 else f"{total / k:g}"
    lines = [
        f"The others hold {total} ({shown}): each of the {k} tied players gets {total} / {k} "
        f"= {exact}, rounded to the nearest five (a half up): {s.share}."
    ]
    lines.extend(_in_fives_lines(s, s.share))
    for seat in s.split:
        side = game.side_of(seat)
        lines.extend(_voided_lines(game, s, side))
        lines.append(f"{game.players[seat]} collects {signed(s.changes[side])}.")
    return lines


def _target_line(game: Game) -> str:
    target = game.rules.target
    scores = game.scores
    best = max(scores)
    if game.winner is not None:
        side = game.winner
        return f"{game.sides[side]} {scores[side]} >= {target}: wins"
    if best >= target:
        tied = [game.sides[side] for side, score in enumerate(scores) if score == best]
        return f"{listed(tied)} tied at {best} (target {target}): another hand"
    return f"nobody has reached {target} (highest {best}): another hand"


def _settle(game: Game, hand: Hand, event: Settle, before: _Before) -> tuple[str, tuple[str, ...]]:
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
    lines.append(f"Changes: {changes}.")
    lines.append(f"Scores: {scores}.")
    lines.append(_target_line(game))
    summary = f"Hand {hand.number} settled: {changes}."
    if game.winner is not None:
        side = game.winner
        summary += f" {wins(game.sides[side])} the game with {game.scores[side]}."
    return summary, tuple(lines)
