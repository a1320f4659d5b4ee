"""The clubs' forms: a new club, renaming and merging players, filing a game, importing.

Labels, descriptions and messages are said in the reader's language (lazy: the forms are made
at import); WTForms' own messages come from the site's catalogs (:class:`SiteForm`).
"""

from __future__ import annotations

from flask_wtf.file import FileField
from wtforms import HiddenField, IntegerField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange

from scorekeeper.rules.names import MAX_NAME
from scorekeeper.web.data.clubs import MAX_CLUB_NAME
from scorekeeper.web.forms import SiteForm, plain_name, plain_text
from scorekeeper.web.languages import lazy_gettext as _l

TOO_LONG = _l("Field cannot be longer than %(max)d characters.")
TOO_SMALL = _l("Number must be at least %(min)s.")


def _stripped(text: str | None) -> str | None:
    """A name without the spaces around it (a name of spaces is no name)."""
    return text.strip() if isinstance(text, str) else text


def _roster_id(label: str) -> IntegerField:
    """A roster player's id, as a form of the players page sends it."""
    return IntegerField(label, validators=[InputRequired(), NumberRange(min=1, message=TOO_SMALL)])


class ClubForm(SiteForm):
    """A new club: its name."""

    name = StringField(
        _l("The club's name"),
        filters=[_stripped],
        validators=[DataRequired(), Length(max=MAX_CLUB_NAME, message=TOO_LONG), plain_text],
        description=_l("A family, a Tuesday club: whatever the players call themselves."),
    )


class RenameForm(SiteForm):
    """A roster player's new name."""

    player = _roster_id("player")
    name = StringField(
        _l("New name"),
        filters=[_stripped],
        validators=[DataRequired(), Length(max=MAX_NAME, message=TOO_LONG), plain_name],
    )


class AddPlayerForm(SiteForm):
    """A player put on the roster before they have played."""

    name = StringField(
        _l("Add a player"),
        filters=[_stripped],
        validators=[DataRequired(), Length(max=MAX_NAME, message=TOO_LONG), plain_name],
    )


class MergeForm(SiteForm):
    """Two roster entries that are one player: ``source`` becomes ``target``."""

    source = _roster_id(_l("Merge"))
    target = _roster_id(_l("into"))


class FileGameForm(SiteForm):
    """An existing game to file under the club: its edit link (or just its key)."""

    link = StringField(
        _l("The game's edit link"),
        validators=[InputRequired(), Length(max=500, message=TOO_LONG)],
        description=_l("Paste the link of a game's edit page (the one that can enter plays)."),
    )


class BatchImportForm(SiteForm):
    """Records to import into the club: a file (JSON, JSON Lines or zip) or pasted text."""

    records = FileField(_l("Records file (.json, .jsonl or .zip)"))
    text = TextAreaField(_l("Or paste records (one per line)"))
    held = HiddenField()
    """Set by the page that listed the house rules the records leave out: the batch it showed
    (:func:`scorekeeper.web.clubs.batch.hold`), to import as it was shown."""
