"""The table and its entries: play, turn the lead, draw, pass, undo, redo, settle, choose who
leads (a seat, by lot, or by the draw for the lead), and the house rules' call, Muggins! and
guess of a hidden count."""

from __future__ import annotations

import random
from collections.abc import Callable

from flask import (
    request,
)

from scorekeeper.rules import (
    Claim,
    Draw,
    Event,
    Game,
    Guess,
    Held,
    LeadWay,
    MalformedInput,
    NewHand,
    Pass,
    Play,
    Refusal,
    Settle,
    Tile,
)
from scorekeeper.rules.entering import lead_winner
from scorekeeper.rules.messages import say, say_list
from scorekeeper.web import languages
from scorekeeper.web.data import games
from scorekeeper.web.data.doors import remember
from scorekeeper.web.data.loaded import EDIT, Loaded
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.routes import route
from scorekeeper.web.table.answers import (
    Unwritten,
    commit,
    done,
    incomplete,
    load_table,
    refuse,
    render_table,
    stale_or_none,
    unwritten,
    written,
)
from scorekeeper.web.table.blueprint import bp
from scorekeeper.web.table.controls import undo_label
from scorekeeper.web.table.forms import (
    CallForm,
    ClaimForm,
    EntryForm,
    GuessForm,
    LeadForm,
    PlayForm,
    SettleForm,
    TurnForm,
)
from scorekeeper.web.table.held import MAX_TICKED, held_of
from scorekeeper.web.table.view import table_view

_rng = random.SystemRandom()
"""Draws by lot (the leader of a hand) from the operating system's randomness."""


@bp.get("/games/<key:key>")
def table(key: str) -> tuple[str, int]:
    """The table of a game: scoreboard, layout, tile picker and the entry buttons."""
    loaded = load_table(key)
    remember(loaded.row, EDIT)
    how = request.args.get("lead")
    return render_table(table_view(loaded, open_draw=how == "draw", open_choice=how == "table"))


@bp.post("/games/<key:key>/play")
@route(entry=True, changes_game=True)
def play(key: str) -> Answer:
    """Play a tile: on the end named, on the only end it fits, or select it to choose an end.

    A larger set's tray sends an end (or before the lead a number) first, without a tile: the
    table comes back showing the tiles that carry it, and nothing is entered."""
    loaded = load_table(key)
    form = PlayForm()
    if not form.validate():
        return incomplete(loaded)
    if not form.tile.data:
        return _choose(loaded, form)
    game, hand = loaded.game, loaded.game.hand
    try:
        chosen = game.rules.tile_set.parse(form.tile.data)
    except MalformedInput as refusal:
        return refuse(loaded, refusal, "picker")
    stale = stale_or_none(loaded, form.seen)
    if stale is not None:
        return stale
    end = form.end.data or None
    if (
        end is None
        and game.phase == "play"
        and hand is not None
        and hand.plays
        and chosen not in hand.layout.on_table
        and len(game.fits(chosen)) > 1
    ):
        return render_table(table_view(loaded, selected=chosen))
    seat = hand.turn if hand is not None else 0
    # A refused tile of a larger set's tray leaves its end (or number) chosen, to tap another.
    keep = {"chosen_end": end, "chosen_number": form.number.data}
    return commit(loaded, form.seen, [Play(seat, chosen, end)], "picker", **keep)


def _choose(loaded: Loaded, form: PlayForm) -> Answer:
    """A larger set's first tap: the open end the tile goes on (``choose=end``), or before the
    lead a number of the lead tile (``choose=number``); an empty value chooses none again.
    The table comes back with the tiles carrying its number; nothing is entered."""
    how = form.choose.data
    if how not in ("end", "number"):
        return incomplete(loaded)
    stale = stale_or_none(loaded, form.seen)
    if stale is not None:
        return stale
    game, hand = loaded.game, loaded.game.hand
    if game.phase != "play" or hand is None or game.rules.tile_set.top == 6:
        return incomplete(loaded)
    if how == "end":
        end = form.end.data or None
        if not hand.plays or (end is not None and end not in hand.layout.arms):
            return incomplete(loaded)
        return render_table(table_view(loaded, chosen_end=end))
    number = form.number.data
    if hand.plays or (number is not None and number > game.rules.tile_set.top):
        return incomplete(loaded)
    return render_table(table_view(loaded, chosen_number=number))


@bp.post("/games/<key:key>/turn")
@route(entry=True, changes_game=True)
def turn_lead(key: str) -> Answer:
    """Turn the lead tile round (which half faces W), until the hand's second tile is played."""
    loaded = load_table(key)
    form = TurnForm()
    if not form.validate() or form.west_wanted > loaded.game.rules.tile_set.top:
        return incomplete(loaded)
    west = form.west_wanted
    after = written(loaded, form.seen, lambda: games.turn_lead(key, form.seen, west, loaded))
    if isinstance(after, Unwritten):
        return unwritten(after, "picker")
    layout = after.game.hand.layout if after.game.hand else None
    assert layout is not None and layout.lead is not None
    west, east = layout.arms["W"].base, layout.arms["E"].base
    return done(
        after,
        _(
            "Turned round: the lead %(tile)s shows %(west)s on W, %(east)s on E.",
            tile=str(layout.lead.tile),
            west=west,
            east=east,
        ),
    )


