"""A new game: the form (presets, house rules, seats, how the first leader is chosen) and
starting the game, on its own or in a club (the club's roster and defaults)."""

from __future__ import annotations

import random

from flask import (
    Response,
    g,
    redirect,
    render_template,
    request,
    url_for,
)

from scorekeeper.rules import (
    HOUSE_RULES,
    PRESETS,
    Event,
    NewHand,
    Refusal,
    Setup,
)
from scorekeeper.rules.options import HOUSE_RULES_BY_NAME, default_partners
from scorekeeper.rules.setup import MOST_PLAYERS, PARTNERS_PLAYERS
from scorekeeper.web import languages
from scorekeeper.web.data import clubs, games
from scorekeeper.web.data.clubs import RosterProblem
from scorekeeper.web.data.database import db
from scorekeeper.web.data.doors import remember
from scorekeeper.web.data.loaded import EDIT
from scorekeeper.web.data.models import ClubRow
from scorekeeper.web.htmx import Answer, is_htmx
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.routes import route
from scorekeeper.web.table.answers import (
    why_text,
)
from scorekeeper.web.table.blueprint import bp
from scorekeeper.web.table.forms import (
    SEATS,
    NewGameForm,
)

_rng = random.SystemRandom()
"""Draws by lot (the leader of a hand) from the operating system's randomness."""


def _fill_defaults(form: NewGameForm, preset: str, players: int) -> None:
    """Put the preset's house rules for ``players`` players into the form."""
    for rule in HOUSE_RULES:
        form[rule.name].data = rule.default(preset, players)
    form.partners.data = default_partners(preset, PARTNERS_PLAYERS)
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


_COUNTS = {str(count) for count in range(2, MOST_PLAYERS + 1)}


def _filled(form: NewGameForm) -> tuple[str, int]:
    preset, _, players = (form.filled.data or "").partition(":")
    if preset not in PRESETS or players not in _COUNTS:
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
    """Partners as the setup takes them: None for the preset's way. Only 4 players can play
    in partnership: with another number the box is not read while it is as the form was
    filled (All Fives ticks it); ticked by the scorekeeper, it is refused beside the box."""
    wanted = bool(form.partners.data)
    if players != PARTNERS_PLAYERS:
        filled_preset, _ = _filled(form)
        asked = wanted and wanted != default_partners(filled_preset, PARTNERS_PLAYERS)
        return True if asked else None
    return None if wanted == default_partners(preset, PARTNERS_PLAYERS) else wanted


@bp.route("/games/new", methods=["GET", "POST"])
@route(starts_games=True, game_form=True)
def new_game() -> Answer:
    """The new-game form; starting a game stores it and opens its table."""
    return new_game_page(None)


def _form_page(form: NewGameForm, status: int = 200, **context: object) -> tuple[str, int]:
    """The new-game form: the fragment for htmx, the page otherwise; with the club's roster
    when the form was started from a club (``g.club``)."""
    club = g.get("club")
    roster = [player.name for player in clubs.roster(club)] if club is not None else []
    template = "_new_game_form.html" if is_htmx() and request.method == "POST" else "new_game.html"
    page = render_template(template, form=form, club=club, roster=roster, **context)
    return page, status


