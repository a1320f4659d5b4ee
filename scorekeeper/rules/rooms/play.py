"""A play, with its call (house rule muggins): where the tile goes, whether it may, and what the
count scores its side (docs/rules.md sections 5 to 7, 8b)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.errors import IllegalEntry, MalformedInput
from scorekeeper.rules.events import Play, is_whole
from scorekeeper.rules.gains import gets_in, play_gain, play_points
from scorekeeper.rules.layout import Layout, is_arm_name, not_an_end
from scorekeeper.rules.messages import Fact, Listed, Message, say, say_list
from scorekeeper.rules.rooms.shared import check_turn, name
from scorekeeper.rules.state import GameState, Hand, Move, Scored
from scorekeeper.rules.tiles import Tile, stored_tile


def enter(game: GameState, play: Play) -> None:
    """Check a play and its call, then place it and score it."""
    _check_form(game, play)
    hand = check_turn(game, play.player, "play")
    end = _check_end(game, play, hand)
    if play.called is not None:
        _check_call(game, play, end)
    _apply(game, play, end, hand)


def _apply(game: GameState, play: Play, end: str | None, hand: Hand) -> None:
    rules = game.rules
    if end is None:
        hand.layout.place_lead(play.tile, play.flipped)
    else:
        hand.layout.place(play.tile, end)
    hand.played_by[play.tile] = play.player
    count = hand.layout.count()
    side = game.side_of_seat[play.player]
    counted = play_points(count)
    called, missed = None, 0
    if rules.muggins:
        called = counted if play.called is None else play.called
        missed = counted if called < counted else 0
    if missed:  # docs/rules.md 8b: a call short of the count scores nothing at all
        gain = play_gain(0, game.sides_in[side], game.scores[side], rules)
    else:
        gain = play_gain(count, game.sides_in[side], game.scores[side], rules)
        if gets_in(counted, rules):
            game.sides_in[side] = True
    points = gain.points
    game.scores[side] += points
    hand.plays.append(
        Scored(
            play.player,
            play.tile,
            end,
            count,
            points,
            gain.voided,
            gain.earned,
            called=called,
            missed=missed,
        )
    )
    hand.moves.append(Move("play", play.player, side, points, len(hand.plays) - 1))
    hand.held[play.player] -= 1
    hand.passes = 0
    hand.turn = (play.player + 1) % len(hand.held)
    # With exact_target this side is also the first on the target: a settlement that
    # leaves any side there decides the game, so nobody else stands on it now.
    if points and rules.win_check == "immediate" and game.scores[side] >= rules.target:
        game.winner = side
        hand.result = "won"
        if hand.held[play.player] == 0:
            hand.went_out = play.player
    elif hand.held[play.player] == 0:
        hand.result = "domino"
        hand.went_out = play.player


def _check_form(game: GameState, play: Play) -> None:
    """The entry on its own: a tile of this game's set, an end's name, a call."""
    if not isinstance(play.tile, Tile):
        raise MalformedInput(say("%(tile)s is not a tile.", tile=repr(play.tile)))
    tiles = game.rules.tile_set
    if not tiles.holds(play.tile):
        raise MalformedInput(
            say(
                "%(tile)s is not a tile of a %(set)s set (numbers 0 to %(top)s).",
                tile=str(play.tile),
                set=tiles.spoken,
                top=tiles.top,
            )
        )
    if play.end is not None and (
        not isinstance(play.end, str) or not is_arm_name(play.end, tiles.top)
    ):
        raise MalformedInput(not_an_end(repr(play.end), play.end, tiles))
    if play.called is not None and not is_whole(play.called, 0):
        raise MalformedInput(
            say(
                "A call is the points its player called, a whole number from 0 up "
                "(0: nothing called); not %(given)s.",
                given=repr(play.called),
            )
        )


def _check_end(game: GameState, play: Play, hand: Hand) -> str | None:
    """Check a play in its turn in ``hand``; return the end it goes on (None for the lead)."""
    tile, layout = play.tile, hand.layout
    if layout.lead is None and hand.double_lead and not tile.is_double:
        raise IllegalEntry(
            "lead",
            say(
                "%(player)s leads hand %(hand)s with the highest double they hold "
                "(house rule lead: highest-double): %(tile)s is not a double.",
                player=name(game, play.player),
                hand=hand.number,
                tile=str(tile),
            ),
        )
    if tile in layout.on_table:
        by = name(game, hand.played_by[tile])
        raise IllegalEntry(
            "tile-unique",
            say(
                "%(tile)s is already on the table (%(player)s played it in hand %(hand)s); "
                "each tile is in the set once.",
                tile=str(tile),
                player=by,
                hand=hand.number,
            ),
        )
    if layout.lead is None:
        return None
    end = play.end
    if end is not None and end not in layout.arms:
        spinner = layout.closed_spinner(end)
        if spinner is None:
            raise IllegalEntry("end-unknown", _unknown_end_message(game, layout, end))
        covered = layout.spinner_sides_covered(spinner)
        sides = layout.spinner_side_arms(spinner)
        closed: dict[str, Fact] = {
            "end": end,
            "spinner": str(spinner.tile),
            "covered": covered,
            "side": sides[0],
        }
        if len(sides) == 2:
            raise IllegalEntry(
                "spinner-sides",
                say(
                    "%(end)s is an end of the spinner %(spinner)s, which opens only once "
                    "both its sides are covered (%(covered)s of 2 are): play on %(side)s "
                    "or %(other)s first.",
                    **closed,
                    other=sides[1],
                ),
            )
        raise IllegalEntry(
            "spinner-sides",
            say(
                "%(end)s is an end of the spinner %(spinner)s, which opens only once "
                "both its sides are covered (%(covered)s of 2 are): play on %(side)s first.",
                **closed,
            ),
        )
    if end is not None:
        shows = layout.arms[end].value
        if not tile.has(shows):
            raise IllegalEntry(
                "match",
                say(
                    "%(player)s's %(tile)s does not match the %(end)s end, which shows "
                    "%(shows)s. %(fits)s",
                    player=name(game, play.player),
                    tile=str(tile),
                    end=end,
                    shows=shows,
                    fits=_fits_sentence(layout, layout.fits(tile)),
                ),
            )
        return end
    fits = layout.fits(tile)
    if not fits:
        raise IllegalEntry(
            "match",
            say(
                "%(player)s's %(tile)s fits no open end: %(ends)s.",
                player=name(game, play.player),
                tile=str(tile),
                ends=_ends_text(layout),
            ),
        )
    if len(fits) > 1:
        raise IllegalEntry(
            "end-ambiguous",
            say(
                "%(player)s's %(tile)s fits %(fits)s: name the end to play it on.",
                player=name(game, play.player),
                tile=str(tile),
                fits=_ends_shown(layout, fits),
            ),
        )
    return fits[0]


def _check_call(game: GameState, play: Play, end: str | None) -> None:
    """A play's call (house rule muggins, docs/rules.md 8b): at most the points it scores."""
    called = play.called
    if called is None:
        return
    if not game.rules.muggins:
        raise IllegalEntry(
            "call",
            say(
                "This game is played without calling the count (house rule muggins: no): "
                "every play scores its count, so there is no call to enter."
            ),
        )
    hand = game.hand
    assert hand is not None
    layout = hand.layout.copy()
    if end is None:
        layout.place_lead(play.tile, play.flipped)
    else:
        layout.place(play.tile, end)
    count = layout.count()
    points = play_points(count)
    if called <= points:
        return
    player = name(game, play.player)
    if points:
        raise IllegalEntry(
            "call",
            say(
                "%(player)s cannot call %(called)s: with %(tile)s the ends count %(count)s, "
                "which scores %(points)s. A call of %(points)s scores it; a lower one "
                "misses it.",
                player=player,
                called=called,
                tile=str(play.tile),
                count=count,
                points=points,
            ),
        )
    raise IllegalEntry(
        "call",
        say(
            "%(player)s cannot call %(called)s: with %(tile)s the ends count %(count)s, "
            "which scores nothing, so the only call is 0.",
            player=player,
            called=called,
            tile=str(play.tile),
            count=count,
        ),
    )


