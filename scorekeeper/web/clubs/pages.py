"""The club pages: a new club, its page (standings, games, charts), roster, import, export.

``/clubs/<edit key>`` may start and import games and change the roster; the watch link
``/clubs/watch/<watch key>`` shows the same page and changes nothing. As with games, a key
that does not exist, a watch key on a change, or a wrong method is a 404 that does not say
which keys exist.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

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

from scorekeeper.rules.messages import say
from scorekeeper.rules.names import name_key
from scorekeeper.rules.standings import (
    DEFAULT_SORT,
    PAIR_COLUMNS,
    PAIR_STATS,
    PLAYER_COLUMNS,
    PLAYER_STATS,
    Column,
    Standings,
    sort_rows,
    standings,
)
from scorekeeper.web import languages
from scorekeeper.web.clubs import exports, settings
from scorekeeper.web.clubs.batch import (
    BatchProblem,
    hold,
    left_out_groups,
    read_batch,
    unhold,
)
from scorekeeper.web.clubs.forms import (
    AddPlayerForm,
    BatchImportForm,
    ClubForm,
    FileGameForm,
    MergeForm,
    RenameForm,
)
from scorekeeper.web.clubs.ratings import ratings_view
from scorekeeper.web.data import clubs, nights, penalties
from scorekeeper.web.data.club_doors import remember_club
from scorekeeper.web.data.clubs import (
    CLUB_EDIT,
    CLUB_WATCH,
    AlreadyImported,
    ClubDoor,
    ClubDoorKind,
    ClubNotFound,
    RosterProblem,
)
from scorekeeper.web.data.doors import remember
from scorekeeper.web.data.games import NotFound
from scorekeeper.web.data.loaded import EDIT
from scorekeeper.web.data.models import KEY_PATTERN, ClubRow
from scorekeeper.web.drawing.charts import wins_chart
from scorekeeper.web.forms import uploaded_or_pasted
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.languages import ngettext
from scorekeeper.web.routes import IMPORT_BODY, route
from scorekeeper.web.table import new_game_page

bp = Blueprint("clubs", __name__)

SHOWN_GAMES = 50
"""The latest games the club page lists; ``?games=all`` lists every one."""
NO_CLUB = _l("There is no club at this link. Check that the link was copied whole.")
INCOMPLETE = _l("The form was incomplete or out of date: nothing was changed.")
_GAME_KEY = re.compile(rf"(?:^|/games/)({KEY_PATTERN})(?:[/?#]|$)")


def club_or_404(key: str, kind: ClubDoorKind = CLUB_EDIT) -> ClubDoor:
    """The club behind door ``kind`` with ``key``; a 404 that does not say which keys exist."""
    try:
        return clubs.find_club(key, kind)
    except ClubNotFound:
        abort(404, description=str(NO_CLUB))


def club_url(door: ClubDoor, **values: Any) -> str:
    """The club's page behind ``door``."""
    if door.editable:
        return url_for("clubs.club", key=door.key, **values)
    return url_for("clubs.watch", key=door.key, **values)


# -- a new club -------------------------------------------------------------------------------


@bp.route("/clubs/new", methods=["GET", "POST"])
@route(starts_games=True)
def new_club() -> Answer:
    """The new-club form; creating one opens its page (its edit link)."""
    form = ClubForm()
    if request.method == "GET":
        return render_template("clubs/new_club.html", form=form), 200
    if not form.validate():
        return render_template("clubs/new_club.html", form=form), 422
    club = clubs.create_club(form.name.data or "")
    remember_club(ClubDoor(CLUB_EDIT, club))
    flash(
        _(
            "Club created. Keep this page's link: whoever has it can start games in the club. "
            "Share the watch link below with everyone else."
        )
    )
    return redirect(url_for("clubs.club", key=club.edit_key), code=303)


# -- the club page ----------------------------------------------------------------------------


def _club_page(door: ClubDoor) -> tuple[str, int]:
    club = door.club
    remember_club(door)
    rows = clubs.club_games(club)
    facts = clubs.finished_facts(rows)
    spelled = clubs.spellings(club)
    table = standings(clubs.played(rows, facts), spelled)
    sort = request.args.get("sort", DEFAULT_SORT)
    if sort not in PLAYER_STATS:
        sort = DEFAULT_SORT
    pair_sort = request.args.get("pairs", DEFAULT_SORT)
    if pair_sort not in PAIR_STATS:
        pair_sort = DEFAULT_SORT
    page = render_template(
        "clubs/club.html",
        door=door,
        club=club,
        games=rows if request.args.get("games") == "all" else rows[:SHOWN_GAMES],
        all_games=len(rows),
        facts=facts,
        table=table,
        players=sort_rows(table.players, PLAYER_STATS, sort),
        pairs=sort_rows(table.pairs, PAIR_STATS, pair_sort),
        player_columns=shown_columns(table),
        few=few_columns(shown_columns(table), sort),
        every_column=request.args.get("columns") == "all",
        pair_columns=PAIR_COLUMNS,
        sort=sort,
        pair_sort=pair_sort,
        wins_chart=wins_chart(table),
        club_url=club_url,
        links=_links(club),
        defaults=defaults_text(club),
        figure=figure,
        score_line=score_line,
        nights=nights.nights_of(club) if door.editable else [],
        ratings=ratings_view(
            club, rows, facts, spelled, request.args.get("day"), nights.night_game_ids(club, rows)
        ),
        penalties=penalties.club_penalties(club.id) if door.editable else [],
    )
    return page, 200


