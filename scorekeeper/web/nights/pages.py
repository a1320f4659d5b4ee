"""The night pages, under the club's edit link: opening a night, the director's night page,
each round's sheet (seats, links, QR codes), the standings (printable, and as CSV).

Every page of a night needs the club's edit link: a table's edit link or the club's watch link
in its place is refused with a page that says which link is needed (the table's own link
opens its game, as ever). A night number the club does not have is a 404. Every change is a
form with its CSRF token; a refused change says why and changes nothing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import segno
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup

from scorekeeper.rules import HOUSE_RULES, PRESETS, Refusal, Setup
from scorekeeper.rules.nights.format import NightFormat, TableSize
from scorekeeper.rules.nights.seating import Seating, sides_of
from scorekeeper.rules.nights.standings import NightStanding, flat, match_result
from scorekeeper.rules.options import HOUSE_RULES_BY_NAME
from scorekeeper.web import languages
from scorekeeper.web.data import clubs, games, nights
from scorekeeper.web.data.club_doors import remember_club
from scorekeeper.web.data.clubs import CLUB_EDIT, CLUB_WATCH, ClubDoor, ClubNotFound
from scorekeeper.web.data.models import ClubRow
from scorekeeper.web.data.night_models import NightRoundRow, NightRow
from scorekeeper.web.data.night_records import STANDING_FIELDS
from scorekeeper.web.data.nights import NightNotFound, NightProblem, Unfinished
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.nights.forms import (
    ButtonForm,
    LeaveForm,
    NightForm,
    SeatForm,
    SwapForm,
    WalkInForm,
)
from scorekeeper.web.routes import route

bp = Blueprint("nights", __name__)


@bp.context_processor
def _figures() -> dict[str, Any]:
    """The night's figures in the reader's digits, on every page of the blueprint."""
    return {"figure": languages.number}


NO_NIGHT = _l("This club has no such night.")
INCOMPLETE = _l("The form was incomplete or out of date: nothing was changed.")


# -- the door ---------------------------------------------------------------------------------


def _refused(message: str, status: int) -> Response:
    page = render_template("nights/refused.html", message=message)
    return Response(page, status=status)


def _door(key: str) -> ClubDoor:
    """The club behind its edit link; any other link is refused with a page saying so."""
    try:
        return clubs.find_club(key, CLUB_EDIT)
    except ClubNotFound:
        pass
    try:
        clubs.find_club(key, CLUB_WATCH)
    except ClubNotFound:
        pass
    else:
        if request.method != "GET":
            # A change sent through a watch link is answered as the club's own pages answer
            # it: as if no club had that key (tests/web/test_doors.py).
            abort(404)
        abort(
            _refused(
                _(
                    "This is the club's watch link: a night's pages open with the club's edit "
                    "link, which only the director needs."
                ),
                403,
            )
        )
    try:
        games.find(key)
    except games.NotFound:
        abort(404)
    abort(
        _refused(
            _(
                "This is a table's edit link: it opens that table's game, not the night. "
                "The night's pages open with the club's edit link."
            ),
            403,
        )
    )


def _night(key: str, night_id: int) -> tuple[ClubDoor, NightRow]:
    door = _door(key)
    try:
        return door, nights.find_night(door.club, night_id)
    except NightNotFound:
        abort(404, description=str(NO_NIGHT))


def _round(night: NightRow, number: int) -> NightRoundRow:
    try:
        return nights.round_row(night, number)
    except NightNotFound:
        abort(404, description=str(NO_NIGHT))


def _night_url(night: NightRow, club: ClubRow, **values: Any) -> str:
    return url_for("nights.night", key=club.edit_key, night_id=night.id, **values)


def _round_url(night: NightRow, club: ClubRow, number: int) -> str:
    return url_for("nights.round_page", key=club.edit_key, night_id=night.id, number=number)


# -- opening a night --------------------------------------------------------------------------


def _fill(form: NightForm, club: ClubRow, preset: str, size: int, club_rules: bool) -> None:
    """The preset's house rules for tables of ``size`` (the club's own on top, when asked).
    What was typed is forgotten: a number field shows what it was sent before its data."""
    for field in [form.target, *form.rule_fields]:
        field.raw_data = None  # type: ignore[attr-defined]
    for rule in HOUSE_RULES:
        value = rule.default(preset, size)
        if rule.name == "target":
            form.target.data = value  # type: ignore[assignment]
        else:
            form[rule.name].data = value
    defaults = club.defaults or {}
    if club_rules and defaults.get("preset") == preset:
        options = defaults.get("options")
        for name, value in (options if isinstance(options, dict) else {}).items():
            if name == "target":
                form.target.data = value
            elif name in HOUSE_RULES_BY_NAME:
                form[name].data = value


def _options(form: NightForm, preset: str, size: int) -> dict[str, object]:
    """The house rules that differ from the preset's for a table of ``size``."""
    options: dict[str, object] = {}
    for rule in HOUSE_RULES:
        value = form.target.data if rule.name == "target" else form[rule.name].data
        if value != rule.default(preset, size):
            options[rule.name] = value
    return options