def _ends_text(layout: Layout) -> Listed:
    return say_list(
        [say("%(end)s shows %(pips)s", end=end.name, pips=end.shows) for end in layout.ends()]
    )


def _ends_shown(layout: Layout, fits: list[str]) -> Listed:
    return say_list(
        [say("%(end)s (shows %(pips)s)", end=name, pips=layout.arms[name].value) for name in fits]
    )


def _fits_sentence(layout: Layout, fits: list[str]) -> Message:
    if not fits:
        return say("It fits no open end.")
    return say("It fits %(fits)s.", fits=_ends_shown(layout, fits))


def _unknown_end_message(game: GameState, layout: Layout, end: str) -> Message:
    ends = _ends_text(layout)
    if end in ("N", "S"):
        if game.rules.spinners == "none":
            return say(
                "There is no %(end)s end: this game is played without a spinner. "
                "The open ends are %(ends)s.",
                end=end,
                ends=ends,
            )
        return say(
            "There is no %(end)s end: no double has been laid to be the spinner yet. "
            "The open ends are %(ends)s.",
            end=end,
            ends=ends,
        )
    if game.rules.spinners != "all":
        return say(
            "There is no %(end)s end: only with every double a spinner do doubles open "
            "arms of their own. The open ends are %(ends)s.",
            end=end,
            ends=ends,
        )
    double = end.split(":")[0]
    first = layout.spinners[0].tile if layout.spinners else None
    if first is not None and str(first) == double:
        return say(
            "There is no %(end)s end: %(double)s is the first spinner, its ends are "
            "%(north)s and %(south)s. The open ends are %(ends)s.",
            end=end,
            double=double,
            north="N",
            south="S",
            ends=ends,
        )
    return say(
        "There is no %(end)s end: %(double)s is not on the table. The open ends are %(ends)s.",
        end=end,
        double=double,
        ends=ends,
    )


def store(play: Play) -> dict[str, Any]:
    """A play as its stored row's data (see :mod:`scorekeeper.rules.stored`)."""
    played: dict[str, Any] = {
        "player": play.player,
        "tile": str(play.tile),
        "end": play.end,
        "flipped": play.flipped,
    }
    if play.called is not None:  # only under muggins, and only when called short
        played["called"] = play.called
    return played


def restore(data: Mapping[str, Any]) -> Play:
    """The play a stored row's data holds."""
    tile = stored_tile(data["tile"])
    return Play(data["player"], tile, data["end"], data["flipped"], data.get("called"))