def shown_columns(table: Standings) -> tuple[Column, ...]:
    """The standings' columns: the "Muggins" column (claims won, house rule muggins) only once
    somebody has claimed a missed count, so a club that does not play it sees no column of
    noughts."""
    if any(player.muggins for player in table.players):
        return PLAYER_COLUMNS
    return tuple(column for column in PLAYER_COLUMNS if column.name != "muggins")


FEW_COLUMNS = 4
"""The standings' columns a phone held upright shows (the name and three figures): at 360 px a
fifth was cut at the box's edge, read only by those who found it scrolled. The others are a
tap away (``?columns=all``), in a box that scrolls with the names kept at its left."""


def few_columns(columns: Sequence[Column], sort: str) -> set[str]:
    """The names of the columns a narrow screen shows: the first :data:`FEW_COLUMNS`, the
    last of them given up for the column sorted by when it is further on."""
    names = [column.name for column in columns]
    few = names[:FEW_COLUMNS]
    if sort in names and sort not in few:
        few[-1] = sort
    return set(few)


def figure(value: object) -> str:
    """A figure of the standings or a score in the reader's digits and separators (in English
    as Python writes it: ``1855``, ``14.2``); anything else (a name) as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return languages.number(value)


def score_line(scores: Sequence[int]) -> str:
    """A finished game's scores as the games list shows them, joined by en dashes."""
    return "\u2013".join(figure(score) for score in scores)


def defaults_text(club: ClubRow) -> str | None:
    """The house rules the club's new games start with, in words, or None (the presets').

    The preset and the house rules are named as a record names them (``fives-up``,
    ``target 150``); the words around them are said in the reader's language.
    """
    defaults = club.defaults or {}
    preset = defaults.get("preset")
    if not isinstance(preset, str):
        return None
    options = defaults.get("options") or {}
    changed = [f"{name} {value}" for name, value in options.items()]
    if isinstance(defaults.get("partners"), bool):
        changed.append(_("partners") if defaults["partners"] else _("no partners"))
    if not changed:
        return preset
    return _("%(preset)s with %(changes)s", preset=preset, changes=", ".join(changed))


def _links(club: ClubRow) -> dict[str, str]:
    return {
        "edit": url_for("clubs.club", key=club.edit_key, _external=True),
        "watch": url_for("clubs.watch", key=club.watch_key, _external=True),
    }


@bp.get("/clubs/<key:key>")
def club(key: str) -> tuple[str, int]:
    """The club's page behind its edit link: standings, games, and what can be changed."""
    return _club_page(club_or_404(key))


@bp.get("/clubs/watch/<key:key>")
@route(watch=True)
def watch(key: str) -> tuple[str, int]:
    """The club's page behind its watch link: the same, read-only."""
    return _club_page(club_or_404(key, CLUB_WATCH))


# -- games of the club ------------------------------------------------------------------------


@bp.route("/clubs/<key:key>/new", methods=["GET", "POST"])
@route(starts_games=True)
def new_game(key: str) -> Answer:
    """The new-game form with the club's roster; the game is filed under the club."""
    return new_game_page(club_or_404(key).club)


