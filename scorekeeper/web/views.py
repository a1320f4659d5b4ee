"""The pages: the games list, a new game, the table and its entries, import and export.

Every entry view reads its form, lets the store apply it under a lock (the referee decides),
and answers with the table: the partial for htmx, otherwise a redirect after a success and
the full page for a refusal (422), a stale page (409) or an incomplete form (400).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import cast

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    flash,
    g,
    get_flashed_messages,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.rules import (
    HOUSE_RULES,
    PRESETS,
    Draw,
    Event,
    Game,
    Held,
    LeadWay,
    MalformedInput,
    NewHand,
    Pass,
    Play,
    RecordRefusal,
    Refusal,
    Settle,
    Setup,
    Tile,
    parse_halves,
    parse_tile,
    tile,
)
from scorekeeper.rules.entering import CannotTurn, lead_winner, parse_held
from scorekeeper.rules.messages import Message, said_list, say
from scorekeeper.rules.options import HOUSE_RULES_BY_NAME, default_partners
from scorekeeper.rules.record import load_record, write_record
from scorekeeper.web import languages, store
from scorekeeper.web.access import DOORS, NO_GAME, forget, load_or_404, my_games, remember
from scorekeeper.web.clubs import keeping
from scorekeeper.web.clubs.keeping import RosterProblem
from scorekeeper.web.clubs.remembered import my_clubs
from scorekeeper.web.deleting import recently_deleted
from scorekeeper.web.extensions import db
from scorekeeper.web.forms import (
    HOUSE_RULE_FIELDS,
    EntryForm,
    ForgetForm,
    ImportForm,
    LeadForm,
    NewGameForm,
    PlayForm,
    SettleForm,
    TurnForm,
)
from scorekeeper.web.held import MAX_TICKED, held_of
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.loaded import EDIT, Loaded
from scorekeeper.web.models import ClubRow
from scorekeeper.web.store import (
    NotFound,
    NothingToRedo,
    Stale,
    download_name,
)
from scorekeeper.web.table import Refused, TableView, Where, table_view, undo_label

bp = Blueprint("games", __name__)

STALE = _l("The table had changed: nothing was entered. This is the table as it is now.")
ENTERED = "entered"
"""The flash category that tells the page after a redirect that it follows a stored entry."""
INCOMPLETE = _l("The form was incomplete or out of date: nothing was entered.")
STALE_REDO = _l(
    "Nothing was redone: an entry was made after the undo, so the undone entry cannot be "
    "brought back (it stays in the log). This is the table as it is now."
)
_rng = random.SystemRandom()

Answer = tuple[str, int] | BaseResponse


def _why(error: Exception) -> str:
    """Why, as an exception says it, in the reader's language (its ``said`` message when it
    has one, else its message)."""
    message = getattr(error, "said", None)
    if isinstance(message, Message):
        return languages.say(message)
    return languages.say(error.args[0]) if error.args else str(error)


def is_htmx() -> bool:
    """Whether htmx sent the request (and wants a fragment, not a page)."""
    return request.headers.get("HX-Request") == "true"


def _load(key: str) -> Loaded:
    return load_or_404(key, EDIT)


def render_table(view: TableView, status: int = 200) -> tuple[str, int]:
    """The table: the partial for htmx, the whole page otherwise."""
    if view.notice is None:
        # With categories Flask gives (category, message) pairs; its annotation is the union
        # of both forms, so say which one this is.
        flashed = cast(list[tuple[str, str]], get_flashed_messages(with_categories=True))
        texts = [text for category, text in flashed if category != ENTERED]
        view.notice = " ".join(texts) if texts else None
        view.entered = view.entered or len(texts) < len(flashed)
    template = "_table.html" if is_htmx() else "game.html"
    return render_template(template, t=view), status


def _view(loaded: Loaded, **kwargs: object) -> TableView:
    return table_view(loaded, **kwargs)


def _done(loaded: Loaded, notice: str | None = None, entered: bool = False) -> Answer:
    """After a stored entry: the new table for htmx; otherwise redirect to it (POST-redirect-GET).

    After an ``entered`` entry (one more event, not an undo) the page flashes what it scored,
    and the redirect scrolls to the settlement or the winner it made.
    """
    view = _view(loaded, notice=notice, entered=entered)
    if is_htmx():
        return render_table(view)
    if notice:
        flash(notice)
    anchor = None
    if entered:
        flash("", ENTERED)
        anchor = view.bring_into_view
    return redirect(url_for("games.table", key=loaded.row.edit_key, _anchor=anchor), code=303)


def _commit(
    loaded: Loaded, version: int, events: Sequence[Event], where: Where, **keep: object
) -> Answer:
    """Store ``events`` in the game ``loaded`` (just read) at ``version``; answer the stale
    page, the refusal or the success. A refusal is found before anything is written, so the
    game it is shown on is ``loaded`` itself when that is the version the page saw."""
    key = loaded.row.edit_key
    try:
        after = store.append(key, version, events, loaded.row)
    except NotFound:
        abort(404, description=NO_GAME)
    except Stale:
        return render_table(_view(_load(key), notice=STALE, notice_kind="stale"), 409)
    except Refusal as refusal:
        return _refuse(loaded if loaded.version == version else _load(key), refusal, where, **keep)
    return _done(after, entered=True)


def _incomplete(loaded: Loaded) -> tuple[str, int]:
    return render_table(_view(loaded, notice=INCOMPLETE, notice_kind="stale"), 400)


def _refuse(loaded: Loaded, refusal: Refusal, where: Where, **keep: object) -> tuple[str, int]:
    return render_table(
        _view(loaded, refused=Refused(refusal.rule, refusal.said, where), **keep), 422
    )


def _stale_or_none(loaded: Loaded, version: int) -> tuple[str, int] | None:
    if version != loaded.version:
        return render_table(_view(loaded, notice=STALE, notice_kind="stale"), 409)
    return None


# -- the games list and the table ----------------------------------------------------------


@bp.get("/")
def index() -> str:
    """This browser's games: those in progress and those finished (never anyone else's)."""
    games = my_games()
    playing = [(door, g) for door, g in games if g.status != "over"]
    finished = [(door, g) for door, g in games if g.status == "over"]
    return render_template(
        "index.html",
        playing=playing,
        finished=finished,
        deleted=recently_deleted(),
        clubs=my_clubs(),
    )


@bp.post("/my-games/forget")
def forget_game() -> Answer:
    """Forget a game on this browser (the game itself stays; its links still work)."""
    form = ForgetForm()
    if form.validate() and forget(form.key.data or ""):
        flash(_("Forgotten on this browser. Its links still open the game."))
    return redirect(url_for("games.index"), code=303)


@bp.get("/games/<key:key>")
def table(key: str) -> tuple[str, int]:
    """The table of a game: scoreboard, layout, tile picker and the entry buttons."""
    loaded = _load(key)
    remember(loaded.row, EDIT)
    how = request.args.get("lead")
    return render_table(_view(loaded, open_draw=how == "draw", open_choice=how == "table"))


# -- entries -------------------------------------------------------------------------------


@bp.post("/games/<key:key>/play")
def play(key: str) -> Answer:
    """Play a tile: on the end named, on the only end it fits, or select it to choose an end."""
    loaded = _load(key)
    form = PlayForm()
    if not form.validate():
        return _incomplete(loaded)
    try:
        chosen = tile(*parse_halves(form.tile.data))
    except MalformedInput as refusal:
        return _refuse(loaded, refusal, "picker")
    stale = _stale_or_none(loaded, form.seen)
    if stale is not None:
        return stale
    game, hand = loaded.game, loaded.game.hand
    end = form.end.data or None
    if (
        end is None
        and game.phase == "play"
        and hand is not None
        and hand.plays
        and chosen not in hand.layout.on_table
        and len(game.fits(chosen)) > 1
    ):
        return render_table(_view(loaded, selected=chosen))
    seat = hand.turn if hand is not None else 0
    return _commit(loaded, form.seen, [Play(seat, chosen, end)], "picker")


@bp.post("/games/<key:key>/turn")
def turn_lead(key: str) -> Answer:
    """Turn the lead tile round (which half faces W), until the hand's second tile is played."""
    loaded = _load(key)
    form = TurnForm()
    if not form.validate():
        return _incomplete(loaded)
    try:
        after = store.turn_lead(key, form.seen, form.west_wanted)
    except NotFound:
        abort(404, description=NO_GAME)
    except Stale:
        return render_table(_view(_load(key), notice=STALE, notice_kind="stale"), 409)
    except CannotTurn as why:
        notice = _("%(why)s Nothing was changed.", why=_why(why))
        return render_table(_view(_load(key), notice=notice, notice_kind="refused"), 422)
    except Refusal as refusal:
        return _refuse(_load(key), refusal, "picker")
    layout = after.game.hand.layout if after.game.hand else None
    assert layout is not None and layout.lead is not None
    west, east = layout.arms["W"].base, layout.arms["E"].base
    return _done(
        after,
        _(
            "Turned round: the lead %(tile)s shows %(west)s on W, %(east)s on E.",
            tile=str(layout.lead.tile),
            west=west,
            east=east,
        ),
    )


