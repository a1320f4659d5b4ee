"""A night as one ``all-fives-night/1`` record (docs/night-record.md): its download from the
night page, and a night imported into a club from one. Both behind the club's edit link.

The import reads and checks the whole record first (every game replayed by the referee, the
standings recomputed and compared line by line) and stores the night and its games in one
transaction: a refused record says why and stores nothing.
"""

from __future__ import annotations

import json

from flask import Blueprint, Flask, Response, flash, redirect, render_template, request
from flask_wtf.file import FileField
from wtforms import TextAreaField

from scorekeeper.web import languages
from scorekeeper.web.data import night_records
from scorekeeper.web.data.club_doors import remember_club
from scorekeeper.web.data.night_records import NightRecordProblem
from scorekeeper.web.forms import SiteForm, uploaded_or_pasted
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.nights.pages import INCOMPLETE, _door, _night, _night_url
from scorekeeper.web.routes import IMPORT_BODY, route

bp = Blueprint("night_records", __name__)


class NightImportForm(SiteForm):
    """A night record to import: a file, or pasted text."""

    record = FileField(_l("Night record file (.json)"))
    text = TextAreaField(_l("Or paste the night record"))


def download_name(created: str, night_id: int) -> str:
    """The record's file name: the night's day and number."""
    return f"night-{created}-{night_id}.json"


@bp.get("/clubs/<key:key>/nights/<int:night_id>/night.json")
def night_record(key: str, night_id: int) -> Response:
    """Download the night as an all-fives-night/1 record."""
    door, row = _night(key, night_id)
    body = json.dumps(night_records.write_night(row, door.club), indent=2, ensure_ascii=False)
    response = Response(body + "\n", mimetype="application/json")
    name = download_name(row.created_at.date().isoformat(), row.id)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.route("/clubs/<key:key>/nights/import", methods=["GET", "POST"])
@route(starts_games=True, max_body=IMPORT_BODY)
def import_night(key: str) -> Answer:
    """Import a night record into the club as a new night, all or nothing."""
    door = _door(key)
    remember_club(door)
    form = NightImportForm()
    context: dict[str, object] = {"door": door, "club": door.club, "form": form}
    if request.method == "GET":
        return render_template("nights/import.html", **context), 200
    if not form.validate():
        return render_template("nights/import.html", problem=str(INCOMPLETE), **context), 400
    data = uploaded_or_pasted(form.record.data, form.text.data)
    if not data.strip():
        problem = _("Choose a night record file or paste one: nothing was imported.")
        return render_template("nights/import.html", problem=problem, **context), 422
    try:
        row = night_records.import_night(door.club, night_records.read_night(data))
    except NightRecordProblem as refused:
        problem = _("%(problem)s Nothing was imported.", problem=languages.said(refused.said))
        return render_template("nights/import.html", problem=problem, **context), 422
    flash(
        languages.ngettext(
            "Imported the night with %(num)d player.",
            "Imported the night with %(num)d players.",
            len(row.players),
        )
    )
    return redirect(_night_url(row, door.club), code=303)


def init_app(app: Flask) -> None:
    """Register the night records' routes."""
    app.register_blueprint(bp)