@bp.route("/clubs/<key:key>/import", methods=["GET", "POST"])
@route(starts_games=True, max_body=IMPORT_BODY)
def import_games(key: str) -> Answer:
    """Import records into the club: one, a JSON Lines file or a zip, all or none."""
    door = club_or_404(key)
    form = BatchImportForm()
    context: dict[str, object] = {"door": door, "club": door.club, "form": form}
    if request.method == "GET":
        return render_template("clubs/import.html", **context), 200
    if not form.validate():
        return render_template("clubs/import.html", problem=str(INCOMPLETE), **context), 400
    data = uploaded_or_pasted(form.records.data, form.text.data)
    confirmed = bool(form.held.data)
    try:
        if confirmed:
            data = unhold(form.held.data or "", IMPORT_BODY)
        batch = read_batch(data)
        # House rules a record leaves out take its preset's values today, which may not be
        # the ones it was played by (an old export): they are listed, nothing stored, until
        # the table confirms them, as a single game's import does.
        groups = left_out_groups(batch)
        if groups and not confirmed:
            held = hold(data)
            return render_template("clubs/import.html", left_out=groups, held=held, **context), 200
        imported = clubs.import_games(
            door.club, [timed for _where, timed in batch.games], batch.roster, batch.defaults
        )
    except AlreadyImported as again:
        why = (
            say("this game was not imported: it is in this batch twice.")
            if again.twice
            else say("this game was not imported: it is in the club already.")
        )
        problem = BatchProblem(batch.games[again.index][0], why)
        return render_template("clubs/import.html", batch=problem, **context), 422
    except BatchProblem as problem:
        return render_template("clubs/import.html", batch=problem, **context), 422
    except RosterProblem as problem:
        problem_said = languages.said(problem.said)
        return render_template("clubs/import.html", problem=problem_said, **context), 422
    for row in imported.rows:
        remember(row, EDIT)
    flash(imported_text(door.club, imported))
    return redirect(url_for("clubs.club", key=key), code=303)


def imported_text(club: ClubRow, imported: clubs.Imported) -> str:
    """What an import did, in the reader's language: the games it brought, the players who
    joined the roster, and the house rules the club's new games start with when the batch
    gave some (taken, or left for the club's own)."""
    games, joined = len(imported.rows), imported.joined
    said = []
    if games:
        said.append(
            ngettext(
                "Imported %(num)d game into %(club)s.",
                "Imported %(num)d games into %(club)s.",
                games,
                club=club.name,
            )
        )
    if games and joined:
        said.append(
            ngettext(
                "%(num)d player joined the roster.", "%(num)d players joined the roster.", joined
            )
        )
    elif joined:
        said.append(
            ngettext(
                "Added %(num)d player to the roster of %(club)s; there were no games to import.",
                "Added %(num)d players to the roster of %(club)s; there were no games to import.",
                joined,
                club=club.name,
            )
        )
    elif not games:
        said.append(
            _(
                "There were no games to import, and every player named is on the roster of "
                "%(club)s already.",
                club=club.name,
            )
        )
    rules = defaults_text(club)
    if imported.defaults == "set" and rules is not None:
        said.append(_("New games of the club start with: %(rules)s.", rules=rules))
    elif imported.defaults == "kept" and rules is not None:
        said.append(
            _("New games of the club still start with its own house rules: %(rules)s.", rules=rules)
        )
    return " ".join(said)


@bp.post("/clubs/<key:key>/games")
def file_game(key: str) -> Answer:
    """File an existing game under the club, by its edit link."""
    door = club_or_404(key)
    form = FileGameForm()
    if not form.validate():
        flash(str(INCOMPLETE))
        return redirect(url_for("clubs.club", key=key, _anchor="games"), code=303)
    found = _GAME_KEY.search((form.link.data or "").strip())
    try:
        if found is None:
            raise NotFound("")
        on_roster = clubs.spellings(door.club)
        row = clubs.file_game(door.club, found.group(1))
    except NotFound:
        flash(_("No game has that edit link (a watch link cannot move a game). Nothing changed."))
    except RosterProblem as problem:
        flash(_unchanged(languages.said(problem.said)))
    else:
        flash(_filed_words(list(row.players), on_roster, door.club.name))
    return redirect(url_for("clubs.club", key=key, _anchor="games"), code=303)


def _filed_words(players: list[str], on_roster: dict[str, str], club: str) -> str:
    """What filing a game did: the game is the club's, and who of its players joined the
    roster and who was on it already (as the club spells them)."""
    said = [
        _(
            "The game of %(players)s is now one of %(club)s's games.",
            players=languages.said_list(players),
            club=club,
        )
    ]
    joined = [name for name in players if name_key(name) not in on_roster]
    members = [name for name in players if name_key(name) in on_roster]
    if joined:
        said.append(
            ngettext(
                "%(players)s joined the roster.",
                "%(players)s joined the roster.",
                len(joined),
                players=languages.said_list(joined),
            )
        )
    if members:
        said.append(
            ngettext(
                "%(players)s was on the roster already.",
                "%(players)s were on the roster already.",
                len(members),
                players=languages.said_list(members),
            )
        )
    return " ".join(said)


# -- the roster -------------------------------------------------------------------------------


def _players_page(door: ClubDoor, status: int = 200, problem: str | None = None) -> tuple[str, int]:
    club = door.club
    rows = clubs.club_games(club)
    counts: dict[str, int] = {}
    for row in rows:
        for name in row.players:
            counts[name] = counts.get(name, 0) + 1
    page = render_template(
        "clubs/players.html",
        door=door,
        club=club,
        roster=clubs.roster(club),
        counts=counts,
        problem=problem,
        club_url=club_url,
    )
    return page, status


