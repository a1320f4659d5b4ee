"""Why: a play, each open end after it and what it adds to the count (docs/rules.md section 6),
what the count scored (section 7) and its call (8b)."""

from __future__ import annotations

from scorekeeper.rules.events import (
    Play,
)
from scorekeeper.rules.explain.phrases import (
    Before,
    Told,
    gain_step,
    house,
    shows,
    wins_at_once,
)
from scorekeeper.rules.game import Game, Hand, Scored
from scorekeeper.rules.layout import Layout, Placed
from scorekeeper.rules.messages import Fact, Message, say
from scorekeeper.rules.wording import partnership


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


def _spinner_word(layout: Layout, placed: Placed) -> Message:
    first = layout.spinners[0].tile if layout.spinners else None
    return say("the spinner") if placed.tile == first else say("a spinner")


def _not_counted(layout: Layout, placed: Placed) -> bool:
    return placed.spinner and layout.spinner_counts == "no"


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
                    rule=house("spinner_counts", "no"),
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


def _spinner_of_end(layout: Layout, name: str) -> str:
    """The spinner whose end ``name`` is, as a tile: "4-4"."""
    return next(str(s.tile) for s in layout.spinners if name in s.ends)


def _end_step(layout: Layout, name: str, tip: Placed | None, value: int) -> Message:
    if tip is None:
        if value:
            return say(
                "%(end)s empty, an open end of the spinner %(tile)s, counts its number "
                "(%(rule)s): %(value)s",
                end=name,
                tile=_spinner_of_end(layout, name),
                rule=house("spinner_counts", "open-ends"),
                value=value,
            )
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
            rule=house("spinner_counts", "no"),
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


def compact_parts(layout: Layout) -> Message:
    shares = layout.contributions()
    if len(layout.on_table) == 1 and shares:
        _, lead, value = shares[0]
        assert lead is not None
        return say("%(tile)s alone = %(value)s", tile=str(lead.tile), value=value)
    # An empty spinner end is named only when it counts (spinner_counts: open-ends).
    parts = " + ".join(f"{name} {value}" for name, tip, value in shares if tip is not None or value)
    return say("%(ends)s = %(count)s", ends=parts, count=layout.count())


def _spelled(play: Play) -> str:
    tile = play.tile
    return f"{tile.low}-{tile.high}" if play.flipped else str(tile)


def tell(game: Game, hand: Hand, play: Play, before: Before) -> Told:
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
            west=shows("W", layout.arms["W"].base),
            east=shows("E", layout.arms["E"].base),
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
            rule=house("muggins"),
            points=scored.missed,
        )
    elif scored.called and scored.count == scored.called:
        steps.append(
            say(
                "%(player)s called %(called)s, the count (%(rule)s)",
                player=name,
                called=scored.called,
                rule=house("muggins"),
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
        steps.append(wins_at_once(game, side))
    elif hand.result == "domino":
        steps.append(
            say("%(player)s played their last tile and dominoed: the hand is over", player=name)
        )
    return _play_summary(game, scored, what, layout, team), tuple(steps), counted


def _muggins_open(**facts: Fact) -> Message:
    """A count called short, told while it is the last entry: an opponent may still claim it."""
    return say(
        "%(play)s: %(count)s; %(player)s called %(called)s: no score, Muggins! is open.", **facts
    )


def muggins_closed(summary: Message) -> Message:
    """``summary`` of a play told when it was the last entry, now that another entry (not a
    claim of it) has followed: a count called short no longer says Muggins! is open."""
    if summary.text != _muggins_open().text:
        return summary
    return say(
        "%(play)s: %(count)s; %(player)s called %(called)s: no score, and nobody claimed Muggins!.",
        **dict(summary.facts),
    )


def _play_summary(game: Game, scored: Scored, what: Message, layout: Layout, team: str) -> Message:
    """ "Bob played 6-3 on W: W 3 + E 12 = 15, Bob +15.", and why a count scored nothing."""
    count = compact_parts(layout)
    name = game.players[scored.player]
    if scored.missed:
        return _muggins_open(
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