def _by_player_to_play(key: str, event: Callable[[int], Event]) -> Answer:
    """Enter ``event(seat)`` for the player whose turn it is (a draw or a pass)."""
    loaded = _load(key)
    form = EntryForm()
    if not form.validate():
        return _incomplete(loaded)
    hand = loaded.game.hand
    seat = hand.turn if hand is not None else 0
    return _commit(loaded, form.seen, [event(seat)], "actions")


@bp.post("/games/<key:key>/draw")
def draw(key: str) -> Answer:
    """The player to play draws one tile from the boneyard."""
    return _by_player_to_play(key, lambda seat: Draw(seat, 1))


@bp.post("/games/<key:key>/pass")
def pass_turn(key: str) -> Answer:
    """The player to play passes: they cannot play and nothing can be drawn."""
    return _by_player_to_play(key, Pass)


@bp.post("/games/<key:key>/undo")
def undo(key: str) -> Answer:
    """Undo the last entry (a settlement together with the hand it began)."""
    loaded = _load(key)
    form = EntryForm()
    if not form.validate():
        return _incomplete(loaded)
    stale = _stale_or_none(loaded, form.seen)
    if stale is not None:
        return stale
    label = _view(loaded).undo_label
    try:
        after, undone = store.undo(key, form.seen)
    except Stale:
        return render_table(_view(_load(key), notice=STALE, notice_kind="stale"), 409)
    if undone and label:
        notice = _("Undone: %(entry)s.", entry=languages.say(label))
    else:
        notice = _("There is nothing to undo.")
    return _done(after, notice)


