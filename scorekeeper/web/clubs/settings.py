"""The club's settings, behind its edit link only: the penalties it agrees once, and whether its
ordinary games count toward its ratings.

Each form posts here and comes back to the club page's settings (``#settings``), saying what
was done, or why nothing was (a name missing or taken, an amount that is not a whole multiple
of 5 other than 0). Behind the watch link, or with a key that is no club's, every change is a
404 that says there is no club at that link, as for every change of a club.
"""

from __future__ import annotations

from flask import Blueprint, Flask, abort, flash, redirect, url_for
from werkzeug.wrappers import Response
from wtforms import BooleanField, StringField
from wtforms.validators import InputRequired, Length, ValidationError

from scorekeeper.rules.events import REASON_LENGTH
from scorekeeper.rules.wording import signed
from scorekeeper.web import languages
from scorekeeper.web.data import clubs, penalties
from scorekeeper.web.data.clubs import ClubDoor, ClubNotFound
from scorekeeper.web.data.penalties import PenaltyProblem
from scorekeeper.web.forms import SiteForm, plain_text
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l

bp = Blueprint("club_settings", __name__)

SETTINGS = "settings"
"""The flash category of what a settings form did: shown in the settings, beside the forms."""
NO_CLUB = _l("There is no club at this link. Check that the link was copied whole.")
INCOMPLETE = _l("The form was incomplete or out of date: nothing was changed.")
MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})
"""The minus sign and the en dash, which a phone's keyboard may type instead of the hyphen."""


def _whole_amount(form: SiteForm, field: StringField) -> None:
    """The amount is a whole number of points (``-30``), other than 0, a multiple of 5."""
    text = (field.data or "").strip().translate(MINUS_SIGNS).replace(" ", "")
    try:
        amount = int(text, 10)
    except ValueError:
        raise ValidationError(
            _("A penalty's amount is a whole number of points, such as -30.")
        ) from None
    problem = penalties.amount_problem(amount)
    if problem is not None:
        raise ValidationError(languages.said(problem))
    field.data = str(amount)


class PenaltyForm(SiteForm):
    """A penalty the club agrees: its name (the adjustment's reason) and amount."""

    name = StringField(
        _l("Penalty"),
        validators=[InputRequired(), Length(max=REASON_LENGTH), plain_text],
        description=_l("What the player did, e.g. drew and could play."),
    )
    amount = StringField(
        _l("Points"),
        validators=[InputRequired(), _whole_amount],
        description=_l("Below 0 takes points off, e.g. -30; a multiple of 5."),
    )


class RatingRuleForm(SiteForm):
    """Whether the club's ordinary games count toward its ratings."""

    counts = BooleanField(_l("The club's ordinary games count toward the ratings"))


def _club(key: str) -> ClubDoor:
    """The club behind its edit link ``key``; a 404 that does not say which keys exist."""
    try:
        return clubs.find_club(key)
    except ClubNotFound:
        abort(404, description=str(NO_CLUB))


def _back(key: str) -> Response:
    return redirect(url_for("clubs.club", key=key, _anchor=SETTINGS), code=303)


def _refused(key: str, why: str) -> Response:
    flash(_("%(problem)s Nothing changed.", problem=why), SETTINGS)
    return _back(key)


def _form_problem(form: SiteForm) -> str:
    """The form's first problem in words (a field left empty is named)."""
    for field in form:
        if field.name == "csrf_token" or not field.errors:
            continue
        if not str(field.data or "").strip():
            return _("%(field)s: fill this in.", field=field.label.text)
        return _("%(field)s: %(problem)s", field=field.label.text, problem=str(field.errors[0]))
    return str(INCOMPLETE)


def _amount(form: PenaltyForm) -> int:
    return int(form.amount.data or "0")


@bp.post("/clubs/<key:key>/penalties")
def add_penalty(key: str) -> Response:
    """Agree a new penalty."""
    door = _club(key)
    form = PenaltyForm()
    if not form.validate():
        return _refused(key, _form_problem(form))
    try:
        penalty = penalties.add_penalty(door.club, form.name.data or "", _amount(form))
    except PenaltyProblem as problem:
        return _refused(key, languages.said(problem.said))
    flash(
        _(
            "Penalty agreed: %(name)s, %(points)s.",
            name=penalty.name,
            points=signed(penalty.amount),
        ),
        SETTINGS,
    )
    return _back(key)


@bp.post("/clubs/<key:key>/penalties/<int:penalty_id>")
def edit_penalty(key: str, penalty_id: int) -> Response:
    """Change a penalty's name or amount."""
    door = _club(key)
    form = PenaltyForm()
    if not form.validate():
        return _refused(key, _form_problem(form))
    try:
        penalty = penalties.edit_penalty(door.club, penalty_id, form.name.data or "", _amount(form))
    except PenaltyProblem as problem:
        return _refused(key, languages.said(problem.said))
    flash(
        _(
            "Penalty changed: %(name)s, %(points)s.",
            name=penalty.name,
            points=signed(penalty.amount),
        ),
        SETTINGS,
    )
    return _back(key)


@bp.post("/clubs/<key:key>/penalties/<int:penalty_id>/remove")
def remove_penalty(key: str, penalty_id: int) -> Response:
    """Remove a penalty (adjustments made with it stay in their games)."""
    door = _club(key)
    if not SiteForm().validate():
        return _refused(key, str(INCOMPLETE))
    try:
        name = penalties.remove_penalty(door.club, penalty_id)
    except PenaltyProblem as problem:
        return _refused(key, languages.said(problem.said))
    flash(_("Penalty removed: %(name)s.", name=name), SETTINGS)
    return _back(key)


@bp.post("/clubs/<key:key>/ratings")
def rating_rule(key: str) -> Response:
    """Whether the club's ordinary games count toward its ratings."""
    door = _club(key)
    form = RatingRuleForm()
    if not form.validate():
        return _refused(key, str(INCOMPLETE))
    counts = bool(form.counts.data)
    penalties.set_rate_club_games(door.club, counts)
    if counts:
        flash(_("The club's ordinary games now count toward the ratings."), SETTINGS)
    else:
        flash(_("The club's ordinary games no longer count toward the ratings."), SETTINGS)
    return _back(key)


def init_app(app: Flask) -> None:
    """Register the club's settings."""
    app.register_blueprint(bp)