def new_game_page(club: ClubRow | None) -> Answer:
    """The new-game form and its answers, for a game of its own or one of ``club``'s."""
    g.club = club
    form = NewGameForm()
    if request.method == "GET":
        return _blank_form(form, club)
    names_given = form.player_names()
    players = max(2, min(MOST_PLAYERS, len(names_given)))
    if form.load.data or request.form.get("load"):
        return _load_preset(form, players)
    if request.form.get("units_switched"):
        return _switch_units(form, players)
    _target_in_units(form, players)
    if not form.validate():
        return _new_game_refused(form, None)
    preset = form.preset.data
    partners = _partners(form, preset, players)
    if partners and players != PARTNERS_PLAYERS:
        form.partners.errors = [
            _(
                "Partners play only with 4 players (seats 1 and 3 against seats 2 and 4): "
                "untick Partners for %(count)s players.",
                count=players,
            )
        ]
        return _new_game_refused(form, None)
    try:
        setup = Setup.create(names_given, preset, _options(form, preset, players), partners)
    except Refusal as refusal:
        return _new_game_refused(form, languages.said(refusal.said))
    events: list[Event] = []
    # With lead: highest-double the table page asks who holds it, whatever was picked here.
    if form.leader.data == "random" and setup.rules.lead != "highest-double":
        events.append(NewHand(_rng.randrange(len(setup.players)), "lot"))
    if club is not None and form.club_defaults.data:
        club.defaults = {
            "preset": setup.preset,
            "options": dict(setup.options),
            "partners": setup.partners,
        }
    try:
        loaded = (
            games.create(setup, events) if club is None else clubs.start_game(club, setup, events)
        )
    except RosterProblem as problem:
        db.session.rollback()
        return _new_game_refused(form, why_text(problem))
    remember(loaded.row, EDIT)
    return _to_the_table(loaded.row.edit_key, form.leader.data)


def _blank_form(form: NewGameForm, club: ClubRow | None) -> tuple[str, int]:
    """The form as first shown: the preset asked for in the address (All Fives otherwise)
    with its defaults, or the club's own defaults when no preset was asked for."""
    preset = request.args.get("preset", "all-fives")
    if preset not in PRESETS:
        preset = "all-fives"
    form.preset.data = preset
    _fill_defaults(form, preset, 2)
    if club is not None and club.defaults and "preset" not in request.args:
        _fill_club_defaults(form, club.defaults)
    return _form_page(form)


def _to_the_table(edit_key: str, leader: str | None) -> Answer:
    """Off to the new game's table page: htmx follows HX-Redirect, a plain form post a 303."""
    # The table page opens the way chosen here: the draw for the lead, or the players' buttons.
    if leader in ("draw", "table"):
        target = url_for("games.table", key=edit_key, lead=leader)
    else:
        target = url_for("games.table", key=edit_key)
    if is_htmx():
        response = Response("", 200)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, code=303)


def _load_preset(submitted: NewGameForm, players: int) -> tuple[str, int]:
    """The form again with the chosen preset's defaults, keeping the names typed."""
    preset = submitted.preset.data if submitted.preset.data in PRESETS else "all-fives"
    form = NewGameForm(formdata=None)
    for name in SEATS:
        form[name].data = submitted[name].data
    form.preset.data = preset
    _fill_defaults(form, preset, players)
    # The set goes with the seats, not with the preset: the table's dominoes stay chosen.
    if submitted["set"].data in HOUSE_RULES_BY_NAME["set"].choices:
        form["set"].data = submitted["set"].data
    return _form_page(form)


FIVES_TARGET = 61
"""The target a game in fives is offered: a cribbage board's 61 holes."""


def _points_target(form: NewGameForm, players: int) -> int:
    preset = form.preset.data if form.preset.data in PRESETS else "all-fives"
    return int(HOUSE_RULES_BY_NAME["target"].default(preset, players))


def _switch_units(form: NewGameForm, players: int) -> tuple[str, int]:
    """The form again after the units were switched, everything kept but the target, which
    follows the units: 61 in fives, the preset's target in points."""
    fives = form["units"].data == "fives"
    target = FIVES_TARGET if fives else _points_target(form, players)
    form.target.data, form.target.raw_data = target, [str(target)]  # shown as switched
    return _form_page(form)


def _target_in_units(form: NewGameForm, players: int) -> None:
    """Without JavaScript the target is not switched with the units: a target left at the
    preset's points while fives were chosen becomes 61, as the switch would have made it."""
    preset, filled_players = _filled(form)
    points = HOUSE_RULES_BY_NAME["target"].default(preset, filled_players)
    in_fives = form["units"].data == "fives"
    if in_fives and form.target.data in (points, _points_target(form, players)):
        form.target.data = FIVES_TARGET


def _new_game_refused(form: NewGameForm, message: str | None) -> tuple[str, int]:
    return _form_page(form, 422, refusal=message)