@bp.post("/games/<key:key>/redo")
def redo(key: str) -> Answer:
    """Bring back the entry undone last, while nothing has been entered since the undo."""
    loaded = _load(key)
    form = EntryForm()
    if not form.validate():
        return _incomplete(loaded)
    try:
        after, redone = store.redo(key, form.seen)
    except NotFound:
        abort(404, description=NO_GAME)
    except Stale:
        now = _load(key)
        why_stale = STALE if now.row.redoable else STALE_REDO
        return render_table(_view(now, notice=why_stale, notice_kind="stale"), 409)
    except NothingToRedo as why:
        return render_table(_view(_load(key), notice=_why(why), notice_kind="stale"), 409)
    except Refusal as refusal:
        return _refuse(_load(key), refusal, "undo")
    label = undo_label(after.game)
    notice = _("Redone: %(entry)s.", entry=languages.say(label)) if redone and label else None
    return _done(after, notice, entered=True)


@bp.post("/games/<key:key>/settle")
def settle(key: str) -> Answer:
    """Settle a finished hand from what each player still holds (checked by rule remaining)."""
    loaded = _load(key)
    form = SettleForm()
    if not form.validate():
        return _incomplete(loaded)
    players = loaded.game.players
    seats = range(len(players))
    values = {seat: request.form.get(f"held-{seat}", "")[:200] for seat in seats}
    ticks = {seat: request.form.getlist(f"tiles-{seat}")[:MAX_TICKED] for seat in seats}
    keep = {"settle_values": values, "settle_ticks": {s: tuple(v) for s, v in ticks.items() if v}}
    remaining: dict[int, Held] = {}
    try:
        for seat, text in values.items():
            held = held_of(players[seat], text, ticks[seat])
            if held is not None:
                remaining[seat] = held
    except Refusal as refusal:
        return _refuse(loaded, refusal, "settle", **keep)
    return _commit(loaded, form.seen, [Settle(remaining)], "settle", **keep)


@bp.post("/games/<key:key>/lead")
def lead(key: str) -> Answer:
    """Choose who leads the next hand: a seat, at random, or by each player drawing a tile."""
    loaded = _load(key)
    form = LeadForm()
    if not form.validate():
        return _incomplete(loaded)
    stale = _stale_or_none(loaded, form.seen)
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
    else:
        return _incomplete(loaded)
    return _commit(loaded, form.seen, [_new_hand(game, leader, chosen)], "lead")


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
            drawn_tile = parse_tile(values[seat])
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
        return _refuse(loaded, refusal, "lead", **keep)
    leader, tied = lead_winner(drawn)
    if leader is None:
        best = drawn[tied[0]].pips
        notice = languages.say(
            say(
                "%(players)s tie with %(pips)s pips: "
                "they draw again (put the tiles back and shuffle).",
                players=said_list([game.players[s] for s in tied]),
                pips=best,
            )
        )
        return render_table(_view(loaded, notice=notice, lead_round=tied, lead_values={}))
    new_hand = _new_hand(game, leader, "draw")
    return _commit(loaded, form.seen, [new_hand], "lead", **keep)