def _playable(night: NightFormat, preset: str, options: dict[str, object]) -> str | None:
    """Why some table of the night could not play these house rules, or None: every size of
    table the night can seat is tried."""
    sizes = {2: (2,), 3: (2, 3, 4), 4: (2, 3, 4)}[night.table_size]
    for size in sizes:
        partners = night.partners if size == 4 else None
        try:
            Setup.create([f"P{n}" for n in range(size)], preset, dict(options), partners)
        except Refusal as refusal:
            return languages.said(refusal.said)
    return None


def _new_page(
    door: ClubDoor, form: NightForm, status: int = 200, problem: str | None = None
) -> Answer:
    page = render_template("nights/new.html", door=door, club=door.club, form=form, problem=problem)
    return page, status


@bp.route("/clubs/<key:key>/nights/new", methods=["GET", "POST"])
def new_night(key: str) -> Answer:
    """The director's form: who is here, the format, the house rules; opening the night."""
    door = _door(key)
    club = door.club
    remember_club(door)
    form = NightForm()
    form.present.choices = [(p.id, p.name) for p in clubs.roster(club)]
    if request.method == "GET":
        defaults = club.defaults or {}
        preset = defaults.get("preset") if defaults.get("preset") in PRESETS else PRESETS[0]
        form.preset.data = str(preset)
        _fill(form, club, str(preset), 4, club_rules=True)
        return _new_page(door, form)
    preset = form.preset.data if form.preset.data in PRESETS else PRESETS[0]
    size = form.table_size.data if form.table_size.data in (2, 3, 4) else 4
    if form.load.data:
        _fill(form, club, preset, size, club_rules=False)
        return _new_page(door, form)
    if not form.validate():
        return _new_page(door, form, 422)
    night = NightFormat(
        table_size=size,  # type: ignore[arg-type]
        rounds=form.rounds.data or 1,
        minutes=form.minutes.data or 30,
        match=form.match.data,
        at_limit=form.at_limit.data,
        tie_breaks=form.tie_breaks,
    )
    options = _options(form, preset, size)
    problem = _playable(night, preset, options)
    if problem is not None:
        return _new_page(door, form, 422, problem)
    names = {p.id: p.name for p in clubs.roster(club)}
    present = [names[i] for i in form.present.data or [] if i in names]
    if form.walk_in.data:
        present.append(form.walk_in.data)
    try:
        row = nights.open_night(club, night, preset, options, present)
    except NightProblem as refused:
        return _new_page(door, form, 422, languages.said(refused.said))
    flash(
        languages.ngettext(
            "The night is open with %(num)d player. Seat round 1 when everyone is here.",
            "The night is open with %(num)d players. Seat round 1 when everyone is here.",
            len(row.players),
        )
    )
    return redirect(_night_url(row, club), code=303)


# -- the night page ---------------------------------------------------------------------------


def _night_page(
    door: ClubDoor, night: NightRow, status: int = 200, problem: str | None = None
) -> Answer:
    club = door.club
    remember_club(door)
    groups = nights.standings(night)
    waiting = nights.waiting_round(night)
    started = nights.started_rounds(night)
    fmt = nights.night_format(night)
    playing = nights.round_tables(started[-1], night) if started else []
    unfinished = [t for t in playing if not match_result(t.played, fmt).over]
    page = render_template(
        "nights/night.html",
        door=door,
        club=club,
        night=night,
        fmt=fmt,
        lines=flat(groups),
        playing=playing,
        waiting=waiting,
        started=started,
        unfinished=unfinished,
        next_round=len(night.round_rows) + 1,
        next_to_seat=len(started) + 1,
        problem=problem,
        rules=_rules_text(night),
        night_url=_night_url,
        round_url=_round_url,
    )
    return page, status


def _rules_text(night: NightRow) -> str:
    changed = [f"{name} {value}" for name, value in (night.options or {}).items()]
    if not changed:
        return night.preset
    return _("%(preset)s with %(changes)s", preset=night.preset, changes=", ".join(changed))