@bp.post("/games/<key:key>/call")
@route(entry=True, changes_game=True)
def call(key: str) -> Answer:
    """What the last play's player called (house rule muggins): a play goes in called right,
    and while it is the last entry one tap says it was called short, or right after all."""
    loaded = load_table(key)
    form = CallForm()
    if not form.validate():
        return incomplete(loaded)
    called = form.called.data
    assert called is not None
    after = written(loaded, form.seen, lambda: games.change_call(key, form.seen, called, loaded))
    if isinstance(after, Unwritten):
        return unwritten(after, "call")
    # The call strip says what was called; the flash by the scoreboard what it scored.
    return done(after, entered=True)


@bp.post("/games/<key:key>/muggins")
@route(entry=True, changes_game=True)
def muggins(key: str) -> Answer:
    """ "Muggins!": an opponent takes the count the last play's player called short."""
    loaded = load_table(key)
    form = ClaimForm()
    if not form.validate() or (form.claimant.data or 0) >= len(loaded.game.players):
        return incomplete(loaded)
    claimant = form.claimant.data
    assert claimant is not None
    return commit(loaded, form.seen, [Claim(claimant)], "call")


@bp.post("/games/<key:key>/guess")
@route(entry=True, changes_game=True)
def guess(key: str) -> Answer:
    """Practice mode: the table's guess of the last play's hidden count, for its player. The
    referee refuses a guess when no count is hidden (the rule off, guessed already, another
    entry since: a stale page is answered as stale before that)."""
    loaded = load_table(key)
    form = GuessForm()
    if not form.validate():
        return incomplete(loaded)
    points = form.guess.data
    assert points is not None
    hand = loaded.game.hand
    seat = hand.plays[-1].player if hand is not None and hand.plays else 0
    return commit(loaded, form.seen, [Guess(seat, points)], "guess")


def _by_player_to_play(key: str, event: Callable[[int], Event]) -> Answer:
    """Enter ``event(seat)`` for the player whose turn it is (a draw or a pass)."""
    loaded = load_table(key)
    form = EntryForm()
    if not form.validate():
        return incomplete(loaded)
    hand = loaded.game.hand
    seat = hand.turn if hand is not None else 0
    return commit(loaded, form.seen, [event(seat)], "actions")


@bp.post("/games/<key:key>/draw")
@route(entry=True, changes_game=True)
def draw(key: str) -> Answer:
    """The player to play draws one tile from the boneyard."""
    return _by_player_to_play(key, lambda seat: Draw(seat, 1))


@bp.post("/games/<key:key>/pass")
@route(entry=True, changes_game=True)
def pass_turn(key: str) -> Answer:
    """The player to play passes: they cannot play and nothing can be drawn."""
    return _by_player_to_play(key, Pass)


@bp.post("/games/<key:key>/undo")
@route(entry=True, changes_game=True)
def undo(key: str) -> Answer:
    """Undo the last entry (a settlement together with the hand it began)."""
    loaded = load_table(key)
    form = EntryForm()
    if not form.validate():
        return incomplete(loaded)
    label = undo_label(loaded.game)
    result = written(loaded, form.seen, lambda: games.undo(key, form.seen, loaded))
    if isinstance(result, Unwritten):
        return unwritten(result, "undo")
    after, undone = result
    if undone and label:
        notice = _("Undone: %(entry)s.", entry=languages.said(label))
    else:
        notice = _("There is nothing to undo.")
    return done(after, notice)


@bp.post("/games/<key:key>/redo")
@route(entry=True, changes_game=True)
def redo(key: str) -> Answer:
    """Bring back the entry undone last, while nothing has been entered since the undo."""
    loaded = load_table(key)
    form = EntryForm()
    if not form.validate():
        return incomplete(loaded)
    result = written(loaded, form.seen, lambda: games.redo(key, form.seen, loaded), redo=True)
    if isinstance(result, Unwritten):
        return unwritten(result, "undo")
    after, redone = result
    label = undo_label(after.game)
    notice = _("Redone: %(entry)s.", entry=languages.said(label)) if redone and label else None
    return done(after, notice, entered=True)