# -- a new game ------------------------------------------------------------------------------


def _fill_defaults(form: NewGameForm, preset: str, players: int) -> None:
    """Put the preset's house rules for ``players`` players into the form."""
    for rule in HOUSE_RULES:
        form[rule.name].data = rule.default(preset, players)
    form.partners.data = default_partners(preset, 4)
    lead_rule = next(rule for rule in HOUSE_RULES if rule.name == "lead")
    by_draw = lead_rule.default(preset, players) == "draw-highest"
    form.leader.data = "draw" if by_draw else "random"
    form.filled.data = f"{preset}:{players}"


def _fill_club_defaults(form: NewGameForm, defaults: dict[str, object]) -> None:
    """Put a club's default preset and house rules into the form (for two players, as the
    form starts; the target then follows the number of seats like any other default)."""
    preset = defaults.get("preset")
    if not isinstance(preset, str) or preset not in PRESETS:
        return
    form.preset.data = preset
    _fill_defaults(form, preset, 2)
    options = defaults.get("options")
    for name, value in (options if isinstance(options, dict) else {}).items():
        if name in HOUSE_RULES_BY_NAME:
            form[name].data = value
    partners = defaults.get("partners")
    if isinstance(partners, bool):
        form.partners.data = partners
    form.club_defaults.data = True


def _filled(form: NewGameForm) -> tuple[str, int]:
    preset, _, players = (form.filled.data or "").partition(":")
    if preset not in PRESETS or players not in {"2", "3", "4"}:
        return "all-fives", 2
    return preset, int(players)


def _options(form: NewGameForm, preset: str, players: int) -> dict[str, object]:
    """House rules that differ from the preset; a field left at the defaults it was filled
    with follows the chosen preset and number of players."""
    old_preset, old_players = _filled(form)
    options: dict[str, object] = {}
    for rule in HOUSE_RULES:
        value = form[rule.name].data
        if value == rule.default(old_preset, old_players):
            continue
        if value != rule.default(preset, players):
            options[rule.name] = value
    return options


def _partners(form: NewGameForm, preset: str, players: int) -> bool | None:
    if players != 4:
        return None
    wanted = bool(form.partners.data)
    return None if wanted == default_partners(preset, 4) else wanted


@bp.route("/games/new", methods=["GET", "POST"])
def new_game() -> Answer:
    """The new-game form; starting a game stores it and opens its table."""
    return new_game_page(None)


def _form_page(form: NewGameForm, status: int = 200, **context: object) -> tuple[str, int]:
    """The new-game form: the fragment for htmx, the page otherwise; with the club's roster
    when the form was started from a club (``g.club``)."""
    club = g.get("club")
    roster = [player.name for player in keeping.roster(club)] if club is not None else []
    template = "_new_game_form.html" if is_htmx() and request.method == "POST" else "new_game.html"
    page = render_template(template, form=form, club=club, roster=roster, **context)
    return page, status


def new_game_page(club: ClubRow | None) -> Answer:
    """The new-game form and its answers, for a game of its own or one of ``club``'s."""
    g.club = club
    form = NewGameForm()
    if request.method == "GET":
        preset = request.args.get("preset", "all-fives")
        if preset not in PRESETS:
            preset = "all-fives"
        form.preset.data = preset
        _fill_defaults(form, preset, 2)
        if club is not None and club.defaults and "preset" not in request.args:
            _fill_club_defaults(form, club.defaults)
        return _form_page(form)
    names_given = form.player_names()
    players = max(2, min(4, len(names_given)))
    if form.load.data or request.form.get("load"):
        return _load_preset(form, players)
    if request.form.get("units_switched"):
        return _switch_units(form, players)
    _target_in_units(form, players)
    if not form.validate():
        return _new_game_refused(form, None)
    preset = form.preset.data
    try:
        setup = Setup.create(
            names_given, preset, _options(form, preset, players), _partners(form, preset, players)
        )
    except Refusal as refusal:
        return _new_game_refused(form, languages.say(refusal.said))
    events: list[Event] = []
    if form.leader.data == "random":
        events.append(NewHand(_rng.randrange(len(setup.players)), "lot"))
    if club is not None and form.club_defaults.data:
        club.defaults = {
            "preset": setup.preset,
            "options": dict(setup.options),
            "partners": setup.partners,
        }
    try:
        loaded = (
            store.create(setup, events) if club is None else keeping.start_game(club, setup, events)
        )
    except RosterProblem as problem:
        db.session.rollback()
        return _new_game_refused(form, _why(problem))
    remember(loaded.row, EDIT)
    # The table page opens the way chosen here: the draw for the lead, or the players' buttons.
    extra = {"lead": form.leader.data} if form.leader.data in ("draw", "table") else {}
    target = url_for("games.table", key=loaded.row.edit_key, **extra)
    if is_htmx():
        response = Response("", 200)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, code=303)