@bp.get("/clubs/<key:key>/nights/<int:night_id>")
def night(key: str, night_id: int) -> Answer:
    """The director's page: the night's players, rounds and standings, and what comes next."""
    door, row = _night(key, night_id)
    return _night_page(door, row)


@bp.post("/clubs/<key:key>/nights/<int:night_id>/walk-in")
def walk_in(key: str, night_id: int) -> Answer:
    """A player who arrives: seated from the next round."""
    door, row = _night(key, night_id)
    form = WalkInForm()
    if not form.validate():
        return _night_page(door, row, 422, _form_problem(form))
    try:
        joins = nights.add_walk_in(row, door.club, form.name.data or "")
    except NightProblem as refused:
        return _night_page(door, row, 422, _unchanged(languages.said(refused.said)))
    flash(_("%(name)s plays from round %(round)s.", name=row.players[-1].name, round=joins))
    return redirect(_night_url(row, door.club), code=303)


@bp.post("/clubs/<key:key>/nights/<int:night_id>/leave")
def leave(key: str, night_id: int) -> Answer:
    """A player who goes home: not seated from the next round."""
    door, row = _night(key, night_id)
    form = LeaveForm()
    if not form.validate():
        return _night_page(door, row, 422, str(INCOMPLETE))
    try:
        name, first = nights.leave(row, form.player.data or 0)
    except NightProblem as refused:
        return _night_page(door, row, 422, _unchanged(languages.said(refused.said)))
    flash(
        _(
            "%(name)s is not seated from round %(round)s on. A table of theirs still playing "
            "ends when you end it on its round's page.",
            name=name,
            round=first,
        )
    )
    return redirect(_night_url(row, door.club), code=303)


@bp.post("/clubs/<key:key>/nights/<int:night_id>/rounds")
def seat_round(key: str, night_id: int) -> Answer:
    """Seat the next round; the last round's unfinished tables are the director's call."""
    door, row = _night(key, night_id)
    form = SeatForm()
    if not form.validate():
        return _night_page(door, row, 422, str(INCOMPLETE))
    try:
        seated = nights.seat_next_round(row, end_unfinished=bool(form.end.data))
    except Unfinished as waiting:
        page = render_template(
            "nights/unfinished.html",
            door=door,
            club=door.club,
            night=row,
            tables=waiting.tables,
            night_url=_night_url,
            round_url=_round_url,
        )
        return page, 409
    except NightProblem as refused:
        return _night_page(door, row, 409, _unchanged(languages.said(refused.said)))
    if form.end.data:
        flash(_("The last round's unfinished tables ended as they stood."))
    flash(_("Round %(round)s is seated: check the seats, then start it.", round=seated.number))
    return redirect(_round_url(row, door.club, seated.number), code=303)


# -- a round ----------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def table_qr(link: str, label: str) -> Markup:
    """A table's edit link as a QR code, inline SVG drawn here (no network), for the sheet."""
    code = segno.make(link, error="m")
    svg = code.svg_inline(
        scale=1, border=4, omitsize=True, svgclass="qr-code", lineclass=None, title=label
    )
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))


def _round_page(
    door: ClubDoor,
    night: NightRow,
    row: NightRoundRow,
    status: int = 200,
    problem: str | None = None,
) -> Answer:
    club = door.club
    fmt = nights.night_format(night)
    seating = Seating.from_json(row.seats)
    tables = nights.round_tables(row, night) if row.started_at else []
    results = [match_result(t.played, fmt) for t in tables]
    page = render_template(
        "nights/round.html",
        door=door,
        club=club,
        night=night,
        fmt=fmt,
        round=row,
        seating=seating,
        sides=[sides_of(t, fmt.partners) for t in seating.tables],
        tables=tables,
        results=results,
        problem=problem,
        qr=table_qr,
        night_url=_night_url,
        round_url=_round_url,
    )
    return page, status


@bp.get("/clubs/<key:key>/nights/<int:night_id>/rounds/<int:number>")
def round_page(key: str, night_id: int, number: int) -> Answer:
    """A round's sheet: each table's seats and, once started, its link and QR code."""
    door, row = _night(key, night_id)
    return _round_page(door, row, _round(row, number))