@bp.get("/clubs/<key:key>/players")
def players(key: str) -> tuple[str, int]:
    """The club's roster: rename a player, merge two entries into one."""
    return _players_page(club_or_404(key))


@bp.get("/clubs/watch/<key:key>/players")
@route(watch=True)
def watch_players(key: str) -> tuple[str, int]:
    """The roster, read-only."""
    return _players_page(club_or_404(key, CLUB_WATCH))


@bp.post("/clubs/<key:key>/players/rename")
def rename(key: str) -> Answer:
    """Rename a roster player, and them in every game of the club."""
    door = club_or_404(key)
    form = RenameForm()
    if not form.validate():
        return _players_page(door, 422, _form_problem(form))
    try:
        old, new, games = clubs.rename(door.club, form.player.data or 0, form.name.data or "")
    except RosterProblem as problem:
        return _players_page(door, 422, _unchanged(languages.said(problem.said)))
    flash(
        ngettext(
            "Renamed %(old)s to %(new)s (%(num)d game).",
            "Renamed %(old)s to %(new)s (%(num)d games).",
            games,
            old=old,
            new=new,
        )
    )
    return redirect(url_for("clubs.players", key=key), code=303)


@bp.post("/clubs/<key:key>/players/add")
def add_player(key: str) -> Answer:
    """Put a player on the roster before they have played (for the new-game form's picker)."""
    door = club_or_404(key)
    form = AddPlayerForm()
    if not form.validate():
        return _players_page(door, 422, _form_problem(form))
    try:
        player = clubs.add_player(door.club, form.name.data or "")
    except RosterProblem as problem:
        return _players_page(door, 422, _unchanged(languages.said(problem.said)))
    flash(_("%(name)s joined the roster.", name=player.name))
    return redirect(url_for("clubs.players", key=key), code=303)


@bp.post("/clubs/<key:key>/players/merge")
def merge(key: str) -> Answer:
    """Merge two roster entries that are one player."""
    door = club_or_404(key)
    form = MergeForm()
    if not form.validate():
        return _players_page(door, 422, _form_problem(form))
    try:
        source, target, games = clubs.merge(door.club, form.source.data or 0, form.target.data or 0)
    except RosterProblem as problem:
        return _players_page(door, 422, languages.said(problem.said))
    flash(
        ngettext(
            "Merged %(source)s into %(target)s (%(num)d game).",
            "Merged %(source)s into %(target)s (%(num)d games).",
            games,
            source=source,
            target=target,
        )
    )
    return redirect(url_for("clubs.players", key=key), code=303)


def _unchanged(problem: str) -> str:
    """A problem said, and that nothing changed."""
    return _("%(problem)s Nothing changed.", problem=problem)


def _form_problem(form: RenameForm | MergeForm | AddPlayerForm) -> str:
    messages = [message for errors in form.errors.values() for message in errors]
    return _unchanged(" ".join(str(m) for m in messages)) if messages else str(INCOMPLETE)


# -- export -----------------------------------------------------------------------------------


def _download(body: str, mimetype: str, club: ClubRow, suffix: str) -> Response:
    response = Response(body, mimetype=mimetype)
    slug = "".join(c for c in club.name.lower() if c.isascii() and c.isalnum()) or "club"
    day = datetime.now().date().isoformat()
    response.headers["Content-Disposition"] = f'attachment; filename="{slug}-{day}{suffix}"'
    return response


@bp.get("/clubs/<key:key>/games.csv")
def export_csv(key: str) -> Response:
    """Every hand of every game of the club, one row per side."""
    return _csv(club_or_404(key))


@bp.get("/clubs/watch/<key:key>/games.csv")
@route(watch=True)
def watch_export_csv(key: str) -> Response:
    """The same CSV behind the watch link."""
    return _csv(club_or_404(key, CLUB_WATCH))


@bp.get("/clubs/<key:key>/games.jsonl")
def export_records(key: str) -> Response:
    """The club's games as JSON Lines of all-fives/1 records, oldest first."""
    return _records(club_or_404(key))


@bp.get("/clubs/watch/<key:key>/games.jsonl")
@route(watch=True)
def watch_export_records(key: str) -> Response:
    """The same records behind the watch link."""
    return _records(club_or_404(key, CLUB_WATCH))


def _csv(door: ClubDoor) -> Response:
    body = exports.club_csv(clubs.club_games(door.club))
    return _download(body, "text/csv", door.club, "-hands.csv")


def _records(door: ClubDoor) -> Response:
    body = exports.club_records(door.club, clubs.club_games(door.club), clubs.roster(door.club))
    return _download(body, "application/jsonl", door.club, "-games.jsonl")


def init_app(app: Flask) -> None:
    """Register the club pages."""
    app.register_blueprint(bp)
    app.add_template_global(club_url)
    settings.init_app(app)