def _load_preset(submitted: NewGameForm, players: int) -> tuple[str, int]:
    """The form again with the chosen preset's defaults, keeping the names typed."""
    preset = submitted.preset.data if submitted.preset.data in PRESETS else "all-fives"
    form = NewGameForm(formdata=None)
    for name in ("player1", "player2", "player3", "player4"):
        form[name].data = submitted[name].data
    form.preset.data = preset
    _fill_defaults(form, preset, players)
    return _form_page(form)


FIVES_TARGET = 61
"""The target a game in fives is offered: a cribbage board's 61 holes."""


def _points_target(form: NewGameForm, players: int) -> int:
    preset = form.preset.data if form.preset.data in PRESETS else "all-fives"
    return int(HOUSE_RULES_BY_NAME["target"].default(preset, players))


def _switch_units(form: NewGameForm, players: int) -> tuple[str, int]:
    """The form again after the units were switched, everything kept but the target, which
    follows the units: 61 in fives, the preset's target in points."""
    fives = form.units.data == "fives"
    target = FIVES_TARGET if fives else _points_target(form, players)
    form.target.data, form.target.raw_data = target, [str(target)]  # shown as switched
    return _form_page(form)


def _target_in_units(form: NewGameForm, players: int) -> None:
    """Without JavaScript the target is not switched with the units: a target left at the
    preset's points while fives were chosen becomes 61, as the switch would have made it."""
    preset, filled_players = _filled(form)
    points = HOUSE_RULES_BY_NAME["target"].default(preset, filled_players)
    if form.units.data == "fives" and form.target.data in (points, _points_target(form, players)):
        form.target.data = FIVES_TARGET


def _new_game_refused(form: NewGameForm, message: str | None) -> tuple[str, int]:
    return _form_page(form, 422, refusal=message)


# -- import and export ---------------------------------------------------------------------


@bp.get(f"/{DOORS}/<key:key>/record.json")
def record(door: str, key: str) -> Response:
    """Download the game as an all-fives/1 record (behind either door)."""
    loaded = load_or_404(key, door)
    body = json.dumps(write_record(loaded.game), indent=2, ensure_ascii=False) + "\n"
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{download_name(loaded.row)}.json"'
    )
    return response


@bp.route("/games/import", methods=["GET", "POST"])
def import_game() -> Answer:
    """Create a game from an all-fives/1 record, or show why the record is refused."""
    form = ImportForm()
    if request.method == "GET":
        return render_template("import.html", form=form), 200
    if not form.validate():
        return render_template("import.html", form=form, problem=INCOMPLETE), 400
    upload = form.record.data
    data: bytes | str = upload.read() if upload else b""
    if not data:
        data = form.text.data or ""
    if not data.strip():
        problem = _("Choose a record file or paste a record: nothing was imported.")
        return render_template("import.html", form=form, problem=problem), 422
    try:
        game = load_record(data, unsettled_last_hand=True)
    except RecordRefusal as refusal:
        return render_template("import.html", form=form, refusal=refusal), 422
    loaded = store.create(game.setup, game.events)
    remember(loaded.row, EDIT)
    flash(languages.say(say("Imported: %(players)s.", players=said_list(list(game.players)))))
    return redirect(url_for("games.table", key=loaded.row.edit_key), code=303)


def _vary(response: BaseResponse) -> BaseResponse:
    """Pages and fragments differ by HX-Request: say so to caches."""
    response.vary.add("HX-Request")
    return response


def init_app(app: Flask) -> None:
    """Register the pages."""
    app.register_blueprint(bp)
    app.after_request(_vary)


__all__ = ["HOUSE_RULE_FIELDS", "bp", "init_app", "parse_held"]