@bp.post("/clubs/<key:key>/nights/<int:night_id>/rounds/<int:number>/swap")
def swap(key: str, night_id: int, number: int) -> Answer:
    """Exchange two seats of a round not started."""
    door, row = _night(key, night_id)
    seated = _round(row, number)
    form = SwapForm()
    if not form.validate():
        return _round_page(door, row, seated, 422, str(INCOMPLETE))
    one, other = form.one.data or "", form.other.data or ""
    try:
        nights.swap_seats(row, number, one, other)
    except NightProblem as refused:
        return _round_page(door, row, seated, 409, _unchanged(languages.said(refused.said)))
    flash(_("%(one)s and %(other)s swapped seats.", one=one, other=other))
    return redirect(_round_url(row, door.club, number), code=303)


@bp.post("/clubs/<key:key>/nights/<int:night_id>/rounds/<int:number>/start")
@route(starts_games=True)
def start(key: str, night_id: int, number: int) -> Answer:
    """Start the round: a game of the club for every table."""
    door, row = _night(key, night_id)
    seated = _round(row, number)
    if not ButtonForm().validate():
        return _round_page(door, row, seated, 422, str(INCOMPLETE))
    try:
        tables = nights.start_round(row, door.club, number)
    except NightProblem as refused:
        return _round_page(door, row, seated, 409, _unchanged(languages.said(refused.said)))
    flash(
        languages.ngettext(
            "Round %(round)s has begun: %(num)d table is playing.",
            "Round %(round)s has begun: %(num)d tables are playing.",
            len(tables),
            round=number,
        )
    )
    return redirect(_round_url(row, door.club, number), code=303)


@bp.post("/clubs/<key:key>/nights/<int:night_id>/rounds/<int:number>/tables/<int:table>/end")
def end_table(key: str, night_id: int, number: int, table: int) -> Answer:
    """End a table's match as it stands (a player left, or the director calls time)."""
    door, row = _night(key, night_id)
    seated = _round(row, number)
    if not ButtonForm().validate():
        return _round_page(door, row, seated, 422, str(INCOMPLETE))
    try:
        nights.end_table(row, number, table)
    except NightProblem as refused:
        return _round_page(door, row, seated, 409, _unchanged(languages.said(refused.said)))
    flash(_("Table %(table)s ended as it stood; the standings count it.", table=table))
    return redirect(_round_url(row, door.club, number), code=303)


# -- standings --------------------------------------------------------------------------------


def _after(night: NightRow) -> int | None:
    asked = request.args.get("after", "")
    if asked.isdigit() and 1 <= int(asked) <= len(nights.started_rounds(night)):
        return int(asked)
    return None


@bp.get("/clubs/<key:key>/nights/<int:night_id>/standings")
def standings(key: str, night_id: int) -> Answer:
    """The standings, printable on one page: now, or after a round."""
    door, row = _night(key, night_id)
    after = _after(row)
    page = render_template(
        "nights/standings.html",
        door=door,
        club=door.club,
        night=row,
        fmt=nights.night_format(row),
        lines=flat(nights.standings(row, after)),
        after=after,
        rounds=len(nights.started_rounds(row)),
        night_url=_night_url,
    )
    return page, 200


CSV_HEADER = ("place", "player", *STANDING_FIELDS)


def standings_csv(lines: Sequence[NightStanding]) -> str:
    """The standings as CSV, one row a player (the header's names are the contract)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for e in lines:
        writer.writerow((e.place, e.name, *(getattr(e, f) for f in STANDING_FIELDS)))
    return out.getvalue()


@bp.get("/clubs/<key:key>/nights/<int:night_id>/standings.csv")
def standings_download(key: str, night_id: int) -> Response:
    """The standings as a CSV file."""
    row = _night(key, night_id)[1]
    after = _after(row)
    response = Response(standings_csv(flat(nights.standings(row, after))), mimetype="text/csv")
    day = row.created_at.date().isoformat()
    suffix = f"-after-round-{after}" if after else ""
    response.headers["Content-Disposition"] = (
        f'attachment; filename="night-{day}-{row.id}{suffix}-standings.csv"'
    )
    return response


def _unchanged(problem: str) -> str:
    return _("%(problem)s Nothing changed.", problem=problem)


def _form_problem(form: WalkInForm) -> str:
    messages = [message for errors in form.errors.values() for message in errors]
    return _unchanged(" ".join(str(m) for m in messages)) if messages else str(INCOMPLETE)


def table_size_words(size: TableSize) -> str:
    """The night's tables in words."""
    return {
        2: _("Tables of 2, paired Swiss"),
        3: _("Tables of 3, each for themselves"),
        4: _("Tables of 4, partners drawn"),
    }[size]


def init_app(app: Flask) -> None:
    """Register the night pages."""
    app.register_blueprint(bp)
    app.add_template_global(table_size_words)