@bp.post("/games/<key:key>/settle")
@route(entry=True, changes_game=True)
def settle(key: str) -> Answer:
    """Settle a finished hand from what each player still holds (checked by rule remaining)."""
    loaded = load_table(key)
    form = SettleForm()
    if not form.validate():
        return incomplete(loaded)
    players = loaded.game.players
    seats = range(len(players))
    values = {seat: request.form.get(f"held-{seat}", "")[:200] for seat in seats}
    ticks = {seat: request.form.getlist(f"tiles-{seat}")[:MAX_TICKED] for seat in seats}
    keep = {"settle_values": values, "settle_ticks": {s: tuple(v) for s, v in ticks.items() if v}}
    remaining: dict[int, Held] = {}
    tiles = loaded.game.rules.tile_set
    try:
        for seat, text in values.items():
            held = held_of(players[seat], text, ticks[seat], tiles)
            if held is not None:
                remaining[seat] = held
    except Refusal as refusal:
        return refuse(loaded, refusal, "settle", **keep)
    return commit(loaded, form.seen, [Settle(remaining)], "settle", **keep)


@bp.post("/games/<key:key>/lead")
@route(entry=True, changes_game=True)
def lead(key: str) -> Answer:
    """Choose who leads the next hand: a seat, at random, or by each player drawing a tile."""
    loaded = load_table(key)
    form = LeadForm()
    if not form.validate():
        return incomplete(loaded)
    stale = stale_or_none(loaded, form.seen)
    if stale is not None:
        return stale
    game = loaded.game
    count = len(game.players)
    forced = game.next_leader
    how = form.how.data or ("seat" if form.leader.data is not None else "random")
    chosen: LeadWay
    if how == "seat" and form.leader.data is not None and form.leader.data < count:
        leader, chosen = form.leader.data, "table"
    elif how == "random":
        leader = forced if forced is not None else _rng.randrange(count)
        chosen = "lot"
    elif how == "draw":
        return _draw_for_lead(loaded, form)
    elif how in ("double", "redraw") and forced is None and game.rules.lead == "highest-double":
        return _highest_double(loaded, form)
    else:
        return incomplete(loaded)
    return commit(loaded, form.seen, [_new_hand(game, leader, chosen)], "lead")


def _highest_double(loaded: Loaded, form: LeadForm) -> Answer:
    """House rule lead: highest-double: the player holding the highest double leads, or
    nobody holds one and everyone draws one more tile (kept in the form until a leader is
    tapped, then stored with the hand; the rules refuse more than the boneyard gives)."""
    game = loaded.game
    redraws = form.redraws.data or 0
    if form.how.data == "redraw":
        try:
            game.fork().push(NewHand(0, "double", redraws + 1))
        except Refusal as refusal:
            return refuse(loaded, refusal, "lead", redraws=redraws)
        return render_table(table_view(loaded, redraws=redraws + 1))
    if form.leader.data is None or form.leader.data >= len(game.players):
        return incomplete(loaded)
    hand = NewHand(form.leader.data, "double", redraws)
    return commit(loaded, form.seen, [hand], "lead", redraws=redraws)


def _new_hand(game: Game, leader: int, chosen: LeadWay) -> NewHand:
    """A hand led by ``leader``, chosen as said, unless the rules name the leader (a domino)."""
    return NewHand(leader, None if game.next_leader is not None else chosen)


def _lead_round(text: str, count: int) -> tuple[int, ...] | None:
    seats = tuple(int(part) for part in text.split(",") if part.isdigit())
    seats = tuple(seat for seat in seats if seat < count)
    return seats if len(seats) >= 2 else None


def _draw_for_lead(loaded: Loaded, form: LeadForm) -> Answer:
    """Each player's drawn tile: the highest pip total leads; a tie draws again."""
    game = loaded.game
    round_seats = _lead_round(form.among.data or "", len(game.players))
    seats = round_seats or tuple(range(len(game.players)))
    values = {seat: request.form.get(f"drawn-{seat}", "")[:20] for seat in seats}
    keep: dict[str, object] = {"lead_round": round_seats, "lead_values": values}
    drawn: dict[int, Tile] = {}
    try:
        for seat in seats:
            if not values[seat].strip():
                raise MalformedInput(
                    say("Enter the tile %(player)s drew.", player=game.players[seat])
                )
            drawn_tile = game.rules.tile_set.parse(values[seat])
            if drawn_tile in drawn.values():
                raise Refusal(
                    "tile-unique",
                    say(
                        "%(tile)s is named twice: each tile is in the set once.",
                        tile=str(drawn_tile),
                    ),
                )
            drawn[seat] = drawn_tile
    except Refusal as refusal:
        return refuse(loaded, refusal, "lead", **keep)
    leader, tied = lead_winner(drawn)
    if leader is None:
        best = drawn[tied[0]].pips
        notice = languages.said(
            say(
                "%(players)s tie with %(pips)s pips: "
                "they draw again (put the tiles back and shuffle).",
                players=say_list([game.players[s] for s in tied]),
                pips=best,
            )
        )
        return render_table(table_view(loaded, notice=notice, lead_round=tied, lead_values={}))
    new_hand = _new_hand(game, leader, "draw")
    return commit(loaded, form.seen, [new_hand], "lead", **keep)
